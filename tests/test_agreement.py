"""The check, the solver and the brute-force reference agree on random small combats."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lethal import check
from lethal.solver import is_legal as solver_says_legal

from . import reference
from .strategies import assignments, combats


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_check_solver_and_reference_give_the_same_verdict(data):
    scenario = data.draw(combats())
    entries = data.draw(assignments(scenario))
    expected = reference.is_legal(scenario, entries)
    event("legal" if expected else "illegal")
    verdict = check(scenario, entries)
    assert verdict.legal == expected, verdict.violations
    assert solver_says_legal(scenario, entries) == expected
