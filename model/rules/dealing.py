"""Dealing a step's combat damage, and what follows: CR 510.2, 120.3-120.4, 615, 616.1,
702.16e, 701.10g; then the state-based actions 704.5a, g, h, i, v.

Assignment ignores what changes damage (702.19b); dealing does not. Each damage event
(source, recipient, amount) is changed by the effects that apply to it, in an order the
affected player chooses (616.1: the player dealt damage, or the controller of the permanent);
a prevention shield is shared by every event to its recipient, so the order in which they
meet it is theirs to choose too. Every outcome the choices can give is returned, each with a
choice that gives it, up to which of two identical effects is which: orders that differ only
by that give the same damage, so only one of them is tried. Beyond a stated limit of orders
tried or outcomes given, dealing says so rather than run for a very long time.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import factorial, prod

from ..combat import DOUBLE, PREVENT, Entry, Scenario
from ..errors import TooManyEffectOrders
from ..keywords import DEATHTOUCH, INDESTRUCTIBLE
from ..limits import EFFECT_ORDERS
from ..ops import Term, all_of, any_of, ite
from ..view import ScenarioView
from .doubling import double_damage

PROTECTION = "protection"


@dataclass(frozen=True)
class Change:
    """One effect that applies to a damage event."""

    name: str  # the effect's id, or "protection from <quality>"
    kind: str  # PROTECTION, PREVENT, DOUBLE or ADD
    amount: int = 0


@dataclass(frozen=True)
class Removal:
    id: str
    rule: str  # the state-based action, e.g. "704.5g"
    why: str


@dataclass(frozen=True)
class Outcome:
    choices: tuple[str, ...]  # the affected players' choices that give it; () when none
    dealt: tuple[Entry, ...]  # damage dealt, after every effect
    life: dict  # player -> life total after (None when the file gives none)
    loses: tuple[str, ...]  # players at 0 life or less (704.5a)
    damage: dict  # creature -> damage marked after
    loyalty: dict  # planeswalker -> loyalty after
    defense: dict  # battle -> defense after
    removed: tuple[Removal, ...]
    shields: dict  # prevention shield -> the damage it can still prevent this turn


def changes(scenario: Scenario, source: str, to: str) -> list[Change]:
    """The effects that apply to damage from source to `to`."""
    found = []
    recipient, dealer = scenario.find(to), scenario.find(source)
    if recipient is not None and dealer is not None:
        for quality in sorted(recipient.keywords.protection_from & dealer.qualities):
            found.append(Change(f"protection from {quality}", PROTECTION))  # 702.16e
    found += [Change(e.id, e.kind, e.amount) for e in scenario.effects if e.applies(source, to)]
    return found


def apply(change: Change, amount: Term, shield: Term = 0) -> tuple[Term, Term]:
    """One effect on one event's damage: the damage then, and what is left of a prevention
    shield. Written with `ops`, so properties prove what orders of effects give. An effect
    changes only damage that would still be dealt (616.1f; the Torbran ruling: prevented
    damage is not increased)."""
    dealt = amount > 0
    if change.kind == PROTECTION:  # 702.16e
        return 0, shield
    if change.kind == PREVENT:  # 615
        prevented = ite(amount < shield, amount, shield)
        return ite(dealt, amount - prevented, amount), ite(dealt, shield - prevented, shield)
    if change.kind == DOUBLE:  # 701.10g
        return ite(dealt, double_damage(amount), amount), shield
    return ite(dealt, amount + change.amount, amount), shield  # ADD


def _options(scenario: Scenario, to: str, events: list[Entry]) -> dict[tuple, str]:
    """What the damage to one recipient can come to: each distinct tuple of amounts dealt
    (in the order of `events`) with what is left of the shields on it, and a choice that
    gives it. The affected player orders
    every (effect, event) application: each effect applies once to each event it applies
    to (616.1), and a shield prevents from whichever of the simultaneous events they choose
    (510.2), as long as it lasts."""
    steps = [(n, c) for n, e in enumerate(events) for c in changes(scenario, e.source, e.to)]
    _refuse_past_the_limit(steps, to)
    options: dict[tuple, str] = {}
    for order in _distinct_orders(steps):
        shields = {e.id: e.amount for e in scenario.effects if e.kind == PREVENT}
        dealt = [e.amount for e in events]
        for n, change in order:
            left = shields.get(change.name, 0)
            dealt[n], shields[change.name] = apply(change, dealt[n], left)
        left = tuple(
            sorted(
                (e.id, shields[e.id]) for e in scenario.effects if e.kind == PREVENT and e.to == to
            )
        )
        options.setdefault((tuple(dealt), left), _describe(events, order))
    return options


def _sameness(step) -> tuple:
    """Steps alike in this give the same damage in either order: a stateless effect of one
    kind and amount on one event. A shield has a state (what it has left), so each of its
    steps is its own; two shields are alike only as wholes (`_alike_shields`)."""
    n, change = step
    return (n, change.name) if change.kind == PREVENT else (n, change.kind, change.amount)


def _alike_shields(steps: list) -> dict[str, tuple[str, ...]]:
    """For each shield, the shields of the same amount before it in the file: renaming one
    as the other throughout an order renames the outcome's shields, and changes no damage."""
    shields = list(dict.fromkeys(c for _, c in steps if c.kind == PREVENT))
    return {
        c.name: tuple(d.name for d in shields[:i] if d.amount == c.amount)
        for i, c in enumerate(shields)
    }


def _distinct_orders(steps: list) -> Iterator[tuple]:
    """One order of the steps for each choice that can give its own outcome: alike
    stateless steps in one order only (the orders of a multiset), and alike shields first
    used in the file's order only."""
    earlier = _alike_shields(steps)

    def extend(order: tuple, left: list, used: frozenset) -> Iterator[tuple]:
        if not left:
            yield order
            return
        tried = set()
        for i, step in enumerate(left):
            name = step[1].name
            if _sameness(step) in tried or not used.issuperset(earlier.get(name, ())):
                continue
            tried.add(_sameness(step))
            yield from extend((*order, step), left[:i] + left[i + 1 :], used | {name})

    return extend((), steps, frozenset())


def _refuse_past_the_limit(steps: list, to: str) -> None:
    """Refuses, before trying any, more orders than the limit: all orders, over the orders
    of each set of alike stateless steps and the renamings of each set of alike shields."""
    stateless = Counter(_sameness(s) for s in steps if s[1].kind != PREVENT)
    shields = Counter(c.amount for c in {c for _, c in steps if c.kind == PREVENT})
    alike = (*stateless.values(), *shields.values())
    orders = factorial(len(steps)) // prod(factorial(k) for k in alike)
    if orders > EFFECT_ORDERS.value():
        raise TooManyEffectOrders(
            f"the damage to {to} meets {len(steps)} effects, in {orders:,} orders its "
            f"player may choose (CR 616.1), more than the effect order limit of "
            f"{EFFECT_ORDERS.value():,}; raise {EFFECT_ORDERS.flag}"
        )


def _describe(events: list[Entry], order) -> str:
    if len(order) < 2:
        return ""
    return ", then ".join(f"{change.name} on {events[n].source}'s damage" for n, change in order)


def deal(scenario: Scenario, assignment: Iterable[Entry] | None = None) -> tuple[Outcome, ...]:
    """Every outcome of dealing the assignment (the scenario's own by default)."""
    entries = tuple(scenario.assignment if assignment is None else assignment)
    view = ScenarioView(scenario)
    events_to: dict[str, list[Entry]] = {}
    for e in entries:
        events_to.setdefault(e.to, []).append(e)
    per_recipient = []
    for to, events in events_to.items():
        chooser = affected_player(view, to)
        per_recipient.append(
            [
                (events, dealt, left, f"{chooser} chooses {how}" if how else "")
                for (dealt, left), how in _options(scenario, to, events).items()
            ]
        )
    combined = prod(len(options) for options in per_recipient)
    if combined > EFFECT_ORDERS.value():
        raise TooManyEffectOrders(
            f"the choices of order (CR 616.1) on the damage to {len(per_recipient)} recipients "
            f"give {combined:,} outcomes together, more than the effect order limit of "
            f"{EFFECT_ORDERS.value():,}; raise {EFFECT_ORDERS.flag}"
        )
    outcomes = []
    for combination in itertools.product(*per_recipient):
        dealt = tuple(
            Entry(e.source, e.to, amount)
            for events, amounts, _, _ in combination
            for e, amount in zip(events, amounts, strict=True)
            if amount
        )
        shields = {e.id: e.amount for e in scenario.effects if e.kind == PREVENT}
        for _, _, left, _ in combination:
            shields.update(left)
        several = [len(options) > 1 for options in per_recipient]
        choices = tuple(
            how for (*_, how), many in zip(combination, several, strict=True) if many and how
        )
        outcomes.append(_results(scenario, dealt, choices, shields))
    return tuple(outcomes)


def orders_effects(view, player: str, to: str) -> Term:
    """616.1: the player who orders the effects on damage to `to`: the player dealt damage,
    or the controller of the permanent dealt damage; never the source's controller as such."""
    return any_of((all_of((view.is_player(to), player == to)), view.controls(player, to)))


def affected_player(view: ScenarioView, to: str) -> str:
    """The player who orders the effects on damage to `to` (616.1)."""
    return next(p for p in view.players if orders_effects(view, p, to) is True)


def _results(scenario: Scenario, dealt: tuple[Entry, ...], choices, shields) -> Outcome:
    """120.3: life lost, loyalty and defense counters removed, damage marked; then 704.5."""
    to, deathtouched = {}, set()
    for e in dealt:
        to[e.to] = to.get(e.to, 0) + e.amount
        if DEATHTOUCH in scenario.permanent(e.source).keywords:
            deathtouched.add(e.to)
    life = {p.id: (None if p.life is None else p.life - to.get(p.id, 0)) for p in scenario.players}
    loses = tuple(p for p, left in life.items() if left is not None and left <= 0)  # 704.5a
    damage, loyalty, defense, removed = {}, {}, {}, []
    for p in scenario.permanents:
        hit = to.get(p.id, 0)
        if p.is_creature:
            damage[p.id] = p.damage + hit  # 120.3e
            tough = INDESTRUCTIBLE in p.keywords
            if not tough and damage[p.id] >= p.toughness:
                removed.append(
                    Removal(p.id, "704.5g", f"{damage[p.id]} damage, toughness {p.toughness}")
                )
            elif not tough and p.id in deathtouched:
                removed.append(Removal(p.id, "704.5h", "dealt damage by a source with deathtouch"))
        if p.is_planeswalker:
            loyalty[p.id] = p.loyalty - hit  # 120.3c
            if loyalty[p.id] <= 0 and p.id not in {r.id for r in removed}:
                removed.append(Removal(p.id, "704.5i", "no loyalty left"))
        if p.is_battle:
            defense[p.id] = p.defense - hit  # 120.3h
            if defense[p.id] <= 0:
                removed.append(Removal(p.id, "704.5v", "no defense left"))
    return Outcome(choices, dealt, life, loses, damage, loyalty, defense, tuple(removed), shields)
