"""How fast the proofs are: medians over runs, in process, on the 2-core machine.

    python benchmarks/prove_speed.py [--runs N]

Prints the median time of the model check (the symbolic combat pinned to every bundled
example), of the whole property library with Z3 alone and with cvc5 certifying each proof,
of the two invariants beyond the bounds, and of the slowest single property.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from tempfile import TemporaryDirectory

from check_speed import median_seconds

from lethal.proving.library import collect
from lethal.proving.prover import prove, symbolic_combat_answers_as_lethal_check_does
from lethal.proving.unbounded import prove_unbounded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    library = collect([])
    with TemporaryDirectory() as scratch:
        out = Path(scratch)
        each = {p.name: 0.0 for p in library}

        def whole(certify: bool):
            def run():
                for p in library:
                    each[p.name] = prove(p, 120, out, certify).seconds

            return run

        rows = [
            ("model check, every bundled example", symbolic_combat_answers_as_lethal_check_does),
            (f"library, {len(library)} properties, Z3", whole(False)),
            (f"library, {len(library)} properties, Z3 and cvc5", whole(True)),
            ("2 invariants beyond the bounds", lambda: prove_unbounded(120, out)),
        ]
        for what, action in rows:
            print(f"{what:<48} {median_seconds(action, runs):7.2f} s (median of {runs})")
        slowest = max(each, key=each.get)
        print(f"slowest property (last run, certified): {slowest}, {each[slowest]:.2f} s")


if __name__ == "__main__":
    main()
