"""Hypothesis strategies: random small combats, as scenario files, and assignments for them.

Combats have two or three players, up to 3 attackers and 3 other creatures (blocking, or
outside combat), powers up to 5, marked damage, every keyword that matters to assignment,
two qualities, bands, planeswalkers (some of them creatures), a battle and its protector,
targets removed from combat and blocked creatures whose blockers are gone. Each is judged
by an edition: often the current rules, else a date inside each era or at its boundaries,
with only what exists that day; under the editions with a damage assignment order, most
attacking and blocking creatures are given one, and some are left open.
"""

from __future__ import annotations

from datetime import date

from hypothesis import strategies as st

from lethal import Entry, parse
from lethal.proving.symbolic import QUALITIES

from . import reference

# The two abilities that change the assignment (Doran's, Thorn Elemental's).
TOUGHNESS_AS_DAMAGE = "assigns combat damage equal to its toughness"
AS_THOUGH_UNBLOCKED = "may assign combat damage as though it weren't blocked"
ATTACKER_KEYWORDS = [
    "deathtouch",
    "banding",
    "first strike",
    "double strike",
    "indestructible",
    TOUGHNESS_AS_DAMAGE,
    AS_THOUGH_UNBLOCKED,
]
TRAMPLES = [
    [],
    ["trample"],
    ["trample"],
    ["trample over planeswalkers"],
    ["trample", "trample over planeswalkers"],
]
BLOCKER_KEYWORDS = [
    "deathtouch",
    "banding",
    "first strike",
    "double strike",
    "indestructible",
    TOUGHNESS_AS_DAMAGE,
]
WOLVES = QUALITIES[0]  # qualities are the symbolic combat's, so it can be pinned to a file

# The days an edition begins, and the last days of the one before (scenario-format.md).
BOUNDARIES = [
    "2009-07-11",  # M10: the damage assignment order; deathtouch ignores it
    "2010-07-15",
    "2010-07-16",  # M11: deathtouch damage is lethal, and the order binds it
    "2021-06-17",
    "2021-06-18",  # trample over planeswalkers
    "2023-04-13",
    "2023-04-14",  # battles
    "2024-11-07",
    "2024-11-08",  # Foundations: no order
]
ERAS = [
    (date(2009, 7, 11), date(2010, 7, 15)),
    (date(2010, 7, 16), date(2021, 6, 17)),
    (date(2021, 6, 18), date(2023, 4, 13)),
    (date(2023, 4, 14), date(2024, 11, 7)),
    (date(2024, 11, 8), date(2030, 12, 31)),
]
FOUNDATIONS = date(2024, 11, 8)  # the damage assignment order is removed
TRAMPLE_OVER_PLANESWALKERS_FROM = date(2021, 6, 18)
BATTLES_FROM = date(2023, 4, 14)


def day_of(rules: str) -> date:
    return FOUNDATIONS if rules == "current" else date.fromisoformat(rules)


@st.composite
def editions(draw, orders_only: bool = False) -> str:
    """A `rules` value: "current" a third of the time, else a boundary day or a day inside
    an era. With `orders_only`, only the days of the editions with an order."""
    kind = draw(st.integers(0, 5))
    if kind <= 1 and not orders_only:
        return "current"
    if kind == 2:
        days = [b for b in BOUNDARIES if not orders_only or date.fromisoformat(b) < FOUNDATIONS]
        return draw(st.sampled_from(days))
    eras = [e for e in ERAS if not orders_only or e[0] < FOUNDATIONS]
    first, last = draw(st.sampled_from(eras))
    return draw(st.dates(first, last)).isoformat()


@st.composite
def creature_stats(
    draw, keywords: list[str], max_power: int, protection: bool, rare_banding: bool = False
) -> dict:
    """With `rare_banding`, banding and "bands with other" a quarter as often: they lift the
    damage assignment order, which crowded combats are for."""
    chosen = draw(st.lists(st.sampled_from(keywords), unique=True, max_size=3))
    if rare_banding and "banding" in chosen and draw(st.integers(0, 3)) > 0:
        chosen.remove("banding")
    if draw(st.integers(0, 23 if rare_banding else 5)) == 0:
        chosen.append("bands with other " + draw(st.sampled_from(QUALITIES)))
    if protection and draw(st.integers(0, 5)) == 0:
        chosen.append("protection from " + draw(st.sampled_from(QUALITIES)))
    toughness = draw(st.integers(1, 5))
    lethal_marked_ok = "indestructible" in chosen
    damage = draw(st.integers(0, toughness + 1 if lethal_marked_ok else toughness - 1))
    stats = {"power": draw(st.integers(-1, max_power)), "toughness": toughness, "keywords": chosen}
    if damage:
        stats["damage"] = damage
    qualities = draw(st.lists(st.sampled_from(QUALITIES), unique=True))
    if qualities:
        stats["qualities"] = qualities
    return stats


@st.composite
def scenarios(
    draw,
    max_power: int = 5,
    protection: bool = False,
    rules: st.SearchStrategy[str] | None = None,
    leave_open: int = 1,
    crowded: bool = False,
) -> dict:
    """Two or three players; ids are the symbolic combat's slots: attackers a0.., other
    creatures b0.., planeswalkers and battles p0... With `protection`, some creatures have
    protection from a quality (the whole combat's reference deals no effects). `rules`
    draws the edition (by default, any); an order a creature needs is left open with
    `leave_open` chances in 5 (0: every order is given). `crowded` combats have two or
    three other creatures, which often block every attacker they can, and banding is rare,
    so that orders have two or three creatures in them and bind."""
    edition = draw(rules if rules is not None else editions())
    day = day_of(edition)
    players = ["A", "D"] + (["E"] if draw(st.booleans()) else [])
    defenders = players[1:]
    planeswalkers = []
    for i in range(draw(st.integers(0, 2))):
        # Now and then the active player's own, which can't be attacked.
        owner = "A" if draw(st.integers(0, 5)) == 0 else draw(st.sampled_from(defenders))
        pw = {
            "id": f"p{i}",
            "controller": owner,
            "types": ["planeswalker"],
            "loyalty": draw(st.integers(1, 5)),
        }
        if draw(st.integers(0, 3)) == 0:
            pw["types"].append("creature")
            pw.update(draw(creature_stats(BLOCKER_KEYWORDS, max_power, protection)))
        planeswalkers.append(pw)
    battles = []
    if draw(st.booleans()) and day >= BATTLES_FROM:
        battles.append(
            {
                "id": f"p{len(planeswalkers)}",
                "controller": draw(st.sampled_from(players)),
                "types": ["battle"],
                "protector": draw(st.sampled_from(players)),
                "defense": draw(st.integers(1, 5)),
            }
        )
    by_id = {p["id"]: p for p in planeswalkers + battles}
    targets = defenders + [
        p["id"]
        for p in planeswalkers + battles
        if p.get("protector", p["controller"]) != "A"  # 508.1b, 310.8b
    ]

    def defending(attacker: dict) -> str:
        target = attacker["attacking"]
        if target in players:
            return target
        return by_id[target].get("protector", by_id[target]["controller"])

    tramples = [
        t
        for t in TRAMPLES
        if day >= TRAMPLE_OVER_PLANESWALKERS_FROM or "trample over planeswalkers" not in t
    ]
    attackers = []
    for i in range(draw(st.integers(1, 3))):
        attacker = {
            "id": f"a{i}",
            "controller": "A",
            "types": ["creature"],
            **draw(creature_stats(ATTACKER_KEYWORDS, max_power, protection, crowded)),
            "attacking": draw(st.sampled_from(targets)),
        }
        attacker["keywords"] += draw(st.sampled_from(tramples))
        attackers.append(attacker)
    for target in planeswalkers + battles:
        if any(a["attacking"] == target["id"] for a in attackers) and draw(st.integers(0, 3)) == 0:
            target["removed_from_combat"] = True

    # Bands: attackers with the same target, made legal by giving them banding (702.22c).
    bands = []
    if len(attackers) >= 2 and draw(st.integers(0, 3)) == 0:
        target = attackers[0]["attacking"]
        band = [a for a in attackers if a["attacking"] == target]
        if len(band) >= 2:
            for a in band[:-1]:
                if "banding" not in a["keywords"]:
                    a["keywords"].append("banding")
            bands.append([a["id"] for a in band])

    blockers = []
    for i in range(draw(st.integers(2 if crowded else 0, 3))):
        blocker = {
            "id": f"b{i}",
            "controller": draw(st.sampled_from(defenders)),
            "types": ["creature"],
            **draw(creature_stats(BLOCKER_KEYWORDS, max_power, protection, crowded)),
        }
        blockers.append(blocker)
    creature_planeswalkers = [p for p in planeswalkers if "creature" in p["types"]]
    for blocker in blockers + creature_planeswalkers:
        if blocker.get("removed_from_combat"):
            continue  # 506.4: no longer a blocking creature
        if draw(st.integers(0, 5 if blocker in blockers else 1)) == 0:
            if blocker in blockers:  # a creature outside combat, anyone's
                blocker["controller"] = draw(st.sampled_from(players))
            continue
        # 509.1a, 310.8c: it blocks only what attacks its controller or what they defend.
        can_block = [a["id"] for a in attackers if defending(a) == blocker["controller"]]
        at_least = 0 if draw(st.integers(0, 4)) == 0 or not can_block else 1
        if crowded and draw(st.booleans()):
            at_least = len(can_block)
        chosen = draw(
            st.lists(
                st.sampled_from(can_block or ["none"]),
                unique=True,
                min_size=at_least,
                max_size=len(can_block),
            )
        )
        for band in bands:  # 702.22h: blocking one member blocks the whole band
            if set(chosen) & set(band):
                chosen = list(dict.fromkeys(chosen + band))
        blocker["blocking"] = chosen
    for attacker in attackers:
        blocked = any(attacker["id"] in b.get("blocking", ()) for b in blockers + planeswalkers)
        if not blocked and draw(st.integers(0, 3)) == 0:
            attacker["blocked"] = True  # its blockers have left combat

    in_combat = attackers + [b for b in blockers + planeswalkers if "blocking" in b]
    strikers = any(
        {"first strike", "double strike"} & set(c.get("keywords", ())) for c in in_combat
    )
    step = draw(st.sampled_from(["first-strike", "second"] if strikers else ["only", "second"]))
    if step == "second":
        for creature in in_combat:
            if draw(st.integers(0, 3)) == 0:
                creature["struck_first"] = draw(st.booleans())

    if day < FOUNDATIONS:
        draw_orders(draw, attackers, blockers + planeswalkers, leave_open)

    permanents = attackers + blockers + planeswalkers + battles
    scenario = {
        "players": [{"id": p} for p in players],
        "active_player": "A",
        "permanents": permanents,
        "step": step,
    }
    if edition != "current" or draw(st.booleans()):
        scenario["rules"] = edition
    if bands:
        scenario["bands"] = bands
    return scenario


def draw_orders(draw, attackers: list[dict], others: list[dict], leave_open: int) -> None:
    """509.2-509.3: an attacker's order is the creatures blocking it, a blocker's the
    creatures it blocks. With two or more, most are given a drawn order and some are left
    open; with one, now and then the one-creature order is written out."""
    for creature in attackers + others:
        if creature in attackers:
            members = [b["id"] for b in others if creature["id"] in b.get("blocking", ())]
        elif "blocking" in creature:
            members = list(creature["blocking"])
        else:
            continue
        if len(members) >= 2:
            if draw(st.integers(0, 4)) >= leave_open:
                creature["order"] = draw(st.permutations(members))
        elif members and draw(st.integers(0, 5)) == 0:
            creature["order"] = members


@st.composite
def near_the_threshold(draw, scenario, p) -> dict[str, int] | None:
    """A trampler's row that gives each blocker about what it needs, give or take one, and
    the planeswalker it attacks about its loyalty: where off-by-one readings differ."""
    free, gated = reference.recipients(scenario, p)
    if not gated or not reference.assigns_this_step(scenario, p) or reference.amount(p) <= 0:
        return None
    row: dict[str, int] = {}
    for b in reference.blockers_of(scenario, p.id):
        blocker = scenario.permanent(b)
        row[b] = max(0, _need(scenario, p, blocker) + draw(st.sampled_from([-1, 0, 0, 1])))
    attacked = next((q for q in scenario.permanents if q.id == p.attacking), None)
    if attacked is not None and attacked.is_planeswalker and len(gated) > 1:
        row[attacked.id] = max(0, attacked.loyalty + draw(st.sampled_from([-2, -1, 0, 0, 1])))
    return _the_rest_to_one(draw, row, reference.amount(p), gated)


def _the_rest_to_one(draw, row: dict[str, int], power: int, among) -> dict[str, int] | None:
    """The row with what is left of power added to one of `among`; None when the row
    already asks for more than power."""
    rest = power - sum(row.values())
    if rest < 0:
        return None
    chosen = draw(st.sampled_from(among))
    row[chosen] = row.get(chosen, 0) + rest
    return {r: a for r, a in row.items() if a}


def _need(scenario, p, x) -> int:
    """What p alone must assign to x for lethal damage (702.2c from M11 on: 1 with
    deathtouch)."""
    if "deathtouch" in p.keywords and reference.deathtouch_is_lethal(scenario):
        return 1
    return max(0, x.toughness - x.damage)


@st.composite
def near_the_order(draw, scenario, p) -> dict[str, int] | None:
    """A row of a creature bound by its damage assignment order that gives the creatures
    in an order (its own, or a drawn one when it is open) about what each needs, give or
    take one, and the rest to one of them: where 510.1c-d decide."""
    members = reference.order_members(scenario, p)
    if not reference.bound_by_order(scenario, p) or reference.amount(p) <= 0:
        return None
    order = p.order if p.order is not None else draw(st.permutations(members))
    row: dict[str, int] = {}
    for x in order[: draw(st.integers(1, len(order)))]:
        need = _need(scenario, p, scenario.permanent(x))
        row[x] = max(0, need + draw(st.sampled_from([-1, 0, 0, 1])))
    return _the_rest_to_one(draw, row, reference.amount(p), order)


@st.composite
def assignments(draw, scenario) -> list[Entry]:
    """Mostly divisions the reference allows one creature at a time (so trample's
    conditions and the orders decide), often near trample's thresholds or an order's,
    sometimes rows that break the plain rules too."""
    ids = [p.id for p in scenario.players] + [p.id for p in scenario.permanents]
    entries: list[Entry] = []
    for p in scenario.permanents:
        if not p.is_creature:
            continue
        kind = draw(st.integers(0, 5))
        near = draw(near_the_threshold(scenario, p)) if kind <= 2 else None
        if near is None and kind <= 3:
            near = draw(near_the_order(scenario, p))
        if near is not None:
            row = near
        elif kind < 5:
            row = draw(st.sampled_from(reference.divisions(scenario, p)))
        else:
            targets = draw(st.lists(st.sampled_from(ids), unique=True, max_size=3))
            row = {t: draw(st.integers(1, 6)) for t in targets}
        entries += [Entry(p.id, t, a) for t, a in row.items()]
    return entries


def combats(max_power: int = 5, **options):
    return scenarios(max_power, **options).map(parse)


# What damage does once dealt (120.3, 702.15-16, 702.80, 702.90, 702.164, 701.19, 704.5):
# drawn onto a scenario for the dealing tests. Assignment ignores all of it but deathtouch,
# so draw it before the assignment.
RESULT_KEYWORDS = [
    "lifelink",
    "infect",
    "wither",
    "toxic 1",
    "toxic 2",
    "deathtouch",
    "indestructible",
]
# A quality in any case, card types singular and plural (702.16a), and everything (702.16j).
PROTECTIONS = [
    "protection from " + q
    for q in (WOLVES, WOLVES.title(), "creatures", "Creature", "artifacts", "everything")
]


@st.composite
def with_results(draw, data: dict) -> dict:
    """`data` (a scenario's dict) with keywords that change what damage does on its
    creatures, protection from a quality, a card type or everything, some creatures also
    artifacts, regeneration shields; players with a small life total, poison counters and
    now and then protection."""
    for p in data["permanents"]:
        if "creature" not in p["types"]:
            continue
        keywords = p.setdefault("keywords", [])
        for keyword in draw(st.lists(st.sampled_from(RESULT_KEYWORDS), unique=True, max_size=2)):
            if keyword not in keywords:
                keywords.append(keyword)
        if draw(st.integers(0, 3)) == 0:
            keywords.append(draw(st.sampled_from(PROTECTIONS)))
        if draw(st.integers(0, 3)) == 0:
            p["types"].append("artifact")
        if draw(st.integers(0, 3)) == 0:
            p["regeneration_shields"] = draw(st.integers(1, 2))
    for player in data["players"]:
        if draw(st.integers(0, 2)) > 0:
            player["life"] = draw(st.integers(1, 4))
        if draw(st.integers(0, 2)) == 0:
            player["poison"] = draw(st.sampled_from([0, 1, 7, 8, 9]))
        if draw(st.integers(0, 6)) == 0:
            player["keywords"] = [draw(st.sampled_from(PROTECTIONS))]
    return data


EFFECT_KINDS = ["prevent", "prevent", "fog", "double", "add", "cant-be-prevented"]


@st.composite
def effects(
    draw,
    sources: list[str],
    recipients: list[str],
    most: int = 3,
    least: int = 0,
    kinds: list[str] = EFFECT_KINDS,
) -> list[dict]:
    """`least` to `most` effects on the damage from `sources` to `recipients`: shields (prevent
    the next N to one recipient, 615.7), preventions of all damage to one recipient or to
    anything, limited to a source or not, "once" (Circle of Protection), Fogs, doublers,
    "plus N" (701.10g) and damage that can't be prevented (615.12)."""
    found = []
    for n in range(draw(st.integers(least, most))):
        kind = draw(st.sampled_from(kinds))
        effect = {"id": f"e{n}", "kind": "prevent" if kind == "fog" else kind}
        if kind == "prevent":
            if draw(st.booleans()):
                effect["amount"] = draw(st.integers(1, 3))
                effect["to"] = draw(st.sampled_from(recipients))
            elif draw(st.booleans()):
                effect["to"] = draw(st.sampled_from(recipients))
            if draw(st.booleans()):
                effect["sources"] = [draw(st.sampled_from(sources))]
            if draw(st.integers(0, 2)) == 0:
                effect["once"] = True
        elif kind in ("double", "add"):
            if kind == "add":
                effect["amount"] = draw(st.integers(1, 2))
            if draw(st.booleans()):
                effect["sources"] = [draw(st.sampled_from(sources))]
            if draw(st.booleans()):
                effect["recipients"] = [draw(st.sampled_from(recipients))]
        elif kind == "cant-be-prevented" and draw(st.integers(0, 3)) > 0:
            effect["sources"] = draw(st.lists(st.sampled_from(sources), min_size=1, unique=True))
        found.append(effect)
    return found


@st.composite
def phase_starts(draw) -> dict:
    """A small combat's dict from the start of the combat damage phase (no step, nothing
    struck first yet), half the time with what damage does (`with_results`)."""
    data = draw(scenarios(max_power=3))
    data.pop("step")
    for p in data["permanents"]:
        p.pop("struck_first", None)
    return draw(with_results(data)) if draw(st.booleans()) else data
