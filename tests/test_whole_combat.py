"""The whole combat damage phase (--combat): worked cases, and the reference."""

from __future__ import annotations

import io
import json
from math import prod

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lethal import guarantee, maximum, minimum, parse, possible
from lethal.cli import main

from . import reference
from .build import attacker, blocker, scenario_file
from .strategies import scenarios


def phase(*permanents):
    return parse(scenario_file(*permanents), whole_combat=True)


WORKED = [
    (
        "a 4/4 double-striking trampler blocked by a 2/2 can deal 6 to the defending player",
        [
            attacker("swift", 4, 4, "double strike", "trample"),
            blocker("ox", 2, 2, blocking=["swift"]),
        ],
        6,
    ),
    (
        "blocked by an indestructible 1/1, 7: lethal damage stays marked on it (RT-SWIFT)",
        [
            attacker("swift", 4, 4, "double strike", "trample"),
            blocker("saint", 1, 1, "indestructible", blocking=["swift"]),
        ],
        7,
    ),
    (
        "a 4/4 double striker without trample blocked by a 2/2 deals nothing to the player",
        [attacker("knight", 4, 4, "double strike"), blocker("ox", 2, 2, blocking=["knight"])],
        0,
    ),
    (
        "a first striker's damage is marked when a trampler assigns in the second step",
        [
            attacker("fencer", 1, 1, "first strike"),
            attacker("rhino", 3, 3, "trample"),
            blocker("wall", 0, 2, blocking=["fencer", "rhino"]),
        ],
        2,
    ),
    (
        "without first or double strike, the whole combat is the one step",
        [attacker("rhino", 3, 3, "trample"), blocker("wall", 0, 2, blocking=["rhino"])],
        1,
    ),
]


@pytest.mark.parametrize("permanents, most", [w[1:] for w in WORKED], ids=[w[0] for w in WORKED])
def test_worked_case(permanents, most):
    combat = phase(*permanents)
    assert maximum(combat, "D", whole_combat=True).value == most
    assert guarantee(combat, "D", whole_combat=True).value == most  # no banding: A decides


def _size(combat) -> int:
    return prod(len(reference.divisions(combat, p)) for p in combat.permanents if p.is_creature)


@st.composite
def small_phases(draw):
    data = draw(scenarios(max_power=3))
    data.pop("step")
    for p in data["permanents"]:
        p.pop("struck_first", None)
    combat = parse(data, whole_combat=True)
    assume(
        any(
            ("first strike" in p.keywords or "double strike" in p.keywords)
            for p in combat.permanents
            if p.in_combat
        )
    )
    from dataclasses import replace

    assume(_size(replace(combat, step="first-strike")) <= 300)
    assume(_size(replace(combat, step="second")) <= 300)
    return combat


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_phases(), st.sampled_from(["D", "a0", "b0"]))
def test_max_and_min_over_the_phase_equal_the_reference(combat, to):
    assume(any(p.id == to for p in combat.permanents) or to == "D")
    totals = [
        reference.damage_to(one, to) + reference.damage_to(two, to)
        for one, two in reference.whole_combats(combat)
    ]
    assert maximum(combat, to, whole_combat=True).value == max(totals)
    assert minimum(combat, to, whole_combat=True).value == min(totals)
    most = max(totals)
    assert possible(combat, [f"*->{to} >= {most}"], whole_combat=True).possible
    assert not possible(combat, [f"*->{to} >= {most + 1}"], whole_combat=True).possible


def test_combat_json_gives_both_steps(tmp_path):
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(scenario_file(*WORKED[0][1])))
    out = io.StringIO()
    code = main(
        ["max", str(path), "--to", "D", "--combat", "--json"], stdout=out, stderr=io.StringIO()
    )
    answer = json.loads(out.getvalue())
    assert code == 0 and answer["value"] == 6
    assert [s["step"] for s in answer["steps"]] == ["first-strike", "second"]


def test_combat_takes_no_step_and_no_assignment(tmp_path):
    path = tmp_path / "combat.json"
    data = scenario_file(*WORKED[0][1], step="first-strike")
    path.write_text(json.dumps(data))
    err = io.StringIO()
    assert main(["max", str(path), "--to", "D", "--combat"], stdout=io.StringIO(), stderr=err) == 2
    assert "must name no 'step'" in err.getvalue()


def test_a_blocker_killed_in_the_first_step_deals_no_damage_in_the_second():
    """704.5g between the steps: the first striker kills its blocker before it strikes."""
    combat = phase(
        attacker("knight", 2, 2, "first strike"), blocker("ox", 2, 2, blocking=["knight"])
    )
    assert maximum(combat, "knight", whole_combat=True).value == 0


def test_a_blocker_killed_by_deathtouch_leaves_the_trampler_free():
    """704.5h between the steps: a first-striking deathtouch creature kills the 5/5 with 1
    damage, so in the second step the trampler it also blocked has no blocker left."""
    combat = phase(
        attacker("asp", 1, 1, "first strike", "deathtouch"),
        attacker("rhino", 3, 3, "trample"),
        blocker("giant", 5, 5, blocking=["asp", "rhino"]),
    )
    assert maximum(combat, "D", whole_combat=True).value == 3


def _reference_guarantee(combat, to):
    """The orders the file leaves open announced first, once for both steps (509.2-509.3);
    then the active player's first-step divisions, the defending player's after, then the
    second step's guarantee: the reference's way."""
    from dataclasses import replace

    first = replace(combat, step="first-strike")
    hurt = reference.who_is_hurt(combat, to)

    def phase(announced):
        outcomes = {}
        for one in reference.legal_assignments(announced):
            second = reference.after_first_step(announced, one)
            alive = to == "D" or any(p.id == to for p in second.permanents)
            later = reference.guarantee(second, to) if alive else 0
            value = reference.damage_to(one, to) + later
            mine = frozenset(e for e in one if reference.chooser(announced, e.source) == "A")
            outcomes.setdefault(mine, []).append(value)
        if hurt != "A":
            return max(min(values) for values in outcomes.values())
        return min(max(values) for values in outcomes.values())

    return reference.orders_first(first, reference.open_for_the_phase(first), to, phase)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_phases(), st.sampled_from(["D", "a0", "b0"]))
def test_guarantee_over_the_phase_equals_the_reference(combat, to):
    assume(any(p.id == to for p in combat.permanents) or to == "D")
    assert guarantee(combat, to, whole_combat=True).value == _reference_guarantee(combat, to)


def test_a_requirement_about_a_creature_dead_by_the_second_step():
    combat = phase(*WORKED[0][1])
    assert possible(combat, ["ox->swift >= 1"], whole_combat=True).possible is False
    assert possible(combat, ["swift->ox == 4"], whole_combat=True).possible


def _with_effects(*effects):
    data = scenario_file(*WORKED[0][1])
    data["effects"] = list(effects)
    return parse(data, whole_combat=True)


def test_a_shield_lasts_across_both_steps():
    """615: "the next 3 damage" this turn: 2 prevented in the first step, 1 in the second."""
    combat = _with_effects({"id": "shield", "kind": "prevent", "amount": 3, "to": "D"})
    assert maximum(combat, "D", whole_combat=True).value == 6 - 3


def test_a_damage_doubler_doubles_both_steps():
    combat = _with_effects({"id": "dictate", "kind": "double", "sources": ["swift"]})
    assert maximum(combat, "D", whole_combat=True).value == 12
    assert possible(combat, ["swift->D >= 12"], whole_combat=True).possible
    assert not possible(combat, ["swift->D >= 13"], whole_combat=True).possible


def test_protection_keeps_a_blocker_alive_for_the_second_step():
    """702.16e: the green trampler's first-strike damage to the pro-green blocker is
    prevented, so the blocker still needs lethal damage in the second step."""
    combat = phase(
        attacker("swift", 4, 4, "double strike", "trample", qualities=["green"]),
        blocker("warden", 1, 2, "protection from green", blocking=["swift"]),
    )
    assert maximum(combat, "D", whole_combat=True).value == 2 + 2


def test_guarantee_with_a_shield_and_a_doubler_weighs_the_defenders_order():
    """D orders the shield and the doubler on damage to D (616.1), and keeps what is left of
    the shield for the second step: the most A is sure of is 6, though 9 can happen."""
    combat = _with_effects(
        {"id": "shield", "kind": "prevent", "amount": 3, "to": "D"},
        {"id": "dictate", "kind": "double", "sources": ["swift"]},
    )
    assert guarantee(combat, "D", whole_combat=True).value == 6
    assert maximum(combat, "D", whole_combat=True).value == 9


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_phases(), st.sampled_from(["D", "a0", "b0"]))
def test_the_slow_guarantee_agrees_with_the_solver_one(combat, to):
    """The guarantee for files with effects tries every choice of every player; without
    effects it must agree with the one that asks the solver about the second step."""
    from lethal.whole_combat import _guarantee_by_every_choice

    assume(any(p.id == to for p in combat.permanents) or to == "D")
    slow = _guarantee_by_every_choice(combat, to).value
    assert slow == guarantee(combat, to, whole_combat=True).value


def test_an_open_order_is_the_same_in_both_combat_damage_steps():
    """509.2, 510.1c: with x first, 2 on x in the first step leaves x short of lethal (2 of
    3), so the second step may not put 2 on y; with y first, the first step may not put 2
    on x. Whatever order the active player announces, 2 on each is impossible."""
    combat = parse(
        scenario_file(
            attacker("swift", 2, 2, "double strike"),
            blocker("x", 0, 3, blocking=["swift"]),
            blocker("y", 0, 3, blocking=["swift"]),
            rules="2015-01-01",
        ),
        whole_combat=True,
    )
    assert not any(
        reference.damage_to(one + two, "x") >= 2 and reference.damage_to(one + two, "y") >= 2
        for one, two in reference.whole_combats(combat)
    )
    assert not possible(combat, ["swift->x >= 2", "swift->y >= 2"], whole_combat=True).possible
