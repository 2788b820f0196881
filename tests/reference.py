"""An independent reference for the assignment rules, written the slow, obvious way.

It shares no code with lethal's rules: it reads the scenario's plain values and follows the
CR text a creature at a time. For each creature that assigns combat damage it lists every
division of its damage among the recipients it may use; an assignment is legal when each
creature's row is one of its divisions, trample's conditions hold for the whole, and, in
the editions with a damage assignment order, each creature bound by its order follows it.

Editions are told apart by their effective dates, compared here (docs: scenario-format.md,
"Editions"; the rule texts: reference/editions.md):
- 2009-07-11 (M10): damage assignment order (509.2-509.3, 510.1c-d). A deathtouch creature
  divides as its player chooses, ignoring its order (702.2b of then), and deathtouch makes
  nothing lethal.
- 2010-07-16 (M11): any nonzero damage from a deathtouch source is lethal (702.2b, later
  702.2c), for the order and for trample, and the order binds deathtouch creatures too.
- 2024-11-08 (Foundations) and "current": no order.

Two abilities change the assignment (docs/readings.md): a creature that "assigns combat
damage equal to its toughness" (Doran, the Siege Tower) divides its toughness instead of its
power; a blocked creature that "may assign combat damage as though it weren't blocked" (Thorn
Elemental) has a second set of divisions, all of its damage as an unblocked creature would
assign it, with no blocker to get past (the Rhox rulings of 2018-04-27).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from datetime import date
from math import factorial, prod

from lethal.combat import Entry, Scenario

M10 = date(2009, 7, 11)
M11 = date(2010, 7, 16)
FOUNDATIONS = date(2024, 11, 8)


def in_force_on(scenario: Scenario) -> date:
    """The day whose edition judges the scenario; "current" is any day from Foundations on."""
    return FOUNDATIONS if scenario.rules == "current" else date.fromisoformat(scenario.rules)


def has_order(scenario: Scenario) -> bool:
    """509.2-509.3 (2009-07-11 to 2024-11-07): attackers and blockers have an order."""
    return in_force_on(scenario) < FOUNDATIONS


def deathtouch_is_lethal(scenario: Scenario) -> bool:
    """702.2b of 2010-07-16 (702.2c from 2017): nonzero deathtouch damage is lethal."""
    return in_force_on(scenario) >= M11


def deathtouch_divides_freely(scenario: Scenario) -> bool:
    """702.2b of 2009-07-11 to 2010-07-15: "can divide that damage as he or she chooses among
    any number of creatures blocking or blocked by it", an exception to 510.1c-d."""
    return M10 <= in_force_on(scenario) < M11


TOUGHNESS_AS_DAMAGE = "assigns combat damage equal to its toughness"
AS_THOUGH_UNBLOCKED = "may assign combat damage as though it weren't blocked"


def _kw(p, name):
    return name in p.keywords.plain


def amount(p) -> int:
    """510.1a: the combat damage p assigns, its power; with Doran's effect, its toughness."""
    return p.toughness if _kw(p, TOUGHNESS_AS_DAMAGE) else p.power


def may_assign_unblocked(p) -> bool:
    """Thorn Elemental: a blocked attacking creature with the ability may assign its combat
    damage as though it weren't blocked."""
    return p.attacking is not None and p.blocked and _kw(p, AS_THOUGH_UNBLOCKED)


def assigns_this_step(scenario: Scenario, p) -> bool:
    """CR 510.4, 702.4c-d, 702.7c."""
    first = _kw(p, "first strike") or _kw(p, "double strike")
    if scenario.step == "only":
        return True
    if scenario.step == "first-strike":
        return first
    return (not p.struck_first) or _kw(p, "double strike")


def blockers_of(scenario: Scenario, attacker: str) -> list[str]:
    return [p.id for p in scenario.permanents if p.blocking and attacker in p.blocking]


def recipients(scenario: Scenario, p) -> tuple[list[str], list[str]]:
    """Whom p may assign to: (those it may always use, those that need every blocker of p to
    be assigned lethal damage first)."""
    if p.blocking is not None:
        return list(p.blocking), []  # 510.1d
    if p.attacking is None:
        return [], []  # not in combat
    target = p.attacking
    attacked = next((q for q in scenario.permanents if q.id == target), None)
    removed = attacked is not None and attacked.removed_from_combat
    attacks_planeswalker = attacked is not None and attacked.is_planeswalker
    trample = _kw(p, "trample") or _kw(p, "trample over planeswalkers")
    over = _kw(p, "trample over planeswalkers")
    blockers = blockers_of(scenario, p.id)
    free: list[str] = []
    gated: list[str] = []
    if p.blocked:
        free = blockers  # 510.1c
        if trample and not removed:
            gated.append(target)  # 702.19b, 702.19d
    elif not removed:
        gated.append(target)  # 510.1b (no blockers: the gate is empty)
    if over and attacks_planeswalker:
        gated.append(attacked.controller)  # 702.19c, 702.19e
    gated = [r for r in gated if r not in free]  # a blocker is never past the blockers
    return free, gated


def unblocked_recipients(scenario: Scenario, p) -> tuple[list[str], list[str]]:
    """Whom p may assign to as though it weren't blocked, split as `recipients` splits them:
    what it attacks, as 510.1b says, unless that was removed from combat (506.4c); with
    trample over planeswalkers, that planeswalker's controller, once the planeswalker has
    damage up to its loyalty (702.19c), or all of it when the planeswalker was removed
    (702.19e). No blocker stands in the way of either."""
    target = p.attacking
    attacked = next((q for q in scenario.permanents if q.id == target), None)
    removed = attacked is not None and attacked.removed_from_combat
    free = [] if removed else [target]
    gated = []
    if _kw(p, "trample over planeswalkers") and attacked is not None and attacked.is_planeswalker:
        gated.append(attacked.controller)
    return free, gated


def _split(scenario: Scenario, p, targets: list[str]) -> list[dict[str, int]]:
    """Every division of p's damage among `targets`: nothing when it assigns none."""
    total = amount(p)
    if not assigns_this_step(scenario, p) or total <= 0 or not targets:
        return [{}]
    rows = []
    for amounts in itertools.product(range(total + 1), repeat=len(targets)):
        if sum(amounts) == total:
            rows.append({r: a for r, a in zip(targets, amounts, strict=True) if a})
    return rows


def unblocked_divisions(scenario: Scenario, p) -> list[dict[str, int]]:
    """The divisions p's ability adds: all of its damage as though it weren't blocked
    (nothing, when that leaves it nowhere to assign). None without the ability."""
    if not may_assign_unblocked(p):
        return []
    free, gated = unblocked_recipients(scenario, p)
    return _split(scenario, p, free + gated)


def divisions(scenario: Scenario, p) -> list[dict[str, int]]:
    """Every way p may divide its combat damage this step, trample's conditions and the
    damage assignment order aside: its normal divisions, and those its ability to assign as
    though it weren't blocked adds, each once."""
    free, gated = recipients(scenario, p)
    rows = _split(scenario, p, free + gated)
    return rows + [row for row in unblocked_divisions(scenario, p) if row not in rows]


def as_though_unblocked(scenario: Scenario, amounts: dict[tuple[str, str], int], p) -> bool:
    """p's row is one its ability allows, so it may be judged as assigned as though p weren't
    blocked: no blocker's lethal damage and no order binds it. A row both ways allow is
    judged this way, since this way asks less of it (the loyalty of 702.19c alone)."""
    row = {t: a for (s, t), a in amounts.items() if s == p.id and a}
    return row in unblocked_divisions(scenario, p)


def lethal(scenario: Scenario, amounts: dict[tuple[str, str], int], b: str) -> bool:
    """510.1c-d, 702.19b: the damage marked on b and all combat damage assigned to it this
    step, by every source, reach its toughness (effects on damage dealt are ignored). From
    M11 on, any nonzero amount assigned to it by a source with deathtouch is lethal too
    (702.2b, then 702.2c), whatever source assigns it (reading A6); under M10 deathtouch
    makes nothing lethal (reading A5)."""
    by_id = {p.id: p for p in scenario.permanents}
    blocker = by_id[b]
    assigned = sum(a for (s, t), a in amounts.items() if t == b)
    if blocker.damage + assigned >= blocker.toughness:
        return True
    return deathtouch_is_lethal(scenario) and any(
        a > 0 and _kw(by_id[s], "deathtouch") for (s, t), a in amounts.items() if t == b
    )


def conditions_hold(scenario: Scenario, amounts: dict[tuple[str, str], int]) -> bool:
    """702.19b-c with 702.2c: what must be assigned before damage goes past the blockers."""
    by_id = {p.id: p for p in scenario.permanents}

    def assigned_to(r):
        return sum(a for (s, t), a in amounts.items() if t == r)

    for (s, t), a in amounts.items():
        source = by_id[s]
        if as_though_unblocked(scenario, amounts, source):
            _, gated = unblocked_recipients(scenario, source)
            blockers = []  # as though unblocked, it has none to get past
        else:
            _, gated = recipients(scenario, source)
            blockers = blockers_of(scenario, s)
        if a == 0 or t not in gated:
            continue
        if not all(lethal(scenario, amounts, b) for b in blockers):
            return False
        attacked = by_id.get(source.attacking)
        over_to_controller = (
            attacked is not None
            and attacked.is_planeswalker
            and t == attacked.controller
            and not attacked.removed_from_combat
        )
        if over_to_controller and assigned_to(attacked.id) < attacked.loyalty:
            return False
    return True


# The damage assignment order: 509.2-509.3 announce it, 510.1c-d make it bind.


def order_members(scenario: Scenario, p) -> list[str]:
    """The creatures in p's damage assignment order: those blocking it, for an attacker
    (509.2); those it blocks, for a blocker (509.3)."""
    if p.attacking is not None:
        return blockers_of(scenario, p.id)
    return list(p.blocking or ())


def announcer(scenario: Scenario, c: str) -> str:
    """Who announces c's order: the active player for an attacker (509.2), the defending
    player who controls it for a blocker (509.3)."""
    p = next(q for q in scenario.permanents if q.id == c)
    return scenario.active_player if p.attacking is not None else p.controller


def banding_hands_over(scenario: Scenario, p) -> bool:
    """702.22j-k: the other player divides p's damage "as they choose among any creatures"
    blocking it (or it blocks): an exception to 510.1c-d, so the order does not bind."""
    by_id = {q.id: q for q in scenario.permanents}
    if p.attacking is not None:
        return _banding_among([by_id[b] for b in blockers_of(scenario, p.id)])
    if p.blocking is not None:
        return _banding_among([by_id[a] for a in p.blocking])
    return False


def bound_by_order(scenario: Scenario, p) -> bool:
    """Whether 510.1c-d's order limits how p divides its damage this step: an edition with
    orders, p assigns this step and has damage to assign (510.1a), two or more creatures in
    its order (with one there is nothing to follow), and neither M10's deathtouch (702.2b)
    nor banding (702.22j-k) lets its damage be divided as its divider chooses."""
    return (
        has_order(scenario)
        and assigns_this_step(scenario, p)
        and amount(p) > 0
        and len(order_members(scenario, p)) >= 2
        and not (deathtouch_divides_freely(scenario) and _kw(p, "deathtouch"))
        and not banding_hands_over(scenario, p)
    )


def follows_order(
    scenario: Scenario, amounts: dict[tuple[str, str], int], p, order: tuple[str, ...]
) -> bool:
    """510.1c-d: p assigns damage to a creature in its order only if each creature before
    that one in the order is assigned lethal damage when the step's assignments are
    complete (the total is judged, reading A1)."""
    for i, y in enumerate(order):
        if amounts.get((p.id, y), 0) > 0:
            if not all(lethal(scenario, amounts, x) for x in order[:i]):
                return False
    return True


def orders_of(scenario: Scenario, p) -> list[tuple[str, ...]]:
    """The orders p may have: the file's, or every order of its members if it gives none."""
    if p.order is not None:
        return [tuple(p.order)]
    return list(itertools.permutations(order_members(scenario, p)))


def open_orders(scenario: Scenario) -> list[str]:
    """The creatures bound by an order the file does not give."""
    return [
        p.id
        for p in scenario.permanents
        if p.is_creature and p.order is None and bound_by_order(scenario, p)
    ]


def orders_that_work(scenario: Scenario, entries: list[Entry], c: str) -> list[tuple]:
    """Every order of c (the file's, if it gives one) that c's division follows; all of them
    when c assigns as though it weren't blocked, which no order binds."""
    p = next(q for q in scenario.permanents if q.id == c)
    amounts = {(e.source, e.to): e.amount for e in entries}
    if as_though_unblocked(scenario, amounts, p):
        return list(orders_of(scenario, p))
    return [o for o in orders_of(scenario, p) if follows_order(scenario, amounts, p, o)]


def orders_hold(
    scenario: Scenario, amounts: dict[tuple[str, str], int], *, open_too: bool = True
) -> bool:
    """Every creature bound by its order follows one of its orders. A creature's order
    limits only its own division, so "some choice of every open order works" is "each open
    order has one that works". A creature assigning as though it weren't blocked follows
    none."""
    for p in scenario.permanents:
        if not p.is_creature or not bound_by_order(scenario, p):
            continue
        if as_though_unblocked(scenario, amounts, p):
            continue
        if p.order is None and not open_too:
            continue
        if not any(follows_order(scenario, amounts, p, o) for o in orders_of(scenario, p)):
            return False
    return True


def with_orders(scenario: Scenario, orders: dict[str, tuple[str, ...]]) -> Scenario:
    """The scenario with these orders announced, as if the file gave them."""
    permanents = tuple(
        replace(p, order=orders[p.id]) if p.id in orders else p for p in scenario.permanents
    )
    return replace(scenario, permanents=permanents)


def order_choices(scenario: Scenario, creatures: list[str]):
    """Every way to announce the orders of these creatures, as {creature: order}."""
    by_id = {p.id: p for p in scenario.permanents}
    each = [orders_of(scenario, by_id[c]) for c in creatures]
    for chosen in itertools.product(*each):
        yield dict(zip(creatures, chosen, strict=True))


def _rows_are_divisions(scenario: Scenario, entries: list[Entry]) -> bool:
    rows: dict[str, dict[str, int]] = {}
    for e in entries:
        rows.setdefault(e.source, {})[e.to] = e.amount
    return all(
        rows.get(p.id, {}) in divisions(scenario, p) for p in scenario.permanents if p.is_creature
    )


def is_legal(scenario: Scenario, entries: list[Entry]) -> bool:
    """Legal under the file's orders, and under some order for each order it leaves open."""
    if not _rows_are_divisions(scenario, entries):
        return False
    amounts = {(e.source, e.to): e.amount for e in entries}
    return conditions_hold(scenario, amounts) and orders_hold(scenario, amounts)


def is_legal_but_for_open_orders(scenario: Scenario, entries: list[Entry]) -> bool:
    """Every rule holds, the orders the file gives included; the open orders are not asked."""
    if not _rows_are_divisions(scenario, entries):
        return False
    amounts = {(e.source, e.to): e.amount for e in entries}
    return conditions_hold(scenario, amounts) and orders_hold(scenario, amounts, open_too=False)


def legal_assignments(scenario: Scenario):
    """Every legal assignment of the step, as lists of entries (small combats only); an open
    order is any order that makes it legal."""
    creatures = [p for p in scenario.permanents if p.is_creature]
    for rows in itertools.product(*(divisions(scenario, p) for p in creatures)):
        entries = [
            Entry(p.id, t, a)
            for p, row in zip(creatures, rows, strict=True)
            for t, a in row.items()
        ]
        amounts = {(e.source, e.to): e.amount for e in entries}
        if conditions_hold(scenario, amounts) and orders_hold(scenario, amounts):
            yield entries


def completions(scenario: Scenario):
    """The legal assignments that keep every amount the file's partial assignment gives."""
    given = {(e.source, e.to): e.amount for e in scenario.assignment or ()}
    for entries in legal_assignments(scenario):
        amounts = {(e.source, e.to): e.amount for e in entries}
        if all(amounts.get(pair) == amount for pair, amount in given.items()):
            yield entries


def damage_to(entries: list[Entry], to: str, source: str | None = None) -> int:
    return sum(e.amount for e in entries if e.to == to and source in (None, e.source))


def _banding_among(group) -> bool:
    """702.22j-k: banding, or a "bands with other" creature and another of its quality."""
    if any(_kw(p, "banding") for p in group):
        return True
    return any(
        q in x.keywords.bands_with_other and q in x.qualities and q in y.qualities
        for x in group
        for y in group
        if x is not y
        for q in x.keywords.bands_with_other
    )


def chooser(scenario: Scenario, c: str) -> str:
    """Who divides c's combat damage: 510.1, with 702.22j-k."""
    by_id = {p.id: p for p in scenario.permanents}
    p = by_id[c]
    if p.attacking is not None:
        if _banding_among([by_id[b] for b in blockers_of(scenario, c)]):
            target = p.attacking
            if target in by_id:
                attacked = by_id[target]
                return attacked.protector if attacked.is_battle else attacked.controller
            return target
        return scenario.active_player
    if _banding_among([by_id[a] for a in p.blocking or ()]):
        return scenario.active_player
    return p.controller


def who_is_hurt(scenario: Scenario, to: str) -> str:
    by_id = {p.id: p for p in scenario.permanents}
    if to in by_id:
        return by_id[to].protector if by_id[to].is_battle else by_id[to].controller
    return to


def orders_first(scenario: Scenario, creatures: list[str], to: str, value) -> int | None:
    """The game of the orders, played before any damage is assigned: the active player
    announces the open orders of attackers (509.2), then the defending players those of
    blockers (509.3), each for the side that wants damage on `to` or against it; then
    `value(scenario with every order announced)` is what the divisions give (None: no legal
    assignment, a choice nobody makes). When the active player wants the damage, they take
    the best of their announcements against the defending players' worst; else the reverse."""
    active = scenario.active_player
    active_wants = who_is_hurt(scenario, to) != active
    theirs = [c for c in creatures if announcer(scenario, c) == active]
    others = [c for c in creatures if announcer(scenario, c) != active]
    announced = []
    for attackers_orders in order_choices(scenario, theirs):
        after = with_orders(scenario, attackers_orders)
        replies = [
            v
            for blockers_orders in order_choices(after, others)
            if (v := value(with_orders(after, blockers_orders))) is not None
        ]
        if replies:
            announced.append(min(replies) if active_wants else max(replies))
    if not announced:
        return None
    return max(announced) if active_wants else min(announced)


def guarantee(scenario: Scenario, to: str) -> int:
    """The damage to `to` its wanter can be sure of. The orders the file leaves open are
    announced first (509.2-509.3, see `orders_first`); then the active player's divisions
    are chosen (510.1), the defending players' after, each side against the other. Orders
    of creatures that assign no damage change nothing, and are not tried."""
    by_id = {p.id: p for p in scenario.permanents}
    open_ = [c for c in open_orders(scenario) if amount(by_id[c]) > 0]
    candidates = list(completions(scenario))  # legal under some choice of the open orders

    def divisions_game(announced: Scenario) -> int | None:
        legal = [
            entries
            for entries in candidates
            if orders_hold(announced, {(e.source, e.to): e.amount for e in entries})
        ]
        return _divisions_game(announced, legal, to)

    value = orders_first(scenario, open_, to, divisions_game)
    assert value is not None, "no legal assignment to guarantee anything with"
    return value


def _divisions_game(scenario: Scenario, legal: list[list[Entry]], to: str) -> int | None:
    """510.1: the active player's divisions first, the defending players' after; each side
    picks only among choices that can be completed legally."""
    if not legal:
        return None
    active = scenario.active_player
    outcomes: dict[frozenset, list[int]] = {}
    for entries in legal:
        first = frozenset(e for e in entries if chooser(scenario, e.source) == active)
        outcomes.setdefault(first, []).append(damage_to(entries, to))
    if who_is_hurt(scenario, to) != active:
        return max(min(values) for values in outcomes.values())
    return min(max(values) for values in outcomes.values())


# What the damage does, the slow way (CR 120.3-120.4, 510.2, 615, 616.1, 701.19, 704.5).
#
# The assignment of a step is dealt all at once (510.2). Each entry is one source's damage to
# one recipient: an event. Every effect that applies to an event is applied to it once
# (616.1f, 615.12a), in the order the affected player chooses (616.1: the player dealt the
# damage, or the damaged permanent's controller). The damage to different recipients is
# ordered by different choices, so every recipient's choices are listed on their own and
# combined. A shield of N is shared by every event it meets, and its player may split it
# among them (615.7): each time it is applied it prevents as much of that event's damage as
# they choose, so long as, in the end, it is not left over while it let through damage it was
# applied to. Then the damage dealt becomes its results (120.3), and the state-based actions
# are checked once (704.3, 704.5): every outcome below is after that check.


@dataclass(frozen=True)
class Dealt:
    """One outcome of dealing a step's assignment: every value is a tuple of sorted
    (id, value) pairs, so that outcomes compare and hash."""

    dealt: tuple[int, ...]  # per entry of the assignment, in its order
    life: tuple  # (player, life after, or None when the file gives none)
    gained: tuple  # (player, life gained through lifelink, 120.3f)
    poison: tuple  # (player, poison counters after, 120.3b, 120.3g)
    loses: tuple  # (player, every rule that makes them lose): 704.5a, 704.5c
    damage: tuple  # (creature, damage marked after; 0 when regenerated)
    counters: tuple  # (creature, -1/-1 counters put, 120.3d)
    toughness: tuple  # (creature, toughness after those counters)
    loyalty: tuple  # (planeswalker, loyalty left, 120.3c)
    defense: tuple  # (battle, defense left, 120.3h)
    removed: tuple  # (permanent, every rule that puts it into the graveyard)
    regenerated: tuple[str, ...]  # creatures whose destruction a shield replaced (701.19a)
    shields: tuple  # (prevention of N, what is left of it)
    ended: tuple[str, ...]  # "once" preventions that applied, and so end

    def of(self, field: str) -> dict:
        return dict(getattr(self, field))


PREVENTIONS = ("protection", "prevent")


def _thing(scenario: Scenario, id: str):
    """The permanent or player with this id."""
    found = [p for p in scenario.permanents if p.id == id]
    return found[0] if found else next(p for p in scenario.players if p.id == id)


def affected_player(scenario: Scenario, to: str) -> str:
    """616.1: the player dealt the damage, or the controller of the permanent dealt it."""
    found = [p for p in scenario.permanents if p.id == to]
    return found[0].controller if found else to


def _protected(scenario: Scenario, source: str, to: str) -> bool:
    """702.16e, 702.16j-k: the recipient, permanent or player, has protection from
    everything, from a quality the source has, a card type among its types included
    (702.16a), or from the player who controls the source. Qualities and players' ids
    compare without regard to case; "creatures" names the type creature."""
    keywords = _thing(scenario, to).keywords
    if "protection from everything" in keywords.plain:
        return True
    src = _thing(scenario, source)
    types = {t.casefold() for t in src.types}
    qualities = {q.casefold() for q in src.qualities}
    for quality in keywords.protection_from:
        q = quality.casefold()
        if q in qualities or q in types or q.removesuffix("s") in types:
            return True
        if q == src.controller.casefold():
            return True
    return False


def _limited_to(effect, source: str, to: str) -> bool:
    if effect.sources is not None and source not in effect.sources:
        return False
    return effect.recipients is None or to in effect.recipients


def _effects_on(scenario: Scenario, source: str, to: str) -> list[tuple]:
    """(kind, name, amount) of every effect that applies to damage from source to `to`:
    protection (one prevention, however many of its instances match: they prevent the same),
    preventions aimed at `to` or at anything, doublers and "plus N"."""
    found = []
    if _protected(scenario, source, to):
        found.append(("protection", "protection", None))
    for e in scenario.effects:
        if e.kind == "cant-be-prevented" or not _limited_to(e, source, to):
            continue
        if e.kind == "prevent" and e.to is not None and e.to != to:
            continue
        found.append((e.kind, e.id, e.amount))
    return found


def _unpreventable(scenario: Scenario, source: str, to: str) -> bool:
    """615.12: damage from this source can't be prevented."""
    return any(
        e.kind == "cant-be-prevented" and _limited_to(e, source, to) for e in scenario.effects
    )


def _shields(scenario: Scenario) -> dict[str, int]:
    """615.7: the preventions of the next N damage, with what they have left."""
    shields = {}
    for e in scenario.effects:
        if e.kind == "prevent" and e.amount is not None:
            assert e.to is not None, "a shield belongs to one player or permanent"
            shields[e.id] = e.amount
    return shields


def _apply(scenario, entries, steps, amounts, left, applied, split):
    """Apply `steps` (event, effect) in this order; yield (amounts, shields left, effects
    that applied, shields split) for every amount each shield application may prevent."""
    if not steps:
        yield amounts, left, applied, split
        return
    (n, (kind, name, extra)), rest = steps[0], steps[1:]
    e = entries[n]
    now = amounts[n]
    if now <= 0:  # 616.1f: prevented already, nothing applies to it any more (Torbran)
        yield from _apply(scenario, entries, rest, amounts, left, applied, split)
        return
    changed = list(amounts)
    if kind in PREVENTIONS:
        applied = applied | {name}
        if _unpreventable(scenario, e.source, e.to):  # 615.12: applies, prevents nothing
            yield from _apply(scenario, entries, rest, amounts, left, applied, split)
        elif kind == "protection" or extra is None:  # 702.16e, 615: all of it
            changed[n] = 0
            yield from _apply(scenario, entries, rest, changed, left, applied, split)
        else:  # 615.7: the shield prevents what its player chooses of this damage
            for k in range(min(now, left[name]) + 1):
                changed = list(amounts)
                changed[n] = now - k
                after = {**left, name: left[name] - k}
                short = split | {name} if k < now else split
                yield from _apply(scenario, entries, rest, changed, after, applied, short)
        return
    changed[n] = now * 2 if kind == "double" else now + extra  # 701.10g; "plus N"
    yield from _apply(scenario, entries, rest, changed, left, applied, split)


def _recipient_choices(scenario: Scenario, entries: list[Entry], to: str) -> set[tuple]:
    """Every way the affected player may have the effects on the damage to `to` applied:
    (damage dealt by each of its events, what its shields have left, the effects that
    applied)."""
    events = [n for n, e in enumerate(entries) if e.to == to]
    steps = [(n, eff) for n in events for eff in _effects_on(scenario, entries[n].source, to)]
    ours = {
        name: left
        for name, left in _shields(scenario).items()
        if any(name == eff[1] for _, eff in steps)
    }
    found = set()
    for order in itertools.permutations(steps):
        start = [e.amount for e in entries]
        for amounts, left, applied, split in _apply(
            scenario, entries, list(order), start, ours, frozenset(), frozenset()
        ):
            if any(left[name] > 0 for name in split):
                continue  # the shield let damage through and was left over (615.7)
            dealt = tuple((n, amounts[n]) for n in events)
            found.add((dealt, tuple(sorted(left.items())), applied))
    return found


def dealing_choices(scenario: Scenario, entries: list[Entry]) -> dict[str, list[list]]:
    """For each player, in APNAP order (616.1, 101.4), every choice they may make on the
    damage to what is theirs: one choice per recipient of theirs, combined."""
    turn = [p.id for p in scenario.players]
    start = turn.index(scenario.active_player)
    apnap = turn[start:] + turn[:start]
    recipients = list(dict.fromkeys(e.to for e in entries))
    choices = {}
    for player in apnap:
        theirs = [r for r in recipients if affected_player(scenario, r) == player]
        each = [sorted(_recipient_choices(scenario, entries, r), key=repr) for r in theirs]
        choices[player] = [list(c) for c in itertools.product(*each)]
    return choices


def outcome_of(scenario: Scenario, entries: list[Entry], chosen: list) -> Dealt:
    """The outcome of these choices (every recipient's, in any order): the damage dealt, its
    results (120.3) and the state-based actions after (704.3, 704.5)."""
    dealt = [e.amount for e in entries]
    left = _shields(scenario)
    applied: set[str] = set()
    for amounts, shields, names in chosen:
        for n, a in amounts:
            dealt[n] = a
        left.update(shields)
        applied |= names
    once = {e.id for e in scenario.effects if e.kind == "prevent" and e.once}
    return _results(scenario, entries, dealt, left, sorted(once & applied))


def _results(scenario: Scenario, entries: list[Entry], dealt: list[int], left, ended) -> Dealt:
    by_id = {p.id: p for p in scenario.permanents}
    lost = {pl.id: 0 for pl in scenario.players}
    gained = {pl.id: 0 for pl in scenario.players}
    poison = {pl.id: pl.poison for pl in scenario.players}
    creatures = [p for p in scenario.permanents if p.is_creature]
    damage = {p.id: p.damage for p in creatures}
    counters = {p.id: 0 for p in creatures}
    loyalty = {p.id: p.loyalty for p in scenario.permanents if p.is_planeswalker}
    defense = {p.id: p.defense for p in scenario.permanents if p.is_battle}
    deathtouched = set()
    for e, a in zip(entries, dealt, strict=True):
        if a <= 0:
            continue  # prevented: never dealt (615.6)
        source = by_id[e.source]
        if _kw(source, "lifelink"):
            gained[source.controller] += a  # 120.3f, 702.15b
        poisonous = _kw(source, "infect")
        if e.to not in by_id:  # a player
            if poisonous:
                poison[e.to] += a  # 120.3b, 702.90b
            else:
                lost[e.to] += a  # 120.3a
            poison[e.to] += source.keywords.toxic  # 120.3g, 702.164c: any damage, all of it
            continue
        r = by_id[e.to]
        if r.is_creature:
            if poisonous or _kw(source, "wither"):
                counters[r.id] += a  # 120.3d, 702.80a, 702.90c
            else:
                damage[r.id] += a  # 120.3e
            if _kw(source, "deathtouch"):
                deathtouched.add(r.id)  # 704.5h: dealt damage, marked or as counters
        # 120.3c, 120.3h: counters removed, down to none.
        if r.is_planeswalker:
            loyalty[r.id] = max(loyalty[r.id] - a, 0)
        if r.is_battle:
            defense[r.id] = max(defense[r.id] - a, 0)

    life = {
        pl.id: None if pl.life is None else pl.life - lost[pl.id] + gained[pl.id]
        for pl in scenario.players
    }
    loses = {}
    for pl in scenario.players:
        rules = []
        if life[pl.id] is not None and life[pl.id] <= 0:
            rules.append("704.5a")
        if poison[pl.id] >= 10:
            rules.append("704.5c")
        if rules:
            loses[pl.id] = tuple(rules)

    toughness = {p.id: p.toughness - counters[p.id] for p in creatures}
    removed = {}
    regenerated = []
    for p in scenario.permanents:
        rules = []
        if p.is_creature:
            if toughness[p.id] <= 0:
                rules.append("704.5f")  # not destruction: nothing saves it
            else:
                destroyed = []
                if damage[p.id] >= toughness[p.id]:
                    destroyed.append("704.5g")
                if p.id in deathtouched:
                    destroyed.append("704.5h")
                if destroyed and not _kw(p, "indestructible"):
                    if p.regeneration_shields > 0:  # 701.19a: one destruction, one shield
                        regenerated.append(p.id)
                        damage[p.id] = 0
                    else:
                        rules += destroyed
        if p.is_planeswalker and loyalty[p.id] <= 0:
            rules.append("704.5i")
        if p.is_battle and defense[p.id] <= 0:
            if "siege" not in p.qualities:
                rules.append("704.5v")
            elif not rules:
                # A Siege's own ability exiles it (310.11b), and keeps 704.5v away (310.7);
                # what dies as a creature is in the graveyard before the ability resolves.
                rules.append("310.11b")
        if rules:
            removed[p.id] = tuple(rules)
    return Dealt(
        dealt=tuple(dealt),
        life=tuple(sorted(life.items())),
        gained=tuple(sorted(gained.items())),
        poison=tuple(sorted(poison.items())),
        loses=tuple(sorted(loses.items())),
        damage=tuple(sorted(damage.items())),
        counters=tuple(sorted(counters.items())),
        toughness=tuple(sorted(toughness.items())),
        loyalty=tuple(sorted(loyalty.items())),
        defense=tuple(sorted(defense.items())),
        removed=tuple(sorted(removed.items())),
        regenerated=tuple(sorted(regenerated)),
        shields=tuple(sorted(left.items())),
        ended=tuple(sorted(ended)),
    )


def dealt_outcomes(scenario: Scenario, entries: list[Entry]) -> set[Dealt]:
    """Every outcome the affected players can reach by their choices."""
    choices = dealing_choices(scenario, entries)
    return {
        outcome_of(scenario, entries, [c for mine in chosen for c in mine])
        for chosen in itertools.product(*choices.values())
    }


def dealt_to(entries: list[Entry], outcome: Dealt | None, to: str) -> int:
    """The damage dealt to `to` in this outcome (none when there is no outcome)."""
    if outcome is None:
        return 0
    return sum(a for e, a in zip(entries, outcome.dealt, strict=True) if e.to == to)


def game_over(scenario: Scenario, outcome: Dealt) -> bool:
    """104.2a, 104.4a: the game is over once every player but one, or every one, has
    lost."""
    return len(dict(outcome.loses)) >= len(scenario.players) - 1


def after_first_step(scenario: Scenario, entries: list[Entry], outcome: Dealt) -> Scenario:
    """The second step's combat after the first's outcome: damage marked, -1/-1 counters
    (-1/-1 each, 122.1a: power too), life and poison; creatures put into the graveyard gone
    (a planeswalker or battle stays as a permanent removed from combat, so that what attacked
    it still attacks nothing, 506.4c); regenerated creatures tapped, without damage and out
    of combat (701.19a, 506.4), a creature they blocked still blocked (509.1h); shields with
    what they have left, and "once" preventions that applied gone."""
    gone = {id for id, _ in outcome.removed}
    out = gone | set(outcome.regenerated)
    life, poison = outcome.of("life"), outcome.of("poison")
    damage, counters = outcome.of("damage"), outcome.of("counters")
    loyalty, defense = outcome.of("loyalty"), outcome.of("defense")
    players = tuple(replace(pl, life=life[pl.id], poison=poison[pl.id]) for pl in scenario.players)
    kept = []
    for p in scenario.permanents:
        if p.id in gone and not (p.is_planeswalker or p.is_battle):
            continue
        if p.is_creature:
            p = replace(
                p,
                damage=damage[p.id],
                power=p.power - counters[p.id],
                toughness=p.toughness - counters[p.id],
            )
        if p.is_planeswalker:
            p = replace(p, loyalty=loyalty[p.id])
        if p.is_battle:
            p = replace(p, defense=defense[p.id])
        if p.id in outcome.regenerated:
            p = replace(p, regeneration_shields=p.regeneration_shields - 1)
        if p.id in out:
            p = replace(p, attacking=None, blocking=None, order=None)
            if p.id in gone:
                p = replace(p, removed_from_combat=True)
        if p.blocking is not None:
            p = replace(p, blocking=tuple(a for a in p.blocking if a not in out))
        if p.order is not None:  # 509.2a, 509.3a: the rest keep their relative order
            p = replace(p, order=tuple(x for x in p.order if x not in out))
        kept.append(p)
    bands = tuple(
        tuple(m for m in band if m not in out)
        for band in scenario.bands
        if len([m for m in band if m not in out]) > 1
    )
    left = outcome.of("shields")
    effects = tuple(
        replace(e, amount=left[e.id]) if e.id in left else e
        for e in scenario.effects
        if e.id not in outcome.ended
    )
    return replace(
        scenario,
        players=players,
        permanents=tuple(kept),
        bands=bands,
        effects=effects,
        step="second",
        assignment=None,
    )


def open_for_the_phase(scenario: Scenario) -> list[str]:
    """The orders the file leaves open that may bind in some step of the phase: every
    creature in combat with two or more in its order and damage to assign. They are
    announced once, in the declare blockers step (509.2-509.3), for both steps."""
    return [
        p.id
        for p in scenario.permanents
        if p.is_creature
        and has_order(scenario)
        and p.order is None
        and amount(p) > 0
        and len(order_members(scenario, p)) >= 2
    ]


def divisions_to_try(scenario: Scenario) -> int:
    """The most assignments the reference tries in either step of the phase: every
    division of each creature's damage, combined."""
    return max(
        prod(
            len(divisions(replace(scenario, step=step), p))
            for p in scenario.permanents
            if p.is_creature
        )
        for step in ("first-strike", "second")
    )


def dealing_paths(scenario: Scenario) -> int:
    """The most ways the reference deals one assignment of either step, as `dealing_choices`
    tries them: for each recipient, every order of the (event, effect) steps its damage can
    meet (each creature that may assign to it, times the effects that may apply to that
    damage), each shield on it splitting the damage every way; combined over the recipients.
    A bound, not a count (ways that deal the same are counted apart). Drawn fights under
    100,000 were enumerated in at most 0.04 s each (600 draws); one over 10^7 held a CI
    worker for 13 minutes."""
    most = 0
    for step in ("first-strike", "second"):
        during = replace(scenario, step=step)
        ways = 1
        for r in [p.id for p in scenario.players] + [p.id for p in scenario.permanents]:
            steps = []
            for c in scenario.permanents:
                free, gated = recipients(during, c) if c.is_creature else ([], [])
                if r in free + gated and assigns_this_step(during, c):
                    steps += _effects_on(scenario, c.id, r)
            splits = prod(amount + 1 for kind, _, amount in steps if kind == "prevent" and amount)
            ways *= factorial(len(steps)) * splits
        most = max(most, ways)
    return most


def dealt_over_the_phase(scenario: Scenario, to: str):
    """The damage dealt to `to` over the phase in each course `whole_combats` finds."""
    for one, dealt_one, two, dealt_two in whole_combats(scenario):
        yield dealt_to(one, dealt_one, to) + dealt_to(two, dealt_two, to)


def whole_combats(scenario: Scenario):
    """(first step's entries, its outcome, second step's entries, its outcome) of every
    legal combat damage phase, every choice of the open orders (the same in both steps) and
    every choice the affected players make as damage is dealt. When the first step ends the
    game, the second step is ([], None)."""
    first = replace(scenario, step="first-strike")
    for orders in order_choices(first, open_for_the_phase(first)):
        announced = with_orders(first, orders)
        for one in legal_assignments(announced):
            for dealt_one in dealt_outcomes(announced, one):
                if game_over(announced, dealt_one):
                    yield one, dealt_one, [], None
                    continue
                second = after_first_step(announced, one, dealt_one)
                for two in legal_assignments(second):
                    for dealt_two in dealt_outcomes(second, two):
                        yield one, dealt_one, two, dealt_two


def _dealing_game(scenario: Scenario, entries: list[Entry], wants, value) -> int:
    """The players make their choices as damage is dealt in APNAP order (616.1), each
    knowing those before; `wants(player)` says whether they want the value high."""
    choices = dealing_choices(scenario, entries)
    players = list(choices)

    def play(i: int, chosen: list) -> int:
        if i == len(players):
            return value(outcome_of(scenario, entries, chosen))
        values = [play(i + 1, chosen + mine) for mine in choices[players[i]]]
        return max(values) if wants(players[i]) else min(values)

    return play(0, [])


def _step_game(scenario: Scenario, to: str, later) -> int | None:
    """One step: the active player's divisions, the defending players' after (510.1; each
    picks only among choices that can be completed legally), then the choices as damage is
    dealt; the value is the damage dealt to `to` plus `later(entries, outcome)`."""
    active = scenario.active_player
    hurt = who_is_hurt(scenario, to)

    def wants(player: str) -> bool:
        return (player == active) != (hurt == active)

    outcomes: dict[frozenset, list[int]] = {}
    for entries in legal_assignments(scenario):
        first = frozenset(e for e in entries if chooser(scenario, e.source) == active)
        value = _dealing_game(
            scenario, entries, wants, lambda o, e=entries: dealt_to(e, o, to) + later(e, o)
        )
        outcomes.setdefault(first, []).append(value)
    if not outcomes:
        return None
    if wants(active):
        return max(min(values) for values in outcomes.values())
    return min(max(values) for values in outcomes.values())


def guarantee_over_the_phase(scenario: Scenario, to: str) -> int:
    """The damage dealt to `to` over the whole combat damage phase that its wanter can be
    sure of: the open orders announced first, once for both steps (509.2-509.3); in each
    step the divisions, then the choices as damage is dealt, each side against the other;
    no second step when the first ends the game."""
    first = replace(scenario, step="first-strike")

    def phase(announced: Scenario) -> int | None:
        def later(entries, outcome):
            if game_over(announced, outcome):
                return 0
            second = after_first_step(announced, entries, outcome)
            return _step_game(second, to, lambda e, o: 0) or 0

        return _step_game(announced, to, later)

    value = orders_first(first, open_for_the_phase(first), to, phase)
    assert value is not None, "no legal assignment to guarantee anything with"
    return value
