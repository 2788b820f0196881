"""How fast the searching queries are on boards of identical tokens (issue 12): CPU medians
per size, on tokens that are interchangeable, and on the same board with each token told
apart by a quality of its own, which changes no answer here (no protection, no banding) but
leaves the search no twins to skip.

    python benchmarks/token_speed.py [--runs N] [--sizes 25 50 100] [--limit SECONDS]

The board of size n has 2n tokens: n 2/2 trample tokens attacking, all blocked by one 5/5
wall (702.19b: the other tokens' damage counts toward its lethal damage), and n 1/1
deathtouch tokens blocking one 12/12 trampler. Asked: `max` and `min` to D, `possible` with
as much to D as the most (met) and with more (not met: every assignment ruled out), and
`guarantee` to D. The two boards must give the same answers. A query of the told-apart board
still running after `--limit` seconds (wall clock) is stopped and shown as such.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from timing import cpu_median

import lethal
from lethal.answers import Bounds
from lethal.deadline import TimedOut, deadline
from lethal.limits import CREATURES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.build import attacker, blocker, scenario_file  # noqa: E402 - the tests' builders


def board(n: int, told_apart: bool) -> lethal.Scenario:
    def own(i: int) -> dict:
        return {"qualities": [f"token {i}"]} if told_apart else {}

    tokens = [attacker(f"t{i}", 2, 2, "trample", **own(i)) for i in range(n)]
    wall = blocker("wall", 5, 5, blocking=[f"t{i}" for i in range(n)])
    giant = attacker("giant", 12, 12, "trample")
    chumps = [
        blocker(f"c{i}", 1, 1, "deathtouch", blocking=["giant"], **own(n + i)) for i in range(n)
    ]
    return lethal.parse(scenario_file(*tokens, wall, giant, *chumps))


def value(answer) -> int:
    """A max's or min's value; bounds, when its time limit cut it short, are no value."""
    if isinstance(answer, Bounds):
        raise TimedOut(answer.limit)
    return answer.value


def queries(most: int) -> dict:
    """Each query, as a function of a board to its answer; `most`: the most damage to D."""
    return {
        "max to D": lambda s: value(lethal.maximum(s, "D")),
        "min to D": lambda s: value(lethal.minimum(s, "D")),
        f"possible *->D >= {most}": lambda s: lethal.possible(s, [f"*->D >= {most}"]).possible,
        f"possible *->D > {most}": lambda s: lethal.possible(s, [f"*->D > {most}"]).possible,
        "guarantee to D": lambda s: lethal.guarantee(s, "D").value,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 100])
    parser.add_argument("--limit", type=float, default=60.0)
    args = parser.parse_args()
    print(f"{'query':<26}{'tokens':>7}{'alike':>12}{'told apart':>14}  answer")
    for n in args.sizes:
        alike, apart = board(n, told_apart=False), board(n, told_apart=True)
        with CREATURES.set_to(2 * n + 2):  # the default limit is below the sizes measured
            most = lethal.maximum(alike, "D").value
            for name, query in queries(most).items():
                fast, answer = cpu_median(lambda q=query, s=alike: q(s), args.runs)
                try:
                    with deadline(args.limit, "the told-apart board's query"):
                        slow, other = cpu_median(lambda q=query, s=apart: q(s), args.runs)
                except TimedOut:
                    apart_text = f"> {args.limit:.0f} s"
                else:
                    assert answer == other, f"{name} at {n}: {answer} alike, {other} told apart"
                    apart_text = f"{slow * 1000:.0f} ms"
                print(f"{name:<26}{2 * n:>7}{fast * 1000:>9.0f} ms{apart_text:>14}  {answer}")


if __name__ == "__main__":
    main()
