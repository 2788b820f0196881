"""An independent reference for the assignment rules, written the slow, obvious way.

It shares no code with lethal's rules: it reads the scenario's plain values and follows the
CR text a creature at a time. For each creature that assigns combat damage it lists every
division of its power among the recipients it may use; an assignment is legal when each
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
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import date

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


def _kw(p, name):
    return name in p.keywords.plain


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


def divisions(scenario: Scenario, p) -> list[dict[str, int]]:
    """Every way p may divide its combat damage this step, trample's conditions and the
    damage assignment order aside."""
    free, gated = recipients(scenario, p)
    targets = free + gated
    if not assigns_this_step(scenario, p) or p.power <= 0 or not targets:
        return [{}]
    rows = []
    for amounts in itertools.product(range(p.power + 1), repeat=len(targets)):
        if sum(amounts) == p.power:
            rows.append({r: a for r, a in zip(targets, amounts, strict=True) if a})
    return rows


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
        _, gated = recipients(scenario, source)
        if a == 0 or t not in gated:
            continue
        if not all(lethal(scenario, amounts, b) for b in blockers_of(scenario, s)):
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
        and p.power > 0
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
    """Every order of c (the file's, if it gives one) that c's division follows."""
    p = next(q for q in scenario.permanents if q.id == c)
    amounts = {(e.source, e.to): e.amount for e in entries}
    return [o for o in orders_of(scenario, p) if follows_order(scenario, amounts, p, o)]


def orders_hold(
    scenario: Scenario, amounts: dict[tuple[str, str], int], *, open_too: bool = True
) -> bool:
    """Every creature bound by its order follows one of its orders. A creature's order
    limits only its own division, so "some choice of every open order works" is "each open
    order has one that works"."""
    for p in scenario.permanents:
        if not p.is_creature or not bound_by_order(scenario, p):
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
    open_ = [c for c in open_orders(scenario) if by_id[c].power > 0]
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


def _effects_on(scenario: Scenario, source: str, to: str) -> list[tuple]:
    """(kind, name, amount) of every effect on damage from source to `to`."""
    by_id = {p.id: p for p in scenario.permanents}
    found = []
    if source in by_id and to in by_id:
        for q in by_id[to].keywords.protection_from:
            if q in by_id[source].qualities:
                found.append(("protection", f"protection from {q}", 0))
    for e in scenario.effects:
        if e.kind == "prevent":
            hits = e.to == to
        else:
            hits = (e.sources is None or source in e.sources) and (
                e.recipients is None or to in e.recipients
            )
        if hits:
            found.append((e.kind, e.id, e.amount))
    return found


def dealt_outcomes(scenario: Scenario, entries: list[Entry]) -> set[tuple]:
    """Every (damage dealt per entry, permanents removed) the affected players can reach:
    every interleaving of every effect on every event is tried."""
    steps = [
        (n, eff) for n, e in enumerate(entries) for eff in _effects_on(scenario, e.source, e.to)
    ]
    results = set()
    for order in itertools.permutations(steps):
        amounts = [e.amount for e in entries]
        shields = {e.id: e.amount for e in scenario.effects if e.kind == "prevent"}
        for n, (kind, name, extra) in order:
            if amounts[n] <= 0:
                continue
            if kind == "protection":
                amounts[n] = 0
            elif kind == "prevent":
                stopped = min(amounts[n], shields[name])
                amounts[n] -= stopped
                shields[name] -= stopped
            elif kind == "double":
                amounts[n] *= 2
            else:
                amounts[n] += extra
        results.add((tuple(amounts), _removed(scenario, entries, amounts)))
    return results


def _removed(scenario: Scenario, entries: list[Entry], amounts: list[int]) -> frozenset:
    by_id = {p.id: p for p in scenario.permanents}
    gone = set()
    for p in scenario.permanents:
        taken = sum(a for e, a in zip(entries, amounts, strict=True) if e.to == p.id)
        touched = any(
            a > 0 and e.to == p.id and _kw(by_id[e.source], "deathtouch")
            for e, a in zip(entries, amounts, strict=True)
        )
        if p.is_creature and not _kw(p, "indestructible"):
            if p.damage + taken >= p.toughness or touched:
                gone.add(p.id)
        if p.is_planeswalker and p.loyalty - taken <= 0:
            gone.add(p.id)
        if p.is_battle and p.defense - taken <= 0:
            gone.add(p.id)
    return frozenset(gone)


def after_first_step(scenario: Scenario, entries: list[Entry]) -> Scenario:
    """The second step's combat, the slow way: every dealt point marked, the dead removed."""
    dealt = {}
    for e in entries:
        dealt[e.to] = dealt.get(e.to, 0) + e.amount
    gone = _removed(scenario, entries, [e.amount for e in entries])
    kept = []
    for p in scenario.permanents:
        if p.id in gone and p.is_creature and not (p.is_planeswalker or p.is_battle):
            continue
        p = replace(p, damage=p.damage + dealt.get(p.id, 0) if p.is_creature else p.damage)
        if p.is_planeswalker:
            p = replace(p, loyalty=p.loyalty - dealt.get(p.id, 0))
        if p.is_battle:
            p = replace(p, defense=p.defense - dealt.get(p.id, 0))
        if p.id in gone:
            p = replace(p, removed_from_combat=True, blocking=None)
        if p.blocking is not None:
            p = replace(p, blocking=tuple(a for a in p.blocking if a not in gone))
        if p.order is not None:  # 509.2a, 509.3a: the rest keep their relative order
            p = replace(p, order=tuple(x for x in p.order if x not in gone))
        kept.append(p)
    bands = tuple(
        tuple(m for m in band if m not in gone)
        for band in scenario.bands
        if len([m for m in band if m not in gone]) > 1
    )
    return replace(scenario, permanents=tuple(kept), bands=bands, step="second", assignment=None)


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
        and p.power > 0
        and len(order_members(scenario, p)) >= 2
    ]


def whole_combats(scenario: Scenario):
    """(first step's entries, second step's entries) of every legal combat damage phase:
    every choice of the open orders, the same in both steps."""
    first = replace(scenario, step="first-strike")
    seen = set()
    for orders in order_choices(first, open_for_the_phase(first)):
        announced = with_orders(first, orders)
        for one in legal_assignments(announced):
            for two in legal_assignments(after_first_step(announced, one)):
                key = (tuple(one), tuple(two))
                if key not in seen:
                    seen.add(key)
                    yield one, two
