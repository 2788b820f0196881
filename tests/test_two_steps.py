"""Both combat damage steps as one query (`solver/two_steps`): its second step's view is what
`whole_combat.after` makes of every legal first-step assignment, term for term; its max and
min are the reference's on small combats with what damage does, and the old enumeration's
on the speed benchmark's combats."""

from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from lethal import maximum, minimum, parse, possible
from lethal.limits import ASSIGNMENTS
from lethal.requirements import ANY, Pair
from lethal.rules.dealing import deal
from lethal.solver.combat_parts import independent_parts
from lethal.solver.counting import count
from lethal.solver.two_steps import FirstStep, SecondStepView, expressible
from lethal.view import ScenarioView
from lethal.whole_combat import course as phase
from lethal.whole_combat.max_min import _best_course

from . import reference
from .strategies import editions, phase_starts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from combat_speed import combat_with_strikers  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::lethal.errors.ScenarioWarning")


@st.composite
def phases(draw):
    """Small combats with first or double strike and no effects, from the start of the
    phase, half the time with what damage does (life, poison, lifelink, infect, wither,
    protection, regeneration); the second step `expressible` over the first's unknowns."""
    data = draw(phase_starts())
    note(str(data))
    combat = parse(data, whole_combat=True)
    assume(combat.strikers())
    first = phase.start(combat)
    assume(expressible(first))
    assume(count(phase.silent_given(first)).count <= 100)
    return combat


def _valued(step: FirstStep, entries):
    """A term of the step's, valued at one first-step assignment."""
    amounts = {(e.source, e.to): e.amount for e in entries}
    context = step.encoding.context
    pairs = [(v, z3.IntVal(amounts.get(p, 0), context)) for p, v in step.encoding.variables.items()]

    def value(term):
        if isinstance(term, bool | int):
            return term
        found = z3.simplify(z3.substitute(term, *pairs) if pairs else term)
        return z3.is_true(found) if z3.is_bool(found) else found.as_long()

    return value


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(phases())
def test_the_second_step_view_is_what_after_makes_of_each_first_step(combat):
    first = phase.start(combat)
    step = FirstStep(first, phase.dealing(first))
    view, was = SecondStepView(first, step.after), ScenarioView(first)
    for entries in phase.legal_assignments(first):
        value = _valued(step, entries)
        (outcome,) = deal(first, entries)
        assert value(step.after.game_over) == phase.game_over(first, outcome)
        for p in first.players:
            assert value(step.after.poison[p.id]) == outcome.poison[p.id]
            assert value(step.after.net_loss[p.id]) == outcome.lost[p.id] - outcome.gained[p.id]
        plain = ScenarioView(phase.after(first, outcome))
        there = {p.id for p in plain.scenario.permanents}
        for x in was.creatures:
            asked = [("is_creature", (x,)), ("is_attacking", (x,)), ("is_blocking", (x,))]
            if x in there:
                asked += [
                    (q, (x,)) for q in ("power", "toughness", "marked", "regeneration_shields")
                ]
                asked += [("is_blocked", (x,))] * was.is_attacking(x)
                asked += [("attacks", (x, t)) for t in was.targets_of(x)]
                asked += [("blocks", (x, a)) for a in was.blocked_by(x)]
            for question, args in asked:
                mine = value(getattr(view, question)(*args))
                theirs = getattr(plain, question)(*args) if x in there else False
                assert mine == theirs, (question, args, entries)
        for x in was.planeswalkers + tuple(p.id for p in first.permanents if p.is_battle):
            assert value(view.loyalty(x)) == plain.loyalty(x), (x, entries)
            assert value(view.removed(x)) == plain.removed(x), (x, entries)


def _dealt_over_the_phase(combat, to: str) -> list[int]:
    """The damage dealt to `to` over the phase in each course the reference finds; an
    example of more than 300 courses is passed over."""
    dealt = list(islice(reference.dealt_over_the_phase(combat, to), 301))
    assume(len(dealt) <= 300)
    return dealt


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(phases(), st.sampled_from(["D", "a0", "b0"]))
def test_max_and_min_over_the_phase_equal_the_reference(combat, to):
    assume(any(p.id == to for p in combat.permanents) or to == "D")
    dealt = _dealt_over_the_phase(combat, to)
    assert maximum(combat, to, whole_combat=True).value == max(dealt)
    assert minimum(combat, to, whole_combat=True).value == min(dealt)


@st.composite
def ordered_phases(draw):
    """Small combats with first or double strike under an edition with damage assignment
    orders (before 2024-11-08), in which some creature's order ranks two creatures or more:
    the file's, or one left open, which is announced before the first step and binds both
    (509.2-509.3)."""
    combat = parse(draw(phase_starts(rules=editions(orders_only=True))), whole_combat=True)
    assume(combat.strikers())
    first = phase.start(combat)
    creatures = [p for p in first.permanents if p.is_creature]
    assume(any(len(reference.order_members(first, p)) >= 2 for p in creatures))
    assume(count(phase.silent_given(first)).count <= 100)
    return combat


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(ordered_phases(), st.sampled_from(["D", "a0", "b0"]))
def test_orders_bind_both_steps_of_the_one_query_as_the_reference_has_them(combat, to):
    """Each step's orders are the one announced (or the file's), less the creatures that left
    combat: max, min and possible over the phase, in one query, are the reference's."""
    assume(any(p.id == to for p in combat.permanents) or to == "D")
    dealt = _dealt_over_the_phase(combat, to)
    most, least = max(dealt), min(dealt)
    assert maximum(combat, to, whole_combat=True).value == most
    assert minimum(combat, to, whole_combat=True).value == least
    for asked, met in ((f">= {most}", True), (f">= {most + 1}", False), (f"<= {least}", True)):
        assert possible(combat, [f"*->{to} {asked}"], whole_combat=True).possible == met, asked


@pytest.mark.parametrize("strikers", [None, 2])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_each_part_of_the_benchmark_combats_gives_the_enumeration_s_optimum(seed, strikers):
    """benchmarks/combat_speed.py's combats of 16 attackers: each independent part's most and
    least to D by one query, and by trying every first-step assignment."""
    first = phase.start(combat_with_strikers(16, seed, strikers))
    target = Pair(ANY, "D")
    dealing = phase.dealing(first)
    for part in independent_parts(first):
        branches = list(phase.branches_of(part))
        for maximize in (True, False):
            course = FirstStep(part, dealing).best_course(target, maximize=maximize)
            enumerated = _best_course(part, branches, target, maximize=maximize)
            assert course.value == enumerated[0]


def test_a_first_strike_part_of_more_assignments_than_the_limit_is_answered():
    """The benchmark's 64-attacker combat of seed 3 has a part whose first-strike step has
    more legal assignments than the assignment limit: one query answers it, no refusal."""
    combat = combat_with_strikers(64, 3)
    parts = independent_parts(phase.start(combat))
    largest = max(count(phase.silent_given(part)).count for part in parts)
    assert largest > ASSIGNMENTS.value()
    most = maximum(combat, "D", whole_combat=True)
    least = minimum(combat, "D", whole_combat=True)
    assert least.value <= most.value
