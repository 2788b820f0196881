"""The check, the solver and the brute-force reference agree on random small combats."""

from __future__ import annotations

from collections import Counter

import z3
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lethal import check, rules
from lethal.amounts import Amounts
from lethal.solver import Encoding
from lethal.solver import is_legal as solver_says_legal
from lethal.view import ScenarioView

from . import reference
from .strategies import assignments, combats

SLOW = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(st.data())
def test_check_solver_and_reference_give_the_same_verdict(data):
    scenario = data.draw(combats())
    entries = data.draw(assignments(scenario))
    expected = reference.is_legal(scenario, entries)
    event("legal" if expected else "illegal")
    verdict = check(scenario, entries)
    assert verdict.legal == expected, verdict.violations
    assert solver_says_legal(scenario, entries) == expected


@SLOW
@given(st.data())
def test_each_rule_fails_alike_on_plain_numbers_and_on_z3_terms(data):
    """Each rule is written once; evaluated on plain amounts and, as a Z3 formula, on the
    same amounts substituted in, the same constraints fail."""
    scenario = data.draw(combats())
    given_amounts = {(e.source, e.to): e.amount for e in data.draw(assignments(scenario))}
    encoding = Encoding(scenario, extra_pairs=given_amounts)
    values = {pair: given_amounts.get(pair, 0) for pair in encoding.variables}
    substitution = [(v, encoding.integer(values[pair])) for pair, v in encoding.variables.items()]

    def fails_on_terms(constraint) -> bool:
        holds = constraint.holds
        if isinstance(holds, bool):
            return not holds
        return z3.is_false(z3.simplify(z3.substitute(holds, *substitution)))

    on_terms = Counter((c.rules, c.source) for c in encoding.constraints if fails_on_terms(c))
    plain = rules.constraints(ScenarioView(scenario), Amounts(values))
    on_plain = Counter((c.rules, c.source) for c in plain if c.holds is False)
    event("some rule fails" if on_plain else "no rule fails")
    assert on_plain == on_terms
