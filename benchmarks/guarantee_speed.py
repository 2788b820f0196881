"""How fast `guarantee` is at size: CPU medians per size and seed, with peak memory.

    python benchmarks/guarantee_speed.py [--runs N] [--sizes 64 128 256 512] [--seeds 1 2 3 4]

Combats: `check_speed.banding_combat(n, seed)` (n attackers with trample, deathtouch and
banding, n/2 blockers), without its assignment, asking what the active player can guarantee
to D. Each size and seed runs in a process of its own, so that the peak memory printed is
that query's. Goal (issue 12): 512x256 under 10 s CPU and under 500 MB on every seed.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace

from check_speed import banding_combat

import lethal
from lethal.limits import CREATURES


def measure(n: int, seed: int, runs: int) -> None:
    """In the child: the median CPU time of `runs` guarantees, the value and the peak memory."""
    scenario = replace(banding_combat(n, seed), assignment=None)
    times, answer = [], None
    for _ in range(runs):
        start = time.process_time()
        with CREATURES.set_to(2 * n):  # the default limit is below the sizes measured
            answer = lethal.guarantee(scenario, "D")
        times.append(time.process_time() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"{statistics.median(times):.3f} {answer.value} {peak:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per size and seed")
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128, 256, 512])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--child", type=int, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        measure(*args.child, args.runs)
        return
    print(f"{'guarantee to D':<24}{'seed':>6}{'CPU median':>14}{'value':>8}{'peak':>10}")
    for n in args.sizes:
        for seed in args.seeds:
            child = [sys.executable, __file__, "--runs", str(args.runs), "--child", str(n)]
            out = subprocess.run([*child, str(seed)], capture_output=True, text=True)
            if out.returncode:
                sys.exit(f"{n}x{n // 2}, seed {seed}:\n{out.stderr}")
            seconds, value, peak = out.stdout.split()
            name = f"{n}x{n // 2}"
            print(f"{name:<24}{seed:>6}{float(seconds):>12.2f} s{value:>8}{peak:>7} MB")


if __name__ == "__main__":
    main()
