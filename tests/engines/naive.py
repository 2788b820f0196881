"""A naive rules engine in plain Python, for the conformance tests: it knows the plain rules
of combat damage (each creature assigns its power, an unblocked attacker to what it attacks,
a blocked one to its blockers, a blocker to what it blocks) and trample, read one way or
another, and declines everything else as unsupported. Each wrong engine runs it with its
own reading of trample's lethal damage (`main(reading)`).

It speaks lethal-conform/1 (docs/conformance.md): one request on standard input, one
answer on standard output.
"""

from __future__ import annotations

import json
import sys

DORAN = "assigns combat damage equal to its toughness"
THORN = "may assign combat damage as though it weren't blocked"
# Trample over planeswalkers is trample when it attacks a player. Banding
# changes who divides damage, never which divisions are legal (lethal's docs/readings.md).
TRAMPLES = {"trample", "trample over planeswalkers"}
KNOWN = {"deathtouch", "indestructible", "first strike", "double strike", "banding", DORAN}
KNOWN |= TRAMPLES | {THORN}
M11 = "2010-07-16"  # since then, any damage from a deathtouch source is lethal damage
FOUNDATIONS = "2024-11-08"  # since then, no damage assignment order


def unsupported(data: dict) -> str:
    """Why this engine will not answer about the scenario, or ""."""
    rules = data.get("rules", "current")
    if rules != "current" and rules < M11:
        return "only the rules since 2010-07-16"
    ordered = rules != "current" and rules < FOUNDATIONS
    if data.get("effects"):
        return "no effects"
    if any(p.get("keywords") for p in data["players"]):
        return "no protection on players"
    for p in data["permanents"]:
        if p["types"] != ["creature"]:
            if "creature" in p["types"] or p.get("removed_from_combat"):
                return "no creature planeswalkers, nothing removed from combat"
            continue
        attacks_a_permanent = p.get("attacking") not in {q["id"] for q in data["players"]}
        if attacks_a_permanent and "trample over planeswalkers" in p.get("keywords", ()):
            return "no trample over planeswalkers into a planeswalker or battle"
        keywords = {k for k in p.get("keywords", ()) if not k.startswith("bands with other ")}
        if keywords - KNOWN:
            return f"no {', '.join(sorted(keywords - KNOWN))}"
        blockers = _blockers(data, p["id"])
        if p.get("blocked") and not blockers:
            return "no blocked creature without blockers"
        if THORN in keywords and blockers:
            return "no blocked creature that may assign as though it weren't blocked"
        if ordered and max(len(blockers), len(p.get("blocking", ()))) > 1:
            return "no damage assignment order of two or more creatures"
        if p.get("regeneration_shields"):
            return "no regeneration"
    return ""


def _assigns(data: dict, p: dict) -> bool:
    """Whether p assigns combat damage in this step (510.4)."""
    first, double = _has(p, "first strike"), _has(p, "double strike")
    step = data.get("step", "only")
    if step == "first-strike":
        return first or double
    if step == "second":
        return double or not p.get("struck_first", first or double)
    return True


def _blockers(data: dict, attacker: str) -> list[dict]:
    return [p for p in data["permanents"] if attacker in p.get("blocking", ())]


def _in_combat(p: dict) -> bool:
    return "attacking" in p or "blocking" in p


def _has(p: dict, keyword: str) -> bool:
    return keyword in p.get("keywords", ())


def _tramples(p: dict) -> bool:
    return bool(TRAMPLES & set(p.get("keywords", ())))


def _amount(p: dict) -> int:
    """The combat damage it assigns (510.1a, and Doran's exception)."""
    return max(0, p["toughness"] if _has(p, DORAN) else p["power"])


def _need(p: dict, by: dict) -> int:
    """Lethal damage to p from `by` alone, with what p has marked."""
    return 1 if _has(by, "deathtouch") else max(0, p["toughness"] - p.get("damage", 0))


def check(data: dict, reading: str) -> bool:
    """Whether the assignment is legal, with trample's lethal damage read as `reading`:
    "total" (the blockers got anything), "own" (the trampler's own damage and what is
    marked; others' damage ignored)."""
    rows: dict[str, dict[str, int]] = {}
    for e in data["assignment"]:
        rows.setdefault(e["source"], {})[e["to"]] = e["amount"]
    creatures = {p["id"]: p for p in data["permanents"]}
    for source in rows:
        if source not in creatures or not _in_combat(creatures[source]):
            return False
    for p in creatures.values():
        if not _in_combat(p):
            continue
        if not _assigns(data, p):
            if p["id"] in rows:
                return False
            continue
        row = rows.get(p["id"], {})
        owed = _amount(p) if p.get("blocking", True) else 0  # blocking nothing: none (510.1d)
        if sum(row.values()) != owed or any(a <= 0 for a in row.values()):
            return False
        if "blocking" in p:
            if set(row) - set(p["blocking"]):
                return False
            continue
        blockers = _blockers(data, p["id"])
        if not blockers:
            if set(row) - {p["attacking"]}:
                return False
            continue
        ids = {b["id"] for b in blockers}
        allowed = ids | ({p["attacking"]} if _tramples(p) else set())
        if set(row) - allowed:
            return False
        if row.get(p["attacking"], 0) == 0:
            continue
        if reading == "total":
            if sum(row.get(b, 0) for b in ids) < 1:
                return False
        elif any(row.get(b["id"], 0) < _need(b, p) for b in blockers):
            return False
    return True


def assign(data: dict, reading: str) -> list[dict]:
    """An assignment: an unblocked attacker to what it attacks; a trampler gives each blocker
    what its reading of lethal damage asks (1 for "total") and the rest past them; anyone
    else all to the first creature it may."""
    entries = []
    for p in data["permanents"]:
        if not _in_combat(p) or not _assigns(data, p) or _amount(p) == 0:
            continue
        power = _amount(p)
        if "blocking" in p:
            if p["blocking"]:
                entries.append({"source": p["id"], "to": p["blocking"][0], "amount": power})
            continue
        blockers = _blockers(data, p["id"])
        row: dict[str, int] = {}
        if not blockers:
            row[p["attacking"]] = power
        elif _tramples(p):
            left = power
            for b in blockers:
                given = min(left, 1 if reading == "total" else _need(b, p))
                row[b["id"]], left = given, left - given
            if left:
                row[p["attacking"]] = left
        else:
            row[blockers[0]["id"]] = power
        entries += [{"source": p["id"], "to": t, "amount": a} for t, a in row.items() if a]
    return entries


def deal(data: dict) -> dict:
    """Life totals and the creatures that die, once the assignment is dealt."""
    dealt: dict[str, int] = {}
    touched = set()
    creatures = {p["id"]: p for p in data["permanents"]}
    for e in data["assignment"]:
        dealt[e["to"]] = dealt.get(e["to"], 0) + e["amount"]
        if _has(creatures[e["source"]], "deathtouch"):
            touched.add(e["to"])
    life = {p["id"]: p["life"] - dealt.get(p["id"], 0) for p in data["players"] if "life" in p}
    graveyard = []
    for c in creatures.values():
        if "creature" not in c["types"]:  # a planeswalker's loyalty, a battle's defense
            if c.get("loyalty", c.get("defense")) <= dealt.get(c["id"], 0):
                graveyard.append(c["id"])
        elif not _has(c, "indestructible") and (
            c.get("damage", 0) + dealt.get(c["id"], 0) >= c["toughness"] or c["id"] in touched
        ):
            graveyard.append(c["id"])
    return {"life": life, "graveyard": graveyard}


def main(reading: str) -> None:
    request = json.load(sys.stdin)
    data = request["scenario"]
    why = unsupported(data)
    if why:
        answer: dict = {"unsupported": why}
    elif request["ask"] == "check":
        answer = {"legal": check(data, reading)}
    elif request["ask"] == "assign":
        answer = {"assignment": assign(data, reading)}
    elif request["ask"] == "deal":
        answer = deal(data)
    else:
        answer = {"unsupported": f"no ask {request['ask']!r}"}
    json.dump(answer, sys.stdout)
