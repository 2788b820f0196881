"""Trample and trample over planeswalkers: CR 702.19b-f.

Only the gates live here: whom a trampler may assign to beyond its blockers, and what must be
assigned first. The plain division of damage is in `division`.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..amounts import Amounts
from ..keywords import DEATHTOUCH, TRAMPLE, TRAMPLE_OVER_PLANESWALKERS
from ..ops import Term, all_of, any_of, implies, negate, remembered
from . import unblocked
from .constraint import Constraint
from .deathtouch import lethal_damage_assigned


@remembered
def tramples(view, s: str) -> Term:
    """702.19c: trample over planeswalkers assigns as 702.19b describes, and more."""
    trample = view.has(s, TRAMPLE)
    if trample is True:  # as any_of would fold it, without asking for the other
        return True
    if trample is False:  # as any_of would fold it: the other alone
        return view.has(s, TRAMPLE_OVER_PLANESWALKERS)
    return any_of((trample, view.has(s, TRAMPLE_OVER_PLANESWALKERS)))


def past_blockers(view, s: str, r: str) -> Term:
    """702.19b, 702.19d: a blocked trampler may also assign to what it attacks, unless that
    was removed from combat and can be dealt no combat damage (506.4c).

    Reading (docs/readings.md): "the player or planeswalker" in 702.19b's last sentence and
    in 702.19d includes battles, as 702.19b's first sentence does.
    """
    trampler = tramples(view, s)
    if trampler is False:  # as all_of would fold it, without asking what s attacks
        return False
    return all_of((trampler, view.attacks(s, r), negate(view.removed(r))))


def over_planeswalker(view, s: str, r: str) -> Term:
    """702.19c, 702.19e: with trample over planeswalkers, the controller of the planeswalker
    it attacks, even one removed from combat. Without it, never (702.19f)."""
    over_planeswalkers = view.has(s, TRAMPLE_OVER_PLANESWALKERS)
    if over_planeswalkers is False:  # as all_of would fold it, without asking what s attacks
        return False
    return all_of(
        (
            over_planeswalkers,
            any_of(
                all_of((view.attacks(s, p), view.is_planeswalker(p), view.controls(r, p)))
                for p in view.targets_of(s)
            ),
        )
    )


def constraints(view, amounts: Amounts) -> Iterator[Constraint]:
    lethal: dict[str, Term] = {}
    as_though_unblocked: dict[str, Term] = {}
    for (s, r), x in amounts.items():
        trampler = tramples(view, s)
        if trampler is False:  # as all_of would fold `beyond`, without the rest
            continue
        # Damage that goes past the blockers: to anything but a creature blocking s.
        beyond = all_of((x > 0, view.is_attacking(s), trampler, negate(view.blocks(r, s))))
        if beyond is False:  # an identity test, safe on terms: nothing to constrain
            continue
        blockers = view.blockers_of(s)
        if blockers and s not in as_though_unblocked:  # with none, nothing asks it
            as_though_unblocked[s] = unblocked.taken(view, amounts, s)
        for b in blockers:
            blocks = view.blocks(b, s)
            # Assigning as though unblocked (Thorn Elemental), nothing is past its blockers.
            if blocks is False or as_though_unblocked[s] is True:
                continue
            if b not in lethal:
                lethal[b] = lethal_damage_assigned(view, amounts, b)
            # 702.19b: every blocker is assigned lethal damage before any goes past them;
            # 702.19d: with no blockers left, nothing stands in the way. One clause, each
            # part of the premise negated: Z3 proves the library a twentieth faster than
            # with the premise as one conjunction (docs/speed.md).
            holds = any_of((negate(beyond), as_though_unblocked[s], negate(blocks), lethal[b]))
            if holds is True:  # constrains nothing (rules.constraints)
                continue
            yield Constraint(
                ("702.19b", "702.2c", "702.19d"),
                s,
                holds,
                lambda s=s, r=r, b=b: (
                    f"{s} assigns to {r}, past its blockers, only once {b} has lethal damage"
                ),
                lambda s=s, r=r, b=b: ("702.19b", _why_not_lethal(view, amounts, s, r, b)),
            )
        over_planeswalkers = view.has(s, TRAMPLE_OVER_PLANESWALKERS)
        if over_planeswalkers is False:  # as all_of would fold each premise below
            continue
        for p in view.targets_of(s):
            premise = all_of(
                (
                    beyond,
                    over_planeswalkers,
                    view.attacks(s, p),
                    view.is_planeswalker(p),
                    negate(view.removed(p)),
                    view.controls(r, p),
                )
            )
            if premise is False:
                continue
            # 702.19c: damage reaching its loyalty, counting every creature's, before any goes
            # to its controller. Deathtouch does not help here (MH2 release notes, Thrasta).
            holds = implies(premise, amounts.received_by(p) >= view.loyalty(p))
            if holds is True:  # constrains nothing (rules.constraints)
                continue
            yield Constraint(
                ("702.19c",),
                s,
                holds,
                lambda s=s, r=r, p=p: (
                    f"{s} assigns to {r} only once {p} is assigned damage up to its loyalty"
                ),
                lambda s=s, r=r, p=p: ("702.19c", _why_not_loyalty(view, amounts, s, r, p)),
            )


def _why_not_lethal(view, amounts: Amounts, s: str, r: str, b: str) -> str:
    marked, assigned, toughness = view.marked(b), amounts.received_by(b), view.toughness(b)
    needs = max(0, toughness - marked - assigned)
    lethal_by_deathtouch = view.edition.deathtouch_is_lethal and view.has(s, DEATHTOUCH)
    hint = " (with deathtouch, 1 from it would do)" if lethal_by_deathtouch else ""
    return (
        f"{s} sends {amounts.get(s, r)} to {r}, but {b} has {marked + assigned} of the "
        f"{toughness} damage it needs ({marked} marked + {assigned} assigned), {needs} short{hint}"
    )


def _why_not_loyalty(view, amounts: Amounts, s: str, r: str, p: str) -> str:
    assigned, loyalty = amounts.received_by(p), view.loyalty(p)
    return (
        f"{s} sends {amounts.get(s, r)} to {r}, but {p} is assigned {assigned} of the "
        f"{loyalty} damage its loyalty needs first, {loyalty - assigned} short"
    )
