"""How fast the queries are: CPU medians for stated sizes, on random combats (fixed seeds).

    python benchmarks/query_speed.py [--runs N] [--large-runs N]

Targets (issue 3), on the 2-core machine: `max` on 40 attackers and 20 blockers at most 1 s;
`possible` with three requirements on 12 attackers and 12 blockers at most 200 ms; `count`
at least 20 times faster than the brute-force reference on 3 attackers and 3 blockers with
powers up to 6, with equal counts.

Then issue 12's sizes, on `check_speed.banding_combat(n, seed)` without its assignment, each
seed apart: `max` to D at 256x128 under 2 s on every seed, and at 512x256 under 10 s and
500 MB; `min` to D and `possible` with three requirements at 1000x500 under 5 s (and the
worst case known, `chain_sizes`). The three
requirements are pairs of the combat's own legal assignment, so they can be met: its first
entry to D at least as much, its first blocker's first entry exactly as much, and its last
entry from an attacker to a creature at least as much. Memory is the process's peak resident
set so far, after each size.
"""

from __future__ import annotations

import argparse
import resource
import sys
from dataclasses import replace
from pathlib import Path

from check_speed import banding_combat
from combats import random_combat
from timing import cpu_median

import lethal
from lethal.limits import CREATURES

HERE = Path(__file__).parent

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests import reference  # noqa: E402 - the reference lives with the tests


def row(label: str, seconds: float, note: str = "") -> None:
    print(f"{label:<68}{seconds * 1000:>10.1f} ms  {note}")


def possible_requirements(combat) -> list[str]:
    """Three requirements that a legal assignment can meet: half the most damage to D, some
    of it from a trampler, and a blocker assigning all of its power."""
    most = lethal.maximum(combat, "D").value
    trampler = next(p.id for p in combat.permanents if "trample" in p.keywords)
    blocker = next(p for p in combat.permanents if p.blocking)
    return [f"*->D >= {most // 2}", f"{trampler}->* >= 1", f"{blocker.id}->* == {blocker.power}"]


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def stated_requirements(combat) -> list[str]:
    """Three pairs of the combat's own legal assignment (see the module's docstring)."""
    attackers = {p.id for p in combat.permanents if p.attacking}
    creatures = {p.id for p in combat.permanents if p.is_creature}
    to_d = next(e for e in combat.assignment if e.to == "D")
    blocker = next(e for e in combat.assignment if e.source not in attackers)
    last = [e for e in combat.assignment if e.source in attackers and e.to in creatures][-1]
    return [
        f"{to_d.source}->D >= {to_d.amount}",
        f"{blocker.source}->{blocker.to} == {blocker.amount}",
        f"{last.source}->{last.to} >= {last.amount}",
    ]


def large_sizes(runs: int) -> None:
    """Issue 12's rows: each size and seed apart."""
    print(f"{'issue 12: query, attackers x blockers, seed':<68}{'CPU median':>13}")
    queries = [
        ("max to D", 256, lambda c: lethal.maximum(c, "D")),
        ("max to D", 512, lambda c: lethal.maximum(c, "D")),
        ("min to D", 1000, lambda c: lethal.minimum(c, "D")),
        ("possible, 3 requirements", 1000, None),
    ]
    with CREATURES.set_to(10_000):
        for name, n, ask in queries:
            for seed in (1, 2, 3, 4):
                given = banding_combat(n, seed)
                combat = replace(given, assignment=None)
                if ask is None:
                    wanted = stated_requirements(given)
                    seconds, answer = cpu_median(
                        lambda c=combat, w=wanted: lethal.possible(c, w), runs
                    )
                    shown = f"possible: {answer.possible}"
                else:
                    seconds, answer = cpu_median(lambda c=combat, a=ask: a(c), runs)
                    shown = f"value {answer.value}"
                row(f"{name}, {n} x {n // 2}, seed {seed}", seconds, f"{shown}, {peak_mb()} MB")


def trample_chain(k: int) -> lethal.Scenario:
    """k+1 tramplers (3/3) in a row and k blockers (1/2), each blocking the two tramplers
    beside it: one part, in which whether a trampler's damage may go on to D turns on both
    its blockers, each shared with the next trampler (702.19b counts the other's damage)."""
    attackers = [
        {
            "id": f"a{i}",
            "controller": "A",
            "types": ["creature"],
            "power": 3,
            "toughness": 3,
            "keywords": ["trample"],
            "attacking": "D",
        }
        for i in range(k + 1)
    ]
    blockers = [
        {
            "id": f"b{i}",
            "controller": "D",
            "types": ["creature"],
            "power": 1,
            "toughness": 2,
            "blocking": [f"a{i}", f"a{i + 1}"],
        }
        for i in range(k)
    ]
    data = {"players": [{"id": "A"}, {"id": "D"}], "active_player": "A"}
    return lethal.parse(data | {"permanents": attackers + blockers})


def chain_sizes(runs: int) -> None:
    """The worst case known: `max` on tramplers that share blockers in a chain, where Z3's
    optimizer splits on each blocker (lethal or not); its time grows exponentially with the
    chain, and `--timeout` then gives the bounds proved."""
    print(f"{'the worst case known: max to D, tramplers in a chain of k blockers':<68}")
    for k in (16, 20, 24, 28):
        combat = trample_chain(k)
        seconds, answer = cpu_median(lambda c=combat: lethal.maximum(c, "D"), runs)
        row(f"max to D, chain of {k}", seconds, f"value {answer.value}")
        if answer.value != k + 3:  # every blocker made lethal: 3(k+1) - 2k
            sys.exit(f"the most damage to D is {answer.value}, not k + 3")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per size")
    parser.add_argument("--large-runs", type=int, default=3, help="runs per issue 12 size")
    args = parser.parse_args()
    large_sizes(args.large_runs)
    chain_sizes(args.large_runs)
    print(f"{'query and size':<68}{'CPU median':>13}")

    for attackers, blockers in ((10, 5), (20, 10), (40, 20)):
        combat = random_combat(attackers, blockers, seed=attackers)
        seconds, answer = cpu_median(lambda c=combat: lethal.maximum(c, "D"), args.runs)
        row(
            f"max to D, {attackers} attackers x {blockers} blockers",
            seconds,
            f"value {answer.value}",
        )

    for n in (4, 8, 12):
        combat = random_combat(n, n, seed=100 + n)
        wanted = possible_requirements(combat)
        seconds, answer = cpu_median(lambda c=combat, w=wanted: lethal.possible(c, w), args.runs)
        row(f"possible, 3 requirements, {n} x {n}", seconds, f"possible: {answer.possible}")

    combat = lethal.load(HERE.parent / "model/examples/combats/three-attackers-three-blockers.json")
    seconds, answer = cpu_median(lambda: lethal.count(combat), args.runs)
    brute, expected = cpu_median(lambda: sum(1 for _ in reference.legal_assignments(combat)), 1)

    row(
        "count, 3 x 3, powers up to 6 (three-attackers-three-blockers.json)",
        seconds,
        f"{answer.count} assignments",
    )
    row("count by the brute-force reference, same combat", brute, f"{expected} assignments")
    if answer.count != expected:
        sys.exit(f"the counts differ: {answer.count} against {expected}")
    print(f"count is {brute / seconds:.0f} times faster than the reference, with equal counts")


if __name__ == "__main__":
    main()
