"""An independent reference for the assignment rules, written the slow, obvious way.

It shares no code with lethal's rules: it reads the scenario's plain values and follows the
CR text a creature at a time. For each creature that assigns combat damage it lists every
division of its power among the recipients it may use; an assignment is legal when each
creature's row is one of its divisions and trample's conditions hold for the whole.
"""

from __future__ import annotations

import itertools

from lethal.combat import Entry, Scenario


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
    """Every way p may divide its combat damage this step, trample's conditions aside."""
    free, gated = recipients(scenario, p)
    targets = free + gated
    if not assigns_this_step(scenario, p) or p.power <= 0 or not targets:
        return [{}]
    rows = []
    for amounts in itertools.product(range(p.power + 1), repeat=len(targets)):
        if sum(amounts) == p.power:
            rows.append({r: a for r, a in zip(targets, amounts, strict=True) if a})
    return rows


def conditions_hold(scenario: Scenario, amounts: dict[tuple[str, str], int]) -> bool:
    """702.19b-c with 702.2c: what must be assigned before damage goes past the blockers."""
    by_id = {p.id: p for p in scenario.permanents}

    def assigned_to(r):
        return sum(a for (s, t), a in amounts.items() if t == r)

    def lethal(b):
        blocker = by_id[b]
        deathtouch = any(
            a > 0 and _kw(by_id[s], "deathtouch") for (s, t), a in amounts.items() if t == b
        )
        return deathtouch or blocker.damage + assigned_to(b) >= blocker.toughness

    for (s, t), a in amounts.items():
        source = by_id[s]
        _, gated = recipients(scenario, source)
        if a == 0 or t not in gated:
            continue
        if not all(lethal(b) for b in blockers_of(scenario, s)):
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


def is_legal(scenario: Scenario, entries: list[Entry]) -> bool:
    rows: dict[str, dict[str, int]] = {}
    for e in entries:
        rows.setdefault(e.source, {})[e.to] = e.amount
    for p in scenario.permanents:
        if not p.is_creature:
            continue
        if rows.get(p.id, {}) not in divisions(scenario, p):
            return False
    amounts = {(e.source, e.to): e.amount for e in entries}
    return conditions_hold(scenario, amounts)


def legal_assignments(scenario: Scenario):
    """Every legal assignment of the step, as lists of entries (small combats only)."""
    creatures = [p for p in scenario.permanents if p.is_creature]
    for rows in itertools.product(*(divisions(scenario, p) for p in creatures)):
        entries = [
            Entry(p.id, t, a)
            for p, row in zip(creatures, rows, strict=True)
            for t, a in row.items()
        ]
        if conditions_hold(scenario, {(e.source, e.to): e.amount for e in entries}):
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


def guarantee(scenario: Scenario, to: str) -> int:
    """The damage to `to` its wanter can be sure of: the active player's divisions are
    chosen first (510.1), the defending players' after, each side against the other."""
    by_id = {p.id: p for p in scenario.permanents}
    if to in by_id:
        hurt = by_id[to].protector if by_id[to].is_battle else by_id[to].controller
    else:
        hurt = to
    active = scenario.active_player
    outcomes: dict[frozenset, list[int]] = {}
    for entries in completions(scenario):
        first = frozenset(e for e in entries if chooser(scenario, e.source) == active)
        outcomes.setdefault(first, []).append(damage_to(entries, to))
    if hurt != active:
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
    from dataclasses import replace

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
        kept.append(p)
    bands = tuple(
        tuple(m for m in band if m not in gone)
        for band in scenario.bands
        if len([m for m in band if m not in gone]) > 1
    )
    return replace(scenario, permanents=tuple(kept), bands=bands, step="second", assignment=None)


def whole_combats(scenario: Scenario):
    """(first step's entries, second step's entries) of every legal combat damage phase."""
    from dataclasses import replace

    first = replace(scenario, step="first-strike")
    for one in legal_assignments(first):
        for two in legal_assignments(after_first_step(first, one)):
            yield one, two
