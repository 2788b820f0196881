"""How a creature's combat damage is divided, and among whom: CR 510.1a-d.

Current rules have no damage assignment order: a creature divides its damage as its chooser
likes among those it may assign to. Trample's exceptions come from `trample`.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..amounts import Amounts
from ..ops import Term, all_of, any_of, at_least_zero, implies, negate
from . import steps, trample
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


def may_receive(view, s: str, r: str) -> Term:
    """Whether s may assign any of its combat damage to r (trample's gates aside)."""
    attacking, blocked = view.is_attacking(s), view.is_blocked(s)
    return any_of(
        (
            # 510.1b: an unblocked attacker assigns to what it attacks, unless that was
            # removed from combat (506.4c).
            all_of((attacking, negate(blocked), view.attacks(s, r), negate(view.removed(r)))),
            # 510.1c: a blocked attacker divides among the creatures blocking it now.
            view.blocks(r, s),
            # 702.19b, 702.19d: a blocked trampler may go on to what it attacks.
            all_of((attacking, blocked, trample.past_blockers(view, s, r))),
            # 702.19c, 702.19e: trample over planeswalkers reaches the controller.
            all_of((attacking, trample.over_planeswalker(view, s, r))),
            # 510.1d: a blocker divides among the creatures it blocks.
            view.blocks(s, r),
        )
    )


def has_recipient(view, s: str) -> Term:
    return any_of(may_receive(view, s, r) for r in view.reachable(s))


def assigns_combat_damage(view, s: str) -> Term:
    """510.1a-d, 510.4: s assigns damage this step, and has somewhere to assign it."""
    return all_of((steps.assigns_this_step(view, s), view.power(s) > 0, has_recipient(view, s)))


def constraints(view, amounts: Amounts) -> Iterator[Constraint]:
    for s in view.creatures:
        premise = all_of((steps.assigns_this_step(view, s), has_recipient(view, s)))
        if premise is False:
            continue
        sent = amounts.sent_by(s)
        # 510.1a: exactly its power; power 0 or less assigns nothing.
        yield Constraint(
            ("510.1a",),
            s,
            implies(premise, sent == at_least_zero(view.power(s))),
            f"{s} assigns exactly its power, {view.power(s)} (none if 0 or less)",
            lambda s=s, sent=sent: ("510.1a", _why_not_power(view, s, sent)),
        )
    for s, r in amounts.pairs():
        x = amounts.get(s, r)
        yield Constraint(
            RECIPIENT_RULES,
            s,
            implies(x > 0, may_receive(view, s, r)),
            f"{s} assigns to {r} only if CR 510.1b-d or 702.19b-f allow it",
            lambda s=s, r=r, x=x: _why_not_recipient(view, s, r, x),
        )


def _why_not_power(view, s: str, sent: int) -> str:
    power = view.power(s)
    if power <= 0:
        return f"{s} has power {power}, so it assigns no combat damage, but it assigns {sent}"
    if sent == 0:
        return f"{s} is missing: it must assign all of its power, {power}"
    return f"{s} assigns {sent}, but it must assign exactly its power, {power}"


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
