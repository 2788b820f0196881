"""How fast `count` is: CPU medians per size and seed, on the issue's banding combats.

    python benchmarks/count_speed.py [--runs N] [--sizes 16 24 32 64 256] [--seeds 1 2 ...]

Sizes: `check_speed.banding_combat(N, seed)` with its assignment dropped, N attackers with
trample, deathtouch and banding, N/2 blockers (issue 12: every seed of 32x16 answers, with
an exact count). Each line gives the CPU median of `lethal.count` for one combat, and its
count (its number of digits when long), or the limit that refused it. The creature limit
is lifted (a query's other limits stand), so that 256x128 is counted. CPU time, so that
other work on the machine does not distort the figures.
"""

from __future__ import annotations

import argparse
import dataclasses

from check_speed import banding_combat
from timing import cpu_median

import lethal
from lethal.errors import LimitReached
from lethal.limits import CREATURES


def shown(count: int) -> str:
    text = str(count)
    return text if len(text) <= 40 else f"{text[:6]}... ({len(text)} digits)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per combat")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 24, 32, 64, 256])
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(1, 9)))
    args = parser.parse_args()
    print(f"{'combat':<24}{'CPU median':>12}  count")
    with CREATURES.set_to(10**6):
        table(args)


def table(args) -> None:
    for n in args.sizes:
        for seed in args.seeds:
            combat = dataclasses.replace(banding_combat(n, seed), assignment=None)
            name = f"{n}x{n // 2}, seed {seed}"
            try:
                seconds, answer = cpu_median(lambda c=combat: lethal.count(c), args.runs)
            except LimitReached as refused:
                print(f"{name:<24}{'refused':>12}  {refused}")
                continue
            print(f"{name:<24}{seconds * 1000:>9.1f} ms  {shown(answer.count)}")


if __name__ == "__main__":
    main()
