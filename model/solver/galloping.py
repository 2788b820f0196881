"""The most a term takes under a solver's assertions, by galloping: each value found must be
beaten by twice the margin of the last, until one cannot be; then one more than the best
found is asked, and if it too is reached, the gap left is halved until it closes.

Z3's optimizer took over 60 s on 100 trample tokens blocked by one wall once the tokens
were told apart, and 1.1-7 times as long as galloping on identical tramplers each blocked by
all of the same tokens (benchmarks/token_speed.py, benchmarks/matrix_speed.py); where each
value shown out of reach costs Z3 most (tramplers sharing blockers in a chain,
benchmarks/query_speed.py), it took a quarter less. One more than the best found is asked
before halving because the best found is most often the most: halving at once showed three
or four values out of reach in the chain, where this shows two (28 blockers: 8.0 s, 3.4 s).

    most(solver, wanted, found, beyond, reached, capped) -> int
    best(solver, term, found, bound, maximize, reached, proved) -> int: a most, or a least
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from .encoding import decide


def most(
    solver: z3.Solver,
    wanted: z3.ArithRef,
    found: int,
    beyond: int | None,
    reached: Callable[[z3.ModelRef], int],
    capped: Callable[[int], None],
) -> int:
    """The most `wanted` takes in a model of the solver, from `found`, what it takes in a
    model in hand, and `beyond`, a value known out of reach (None if none is). Each better
    model is given to `reached`, which says what `wanted` takes in it; each value shown out
    of reach to `capped`, so that a time limit that stops the search leaves both known."""
    margin, probed = 1, False
    while beyond is None or found + 1 < beyond:
        if beyond is None:
            target = found + margin
        elif not probed:  # most often the best found is the most: asked before halving
            target, probed = found + 1, True
        else:
            target = (found + beyond) // 2
        solver.push()
        solver.add(wanted >= target)
        try:
            if decide(solver):
                found = reached(solver.model())
                margin *= 2
            else:
                beyond = target
                capped(target)
        finally:
            solver.pop()
    return found


def best(
    solver: z3.Solver,
    term: z3.ArithRef,
    found: int,
    bound: int | None,
    maximize: bool,
    reached: Callable[[z3.ModelRef], int],
    proved: Callable[[int], None],
) -> int:
    """The most (or, not `maximize`, the least) `term` takes in a model of the solver, by
    galloping on it (or on its negation), from `found`, what it takes in a model in hand,
    and `bound`, a value no model goes beyond (None if none is known). `reached` is given
    each better model and says what `term` takes in it; `proved`, each bound shown."""
    sign = 1 if maximize else -1
    beyond = None if bound is None else sign * bound + 1
    return sign * most(
        solver,
        sign * term,
        sign * found,
        beyond,
        lambda model: sign * reached(model),
        lambda target: proved(sign * (target - 1)),
    )
