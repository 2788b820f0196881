"""How fast the queries are: medians for stated sizes, on random combats (fixed seeds).

    python benchmarks/query_speed.py [--runs N]

Targets (issue 3), on the 2-core machine: `max` on 40 attackers and 20 blockers at most 1 s;
`possible` with three requirements on 12 attackers and 12 blockers at most 200 ms; `count`
at least 20 times faster than the brute-force reference on 3 attackers and 3 blockers with
powers up to 6, with equal counts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from combats import random_combat

import lethal

HERE = Path(__file__).parent

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests import reference  # noqa: E402 - the reference lives with the tests


def timed(action, runs: int):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def row(label: str, seconds: float, note: str = "") -> None:
    print(f"{label:<68}{seconds * 1000:>10.1f} ms  {note}")


def possible_requirements(combat) -> list[str]:
    """Three requirements that a legal assignment can meet: half the most damage to D, some
    of it from a trampler, and a blocker assigning all of its power."""
    most = lethal.maximum(combat, "D").value
    trampler = next(p.id for p in combat.permanents if "trample" in p.keywords)
    blocker = next(p for p in combat.permanents if p.blocking)
    return [f"*->D >= {most // 2}", f"{trampler}->* >= 1", f"{blocker.id}->* == {blocker.power}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per size")
    args = parser.parse_args()
    print(f"{'query and size':<68}{'median':>13}")

    for attackers, blockers in ((10, 5), (20, 10), (40, 20)):
        combat = random_combat(attackers, blockers, seed=attackers)
        seconds, answer = timed(lambda c=combat: lethal.maximum(c, "D"), args.runs)
        row(
            f"max to D, {attackers} attackers x {blockers} blockers",
            seconds,
            f"value {answer.value}",
        )

    for n in (4, 8, 12):
        combat = random_combat(n, n, seed=100 + n)
        wanted = possible_requirements(combat)
        seconds, answer = timed(lambda c=combat, w=wanted: lethal.possible(c, w), args.runs)
        row(f"possible, 3 requirements, {n} x {n}", seconds, f"possible: {answer.possible}")

    combat = lethal.load(HERE.parent / "model/examples/combats/three-attackers-three-blockers.json")
    seconds, answer = timed(lambda: lethal.count(combat), args.runs)
    brute, expected = timed(lambda: sum(1 for _ in reference.legal_assignments(combat)), 1)

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
