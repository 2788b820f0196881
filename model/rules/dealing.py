"""Dealing a step's combat damage, and what follows: CR 510.2, 120.3-120.4, 615, 616.1,
702.16e, 701.10g; then the state-based actions 704.5a, c, f, g, h, i, v and regeneration
(701.19a).

Assignment ignores what changes damage (702.19b); dealing does not. Each damage event
(source, recipient, amount) is changed by the effects that apply to it, in an order the
affected player chooses (616.1: the player dealt damage, or the controller of the permanent);
a prevention shield is shared by every event to its recipient, so the order in which they
meet it, and how it is split among them (615.7), is theirs to choose too. Every outcome the
choices can give is returned, each with a choice that gives it, up to which of two identical
effects is which: orders that differ only by that give the same damage, so only one of them
is tried. Beyond a stated limit of orders tried or outcomes given, dealing says so rather
than run for a very long time.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import factorial, prod

from ..combat import ADD, CANT_BE_PREVENTED, DOUBLE, PREVENT, Entry, Scenario
from ..editions import Edition
from ..errors import TooManyEffectOrders
from ..limits import EFFECT_ORDERS
from ..ops import Term, all_of, any_of, ite, negate
from ..view import ScenarioView
from . import protection, results
from .doubling import double_damage

SIEGE = "Siege"  # the battle type of 310.11

PROTECTION = "protection"


@dataclass(frozen=True)
class Change:
    """One effect that applies to a damage event."""

    name: str  # the effect's id, or "protection"
    kind: str  # PROTECTION, PREVENT, DOUBLE or ADD
    amount: int | None = 0  # None: a prevention of all the damage
    once: bool = False  # a prevention of the next time such damage would be dealt, only
    sources: frozenset[str] | None = None  # the sources it is limited to; None: any

    @property
    def is_shield(self) -> bool:
        """A prevention of the next N damage, whose state is what it has left (615.7)."""
        return self.kind == PREVENT and self.amount is not None


@dataclass(frozen=True)
class Removal:
    id: str
    rule: str  # the state-based action, e.g. "704.5g", or the Siege's ability, 310.11b
    why: str
    exiled: bool = False  # else put into its owner's graveyard


@dataclass(frozen=True)
class Outcome:
    choices: tuple[str, ...]  # the affected players' choices that give it; () when none
    dealt: tuple[Entry, ...]  # damage dealt, after every effect
    life: dict  # player -> life total after (None when the file gives none)
    lost: dict  # player -> life lost (120.3a)
    gained: dict  # player -> life gained through lifelink (120.3f)
    poison: dict  # player -> poison counters after (120.3b, 120.3g)
    loses: dict  # player -> the state-based action that makes them lose (704.5a, 704.5c)
    damage: dict  # creature -> damage marked after (0 once regenerated)
    counters: dict  # creature -> -1/-1 counters put on it by this damage (120.3d)
    toughness: dict  # creature -> toughness after those counters
    loyalty: dict  # planeswalker -> loyalty after
    defense: dict  # battle -> defense after
    removed: tuple[Removal, ...]  # put into the graveyard
    regenerated: tuple[str, ...]  # 701.19a: destruction replaced; removed from combat
    shields: dict  # prevention shield -> the damage it can still prevent this turn
    ended: tuple[str, ...] = ()  # "next time" preventions that applied, and so are over
    # (player, recipient, option) of each recipient's damage: what its player chose (616.1),
    # told apart even where two choices deal the same damage (what a shield keeps differs).
    picks: tuple = ()


def prevents_any(view, change: Change, source: str) -> Term:
    """615.12: a prevention (protection's too) meets damage that can't be prevented and
    prevents none of it, nor is a shield used; other effects change it as ever."""
    return negate(view.cant_be_prevented(source)) if change.kind in (PROTECTION, PREVENT) else True


def changes(view: ScenarioView, source: str, to: str) -> list[Change]:
    """The effects that change damage from source to `to`: protection, then the file's
    effects. Damage that can't be prevented meets no prevention (615.12: they apply and
    prevent nothing, and a shield is not used)."""
    scenario = view.scenario
    found = []
    if protection.prevents(view, source, to):
        found.append(Change(PROTECTION, PROTECTION))  # 702.16e, 702.16j
    found += [
        Change(e.id, e.kind, e.amount, e.once, e.sources)
        for e in scenario.effects
        if e.kind != CANT_BE_PREVENTED and e.applies(source, to)
    ]
    return [c for c in found if prevents_any(view, c, source)]


def apply(change: Change, amount: Term, shield: Term = 0) -> tuple[Term, Term]:
    """One effect on one event's damage: the damage then, and what is left of a prevention
    shield. Written with `ops`, so properties prove what orders of effects give. An effect
    changes only damage that would still be dealt (616.1f; the Torbran ruling: prevented
    damage is not increased)."""
    dealt = amount > 0
    if change.kind == PROTECTION:  # 702.16e
        return 0, shield
    if change.kind == PREVENT and not change.is_shield:  # 615: all of it, a Fog say
        return 0, shield
    if change.kind == PREVENT:  # 615
        prevented = ite(amount < shield, amount, shield)
        return ite(dealt, amount - prevented, amount), ite(dealt, shield - prevented, shield)
    if change.kind == DOUBLE:  # 701.10g
        return ite(dealt, double_damage(amount), amount), shield
    return ite(dealt, amount + change.amount, amount), shield  # ADD


def leaves_no_choice(scenario: Scenario) -> bool:
    """Dealing any assignment of the combat has one outcome: each event's damage is the
    amount assigned as the effects on it change it, whatever its player chooses. Not so with
    a prevention shield (its player splits it among the damage it meets, 615.7), a "next
    time" prevention (whether it is over hangs on what was dealt), or an event that a
    doubler and an "add" both change, unprevented (their order, the player's, 616.1)."""
    effects = scenario.effects
    if any(e.is_shield or e.once for e in effects):
        return False
    doublers = [e for e in effects if e.kind == DOUBLE]
    adders = [e for e in effects if e.kind == ADD]
    if not (doublers and adders):
        return True
    view = ScenarioView(scenario)
    for s in view.creatures:
        for r in view.reachable(s):
            both = any(e.applies(s, r) for e in doublers) and any(e.applies(s, r) for e in adders)
            if both and not any(c.kind in (PROTECTION, PREVENT) for c in changes(view, s, r)):
                return False
    return True


def _options(view: ScenarioView, to: str, events: list[Entry]) -> dict[tuple, str]:
    """What the damage to one recipient can come to: each distinct tuple of amounts dealt
    (in the order of `events`) with what is left of the shields on it and the "next time"
    preventions that applied to it, and a choice that gives it. The affected player orders
    every (effect, event) application: each effect applies once to each event it applies
    to (616.1), and a shield prevents from whichever of the simultaneous events they choose
    (510.2), as long as it lasts, split among them as they choose (615.7). Events that share
    no shield and no "next time" prevention are apart: how their orders interleave changes
    nothing, so each group's ways are found alone and every choice of one for each group is
    given (nine attackers of a player with protection from them: one order, not 9!)."""
    scenario = view.scenario
    steps = [(n, c) for n, e in enumerate(events) for c in changes(view, e.source, e.to)]
    per_group = [
        list(_group_ways([s for s in steps if s[0] in group], group, to, events, scenario))
        for group in _sharing_state(steps, len(events))
    ]
    _refuse_more_outcomes(
        prod(len(ways) for ways in per_group),
        f"the choices its player may make on the damage to {to} "
        f"({scenario.edition.cite_in('CR 616.1, 615.7')}), each group of events that share "
        "no shield apart,",
    )
    shields = {e.id: e.amount for e in scenario.effects if e.is_shield}
    options: dict[tuple, str] = {}
    for chosen in itertools.product(*per_group):
        dealt, left, used = [e.amount for e in events], dict(shields), frozenset()
        for amounts, group_left, group_used, _ in chosen:
            dealt = [amounts.get(n, amount) for n, amount in enumerate(dealt)]
            left |= group_left
            used |= group_used
        kept = tuple(
            sorted((e.id, left[e.id]) for e in scenario.effects if e.is_shield and e.to == to)
        )
        how = ", then ".join(told for *_, told in chosen if told)
        options.setdefault((tuple(dealt), kept, used), how)
    return options


def _sharing_state(steps: list, count: int) -> list[list[int]]:
    """The events (by index) in groups, each sharing no shield and no "next time"
    prevention with another: what one event meets of those, the next finds changed."""
    group = list(range(count))

    def root(n: int) -> int:
        while group[n] != n:
            n = group[n]
        return n

    first_met: dict[str, int] = {}
    for n, change in steps:
        if change.is_shield or change.once:
            group[root(n)] = root(first_met.setdefault(change.name, n))
    groups: dict[int, list[int]] = {}
    for n in range(count):
        groups.setdefault(root(n), []).append(n)
    return list(groups.values())


def _group_ways(
    steps: list, group: list[int], to: str, events: list[Entry], scenario: Scenario
) -> Iterator[tuple]:
    """Each distinct way the group of events' steps can go: (amount dealt by event index, what
    the shields it meets have left, the "next time" preventions that applied, a choice that
    gives it). A shield alone on the group is split directly (`_splits`); anything else is
    tried in every distinct order (`_applied_in_every_order`), refused past the limit."""
    shield = _lone_shield(steps)
    if shield is not None:
        ways = _splits(shield, [n for n, _ in steps], events, scenario)
    else:
        _refuse_past_the_limit(steps, to, scenario.edition)
        ways = _applied_in_every_order(steps, events, scenario)
    met = {change.name for _, change in steps if change.is_shield}
    found: dict[tuple, str] = {}
    for dealt, left, how, used in ways:
        amounts = tuple((n, dealt[n]) for n in group)
        found.setdefault((amounts, tuple(sorted((m, left[m]) for m in met)), used), how)
        if len(found) > EFFECT_ORDERS.value():
            raise TooManyEffectOrders(
                f"the orders and splits of shields its player may choose "
                f"({scenario.edition.cite_in('CR 616.1, 615.7')}) "
                f"give the damage to {to} more outcomes than the effect order limit of "
                f"{EFFECT_ORDERS.value():,}; raise {EFFECT_ORDERS.flag}"
            )
    for (amounts, left, used), how in found.items():
        yield dict(amounts), dict(left), used, how


def _applied_in_every_order(steps: list, events: list[Entry], scenario: Scenario) -> Iterator:
    """(amounts dealt, what the shields have left, a choice that gives it, the "next time"
    preventions that applied) for every distinct order of the steps, and every way each
    can go (`_applied`)."""
    for order in _distinct_orders(steps):
        shields = {e.id: e.amount for e in scenario.effects if e.is_shield}
        start = [e.amount for e in events]
        for dealt, left, portions, used in _applied(order, start, shields):
            yield dealt, left, _describe(events, order, portions), used


def _lone_shield(steps: list) -> Change | None:
    """The shield, when it is the only effect on the damage (not a "next time" one): its
    player's choice is then only how it is split among the events, which `_splits` lists
    without trying the orders (n events, n! of them)."""
    found = {change for _, change in steps}
    if len(found) != 1:
        return None
    (change,) = found
    return change if change.is_shield and not change.once else None


def _splits(shield: Change, met: list[int], events: list[Entry], scenario: Scenario) -> Iterator:
    """What `_applied_in_every_order` gives for a lone shield, each once: the shield prevents
    min(N, all the damage it meets) in all (615.7: the next N damage; it is not left over
    while damage it meets is dealt), split among the events it meets (`met`, by index) as
    its player chooses, no more from one than it deals. The splits that prevent most from
    the earliest events come first."""
    amounts = [events[n].amount if n in met else 0 for n in range(len(events))]
    left = {e.id: e.amount for e in scenario.effects if e.is_shield}
    prevented = min(left[shield.name], sum(amounts))
    left[shield.name] -= prevented

    def split(n: int, rest: int) -> Iterator[tuple[int, ...]]:
        if n == len(amounts):
            if rest == 0:
                yield ()
            return
        later = sum(amounts[n + 1 :])
        for part in range(min(amounts[n], rest), max(rest - later, 0) - 1, -1):
            for others in split(n + 1, rest - part):
                yield (part, *others)

    for parts in split(0, prevented):
        dealt = [e.amount - part for e, part in zip(events, parts, strict=True)]
        yield dealt, left, _described_split(shield, events, parts, prevented), frozenset()


def _described_split(shield: Change, events: list[Entry], parts: tuple, prevented: int) -> str:
    """The split as an order `_describe` would tell: the events it prevents from in turn, a
    part named only where the shield holds back some of what it could prevent there."""
    told, left = [], prevented
    for e, part in zip(events, parts, strict=True):
        if part:
            held = "" if part == min(e.amount, left) else f"{part} of "
            told.append(f"{shield.name} on {held}{e.source}'s damage")
            left -= part
    return ", then ".join(told)


def _applied(order: tuple, dealt: list, shields: dict) -> Iterator[tuple]:
    """Every way one order of (event, effect) steps can go: (amounts dealt, what the shields
    have left, for each step the damage a shield prevented when held to a part or None, and
    the "next time" preventions that applied; one meeting damage already all prevented does
    not apply to it (616.1f), so is not used up). A shield prevents all it can of the damage
    it meets, or, when it meets more of this damage later in the order, any part of it
    (615.7: its player chooses which of the simultaneous damage it prevents; a judges' answer
    of 2018-11-09 lets one shield be split among sources). A shield that let through damage
    it met must then be used up: it prevents the next N damage, so none of it is left while
    damage it could have prevented was dealt."""
    if not order:
        yield dealt, shields, (), frozenset()
        return
    (n, change), rest = order[0], order[1:]
    applies = frozenset({change.name}) if change.once and dealt[n] > 0 else frozenset()
    left = shields.get(change.name, 0)
    amount, after = apply(change, dealt[n], left)
    ways = [(amount, after, None)]
    if change.is_shield and dealt[n] > 0 and any(c.name == change.name for _, c in rest):
        for part in range(1, min(dealt[n], left)):  # a part of it, leaving some dealt
            held, unused = apply(change, dealt[n], part)
            ways.append((held, left - part + unused, part))
    for amount, after, part in ways:
        now = [*dealt[:n], amount, *dealt[n + 1 :]]
        kept = {**shields, change.name: after} if change.is_shield else shields
        for final, final_shields, parts, used in _applied(rest, now, kept):
            if part is not None and final_shields[change.name] != 0:
                continue  # held back, yet left over: not a choice 615.7 gives
            yield final, final_shields, (part, *parts), used | applies


def _sameness(step) -> tuple:
    """Steps alike in this give the same outcome in either order: a stateless effect of one
    kind and amount on one event. A shield has a state (what it has left), and a "next time"
    prevention ends only if it applies, so each of their steps is its own; two shields are
    alike only as wholes (`_alike_shields`)."""
    n, change = step
    own = change.is_shield or change.once
    return (n, change.name) if own else (n, change.kind, change.amount)


def _alike_shields(steps: list) -> dict[str, tuple[str, ...]]:
    """For each shield, the shields before it in the file that are the same but for their
    id (amount, "once", sources): renaming one as the other throughout an order renames the
    outcome's shields, and changes no damage. Shields limited to different sources are not
    alike: what each has left matters to later damage (the second step's)."""
    shields = list(dict.fromkeys(c for _, c in steps if c.is_shield))

    def same(c: Change) -> tuple:
        return (c.amount, c.once, c.sources)

    return {
        c.name: tuple(d.name for d in shields[:i] if same(d) == same(c))
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


def _refuse_past_the_limit(steps: list, to: str, edition: Edition) -> None:
    """Refuses, before trying any, more orders than the limit: all orders, over the orders
    of each set of alike stateless steps and the renamings of each set of alike shields."""
    stateless = Counter(_sameness(s) for s in steps if not s[1].is_shield)
    shields = Counter((c.amount, c.once, c.sources) for c in {c for _, c in steps if c.is_shield})
    alike = (*stateless.values(), *shields.values())
    orders = factorial(len(steps)) // prod(factorial(k) for k in alike)
    if orders > EFFECT_ORDERS.value():
        raise TooManyEffectOrders(
            f"the damage to {to} meets {len(steps)} effects, in {orders:,} orders its "
            f"player may choose ({edition.cr('616.1')}), more than the effect order limit of "
            f"{EFFECT_ORDERS.value():,}; raise {EFFECT_ORDERS.flag}"
        )


def _refuse_more_outcomes(outcomes: int, choices: str) -> None:
    """Refuses, before giving any, more outcomes of the choices together than the limit."""
    if outcomes > EFFECT_ORDERS.value():
        raise TooManyEffectOrders(
            f"{choices} give {outcomes:,} outcomes together, more than the effect order limit "
            f"of {EFFECT_ORDERS.value():,}; raise {EFFECT_ORDERS.flag}"
        )


def _describe(events: list[Entry], order, portions=None) -> str:
    if len(order) < 2:
        return ""
    portions = portions or (None,) * len(order)
    return ", then ".join(
        f"{change.name} on {'' if part is None else f'{part} of '}{events[n].source}'s damage"
        for (n, change), part in zip(order, portions, strict=True)
    )


def deal(scenario: Scenario, assignment: Iterable[Entry] | None = None) -> tuple[Outcome, ...]:
    """Every outcome of dealing the assignment (the scenario's own by default)."""
    entries = tuple(scenario.assignment if assignment is None else assignment)
    view = ScenarioView(scenario)
    unpreventable = _once_unpreventable(view, entries)
    events_to: dict[str, list[Entry]] = {}
    for e in entries:
        events_to.setdefault(e.to, []).append(e)
    per_recipient = []
    whose = []  # (the player who chooses, the recipient) of each of per_recipient
    for to, events in events_to.items():
        chooser = affected_player(view, to)
        whose.append((chooser, to))
        per_recipient.append(
            [
                (events, dealt, left, used, f"{chooser} chooses {how}" if how else "")
                for (dealt, left, used), how in _options(view, to, events).items()
            ]
        )
    _refuse_more_outcomes(
        prod(len(options) for options in per_recipient),
        f"the choices of order ({scenario.edition.cr('616.1')}) on the damage to "
        f"{len(per_recipient)} recipients",
    )
    outcomes = []
    for combination in itertools.product(*per_recipient):
        dealt = tuple(
            Entry(e.source, e.to, amount)
            for events, amounts, *_ in combination
            for e, amount in zip(events, amounts, strict=True)
            if amount
        )
        shields = {e.id: e.amount for e in scenario.effects if e.is_shield}
        used = set(unpreventable)
        for _, _, left, applied, _ in combination:
            shields.update(left)
            used |= applied
        ended = tuple(e.id for e in scenario.effects if e.id in used)
        several = [len(options) > 1 for options in per_recipient]
        choices = tuple(
            how for (*_, how), many in zip(combination, several, strict=True) if many and how
        )
        picks = tuple(
            (player, to, (tuple(amounts), left, applied))
            for (player, to), (_, amounts, left, applied, _) in zip(whose, combination, strict=True)
        )
        outcomes.append(_results(view, dealt, choices, shields, ended, picks))
    return tuple(outcomes)


def _once_unpreventable(view: ScenarioView, entries: tuple[Entry, ...]) -> frozenset[str]:
    """The "next time" preventions that meet damage that can't be prevented this step: they
    apply to it all the same (615.12), once (615.12a), and so end. Those meeting damage that
    can be prevented end when they apply to it, which the affected player's order of effects
    decides (`_options`): after a prevention of all of it, they do not (616.1f)."""
    return frozenset(
        e.id
        for e in view.scenario.effects
        if e.kind == PREVENT
        and e.once
        and any(e.applies(x.source, x.to) and view.cant_be_prevented(x.source) for x in entries)
    )


def orders_effects(view, player: str, to: str) -> Term:
    """616.1: the player who orders the effects on damage to `to`: the player dealt damage,
    or the controller of the permanent dealt damage; never the source's controller as such."""
    return any_of((all_of((view.is_player(to), player == to)), view.controls(player, to)))


def affected_player(view: ScenarioView, to: str) -> str:
    """The player who orders the effects on damage to `to` (616.1)."""
    return next(p for p in view.players if orders_effects(view, p, to) is True)


def _results(view: ScenarioView, dealt, choices, shields, ended, picks=()) -> Outcome:
    """120.3: each event's results, all at once (510.2, 120.4); then the state-based actions
    704.5a, c, f, g, h, i and v, and regeneration shields replacing destruction (701.19a)."""
    scenario = view.scenario
    took: dict[str, list[results.Result]] = {}
    gained: dict[str, int] = {p.id: 0 for p in scenario.players}
    for e in dealt:
        result = results.result(view, e.source, e.to, e.amount)
        took.setdefault(e.to, []).append(result)
        gained[view.controller(e.source)] += result.gained

    def summed(x: str, field: str):
        return sum(getattr(r, field) for r in took.get(x, ()))

    life, lost, poison, loses = {}, {}, {}, {}
    for p in scenario.players:
        lost[p.id] = summed(p.id, "life_lost")
        life[p.id] = None if p.life is None else p.life - lost[p.id] + gained[p.id]
        poison[p.id] = p.poison + summed(p.id, "poison")
        if poison[p.id] >= results.POISON_TO_LOSE:
            loses[p.id] = "704.5c"
        elif life[p.id] is not None and results.loses(life[p.id], 0):
            loses[p.id] = "704.5a"
    damage, counters, toughness, loyalty, defense = {}, {}, {}, {}, {}
    removed, regenerated = [], []
    for p in scenario.permanents:
        if p.is_creature:
            counters[p.id] = summed(p.id, "counters")
            damage[p.id] = p.damage + summed(p.id, "marked")
            toughness[p.id] = p.toughness - counters[p.id]
            touched = any(r.deathtouch for r in took.get(p.id, ()))
            if results.toughness_gone(p.toughness, counters[p.id]):
                removed.append(Removal(p.id, "704.5f", f"toughness {toughness[p.id]}"))
            elif results.destroyed(view, p.id, counters[p.id], damage[p.id], touched):
                rule, why = (
                    ("704.5g", f"{damage[p.id]} damage, toughness {toughness[p.id]}")
                    if results.lethal_damage(p.toughness, counters[p.id], damage[p.id])
                    else ("704.5h", "dealt damage by a source with deathtouch")
                )
                if results.regenerates(view, p.id, True):
                    damage[p.id] = 0
                    regenerated.append(p.id)
                else:
                    removed.append(Removal(p.id, rule, why))
        if p.is_planeswalker:
            # 120.3c: that many loyalty counters are removed, and no more than it has: its
            # loyalty is their number (306.5b), never below 0.
            loyalty[p.id] = max(p.loyalty - summed(p.id, "loyalty"), 0)
            if loyalty[p.id] <= 0 and p.id not in {r.id for r in removed}:
                removed.append(Removal(p.id, "704.5i", "no loyalty left"))
        if p.is_battle:
            defense[p.id] = max(p.defense - summed(p.id, "defense"), 0)  # 120.3h, 310.4c
            # A creature battle another state-based action puts into the graveyard is gone
            # before a Siege's ability could exile it.
            if defense[p.id] <= 0 and p.id not in {r.id for r in removed}:
                if view.has_quality(p.id, SIEGE):
                    # 310.7: not while its own ability waits, which exiles it (310.11b).
                    why = "its last defense counter removed, by its Siege ability"
                    removed.append(Removal(p.id, "310.11b", why, exiled=True))
                else:
                    removed.append(Removal(p.id, "704.5v", "no defense left"))
    return Outcome(
        choices=choices,
        dealt=dealt,
        life=life,
        lost=lost,
        gained=gained,
        poison=poison,
        loses=loses,
        damage=damage,
        counters=counters,
        toughness=toughness,
        loyalty=loyalty,
        defense=defense,
        removed=tuple(removed),
        regenerated=tuple(regenerated),
        shields=shields,
        ended=ended,
        picks=picks,
    )
