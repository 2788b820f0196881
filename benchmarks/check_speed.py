"""How fast `check` is: medians for stated sizes, in process and as a whole command.

    python benchmarks/check_speed.py [--runs N]

Sizes: the 4-attacker, 4-blocker combat of four-by-four.json (trample, deathtouch, trample
over planeswalkers, multiple blocks), and random combats of n attackers and n blockers.
Targets (issue 2): in process at most 5 ms, the whole `lethal check` process at most 0.5 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from combats import random_assignment, random_combat

import lethal

HERE = Path(__file__).parent
FOUR_BY_FOUR = HERE / "four-by-four.json"


def median_seconds(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per in-process size")
    parser.add_argument("--process-runs", type=int, default=15, help="runs of the command")
    args = parser.parse_args()

    scenario = lethal.load(FOUR_BY_FOUR)
    verdict = lethal.check(scenario)
    assert verdict.legal, verdict.violations
    print(f"{'size':<34}{'median':>12}")
    check_ms = median_seconds(lambda: lethal.check(scenario), args.runs) * 1000
    print(f"{'check, 4x4 (four-by-four.json)':<34}{check_ms:>9.2f} ms")
    load_ms = median_seconds(lambda: lethal.check(lethal.load(FOUR_BY_FOUR)), args.runs) * 1000
    print(f"{'load + check, 4x4':<34}{load_ms:>9.2f} ms")
    for n in (8, 16, 32):
        combat = random_combat(n, n, seed=n)
        entries = random_assignment(combat, seed=n)
        runs = max(5, args.runs // n)
        ms = median_seconds(lambda c=combat, e=entries: lethal.check(c, e), runs) * 1000
        print(f"{f'check, {n}x{n} random':<34}{ms:>9.2f} ms")

    command = shutil.which("lethal") or sys.exit("the lethal command is not installed")
    process = median_seconds(
        lambda: subprocess.run(
            [command, "check", str(FOUR_BY_FOUR)], check=True, stdout=subprocess.DEVNULL
        ),
        args.process_runs,
    )
    print(f"{'lethal check process, 4x4':<34}{process * 1000:>9.0f} ms")


if __name__ == "__main__":
    main()
