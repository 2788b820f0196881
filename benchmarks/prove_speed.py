"""How fast the proofs are: CPU medians over runs, in process, on the 2-core machine.

    python benchmarks/prove_speed.py [--runs N]
    python benchmarks/prove_speed.py --each [--bounds 3x3x2 4x4x2 5x5x3]

The first prints the median CPU time of the model check (the symbolic combat pinned to every
bundled example), of the whole property library with Z3 alone and with cvc5 certifying each
proof, of the two invariants beyond the bounds, and the share of the library's time spent
finding the smallest counterexample of each refuted claim; then of `lethal prove` as a user
runs it, every process of it counted (the model check, then each property in a process of
its own, the Z3 context of each made anew). The second proves each property
once at each size (attackers x blockers x planeswalkers or battles, given to the properties
declared at the default bounds, 3x3x2; the others keep their own), printing its CPU time at
each, the library's total, its share shrinking and its share in Z3's checks, and the largest
ratio between the times of one property at neighbouring sizes.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import z3
from check_speed import installed_command, median_process_seconds, median_seconds

from lethal.proving import Bounds, prover
from lethal.proving.library import collect
from lethal.proving.prover import prove, symbolic_combat_answers_as_lethal_check_does
from lethal.proving.unbounded import prove_unbounded


class Shrinking:
    """The CPU time spent in the search for the smallest counterexample, while installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.search = prover.smallest

    def __enter__(self) -> Shrinking:
        def timed(*args):
            start = time.process_time()
            try:
                return self.search(*args)
            finally:
                self.seconds += time.process_time() - start

        prover.smallest = timed
        return self

    def __exit__(self, *_) -> None:
        prover.smallest = self.search


class Solving:
    """The CPU time spent in Z3's checks, while installed: the rest is Python building the
    queries and re-checking counterexamples. Z3's share moves from run to run with the order
    its terms were made in, even for the same queries, so the two are told apart."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.check = z3.Solver.check

    def __enter__(self) -> Solving:
        check = self.check

        def timed(solver, *assumptions):
            start = time.process_time()
            try:
                return check(solver, *assumptions)
            finally:
                self.seconds += time.process_time() - start

        z3.Solver.check = timed
        return self

    def __exit__(self, *_) -> None:
        z3.Solver.check = self.check


def at_size(library, size: str):
    """The library with the properties declared at the default bounds given `size`."""
    attackers, blockers, permanents = (int(n) for n in size.split("x"))
    sized = Bounds(attackers=attackers, blockers=blockers, permanents=permanents)
    return [dataclasses.replace(p, bounds=sized) if p.bounds == Bounds() else p for p in library]


def medians(runs: int, out: Path) -> None:
    library = collect([])
    shrinking = Shrinking()

    def whole(certify: bool):
        def run():
            for p in library:
                prove(p, 120, out, certify)

        return run

    rows = [
        ("model check, every bundled example", symbolic_combat_answers_as_lethal_check_does),
        (f"library, {len(library)} properties, Z3", whole(False)),
        (f"library, {len(library)} properties, Z3 and cvc5", whole(True)),
        ("2 invariants beyond the bounds", lambda: prove_unbounded(120, out)),
    ]
    for what, action in rows:
        with shrinking:
            start = shrinking.seconds
            seconds = median_seconds(action, runs)
            share = (shrinking.seconds - start) / runs
        shown = f", {share:.2f} s of it shrinking" if share else ""
        print(f"{what:<48} {seconds:7.2f} s CPU (median of {runs}){shown}")
    # As a user runs it: the command proves each property in a process of its own, after the
    # model check; its processes' CPU time, all of them.
    command = [installed_command(), "prove", "--out", str(out)]
    seconds = median_process_seconds(command, runs)
    print(f"{'lethal prove, the command (one job)':<48} {seconds:7.2f} s CPU (median of {runs})")


def each(sizes: list[str], out: Path) -> None:
    library = collect([])
    times: dict[str, list[float]] = {p.name: [] for p in library}
    for size in sizes:
        total = 0.0
        with Shrinking() as shrinking, Solving() as solving:
            for p in at_size(library, size):
                start = time.process_time()
                prove(p, 600, out)
                times[p.name].append(time.process_time() - start)
                total += times[p.name][-1]
        print(
            f"library at {size}: {total:.1f} s CPU, {shrinking.seconds:.1f} s of it shrinking, "
            f"{solving.seconds:.1f} s in Z3's checks"
        )
    print(f"{'CPU seconds at ' + ' '.join(sizes):<44} property")
    for name, seconds in times.items():
        print(f"{' '.join(f'{s:7.2f}' for s in seconds):<44} {name}")
    if len(sizes) > 1:
        ratio, name = max(
            (max(b / max(a, 1e-3) for a, b in zip(s, s[1:], strict=False)), n)
            for n, s in times.items()
        )
        print(f"largest ratio between neighbouring sizes: {ratio:.1f}, {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--each", action="store_true", help="each property, at each size")
    parser.add_argument("--bounds", nargs="+", default=["3x3x2"], metavar="AxBxP")
    args = parser.parse_args()
    with TemporaryDirectory() as scratch:
        if args.each:
            each(args.bounds, Path(scratch))
        else:
            medians(args.runs, Path(scratch))


if __name__ == "__main__":
    main()
