"""Galloping to the most a term takes (`lethal.solver.galloping`), on formulas whose most is
known: every better model is reported, every value shown out of reach too, and the most is
found whatever the gap to it."""

from __future__ import annotations

import pytest
import z3

from lethal.solver.galloping import most


def gallop(most_of_x: int, found: int, beyond: int | None = None):
    """Galloping on x <= most_of_x from a model where x is `found`: the answer, the values
    of x reported, and the values reported out of reach."""
    x = z3.Int("x")
    solver = z3.Solver()
    solver.add(x >= 0, x <= most_of_x)
    reached, capped = [], []

    def on_model(model: z3.ModelRef) -> int:
        reached.append(model.eval(x).as_long())
        return reached[-1]

    answer = most(solver, x, found, beyond, on_model, capped.append)
    assert len(solver.assertions()) == 2  # each target asked between push and pop
    return answer, reached, capped


@pytest.mark.parametrize("most_of_x", [0, 1, 2, 7, 37, 1000, 10**12])
@pytest.mark.parametrize("found", [0, 5])
def test_the_most_is_found_from_any_start(most_of_x, found):
    found = min(found, most_of_x)
    answer, reached, capped = gallop(most_of_x, found)
    assert answer == most_of_x
    assert reached == sorted(set(reached)) and all(r > found for r in reached)
    assert all(c > most_of_x for c in capped) and min(capped) == most_of_x + 1


def test_few_values_are_asked_for_a_large_gap():
    """Doubling the margin: a gap of a trillion in about eighty questions, not a trillion."""
    _, reached, capped = gallop(10**12, 0)
    assert len(reached) + len(capped) < 100


def test_a_value_known_out_of_reach_is_not_asked_again():
    answer, reached, capped = gallop(37, 37, beyond=38)
    assert (answer, reached, capped) == (37, [], [])
    answer, _, capped = gallop(37, 30, beyond=38)
    assert (answer, capped) == (37, [])  # every value below 38 is reachable, and 38 known
