"""Dealing a step's combat damage, and what follows: CR 510.2, 120.3-120.4, 615, 616.1,
702.16e, 701.10g; then the state-based actions 704.5a, g, h, i, v.

Assignment ignores what changes damage (702.19b); dealing does not. Each damage event
(source, recipient, amount) is changed by the effects that apply to it, in an order the
affected player chooses (616.1: the player dealt damage, or the controller of the permanent);
a prevention shield is shared by every event to its recipient, so the order in which they
meet it is theirs to choose too. Every outcome the choices can give is returned, each with a
choice that gives it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from .combat import DOUBLE, PREVENT, Entry, Scenario
from .doubling import double_damage
from .keywords import DEATHTOUCH, INDESTRUCTIBLE
from .ops import Term, all_of, any_of, ite
from .view import ScenarioView

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
    by_id = {p.id: p for p in scenario.permanents}
    recipient, dealer = by_id.get(to), by_id.get(source)
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
    options: dict[tuple, str] = {}
    for order in itertools.permutations(steps):
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


def _describe(events: list[Entry], order) -> str:
    if len(order) < 2:
        return ""
    return ", then ".join(f"{change.name} on {events[n].source}'s damage" for n, change in order)


def deal(scenario: Scenario, assignment: Iterable[Entry] | None = None) -> tuple[Outcome, ...]:
    """Every outcome of dealing the assignment (the scenario's own by default)."""
    entries = tuple(scenario.assignment if assignment is None else assignment)
    recipients = list(dict.fromkeys(e.to for e in entries))
    per_recipient = []
    for to in recipients:
        events = [e for e in entries if e.to == to]
        chooser = affected_player(scenario, to)
        per_recipient.append(
            [
                (events, dealt, left, f"{chooser} chooses {how}" if how else "")
                for (dealt, left), how in _options(scenario, to, events).items()
            ]
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


def affected_player(scenario: Scenario, to: str) -> str:
    """The player who orders the effects on damage to `to` (616.1)."""
    view = ScenarioView(scenario)
    return next(p.id for p in scenario.players if orders_effects(view, p.id, to) is True)


def _results(scenario: Scenario, dealt: tuple[Entry, ...], choices, shields) -> Outcome:
    """120.3: life lost, loyalty and defense counters removed, damage marked; then 704.5."""
    to = {}
    for e in dealt:
        to[e.to] = to.get(e.to, 0) + e.amount
    by_id = {p.id: p for p in scenario.permanents}
    life = {p.id: (None if p.life is None else p.life - to.get(p.id, 0)) for p in scenario.players}
    loses = tuple(p for p, left in life.items() if left is not None and left <= 0)  # 704.5a
    damage, loyalty, defense, removed = {}, {}, {}, []
    for p in scenario.permanents:
        hit = to.get(p.id, 0)
        if p.is_creature:
            damage[p.id] = p.damage + hit  # 120.3e
            tough = INDESTRUCTIBLE in p.keywords
            deathtouch = any(e.to == p.id and DEATHTOUCH in by_id[e.source].keywords for e in dealt)
            if not tough and damage[p.id] >= p.toughness:
                removed.append(
                    Removal(p.id, "704.5g", f"{damage[p.id]} damage, toughness {p.toughness}")
                )
            elif not tough and deathtouch:
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
