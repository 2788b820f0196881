"""How a creature's combat damage is divided, and among whom: CR 510.1a-d.

Current rules have no damage assignment order: a creature divides its damage as its chooser
likes among those it may assign to. Trample's exceptions come from `trample`.

Two abilities change the assignment (docs/readings.md, "Assigning as though unblocked, and
toughness as damage"): one that assigns combat damage equal to its toughness (Doran, the Siege
Tower) changes the amount of 510.1a; one that may assign combat damage as though it weren't
blocked (Thorn Elemental) gives a blocked creature a second way to assign: all of its damage
as an unblocked creature would (510.1b), never part of it to its blockers (Rhox ruling,
2018-04-27).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..amounts import Amounts
from ..keywords import ASSIGNS_TOUGHNESS
from ..ops import (
    Term,
    all_of,
    any_of,
    at_least_zero,
    built_once,
    implies,
    ite,
    negate,
    remembered,
)
from . import steps, trample, unblocked
from .constraint import Constraint

RECIPIENT_RULES = (
    "510.1b",
    "510.1c",
    "510.1d",
    "702.19b",
    "702.19c",
    "702.19d",
    "702.19e",
    "702.19f",
)


@remembered
def damage_to_assign(view, c: str) -> Term:
    """510.1a: the combat damage c assigns, before the 0-or-less test: its power, or its
    toughness when an effect such as Doran, the Siege Tower's says it assigns combat damage
    equal to its toughness (read in each step, so a toughness changed since counts)."""
    doran = view.has(c, ASSIGNS_TOUGHNESS)
    if doran is False:  # as ite would fold it, without asking for its toughness
        return view.power(c)
    return ite(doran, view.toughness(c), view.power(c))


@remembered
def may_receive(view, s: str, r: str) -> Term:
    """Whether s may assign any of its combat damage to r (trample's gates aside)."""
    usual = normally(view, s, r)
    if usual is True:  # as any_of would fold it, without asking about the other way
        return True
    other_way = as_though_unblocked(view, s, r)
    if other_way is False:  # as any_of would fold it: the usual way alone
        return usual
    return any_of((usual, other_way))


# Built once by a symbolic combat, as `normally` below: may_receive, only_as_though_unblocked and
# may_assign_nothing each ask it of every pair (the property library, a twenty-fifth faster).
@built_once
def as_though_unblocked(view, s: str, r: str) -> Term:
    """Whether r is among those s may assign to as though it weren't blocked: what it
    attacks, as 510.1b would have it (none if that was removed from combat, 506.4c), and with
    trample over planeswalkers that planeswalker's controller (702.19c, 702.19e)."""
    may_choose = unblocked.may_choose(view, s)
    if may_choose is False:  # as all_of would fold it, without asking the rest
        return False
    return all_of(
        (
            may_choose,
            any_of(
                (
                    all_of((view.attacks(s, r), negate(view.removed(r)))),
                    trample.over_planeswalker(view, s, r),
                )
            ),
        )
    )


@built_once
def normally(view, s: str, r: str) -> Term:
    """Whether the rules of 510.1b-d and 702.19b-f let s assign to r, abilities that change
    the assignment aside. Each way is asked only while none found so far holds, as `any_of`
    over them would stop at True, so that on plain values most pairs are settled by the
    first or second asked; written out rather than as a generator, for the thousands of
    pairs a check asks about."""
    ways = []
    attacking = view.is_attacking(s)
    # A blocker's ways are the blocks: all_of would fold each of an attacker's ways to False.
    an_attacker = attacking is not False
    if an_attacker:
        blocked = view.is_blocked(s)
        # 510.1b: an unblocked attacker assigns to what it attacks, unless that was removed
        # from combat (506.4c). Not asked of a blocked one: all_of would fold it to False.
        if blocked is not True:
            way = all_of((attacking, negate(blocked), view.attacks(s, r), negate(view.removed(r))))
            if way is True:
                return True
            ways.append(way)
    # 510.1c: a blocked attacker divides among the creatures blocking it now.
    way = view.blocks(r, s)
    if way is True:
        return True
    ways.append(way)
    if an_attacker:
        # 702.19b, 702.19d: a blocked trampler may go on to what it attacks. Each way whose
        # gate is shut is dropped, as all_of and any_of would fold it.
        if blocked is not False:
            past = trample.past_blockers(view, s, r)
            if past is not False:
                way = all_of((attacking, blocked, past))
                if way is True:
                    return True
                ways.append(way)
        # 702.19c, 702.19e: trample over planeswalkers reaches the controller.
        over = trample.over_planeswalker(view, s, r)
        if over is not False:
            way = all_of((attacking, over))
            if way is True:
                return True
            ways.append(way)
    # 510.1d: a blocker divides among the creatures it blocks.
    way = view.blocks(s, r)
    if way is True:  # as any_of would fold it, for every blocker and what it blocks
        return True
    ways.append(way)
    return any_of(ways)


@remembered
def has_recipient(view, s: str) -> Term:
    """Whether s may assign to anyone at all. Written out as `any_of` over a generator would
    fold it, stopping at the first True: asked of every creature, by every check."""
    ways = []
    for r in view.reachable(s):
        way = may_receive(view, s, r)
        if way is True:
            return True
        if way is not False:
            ways.append(way)
    return any_of(ways)


@built_once
def only_as_though_unblocked(view, s: str, r: str) -> Term:
    """r is among those s may assign to only by assigning as though it weren't blocked."""
    return all_of((as_though_unblocked(view, s, r), negate(normally(view, s, r))))


@built_once
def may_assign_nothing(view, s: str) -> Term:
    """s, free to assign as though it weren't blocked, may choose a way that leaves it nowhere
    to assign: blocked with no creature blocking it now (510.1c), or as though unblocked with
    what it attacks removed from combat (510.1b, 506.4c). It then assigns nothing."""
    may_choose = unblocked.may_choose(view, s)
    if may_choose is False:  # as all_of would fold it, without asking whom s may assign to
        return False
    return all_of(
        (
            may_choose,
            any_of(
                (
                    negate(any_of(normally(view, s, r) for r in view.reachable(s))),
                    negate(any_of(as_though_unblocked(view, s, r) for r in view.reachable(s))),
                )
            ),
        )
    )


def assigns_combat_damage(view, s: str) -> Term:
    """510.1a-d, 510.4: s assigns damage this step, and has somewhere to assign it."""
    return all_of(
        (
            steps.assigns_this_step(view, s),
            damage_to_assign(view, s) > 0,
            has_recipient(view, s),
        )
    )


def constraints(view, amounts: Amounts) -> Iterator[Constraint]:
    for s in view.creatures:
        sent = amounts.sent_by(s)
        amount = damage_to_assign(view, s)
        # 510.1a: exactly its power (or its toughness, Doran); 0 or less assigns nothing. A
        # creature that may assign as though unblocked may instead take a way that leaves it
        # nowhere to assign (510.1b-c).
        exactly = sent == at_least_zero(amount)
        # As implies would fold every constraint below, without asking whom s may assign to:
        # the most of a check's work, for most creatures of a legal assignment.
        if exactly is True and unblocked.may_choose(view, s) is False:
            continue
        premise = all_of((steps.assigns_this_step(view, s), has_recipient(view, s)))
        # As implies would fold it when s assigns exactly that, without asking for the way out.
        holds = True
        if exactly is not True and premise is not False:
            nothing = all_of((may_assign_nothing(view, s), sent == 0))
            holds = implies(premise, any_of((exactly, nothing)))
        if holds is not True:  # else it constrains nothing (rules.constraints)
            yield Constraint(
                ("510.1a",),
                s,
                holds,
                lambda s=s, amount=amount: (
                    f"{s} assigns exactly its {_what(view, s)}, {amount} (none if 0 or less)"
                ),
                lambda s=s, sent=sent: ("510.1a", _why_not_power(view, s, sent)),
            )
        # Thorn Elemental's ability (Rhox ruling, 2018-04-27): all of its damage to what it
        # attacks, or its normal assignment; never part to its blockers and part to a
        # recipient only the ability opens (with trample, 702.19b may still allow a split).
        # Asked whether or not s assigns this step: a split breaks it even where 510.4 is
        # broken too, as a symbolic combat, which cannot know that s assigns nothing, has it.
        if unblocked.may_choose(view, s) is False:  # no ability, no recipient it opens
            continue
        spared = unblocked.to_blockers(view, amounts, s) == 0
        for r in view.reachable(s):
            opened = only_as_though_unblocked(view, s, r)
            if opened is False:
                continue
            x = amounts.get(s, r)
            holds = implies(all_of((opened, x > 0)), spared)
            if holds is True:  # constrains nothing (rules.constraints)
                continue
            yield Constraint(
                (unblocked.RULE,),
                s,
                holds,
                lambda s=s, r=r: (
                    f"{s} assigns to {r} as though it weren't blocked only if it assigns "
                    f"nothing to its blockers ({unblocked.RULING})"
                ),
                lambda s=s, r=r: (unblocked.RULE, _why_not_all_or_nothing(view, amounts, s, r)),
            )
    for (s, r), x in amounts.items():
        holds = implies(x > 0, may_receive(view, s, r))
        if holds is True:  # constrains nothing (rules.constraints)
            continue
        yield Constraint(
            RECIPIENT_RULES,
            s,
            holds,
            lambda s=s, r=r: f"{s} assigns to {r} only if CR 510.1b-d or 702.19b-f allow it",
            lambda s=s, r=r, x=x: _why_not_recipient(view, s, r, x),
        )


def _what(view, s: str) -> str:
    """What the amount s assigns is, in words."""
    return "toughness" if view.has(s, ASSIGNS_TOUGHNESS) is True else "power"


def _why_not_power(view, s: str, sent: int) -> str:
    power, what = damage_to_assign(view, s), _what(view, s)
    if power <= 0:
        return f"{s} has {what} {power}, so it assigns no combat damage, but it assigns {sent}"
    if sent == 0:
        return f"{s} is missing: it must assign all of its {what}, {power}"
    # Thorn Elemental's ability may leave it a way with nowhere to assign (510.1b-c).
    none = " or nothing" if may_assign_nothing(view, s) is True else ""
    return f"{s} assigns {sent}, but it must assign exactly its {what}, {power}{none}"


def _why_not_all_or_nothing(view, amounts: Amounts, s: str, r: str) -> str:
    on_blockers = [
        b for b in view.blockers_of(s) if amounts.get(s, b) > 0 and not view.attacks(s, b)
    ]
    return (
        f"{s} sends {amounts.get(s, r)} to {r} as though it weren't blocked, so it must "
        f"assign all of its damage that way, but it also sends "
        + " and ".join(f"{amounts.get(s, b)} to {b}" for b in on_blockers)
        + f" ({unblocked.RULING}: all of it, or its normal assignment)"
    )


def _why_not_recipient(view, s: str, r: str, x: int) -> tuple[str, str]:
    head = f"{s} sends {x} to {r}, but"
    if not view.is_attacking(s) and not view.is_blocking(s):
        return (
            "510.1",
            f"{head} {s} is neither attacking nor blocking, so it assigns no combat damage",
        )
    allowed = [q for q in view.reachable(s) if may_receive(view, s, q) is True]
    only = f"may assign only to {_words(allowed)}" if allowed else "assigns no combat damage"
    if view.is_blocking(s):
        return "510.1d", f"{head} blocking {s} {only}"
    target = view.target(s)
    over = view.is_player(r) and view.is_planeswalker(target) and view.controls(r, target)
    if over and view.edition.has_trample_over_planeswalkers:
        return (
            "702.19f",
            f"{head} {s} attacks the planeswalker {target} without trample over "
            f"planeswalkers, so none of its damage goes to {r}",
        )
    if over and trample.tramples(view, s):
        # Before trample over planeswalkers, this rule (702.17d-702.19d) spoke of tramplers.
        return (
            "702.19f",
            f"{head} {s} attacks the planeswalker {target}, so none of its damage goes to {r}, "
            "trample or not",
        )
    if r == target and view.removed(r):
        return "506.4c", f"{head} {r} was removed from combat and can be dealt no combat damage"
    if not view.is_blocked(s):
        return "510.1b", f"{head} unblocked {s} {only}"
    if not view.blockers_of(s) and not allowed:
        return "510.1c", f"{head} no creature blocks {s} any more, so it assigns no combat damage"
    return "510.1c", f"{head} blocked {s} {only}"


def _words(ids: list[str]) -> str:
    return ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]
