"""Counterexamples: a model read as scenario files, written as people write them, and shown
as a small table."""

from __future__ import annotations

import json
from pathlib import Path

import z3

from ..combat import DOUBLE, PREVENT, Permanent, Player, Scenario
from ..editions import CURRENT_NAME, in_force
from ..keywords import PROTECTION_FROM_EVERYTHING
from ..rules import order
from ..solver import terms
from ..view import ScenarioView
from . import Property
from .symbolic import KEYWORDS, QUALITIES, STEPS, SymbolicCombat


def scenario(combat: SymbolicCombat, model: z3.ModelRef) -> dict:
    """The combat a model describes, as a scenario file."""

    def value(term):
        return term if isinstance(term, bool) else terms.value_in(model, term)

    def owner(x: str, of) -> str:
        return next(p for p in combat.players if value(of(p, x)))

    step = STEPS[value(combat.step)]
    permanents = []
    for c in combat.creatures:
        if not value(combat.present[c]):
            continue
        permanent: dict = {"id": c, "controller": owner(c, combat.controls)}
        if c in combat.planeswalkers:
            battle = value(combat.battle[c])
            permanent["types"] = ["battle"] if battle else ["planeswalker"]
            if value(combat.creature[c]):
                permanent["types"].insert(0, "creature")
            permanent["defense" if battle else "loyalty"] = value(combat.loyalty(c))
            if battle:
                permanent["protector"] = owner(c, combat.protects)
            if value(combat.removed(c)):
                permanent["removed_from_combat"] = True
        else:
            permanent["types"] = ["creature"]
        if value(combat.is_creature(c)):
            power, toughness, damage = (value(t) for t in combat.stats[c])
            permanent.update(power=power, toughness=toughness)
            if damage:
                permanent["damage"] = damage
            # Protection from everything is left to _protections, which writes it once.
            others = (k for k in KEYWORDS if k != PROTECTION_FROM_EVERYTHING)
            keywords = [k for k in others if value(combat.has(c, k))]
            keywords += _protections(combat, c, value)
            keywords += [
                f"bands with other {q}" for q in QUALITIES if value(combat.bands_with_other(c, q))
            ]
            if value(combat.toxic(c)):
                keywords.append(f"toxic {value(combat.toxic(c))}")
            if keywords:
                permanent["keywords"] = keywords
            if value(combat.regeneration_shields(c)):
                permanent["regeneration_shields"] = value(combat.regeneration_shields(c))
            qualities = [q for q in QUALITIES if value(combat.has_quality(c, q))]
            if qualities:
                permanent["qualities"] = qualities
        if c in combat.attackers:
            permanent["attacking"] = next(t for t in combat.targets if value(combat.attacks(c, t)))
            blocked = value(combat.is_blocked(c))
            if blocked and not any(value(combat.blocks(x, c)) for x in combat.creatures):
                permanent["blocked"] = True
        if value(combat.is_blocking(c)):
            permanent["blocking"] = [a for a in combat.attackers if value(combat.blocks(c, a))]
        in_combat = c in combat.attackers or value(combat.is_blocking(c))
        if combat.edition.has_order and in_combat:
            members = [x for x in combat.creatures if value(order.in_order(combat, c, x))]
            if len(members) >= 2:
                precedes = combat.order(c)
                permanent["order"] = sorted(
                    members, key=lambda x: sum(value(precedes(y, x)) for y in members)
                )
        if step == "second" and in_combat and value(combat.is_creature(c)):
            striker = any(value(combat.has(c, k)) for k in ("first strike", "double strike"))
            if value(combat.struck_first(c)) != striker:
                permanent["struck_first"] = value(combat.struck_first(c))
        permanents.append(permanent)
    effects = [
        {"id": f"double-{c}", "kind": "double", "sources": [c]}
        for c in combat.creatures
        if value(combat.present[c]) and value(combat.doubled(c))
    ] + [
        {"id": f"shield-{r}", "kind": "prevent", "amount": value(combat.shield(r)), "to": r}
        for r in combat.recipients
        if value(combat.shield(r)) and (r in combat.players or value(combat.present[r]))
    ]
    effects += [
        {"id": f"fog-{r}", "kind": "prevent", "to": r}
        for r in combat.recipients
        if value(combat.prevent_all(r)) and (r in combat.players or value(combat.present[r]))
    ]
    effects += [
        {"id": f"unpreventable-{c}", "kind": "cant-be-prevented", "sources": [c]}
        for c in combat.creatures
        if value(combat.present[c]) and value(combat.cant_be_prevented(c))
    ]
    players = []
    for p in combat.players:
        if value(combat.is_player(p)):
            player: dict = {"id": p}
            keywords = _protections(combat, p, value)
            if keywords:
                player["keywords"] = keywords
            players.append(player)
    data: dict = {"format": "lethal/1"}
    if combat.edition.asked != CURRENT_NAME:
        data["rules"] = combat.edition.asked
    data |= {
        "players": players,
        "active_player": combat.active_player,
    }
    if step != "only":
        data["step"] = step
    data["permanents"] = permanents
    bands = _bands(combat, value)
    if bands:
        data["bands"] = bands
    if effects:
        data["effects"] = effects
    assignments = [
        [
            {"source": s, "to": r, "amount": value(v)}
            for (s, r), v in x.variables.items()
            if value(v)
        ]
        for x in combat.assignments
    ]
    if assignments:
        data["assignment"] = assignments[0]
    data["_assignments"] = assignments  # every assignment the property named, for re-checks
    data["_integers"] = {name: value(v) for name, v in combat.integers.items()}
    # The same combat as a file under each other edition the property judges it by.
    data["_under"] = {
        e.asked: public(scenario(combat.under(e.asked), model))
        for e in combat.editions[1:]
        if e.since != combat.edition.since
    }
    return data


def _protections(combat: SymbolicCombat, x: str, value) -> list[str]:
    """x's protection keywords, as a file writes them."""
    found = [PROTECTION_FROM_EVERYTHING] if value(combat.has(x, PROTECTION_FROM_EVERYTHING)) else []
    return found + [
        f"protection from {combat.player_called(q) or ('creatures' if q == 'creature' else q)}"
        for q in combat.protections
        if value(combat.protection_from(x, q))
    ]


def public(data: dict) -> dict:
    """A scenario file's fields, without the re-check's own."""
    return {k: v for k, v in data.items() if not k.startswith("_")}


def replayable(data: dict) -> tuple[dict, str | None]:
    """The file a re-check reads, and the edition to judge it by when that is not the
    file's own: a combat judged under an edition with orders and one without is read from a
    file that has its orders."""
    own = data.get("rules", CURRENT_NAME)
    if in_force(own).has_order:
        return public(data), None
    for rules, file in data.get("_under", {}).items():
        if in_force(rules).has_order:
            return file, own
    return public(data), None


def unknowns(scenario: Scenario, combat: SymbolicCombat) -> dict[str, bool | int]:
    """The other way round: the value of each of the combat's unknowns (by name, as in
    `SymbolicCombat.unknowns`, and "step") that describes a scenario whose ids are the
    combat's slots and players. An absent slot has the plain values well_formed gives it."""
    values: dict[str, bool | int] = {"step": STEPS.index(scenario.step)}
    by_id = {p.id: p for p in scenario.permanents}
    players = {p.id: p for p in scenario.players}
    for name in combat.unknowns:
        slot, what = name.split(".", 1)
        if slot in players and what not in ("present", "shield", "prevent all"):
            values[name] = _player_unknown(players[slot], what)
        elif not what.startswith("order "):
            values[name] = _unknown(scenario, by_id.get(slot), slot, what)
    for s, ranks in _positions(combat, by_id).items():
        values.update({f"{s}.order {x}": rank for x, rank in ranks.items()})
    return values


def _positions(combat: SymbolicCombat, by_id: dict) -> dict[str, dict[str, int]]:
    """Each creature's order as positions: the file's order first, then the slots outside
    it in slot order (they are not in the order, and any position will do)."""
    slots: dict[str, list[str]] = {}
    for name in combat.unknowns:
        slot, what = name.split(".", 1)
        if what.startswith("order "):
            slots.setdefault(slot, []).append(what[len("order ") :])
    positions = {}
    for s, candidates in slots.items():
        given = by_id[s].order if s in by_id and by_id[s].order else ()
        ranked = [*given, *(x for x in candidates if x not in given)]
        positions[s] = {x: ranked.index(x) for x in candidates}
    return positions


def _player_unknown(player: Player, what: str) -> bool:
    """A player's protection (702.16b, 702.16j): the only keywords a player has."""
    if what == PROTECTION_FROM_EVERYTHING:
        return PROTECTION_FROM_EVERYTHING in player.keywords
    quality = what.removeprefix("protection from ")
    return quality in player.keywords.protection_from


def _unknown(scenario: Scenario, p: Permanent | None, slot: str, what: str) -> bool | int:
    if what == "shield":
        return sum(e.amount for e in scenario.effects if e.is_shield and e.to == slot)
    there = p is not None or any(player.id == slot for player in scenario.players)
    if what == "prevent all":  # a prevention of all the damage, to this recipient or to any
        return there and any(
            e.kind == PREVENT and e.amount is None and e.to in (None, slot)
            for e in scenario.effects
        )
    if what == "present":
        return there
    creature = p is not None and p.is_creature
    if what == "toxic":
        return p.keywords.toxic if creature else 0
    if what == "regeneration shields":
        return p.regeneration_shields if creature else 0
    if what == "cant be prevented":
        return creature and ScenarioView(scenario).cant_be_prevented(slot)
    plain = {"power": 0, "toughness": 1, "damage": 0, "loyalty": 1}
    if what in plain:
        if what == "loyalty" and p is not None:
            return p.defense if p.is_battle else p.loyalty
        return getattr(p, what) if creature and what != "loyalty" else plain[what]
    if p is None:
        return False
    if what in KEYWORDS:
        return what in p.keywords
    for prefix, holds in (
        ("quality ", lambda q: q in p.qualities),
        ("bands with other ", lambda q: q in p.keywords.bands_with_other),
        ("protection from ", lambda q: q in p.keywords.protection_from),
        ("controller ", lambda player: p.controller == player),
        ("protector ", lambda player: p.is_battle and p.protector == player),
        ("attacks ", lambda target: p.attacking == target),
        ("blocks ", lambda a: a in (p.blocking or ())),
        ("banded with ", lambda other: any({slot, other} <= set(b) for b in scenario.bands)),
    ):
        if what.startswith(prefix):
            return holds(what[len(prefix) :])
    facts = {
        "creature": creature,
        "battle": p.is_battle,
        "removed": p.removed_from_combat,
        "blocking": p.blocking is not None,
        "blocked": p.blocked,
        "struck first": p.struck_first,
        "doubled": any(
            e.kind == DOUBLE and e.sources == {slot} and e.recipients is None
            for e in scenario.effects
        ),
    }
    if what in facts:
        return facts[what]
    return what in p.keywords  # a plain keyword


def _bands(combat: SymbolicCombat, value) -> list[list[str]]:
    bands: list[list[str]] = []
    for a in combat.attackers:
        if any(a in band for band in bands):
            continue
        band = [a] + [b for b in combat.attackers if b != a and value(combat.banded(a, b))]
        if len(band) > 1:
            bands.append(band)
    return bands


def _effect_text(effect: dict) -> str:
    kind = effect["kind"]
    if kind == "double":
        return f"{', '.join(effect['sources'])} deals double damage"
    if kind == "cant-be-prevented":
        return f"the damage of {', '.join(effect['sources'])} can't be prevented"
    if "amount" in effect:
        return f"prevent the next {effect['amount']} damage to {effect['to']}"
    return f"prevent all the damage to {effect['to']}"


def write(prop: Property, scenarios: list[dict], out: Path) -> tuple[str, ...]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for n, data in enumerate(scenarios):
        stem = prop.name if n == 0 else f"{prop.name}.{n + 1}"
        path = out / f"{stem}.json"
        path.write_text(file_text(public(data)))
        files.append(str(path))
        for rules, file in data.get("_under", {}).items():  # the combat under other editions
            path = out / f"{stem}.{rules}.json"
            path.write_text(file_text(file))
            files.append(str(path))
    return tuple(files)


def file_text(file: dict) -> str:
    """A scenario as people write them: one permanent, one entry to a line."""
    lines = ["{"]
    items = list(file.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict) and key != "players":
            rows = [f"    {json.dumps(row)}" for row in value]
            lines += [f'  "{key}": [', ",\n".join(rows), f"  ]{comma}"]
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    return "\n".join(lines + ["}"]) + "\n"


def table(scenarios: list[dict]) -> str:
    lines = []
    for n, data in enumerate(scenarios):
        if len(scenarios) > 1:
            lines.append(f"combat {n + 1}:")
        # Orders, when only another edition of the property has them.
        orders = {
            p["id"]: f"order {' then '.join(p['order'])} (under {rules})"
            for rules, file in data.get("_under", {}).items()
            for p in file["permanents"]
            if "order" in p
        }
        if data.get("step"):
            lines.append(f"  step {data['step']}")
        for player in data["players"]:
            if player.get("keywords"):
                lines.append(f"  player {player['id']}, " + ", ".join(player["keywords"]))
        for p in data["permanents"]:
            bits = [p["id"], "/".join(t for t in p["types"])]
            if "power" in p:
                bits.append(f"{p['power']}/{p['toughness']}")
            if p.get("damage"):
                bits.append(f"{p['damage']} marked")
            for key in ("loyalty", "defense"):
                if key in p:
                    bits.append(f"{key} {p[key]}")
            bits += p.get("keywords", [])
            if "attacking" in p:
                bits.append(f"attacking {p['attacking']}")
            if p.get("blocked"):
                bits.append("blocked, its blockers gone")
            if "blocking" in p:
                bits.append("blocking " + (", ".join(p["blocking"]) or "nothing"))
            if "order" in p:
                bits.append("order " + " then ".join(p["order"]))
            elif p["id"] in orders:
                bits.append(orders[p["id"]])
            if p.get("removed_from_combat"):
                bits.append("removed from combat")
            if p.get("regeneration_shields"):
                bits.append(f"{p['regeneration_shields']} regeneration shields")
            lines.append("  " + ", ".join(bits))
        for band in data.get("bands", []):
            lines.append("  band: " + ", ".join(band))
        for effect in data.get("effects", []):
            lines.append("  effect: " + _effect_text(effect))
        for name, number in data["_integers"].items():
            lines.append(f"  {name} = {number}")
        for k, assignment in enumerate(data["_assignments"]):
            shown = ", ".join(f"{e['source']}->{e['to']} {e['amount']}" for e in assignment)
            lines.append(f"  assignment {k + 1}: {shown or 'nothing'}")
    return "\n".join(lines)
