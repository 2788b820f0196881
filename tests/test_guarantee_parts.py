"""`guarantee` solves independent parts of a combat apart, and identical parts once: the sum
of the parts' guarantees is the whole combat's, asked of Z3 as one quantified formula over
every unknown at once (510.1: the active player's divisions first, then the defending
players'; 702.22j-k: banding hands a creature's division to the other side)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lethal import guarantee, possible
from lethal.limits import CREATURES
from lethal.requirements import ANY, Pair, assigned
from lethal.solver.encoding import Encoding, decide
from lethal.solver.guarantee import chosen_first, who_is_hurt

from .build import attacker, blocker, scenario
from .strategies import combats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from check_speed import banding_combat  # noqa: E402 - the issue's combats, with the benchmarks


def sure_of(combat, to: str, value: int) -> bool:
    """Whether the player who wants damage on `to` can be sure of `value`, by one quantified
    formula over the whole combat: some legal choice of the side choosing first such that
    every legal reply of the other side gives at least (or, for the defenders, at most)
    `value`."""
    encoding = Encoding(combat, extra_pairs=[(e.source, e.to) for e in combat.assignment or ()])
    first = {v.get_id() for v in chosen_first(encoding)}
    second = [v for v in encoding.variables.values() if v.get_id() not in first]
    given = encoding.given(combat.assignment or ())
    legal = z3.And(
        [encoding.formula(True), *encoding.domain()]
        + [f for f, _ in encoding.rule_formulas() + given]
    )
    damage = encoding.integer(assigned(Pair(ANY, to), encoding.amounts))
    active_wants = who_is_hurt(combat, to) != combat.active_player
    enough = encoding.formula(damage >= value if active_wants else damage <= value)
    solver = encoding.solver()
    some_reply = [(v, z3.FreshInt("reply", encoding.context)) for v in second]
    solver.add(z3.substitute(legal, *some_reply))  # the choice can be completed legally
    solver.add(
        z3.ForAll(second, z3.Implies(legal, enough)) if second else z3.Implies(legal, enough)
    )
    return decide(solver)


def assert_the_whole_agrees(combat, to: str) -> None:
    answer = guarantee(combat, to)
    beyond = answer.value + (1 if who_is_hurt(combat, to) != combat.active_player else -1)
    assert sure_of(combat, to, answer.value)
    assert not sure_of(combat, to, beyond)


@pytest.mark.parametrize("to", ["D", "a1"])  # the active player's wish, the defenders'
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("size", [4, 16, 64])
def test_the_sum_of_the_parts_is_the_whole_on_the_issues_combats(size, seed, to):
    """The issue's combats (tramplers, deathtouch, bands, blockers of two bands), too big for
    the reference, split into parts; the whole is asked of Z3 in one piece."""
    combat = replace(banding_combat(size, seed), assignment=None)
    with CREATURES.set_to(2 * size):
        assert_the_whole_agrees(combat, to)


@pytest.mark.parametrize("seed", [1, 2])
def test_with_a_partial_assignment_the_parts_keep_the_given_amounts(seed):
    combat = banding_combat(8, seed)
    combat = replace(combat, assignment=combat.assignment[: len(combat.assignment) // 2])
    assert_the_whole_agrees(combat, "D")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_the_sum_of_the_parts_is_the_whole_on_drawn_combats(data):
    combat = data.draw(combats(max_power=4))
    assume(possible(combat).possible)
    to = data.draw(st.sampled_from(["D", "A", *(p.id for p in combat.permanents)]))
    assert_the_whole_agrees(combat, to)


def test_identical_tokens_each_add_their_part():
    """Ten 2/2 tokens, each blocked by its own 1/1 with banding (702.22j: the defending player
    divides each token's damage), beside ten unblocked 3/3 tramplers: the parts are two
    problems, each solved once, and each token adds its own."""
    tokens = [attacker(f"t{i}", 2, 2, "trample") for i in range(10)]
    banders = [blocker(f"b{i}", 1, 1, "banding", blocking=[f"t{i}"]) for i in range(10)]
    free = [attacker(f"f{i}", 3, 3, "trample") for i in range(10)]
    answer = guarantee(scenario(*tokens, *banders, *free), "D")
    assert answer.value == 10 * 3  # a blocked token's damage all goes to its blocker
    small = scenario(tokens[0], banders[0], free[0])
    assert guarantee(small, "D").value * 10 == answer.value
    assert_the_whole_agrees(small, "D")


def test_parts_alike_but_for_who_divides_are_not_the_same_problem():
    """Two 2/2 tramplers, each blocked by a 1/1: the same constraints, but a banding blocker
    has the defending player divide its attacker's damage (702.22j), who puts it all on the
    blocker, while the other trampler's controller puts 1 past its blocker."""
    combat = scenario(
        attacker("t0", 2, 2, "trample"),
        blocker("b0", 1, 1, "banding", blocking=["t0"]),
        attacker("t1", 2, 2, "trample"),
        blocker("b1", 1, 1, blocking=["t1"]),
    )
    assert guarantee(combat, "D").value == 1
    assert_the_whole_agrees(combat, "D")
