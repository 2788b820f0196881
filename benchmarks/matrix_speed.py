"""How fast the searching queries are where identical tramplers are each blocked by the same
identical tokens (each token blocking them all, as "can block any number of creatures"
allows): CPU medians per board and query.

    python benchmarks/matrix_speed.py [--runs N] [--limit SECONDS]

What each trampler assigns to each token is then a matrix whose rows (the tramplers) and
columns (the tokens) may be exchanged, and with deathtouch each token is dealt lethal damage
by any trampler's 1. Asked of each board: `max` and `min` to D, `possible` with at least the
most to D (met) and with more (not met), `guarantee` to D, and `count`, which refuses each
board at its limit (the tramplers' divisions keep a constraint open for each token). Then
boards whose tramplers have double strike, asked `max --combat` to D: both combat damage
steps at once, the tokens striking back in the second. A query still running after
`--limit` seconds (wall clock) is stopped and shown as such.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from timing import cpu_median
from token_speed import queries, value

import lethal
from lethal.answers import Bounds
from lethal.deadline import TimedOut, deadline
from lethal.errors import LimitReached

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.build import attacker, blocker, scenario_file  # noqa: E402 - the tests' builders

# (tramplers, their power and toughness, their other keywords; tokens, theirs)
BOARDS = [
    (10, 20, 20, (), 20, 1, 1, ()),
    (2, 18, 2, ("deathtouch",), 24, 0, 3, ()),
    (7, 5, 3, ("deathtouch",), 20, 3, 2, ()),
    (8, 20, 1, ("deathtouch",), 15, 3, 3, ("lifelink",)),
    (12, 18, 2, (), 15, 4, 4, ()),
    (12, 15, 3, (), 22, 1, 3, ("deathtouch",)),
]
# Boards for both steps: the tramplers with double strike.
DOUBLE_STRIKE = [
    (4, 15, 3, ("double strike",), 22, 1, 3, ("deathtouch",)),
    (12, 15, 3, ("double strike",), 11, 1, 3, ("deathtouch",)),
    (12, 15, 3, ("double strike",), 22, 1, 3, ("deathtouch",)),
    (10, 20, 20, ("double strike",), 20, 1, 1, ()),
]


def counted(combat: lethal.Scenario) -> int | str:
    """`count`'s answer, or that it refused at its limit."""
    try:
        return lethal.count(combat).count
    except LimitReached:
        return "refused at the count limit"


def most_over_both_steps(combat: lethal.Scenario) -> int:
    """`max --combat` to D."""
    return value(lethal.maximum(combat, "D", whole_combat=True))


def timed(ask, combat: lethal.Scenario, args) -> str:
    """The CPU median of `ask` of the combat and its answer, or that it was stopped."""
    try:
        with deadline(args.limit, "the query"):
            seconds, answer = cpu_median(lambda: ask(combat), args.runs)
    except TimedOut:
        return f"{'> ' + str(int(args.limit)) + ' s':>12}"
    return f"{seconds * 1000:>9.0f} ms  {answer}"


def board(shape: tuple, whole_combat: bool = False) -> tuple[str, lethal.Scenario]:
    m, power, toughness, keywords, n, token_power, token_toughness, token_keywords = shape
    tramplers = [attacker(f"t{i}", power, toughness, "trample", *keywords) for i in range(m)]
    blocking = [f"t{i}" for i in range(m)]
    tokens = [
        blocker(f"b{j}", token_power, token_toughness, *token_keywords, blocking=blocking)
        for j in range(n)
    ]
    name = (
        f"{m} {'/'.join(('trample', *keywords))} {power}/{toughness}, "
        f"{n} {'/'.join(token_keywords) + ' ' if token_keywords else ''}"
        f"{token_power}/{token_toughness}"
    )
    return name, lethal.parse(scenario_file(*tramplers, *tokens), whole_combat=whole_combat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=30.0)
    args = parser.parse_args()
    print(f"{'board':<52}{'query':<24}{'CPU median':>12}  answer")
    for shape in BOARDS:
        name, combat = board(shape)
        with deadline(args.limit, "the query"):
            most = lethal.maximum(combat, "D")
        if isinstance(most, Bounds):
            shown = f"at least {most.lower}, at most {most.upper}"
            print(f"{name:<52}{'max to D':<24}{'> ' + str(int(args.limit)) + ' s':>12}  {shown}")
            continue
        for query, ask in {**queries(most.value), "count": counted}.items():
            print(f"{name:<52}{query:<24}{timed(ask, combat, args)}")
    for shape in DOUBLE_STRIKE:
        name, combat = board(shape, whole_combat=True)
        print(f"{name:<52}{'max --combat to D':<24}{timed(most_over_both_steps, combat, args)}")


if __name__ == "__main__":
    main()
