"""A check of a large combat gives the verdict of the brute-force reference.

The random combats of tests/test_agreement.py are small; `lethal check` must be right at any
size, and it narrows whom each rule asks about to stay linear. Here the reference judges
combats of 1000 attackers and 500 blockers, drawn with a fixed seed: trample, trample over
planeswalkers, deathtouch, attacking bands, banding blockers and a "bands with other" pair,
under today's rules and under an edition with damage assignment orders (every order given).
Each is judged with a legal assignment, with that assignment spoiled in one place, and with
every creature's power divided at random among those it may assign to. The benchmark's own
1000x500 combat (benchmarks/check_speed.py) is judged too, by the reference and by the plain
walk `check` is timed against, where that walk judges as the rules do.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from lethal import Entry, check, parse

from . import reference
from .build import attacker, blocker, planeswalker, scenario_file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
# The combat and the floor `check` is measured against (issue 12).
from check_speed import banding_combat, floor, legal_assignment, reachable  # noqa: E402

ATTACKERS, BLOCKERS = 1000, 500
EDITIONS = ("current", "2022-01-01")  # no order; an order, and trample over planeswalkers


def large_combat(rules: str, seed: int) -> dict:
    """Attackers in bands of two (a banding creature and the next one) or alone, the first
    band a "bands with other legendary" pair; each blocker blocks one or two of them whole
    (702.22h). Orders, where the edition has them, are the blockers in the file's order."""
    rng = random.Random(seed)
    walkers = [planeswalker(f"p{i}", rng.randint(1, 5)) for i in range(ATTACKERS // 50)]
    units, i = [], 0
    while i < ATTACKERS:
        target = rng.choice(walkers)["id"] if rng.random() < 0.1 else "D"
        keywords = rng.sample(["trample", "deathtouch", "banding"], rng.randint(0, 2))
        if target != "D" and "trample" in keywords and rng.random() < 0.5:
            keywords[keywords.index("trample")] = "trample over planeswalkers"
        unit = [attacker(f"a{i}", rng.randint(1, 4), 4, *keywords, attacking=target)]
        if i == 0:
            unit[0] |= {"keywords": ["bands with other legendary"], "qualities": ["legendary"]}
        if i == 0 or "banding" in keywords:
            unit.append(attacker(f"a{i + 1}", rng.randint(1, 4), 4, attacking=target))
            unit[-1]["qualities"] = ["legendary"]
        units.append(unit)
        i += len(unit)
    blockers = []
    for n in range(BLOCKERS):
        blocked = [a["id"] for unit in rng.sample(units, rng.randint(1, 2)) for a in unit]
        keywords = ["banding"] if rng.random() < 0.1 else []
        blockers.append(
            blocker(f"b{n}", rng.randint(0, 4), rng.randint(1, 5), *keywords, blocking=blocked)
        )
    attackers = [a for unit in units for a in unit]
    if rules != "current":
        for b in blockers:
            b["order"] = b["blocking"]
        for a in attackers:
            a["order"] = [b["id"] for b in blockers if a["id"] in b["blocking"]] or None
            if a["order"] is None:
                del a["order"]
    bands = [[a["id"] for a in unit] for unit in units if len(unit) > 1]
    return scenario_file(*attackers, *blockers, *walkers, rules=rules, bands=bands)


def random_assignment(data: dict, rng: random.Random) -> list[Entry]:
    """Each creature's power divided at random among those it may assign to: legal or not."""
    by_id = {p["id"]: p for p in data["permanents"]}
    entries = []
    for s, recipients in reachable(data).items():
        left = by_id[s]["power"]
        for r in recipients:
            amount = left if r == recipients[-1] else rng.randint(0, left)
            if amount:
                entries.append(Entry(s, r, amount))
            left -= amount
    return entries


def spoiled(entries: list[Entry], rng: random.Random) -> list[Entry]:
    """One entry's amount changed by one."""
    n = rng.randrange(len(entries))
    entries = list(entries)
    entries[n] = replace(entries[n], amount=entries[n].amount + rng.choice((-1, 1)))
    return [e for e in entries if e.amount > 0]


@pytest.fixture(scope="module", params=EDITIONS)
def combat(request):
    data = large_combat(request.param, seed=len(request.param))
    return data, parse(data)


@pytest.mark.parametrize("kind", ["legal", "spoiled", "random"])
def test_a_large_check_gives_the_reference_verdict(combat, kind):
    data, scenario = combat
    rng = random.Random(kind)
    entries = legal_assignment(data)
    if kind == "spoiled":
        entries = spoiled(entries, rng)
    elif kind == "random":
        entries = random_assignment(data, rng)
    verdict = check(scenario, entries)
    assert verdict.legal == reference.is_legal(scenario, entries), verdict.violations[:5]
    if kind == "legal":
        assert verdict.legal, verdict.violations[:5]


def floor_variants(scenario, rng: random.Random) -> dict[str, list[Entry]]:
    """The benchmark's legal assignment, and changes of it that stay where the floor judges
    as the rules do (each creature's power, 510.1a; lethal damage to a trampler's blockers
    before any goes past them, 702.19b, 702.2c): one entry one more, one entry one less, and
    damage a trampler gives a blocker moved past it, to what it already assigns to there."""
    entries = list(scenario.assignment)
    blocks = {(b.id, a) for b in scenario.permanents for a in b.blocking or ()}
    found = {"legal": entries}
    for name, change in (("one more", 1), ("one less", -1)):
        n = rng.randrange(len(entries))
        varied = [
            replace(e, amount=e.amount + change) if i == n else e for i, e in enumerate(entries)
        ]
        found[name] = [e for e in varied if e.amount > 0]
    past = {e.source: i for i, e in enumerate(entries) if (e.to, e.source) not in blocks}
    moves = [i for i, e in enumerate(entries) if (e.to, e.source) in blocks and e.source in past]
    for k, n in enumerate(rng.sample(moves, 3)):
        moved = list(entries)
        there = past[entries[n].source]
        moved[n] = replace(entries[n], amount=entries[n].amount - 1)
        moved[there] = replace(entries[there], amount=entries[there].amount + 1)
        found[f"moved past a blocker {k}"] = [e for e in moved if e.amount > 0]
    return found


@pytest.mark.parametrize("bands_with_other", [False, True], ids=["plain", "bands with other"])
def test_the_benchmark_s_largest_check_agrees_with_the_floor_and_the_reference(bands_with_other):
    """check_speed's 1000x500 combat: check, the floor's plain walk and the reference give
    one verdict for its assignment and for changes of it the floor can judge."""
    scenario = banding_combat(1000, seed=1000, bands_with_other=bands_with_other)
    verdicts = {}
    for name, entries in floor_variants(scenario, random.Random(bands_with_other)).items():
        legal = check(scenario, entries).legal
        assert legal == floor(replace(scenario, assignment=tuple(entries))), name
        assert legal == reference.is_legal(scenario, entries), name
        verdicts[name] = legal
    assert verdicts["legal"] and not verdicts["one more"] and not verdicts["one less"]
    # Lethal damage is asked, not assumed: some blocker is left short of it.
    assert not all(legal for name, legal in verdicts.items() if name.startswith("moved"))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("bands_with_other", [False, True], ids=["plain", "bands with other"])
def test_the_benchmark_s_combats_of_every_seed_agree_with_the_floor_and_the_reference(
    seed, bands_with_other
):
    """check_speed's 256x128 combats of seeds 1-4: the same three judges agree, for the
    legal assignment and each change of it the floor can judge."""
    scenario = banding_combat(256, seed=seed, bands_with_other=bands_with_other)
    verdicts = {}
    for name, entries in floor_variants(scenario, random.Random(seed)).items():
        verdict = check(scenario, entries)
        assert verdict.legal == floor(replace(scenario, assignment=tuple(entries))), name
        assert verdict.legal == reference.is_legal(scenario, entries), name
        verdicts[name] = verdict.legal
    assert verdicts["legal"] and not verdicts["one more"] and not verdicts["one less"]
