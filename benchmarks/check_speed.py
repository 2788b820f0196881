"""How fast `check` is: CPU medians for stated sizes, beside a plain linear walk of the same data.

    python benchmarks/check_speed.py [--runs N] [--sizes 4 64 256 1000] [--command LETHAL]

Times are CPU time (`time.process_time`; for the whole command, its own), so that other work
on the machine does not count. Sizes: random combats of N attackers and N/2 blockers (seed N)
with trample, deathtouch, trample over planeswalkers, attacking bands and banding blockers,
each with a legal assignment; then the same with one "bands with other legendary" attacker in
a band of legendary creatures. Beside each check, the floor: a hand-written loop that sums the
assignment once and checks power and lethal damage the obvious way (not a full rules check,
the same data walked once), and the check's time as a multiple of it. The check should grow
as the floor does (issue 12: a 1000x500 check under 50 ms, at most 10x the floor).
Then the 4x4 combat of four-by-four.json, in process and as a whole `lethal check` process
(issue 2: at most 5 ms and 0.5 s; issue 12: the process under 80 ms), and beside it, Python
alone starting and stopping.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import lethal
from lethal import Entry, Scenario

HERE = Path(__file__).parent
FOUR_BY_FOUR = HERE / "four-by-four.json"
LEGENDARY = "legendary"


def median_seconds(action, runs: int, batch: int = 1) -> float:
    """The median CPU time of `action`, this process's, timed `batch` calls at a time so that
    a call of a few microseconds is not lost in the clock's resolution."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        for _ in range(batch):
            action()
        times.append((time.process_time() - start) / batch)
    return statistics.median(times)


def installed_command() -> str:
    """The lethal command installed beside this Python (a venv's), else the first on the
    PATH; the benchmark ends if there is none."""
    here = str(Path(sys.executable).parent)
    command = shutil.which("lethal", path=here) or shutil.which("lethal")
    if command is None:
        sys.exit("the lethal command is not installed")
    return command


def children_cpu() -> float:
    """The CPU time of the child processes waited for so far, to the microsecond (os.times
    counts in clock ticks, a hundredth of a second: a fifth of the time measured)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def median_process_seconds(command: list[str], runs: int) -> float:
    """The median CPU time of a whole command, run to completion each time. It is run once
    first, untimed, free to write its bytecode: an installed command starts from bytecode
    compiled when it was installed, while with PYTHONDONTWRITEBYTECODE set, a module edited
    since its bytecode was last written would be compiled again at every run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    times = []
    for _ in range(runs):
        start = children_cpu()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(children_cpu() - start)
    return statistics.median(times)


def banding_combat(attackers: int, seed: int, bands_with_other: bool = False) -> Scenario:
    """`attackers` attackers, half as many blockers and a few planeswalkers, with a legal
    assignment. Attackers with trample, deathtouch or banding; a banding attacker bands with
    the next one (702.22c); each blocker blocks one or two bands or lone attackers whole
    (702.22h), and some have banding. With `bands_with_other`, a0 "bands with other
    legendary" and bands with a1, both legendary, and some other creatures are legendary."""
    rng = random.Random(seed)
    planeswalkers = [
        {"id": f"p{i}", "controller": "D", "types": ["planeswalker"], "loyalty": rng.randint(1, 5)}
        for i in range(max(1, attackers // 50))
    ]
    units, permanents = _attacking_units(rng, attackers, planeswalkers, bands_with_other), []
    for unit in units:
        permanents += unit
    for i in range(attackers // 2):
        blocked = rng.sample(units, min(len(units), rng.randint(1, 2)))
        keywords = ["banding"] if rng.random() < 0.1 else []
        permanents.append(
            {
                "id": f"b{i}",
                "controller": "D",
                "types": ["creature"],
                "power": rng.randint(0, 6),
                "toughness": rng.randint(1, 5),
                "keywords": keywords,
                "blocking": [a["id"] for unit in blocked for a in unit],
            }
        )
    if bands_with_other:
        for p in permanents[2:]:
            if rng.random() < 0.1:
                p["qualities"] = [LEGENDARY]
    permanents += planeswalkers
    bands = [[a["id"] for a in unit] for unit in units if len(unit) > 1]
    data = {"players": [{"id": "A"}, {"id": "D"}], "active_player": "A"}
    data |= {"permanents": permanents, "bands": bands}
    data["assignment"] = [
        {"source": e.source, "to": e.to, "amount": e.amount} for e in legal_assignment(data)
    ]
    return lethal.parse(data)


def _attacking_units(rng, attackers, planeswalkers, bands_with_other) -> list[list[dict]]:
    """The attackers, as bands of two (a banding creature and the next) and lone attackers."""
    units: list[list[dict]] = []
    i = 0
    while i < attackers:
        target = rng.choice(planeswalkers)["id"] if rng.random() < 0.1 else "D"
        keywords = rng.sample(["trample", "deathtouch", "banding"], rng.randint(0, 2))
        if target != "D" and "trample" in keywords and rng.random() < 0.5:
            keywords[keywords.index("trample")] = "trample over planeswalkers"
        unit = [_attacker(rng, f"a{i}", target, keywords)]
        first_band = bands_with_other and i == 0
        if first_band:
            unit[0]["keywords"] = [f"bands with other {LEGENDARY}"]
            unit[0]["qualities"] = [LEGENDARY]
        if (first_band or "banding" in keywords) and i + 1 < attackers:
            partner = _attacker(rng, f"a{i + 1}", target, rng.sample(["trample", "deathtouch"], 1))
            if first_band:
                partner["qualities"] = [LEGENDARY]
            unit.append(partner)
        units.append(unit)
        i += len(unit)
    return units


def _attacker(rng, id: str, target: str, keywords: list[str]) -> dict:
    return {
        "id": id,
        "controller": "A",
        "types": ["creature"],
        "power": rng.randint(1, 6),
        "toughness": 4,
        "keywords": keywords,
        "attacking": target,
    }


def reachable(data: dict) -> dict[str, list[str]]:
    """Whom each creature may assign to: what it blocks; or its blockers (in its order),
    what it attacks and, past a planeswalker, its controller."""
    by_id = {p["id"]: p for p in data["permanents"]}
    found: dict[str, list[str]] = {}
    for p in data["permanents"]:
        for a in p.get("blocking", ()):
            found.setdefault(a, []).append(p["id"])
    for p in data["permanents"]:
        if "blocking" in p:
            found[p["id"]] = list(p["blocking"])
        elif "attacking" in p:
            target = p["attacking"]
            past = [by_id[target]["controller"]] if target in by_id else []
            found[p["id"]] = [*found.get(p["id"], []), target, *past]
    return found


def legal_assignment(data: dict) -> list[Entry]:
    """Attackers first: a trampler gives each blocker, in its order, what it still needs for
    lethal damage (1 from deathtouch), then the rest to what it attacks (up to a
    planeswalker's loyalty first, then its controller, with trample over planeswalkers);
    any other creature puts all its power on the first it may assign to. Later damage only
    adds, so lethal damage stays lethal."""
    by_id = {p["id"]: p for p in data["permanents"]}
    assigned: dict[str, int] = {}
    touched: set[str] = set()
    entries = []

    def give(source: dict, to: str, amount: int) -> None:
        if amount > 0:
            entries.append(Entry(source["id"], to, amount))
            assigned[to] = assigned.get(to, 0) + amount
            if "deathtouch" in source.get("keywords", ()):
                touched.add(to)

    for s, recipients in reachable(data).items():
        source, (first, *rest) = by_id[s], recipients
        keywords, left = source.get("keywords", []), source["power"]
        if not rest or not any(k.startswith("trample") for k in keywords):
            give(source, first, left)
            continue
        for b in recipients:
            if b not in by_id or not by_id[b].get("blocking"):
                break
            need = 0 if b in touched else by_id[b]["toughness"] - assigned.get(b, 0)
            amount = min(left, max(min(need, 1) if "deathtouch" in keywords else need, 0))
            give(source, b, amount)
            left -= amount
        target = source["attacking"]
        if target in by_id and "trample over planeswalkers" in keywords:
            amount = min(left, max(by_id[target]["loyalty"] - assigned.get(target, 0), 0))
            give(source, target, amount)
            left -= amount
            target = by_id[target]["controller"]
        give(source, target, left)
    return entries


def floor(scenario: Scenario) -> bool:
    """The same assignment walked once: sums by source and by recipient, then each creature's
    power and each trampler's blockers' lethal damage, the obvious way."""
    by_id = {p.id: p for p in scenario.permanents}
    blockers: dict[str, list[str]] = {}
    for p in scenario.permanents:
        for a in p.blocking or ():
            blockers.setdefault(a, []).append(p.id)
    sent: dict[str, int] = {}
    received: dict[str, int] = {}
    touched: set[str] = set()
    beyond: set[str] = set()
    for e in scenario.assignment:
        sent[e.source] = sent.get(e.source, 0) + e.amount
        received[e.to] = received.get(e.to, 0) + e.amount
        if "deathtouch" in by_id[e.source].keywords:
            touched.add(e.to)
        if e.to not in blockers.get(e.source, ()) and by_id[e.source].blocked:
            beyond.add(e.source)
    powers = all(sent.get(p.id, 0) == p.power for p in scenario.permanents if p.is_creature)
    return powers and all(
        b in touched or by_id[b].damage + received.get(b, 0) >= by_id[b].toughness
        for a in beyond
        for b in blockers.get(a, ())
    )


def size_table(runs: int, sizes: list[int]) -> None:
    """The check against the floor; beside them, the check with its verdict's choosers
    asked for too (who divides each creature's damage, worked out only when asked)."""
    print(f"{'combat':<40}{'check':>12}{'floor':>12}{'ratio':>8}{'with choosers':>16}")
    for bands_with_other in (False, True):
        for n in sizes:
            scenario = banding_combat(n, seed=n, bands_with_other=bands_with_other)
            verdict = lethal.check(scenario)
            assert verdict.legal and floor(scenario), verdict.violations[:3]
            # Each timed in the same batches, the check as the floor: timed one call at a
            # time, a check of 30 microseconds read a tenth slower than in a batch (4x2: 9.6-10.1x
            # the floor, against 8.6x), its clock's reading counted in.
            repeat, batch = max(15, runs * 4 // n), max(1, 1000 // n)
            check = median_seconds(lambda s=scenario: lethal.check(s), repeat, batch)
            walk = median_seconds(lambda s=scenario: floor(s), repeat, batch)
            asked = median_seconds(lambda s=scenario: lethal.check(s).choosers, repeat, batch)
            name = f"{n}x{n // 2}" + (", bands with other" if bands_with_other else "")
            print(
                f"{name:<40}{check * 1000:>9.2f} ms{walk * 1000:>9.3f} ms{check / walk:>7.1f}x"
                f"{asked * 1000:>13.2f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs of the 4x4 check")
    parser.add_argument("--process-runs", type=int, default=15, help="runs of the command")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 64, 256, 1000])
    parser.add_argument(
        "--command",
        help="the lethal command to time (default: the one beside this Python, else the "
        "PATH's); say, one installed with `pip install .`, as a user has it, not editable",
    )
    args = parser.parse_args()

    size_table(args.runs, args.sizes)
    scenario = lethal.load(FOUR_BY_FOUR)
    verdict = lethal.check(scenario)
    assert verdict.legal, verdict.violations
    check_ms = median_seconds(lambda: lethal.check(scenario), args.runs) * 1000
    print(f"{'check, 4x4 (four-by-four.json)':<40}{check_ms:>9.2f} ms")
    load_ms = median_seconds(lambda: lethal.check(lethal.load(FOUR_BY_FOUR)), args.runs) * 1000
    print(f"{'load + check, 4x4':<40}{load_ms:>9.2f} ms")

    command = args.command or installed_command()
    process = median_process_seconds([command, "check", str(FOUR_BY_FOUR)], args.process_runs)
    print(f"{'lethal check process, 4x4':<40}{process * 1000:>9.0f} ms")
    # The floor of any command: this Python starting and stopping, with its site packages.
    python = median_process_seconds([sys.executable, "-c", "pass"], args.process_runs)
    print(f"{'Python alone, starting and stopping':<40}{python * 1000:>9.0f} ms")


if __name__ == "__main__":
    main()
