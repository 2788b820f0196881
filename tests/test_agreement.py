"""The check, the solver and the brute-force reference agree on random small combats, of
every edition."""

from __future__ import annotations

from collections import Counter
from math import factorial, prod

import z3
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from lethal import check, count, guarantee, maximum, possible, rules
from lethal.amounts import Amounts
from lethal.requirements import parse as requirement
from lethal.solver import Encoding
from lethal.solver import is_legal as solver_says_legal
from lethal.view import ScenarioView

from . import reference
from .build import attacker, blocker, scenario
from .strategies import assignments, combats, editions

SLOW = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUERIES = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def order_combats(max_power: int = 5):
    """Combats under the editions with a damage assignment order, crowded, with many orders
    open."""
    return combats(max_power, rules=editions(orders_only=True), leave_open=3, crowded=True)


@SLOW
@given(st.data())
def test_check_solver_and_reference_give_the_same_verdict(data):
    scenario = data.draw(combats())
    entries = data.draw(assignments(scenario))
    expected = reference.is_legal(scenario, entries)
    event("legal" if expected else "illegal")
    event(f"rules {scenario.edition.since}")
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


@SLOW
@given(st.data())
def test_the_orders_found_for_an_open_order_are_those_the_reference_finds(data):
    """509.2-509.3, 510.1c-d: for each order the file leaves open, the orders the check
    reports as legal are exactly those the reference finds the creature's division follows,
    and the assignment is legal iff every other rule holds and each open order has one."""
    scenario = data.draw(order_combats())
    entries = data.draw(assignments(scenario))
    verdict = check(scenario, entries)
    found = {f.source: f for f in verdict.orders}
    expected = reference.open_orders(scenario)
    event(f"{len(expected)} open orders")
    assert sorted(found) == sorted(expected)
    for s in expected:
        members = reference.order_members(scenario, scenario.permanent(s))
        attacking = scenario.permanent(s).attacking is not None
        assert found[s].announcer == reference.announcer(scenario, s)
        assert found[s].rule == ("509.2" if attacking else "509.3")
        assert found[s].tried == factorial(len(members))
        assert set(found[s].legal) == set(reference.orders_that_work(scenario, entries, s))
        assert len(set(found[s].legal)) == len(found[s].legal)
        event("an open order has no legal order" if not found[s].legal else "some legal order")
    every_open_one_has_one = all(found[s].legal for s in expected)
    rest = reference.is_legal_but_for_open_orders(scenario, entries)
    assert verdict.legal == (rest and every_open_one_has_one), verdict.violations
    assert verdict.legal == reference.is_legal(scenario, entries)
    assert solver_says_legal(scenario, entries) == verdict.legal


@st.composite
def small_order_combats(draw):
    """Order-edition combats whose legal assignments the reference can list."""
    combat = draw(order_combats(max_power=3))
    space = prod(len(reference.divisions(combat, p)) for p in combat.permanents if p.is_creature)
    assume(space <= 3000)
    return combat


@QUERIES
@given(small_order_combats(), st.data())
def test_queries_choose_open_orders_freely_as_the_reference_does(combat, data):
    """Under the editions with an order, the count, the most damage to the defending player
    and a drawn possibility are those of the reference's legal assignments, an open order
    being any order that makes an assignment legal."""
    legal = list(reference.legal_assignments(combat))
    event("open orders" if reference.open_orders(combat) else "every order given")
    assert count(combat, list_limit=0).count == len(legal)
    assert maximum(combat, "D").value == max(reference.damage_to(e, "D") for e in legal)
    creatures = [p.id for p in combat.permanents if p.is_creature]
    recipients = [p.id for p in combat.players] + [p.id for p in combat.permanents]
    source = data.draw(st.sampled_from(creatures + ["*"]))
    to = data.draw(st.sampled_from(recipients + ["*"]))
    comparison = data.draw(st.sampled_from([">=", "<=", "==", ">", "<"]))
    wanted = requirement(f"{source}->{to} {comparison} {data.draw(st.integers(0, 6))}")
    expected = any(
        wanted.holds(Amounts({(e.source, e.to): e.amount for e in entries})) for entries in legal
    )
    event("possible" if expected else "impossible")
    assert possible(combat, [wanted]).possible == expected


def test_guarantee_an_open_order_is_announced_before_any_damage_is_assigned():
    """509.2, 510.1c, 702.22j: A announces a1's order, x then y, in the declare blockers
    step. a1 then puts 1 on x and 1 on y, and D, who divides a2's 3 among x, y and the
    banding w as they choose, must complete a legal assignment: x needs lethal damage, 2
    more. So A is sure of 3 on x (1 + 2), not only of the 2 a1 alone can put there."""
    combat = scenario(
        attacker("a1", 2, 2),
        attacker("a2", 3, 3),
        blocker("x", 0, 3, blocking=["a1", "a2"]),
        blocker("y", 0, 3, blocking=["a1", "a2"]),
        blocker("w", 0, 3, "banding", blocking=["a2"]),
        rules="2015-01-01",
    )
    assert reference.guarantee(combat, "x") == 3
    assert guarantee(combat, "x").value == 3
