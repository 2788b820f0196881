"""Thorn Elemental's ability: a creature that "may assign its combat damage as though it
weren't blocked" (docs/readings.md, "Assigning as though unblocked, and toughness as damage").

No CR rule speaks of it. A blocked attacking creature with it has two ways of assigning in
each step: its normal assignment (510.1c, with trample, deathtouch, banding and its order as
usual), or all of its damage as an unblocked creature would assign it (510.1b); never part to
its blockers and part to what it attacks (Rhox ruling, 2018-04-27). Which way it took shows in
the amounts: the second puts nothing on its blockers. Whom the second reaches, and the
constraint that keeps the two apart, are in `division`; here are the facts the other rules
ask, so that trample and the order can lift their gates from the second way.
"""

from __future__ import annotations

from ..amounts import Amounts
from ..keywords import AS_THOUGH_UNBLOCKED
from ..ops import Term, all_of, built_once, ite, negate, remembered, total

# The kind of the "all or nothing" constraint: filed under the two rules it chooses between.
RULE = "510.1b-c"
RULING = "Thorn Elemental, Rhox ruling of 2018-04-27"


@remembered
def may_choose(view, s: str) -> Term:
    """s is a blocked attacking creature that may assign its combat damage as though it
    weren't blocked. An unblocked one assigns as 510.1b says anyway."""
    ability = view.has(s, AS_THOUGH_UNBLOCKED)
    if ability is False:  # as all_of would fold it, for the many creatures without it
        return False
    return all_of((view.is_attacking(s), view.is_blocked(s), ability))


@built_once
def to_blockers(view, amounts: Amounts, s: str) -> Term:
    """What s assigns to the creatures blocking it, but for what it attacks (a creature
    planeswalker may block the creature attacking it): the damage that tells s's two ways of
    assigning apart."""
    return total(
        ite(all_of((view.blocks(b, s), negate(view.attacks(s, b)))), amounts.get(s, b), 0)
        for b in view.blockers_of(s)
    )


@built_once
def taken(view, amounts: Amounts, s: str) -> Term:
    """s assigns as though it weren't blocked: it may, and it assigns nothing to its
    blockers. Then what they need for lethal damage (702.19b) and its damage assignment order
    (510.1c) do not bind it."""
    chosen = may_choose(view, s)
    if chosen is False:  # as all_of would fold it, without summing what its blockers get
        return False
    return all_of((chosen, to_blockers(view, amounts, s) == 0))
