"""`count` counts without enumerating (issue 12): its parts agree with the plain enumeration
they replace, and the whole agrees with the reference on the issue's combats where the
reference can still list them, and answers on the larger ones."""

from __future__ import annotations

import dataclasses
import itertools
import sys
from math import comb
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lethal import count, parse
from lethal.errors import TooManyToCount
from lethal.limits import COUNT_STANDINGS
from lethal.solver.counting.atoms import Linear, Whole, taken_apart
from lethal.solver.counting.dynamic import Block, Programme

from . import reference
from .build import attacker, blocker, scenario_file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from check_speed import banding_combat  # noqa: E402 - the issue's combats live there

UNLIMITED = lambda tries: None  # noqa: E731 - no limit on the work, for the parts alone


def _without_assignment(attackers: int, seed: int):
    return dataclasses.replace(banding_combat(attackers, seed), assignment=None)


def _key(entries) -> tuple:
    return tuple(sorted((e.source, e.to, e.amount) for e in entries))


# -- the whole, against the reference -------------------------------------------------------


@pytest.mark.parametrize("attackers", [2, 3, 4, 6])
@pytest.mark.parametrize("seed", range(1, 9))
def test_count_and_list_equal_the_reference_on_the_issues_combats(attackers, seed):
    """Trample, deathtouch and banding, N attackers and N/2 blockers: the same count as the
    reference's enumeration, and the same assignments listed."""
    combat = _without_assignment(attackers, seed)
    expected = {_key(entries) for entries in reference.legal_assignments(combat)}
    answer = count(combat, list_limit=10**9)
    assert answer.count == len(expected)
    assert {_key(entries) for entries in answer.assignments} == expected
    assert len(answer.assignments) == answer.count


@pytest.mark.parametrize("seed", range(1, 9))
def test_count_answers_32_attackers_and_16_blockers_on_every_seed(seed):
    """Issue 12: counts of twenty digits, within the default count limit."""
    answer = count(_without_assignment(32, seed))
    assert answer.count > 10**9


def test_a_huge_trampler_is_counted_by_its_sums_not_its_rows():
    """A 300-power trampler over three 1/2 blockers, whose 1 damage each goes to it: either
    nothing past them (C(302, 2) splits among the three), or lethal damage, 2, to each and at
    least 1 to D (the other 294 in four parts with D's at least 1: C(296, 3)). 4.3 million
    rows, counted without making them."""
    combat = parse(
        scenario_file(
            attacker("ghalta", 300, 12, "trample"),
            *(blocker(f"b{i}", 1, 2, blocking=["ghalta"]) for i in range(3)),
        )
    )
    assert count(combat).count == comb(302, 2) + comb(296, 3)


def test_past_the_count_limit_the_group_is_named_with_the_flag():
    combat = _without_assignment(6, 3)
    with COUNT_STANDINGS.set_to(100), pytest.raises(TooManyToCount) as refused:
        count(combat)
    message = str(refused.value)
    assert "more than the count limit of 100; raise --count-limit" in message
    assert message.startswith("counting a")


def test_listing_a_trampler_gives_nothing_first_then_the_most_to_its_first_recipient():
    """The order 510.1a's candidate rows always came in, kept for `count --list`."""
    combat = parse(
        scenario_file(
            attacker("rhino", 3, 4, "trample"), blocker("squire", 0, 1, blocking=["rhino"])
        )
    )
    listed = count(combat, list_limit=10).assignments
    amounts = [{e.to: e.amount for e in entries if e.source == "rhino"} for entries in listed]
    assert amounts == [{"D": 2, "squire": 1}, {"D": 1, "squire": 2}, {"squire": 3}]


# -- the parts: formulas taken apart, and the programme against plain enumeration ----------

X = [z3.Int(f"x{i}") for i in range(3)]
INDEX = {x.get_id(): i for i, x in enumerate(X)}


def test_comparisons_become_linear_atoms_over_the_integers():
    cases = {
        X[0] > 0: Linear(((0, 1),), -1, False),
        X[0] + 2 * X[1] - 3 >= X[2]: Linear(((0, 1), (1, 2), (2, -1)), -3, False),
        X[0] <= 4: Linear(((0, -1),), 4, False),
        X[0] + X[1] == 5: Linear(((0, 1), (1, 1)), -5, True),
        -X[1] < X[0]: Linear(((0, 1), (1, 1)), -1, False),
    }
    for formula, atom in cases.items():
        assert taken_apart(formula, INDEX) == (("atom", 0), [atom])


def test_a_product_of_unknowns_is_kept_whole_and_tested_on_its_values():
    skeleton, (atom,) = taken_apart(X[0] * X[1] >= 2, INDEX)
    assert skeleton == ("atom", 0) and isinstance(atom, Whole)
    assert atom.unknowns == (0, 1) and atom.test(1, 2) and not atom.test(1, 1)


def _linear_terms(draw) -> z3.ArithRef:
    used = draw(st.lists(st.sampled_from(range(3)), min_size=1, max_size=3, unique=True))
    return sum(draw(st.integers(-2, 2)) * X[i] for i in used) + draw(st.integers(-4, 4))


@st.composite
def formulas(draw, depth: int = 2) -> z3.BoolRef:
    """Formulas like the rules' (sums compared with constants, under and, or, not and
    implies), with some that are not linear (a product, an if-then-else term)."""
    if depth == 0 or draw(st.booleans()):
        kind = draw(st.sampled_from(["ge", "gt", "eq", "le", "product", "ite"]))
        left, bound = _linear_terms(draw), draw(st.integers(-3, 6))
        if kind == "product":
            return X[0] * X[draw(st.sampled_from([1, 2]))] >= bound
        if kind == "ite":
            return z3.If(X[1] > X[2], X[0], X[2] - X[1]) <= bound
        return {"ge": left >= bound, "gt": left > bound, "eq": left == bound, "le": left <= bound}[
            kind
        ]
    parts = draw(st.lists(formulas(depth - 1), min_size=1, max_size=3))
    combine = draw(st.sampled_from([z3.And, z3.Or, lambda *p: z3.Not(p[0]), _implies]))
    return combine(*parts)


def _implies(*parts):
    return z3.Implies(parts[0], parts[-1])


def _holds(formula, values) -> bool:
    substituted = z3.substitute(
        formula, *((x, z3.IntVal(v)) for x, v in zip(X, values, strict=True))
    )
    return z3.is_true(z3.simplify(substituted))


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(formulas(), min_size=1, max_size=3),
    st.lists(
        st.one_of(
            st.integers(0, 3).map(lambda n: range(n + 1)),
            st.integers(0, 3).map(lambda v: range(v, v + 1)),
        ),
        min_size=3,
        max_size=3,
    ),
)
def test_the_programme_counts_and_lists_what_plain_enumeration_finds(constraints, domains):
    """Every assignment of the domains tried one by one against the formulas (Z3 evaluates
    them): the programme counts the same number, and lists the same assignments in the same
    order (ascending values, the first unknown varying slowest)."""
    expected = [
        values
        for values in itertools.product(*domains)
        if all(_holds(f, values) for f in constraints)
    ]
    programme = Programme(domains, [taken_apart(f, INDEX) for f in constraints])
    assert programme.count(UNLIMITED) == len(expected)
    blocks = [Block(u, 1, {}, tuple(domains[u])) for u in range(3)]
    assert list(programme.rows(blocks, UNLIMITED)) == expected
