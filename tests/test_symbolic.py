"""The symbolic combat the prover reasons about is the combat `lethal check` judges.

Each drawn scenario is pinned into the symbolic combat: every unknown is given the value
the file gives it. Then every question the rules ask of a view, every question the rules
themselves answer, and `legal(x)` for drawn assignments must come out exactly as the
concrete view and `lethal check` answer them, over every source and every recipient,
pairs the rules forbid included. A proof over the symbolic combat is only as good as this.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from lethal import Entry, check, load, parse
from lethal.proving import agreement, counterexample
from lethal.proving.agreement import Agreement, slotted
from lethal.proving.symbolic import SymbolicCombat
from lethal.reading import bundled_examples
from lethal.rules import order
from lethal.rules.dealing import Change, apply
from lethal.rules.doubling import (
    double_counters,
    double_damage,
    double_life,
    double_power_and_toughness,
)
from lethal.view import ScenarioView

from .build import attacker, blocker, planeswalker, scenario_file
from .strategies import assignments, scenarios, with_results

EXAMPLES = Path(__file__).parent.parent / "model" / "examples"

# Room for every drawn file and every bundled example: the bounds `lethal prove` pins to.
BOUNDS = agreement.BOUNDS
SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def files_with_effects(draw) -> dict:
    """A drawn file, with what changes damage dealt and what it does (`with_results`: the
    keywords of 120.3 and 702.164, protection from a quality, creatures or everything, of
    creatures and players, regeneration shields) and the effects the symbolic combat can
    say: a damage doubler on one creature's damage, prevention shields on recipients,
    preventions of all the damage to one recipient or to every one, damage of some
    creatures that can't be prevented."""
    # Every order given: the symbolic combat, like a file it stands for, has its orders.
    data = draw(scenarios(protection=True, leave_open=0))
    if draw(st.booleans()):
        data = draw(with_results(data))
    creatures = [p["id"] for p in data["permanents"] if "creature" in p["types"]]
    recipients = [p["id"] for p in data["players"]] + [p["id"] for p in data["permanents"]]
    effects = [
        {"id": f"double-{c}", "kind": "double", "sources": [c]}
        for c in draw(st.lists(st.sampled_from(creatures), unique=True, max_size=2))
    ] + [
        {"id": f"shield-{r}", "kind": "prevent", "amount": draw(st.integers(1, 5)), "to": r}
        for r in draw(st.lists(st.sampled_from(recipients), unique=True, max_size=2))
    ]
    if draw(st.integers(0, 3)) == 0:
        fog = {"id": "fog", "kind": "prevent"}
        if draw(st.booleans()):
            fog["to"] = draw(st.sampled_from(recipients))
        effects.append(fog)
    if draw(st.integers(0, 3)) == 0:
        unpreventable = {"id": "unpreventable", "kind": "cant-be-prevented"}
        if draw(st.integers(0, 3)) > 0:
            unpreventable["sources"] = draw(
                st.lists(st.sampled_from(creatures), min_size=1, unique=True)
            )
        effects.append(unpreventable)
    if effects:
        data["effects"] = effects
    return data


AGREEMENT = Agreement(BOUNDS)  # the symbolic formulas, built once for every example


@SLOW
@given(st.data())
def test_symbolic_combat_pinned_to_a_file_answers_as_lethal_check_does(data):
    """Every view question, every rule question, the effects dealing applies, the failed
    constraints and legal(x), for a drawn file and a drawn assignment (often illegal)."""
    # What the symbolic combat cannot say (protection from artifacts) is left out; card
    # types that matter to nothing are dropped.
    scenario = slotted(parse(data.draw(files_with_effects()), warn=False), BOUNDS)
    assume(scenario is not None)
    entries = data.draw(assignments(scenario))
    event(f"{len(scenario.players)} players")
    event("legal" if check(scenario, entries).legal else "illegal")
    assert {(e.source, e.to) for e in entries} <= set(
        AGREEMENT.judged(scenario.edition).x.variables
    )
    assert AGREEMENT.disagreements(scenario, entries) == []


def test_a_creature_that_does_not_assign_this_step_breaks_the_same_rules_on_both_sides():
    """Found by the test above: a first striker with Thorn Elemental's ability, in the second
    step, splitting 1 to its blocker and 1 to the planeswalker it attacks. It assigns nothing
    this step (510.4), and the split breaks the all-or-nothing constraint (510.1b-c) too: the
    check skipped that constraint for a creature that assigns nothing, and the symbolic
    combat did not."""
    thorn = "may assign combat damage as though it weren't blocked"
    data = scenario_file(
        attacker("a0", 1, 1, "first strike", thorn, attacking="p0", order=["b0", "b1"]),
        blocker("b0", 0, 1, blocking=["a0"]),
        blocker("b1", 0, 1, blocking=["a0"]),
        planeswalker("p0", 1),
        step="second",
        rules="2009-07-11",
    )
    scenario = slotted(parse(data, warn=False), BOUNDS)
    entries = [Entry("a0", "b0", 1), Entry("a0", "p0", 1)]
    # 510.4 of today is 510.5 in that edition's numbering.
    broken = {v.rule for v in check(scenario, entries).violations}
    assert broken == {scenario.edition.cite("510.4"), "510.1b-c"}
    assert AGREEMENT.disagreements(scenario, entries) == []


def test_every_bundled_example_fits_the_symbolic_combat_and_agrees():
    for path in bundled_examples():
        scenario = slotted(load(path), BOUNDS)
        if order.open_orders(ScenarioView(load(path))):
            # An order left open is a question for the check, which tries every order; the
            # symbolic combat, like the file it stands for, has its orders given.
            assert scenario is None, path.name
            continue
        assert scenario is not None, path.name
        assert AGREEMENT.disagreements(scenario, scenario.assignment or ()) == [], path.name


def test_a_wrong_symbolic_view_is_caught(monkeypatch):
    """Damage marked read as 0 on the symbolic side: the agreement check names it."""
    scenario = slotted(load(EXAMPLES / "double-strike-second-step.json"), BOUNDS)
    monkeypatch.setattr(SymbolicCombat, "marked", lambda self, c: 0)
    found = Agreement(BOUNDS).disagreements(scenario, scenario.assignment)
    assert any(line.startswith("marked(") for line in found), found


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["protection", "prevent", "double", "add"]),
    st.integers(-3, 12),
    st.integers(0, 12),
    st.integers(-6, 6),
)
def test_dealing_and_doubling_give_the_same_on_numbers_and_on_terms(kind, amount, shield, n):
    """Each effect on damage, and each kind of doubling, written once with `ops`, gives the
    same on plain numbers as on Z3 terms given those numbers."""
    context = z3.Context()
    a, s, k = (z3.Int(name, context) for name in ("amount", "shield", "n"))
    pins = [(a, z3.IntVal(amount, context)), (s, z3.IntVal(shield, context))]
    pins.append((k, z3.IntVal(n, context)))

    def value(term):
        reduced = z3.simplify(z3.substitute(term, *pins))
        return reduced.as_long()

    change = Change("e", kind, 2)
    on_terms, on_numbers = apply(change, a, s), apply(change, amount, shield)
    assert tuple(value(t) if not isinstance(t, int) else t for t in on_terms) == on_numbers
    changed, plain = double_power_and_toughness(k, a), double_power_and_toughness(n, amount)
    assert (value(changed.power), value(changed.toughness)) == (plain.power, plain.toughness)
    life, plain_life = double_life(k), double_life(n)
    assert (value(life.gained), value(life.lost)) == (plain_life.gained, plain_life.lost)
    assert value(double_counters(k) + 0 * a) == double_counters(n)
    assert value(double_damage(k)) == double_damage(n)


# A file with what damage does and what changes it: the agreement check must notice each
# part of the symbolic combat answering otherwise.
RESULTS_FILE = {
    "players": [{"id": "A"}, {"id": "D", "keywords": ["protection from knights"]}],
    "active_player": "A",
    "permanents": [
        {
            "id": "a0",
            "controller": "A",
            "types": ["artifact", "creature"],
            "power": 3,
            "toughness": 3,
            "keywords": ["infect", "toxic 2", "lifelink", "protection from everything"],
            "qualities": ["knights"],
            "attacking": "D",
        },
        {
            "id": "b0",
            "controller": "D",
            "types": ["creature"],
            "power": 2,
            "toughness": 2,
            "keywords": ["protection from creatures", "wither"],
            "regeneration_shields": 1,
            "blocking": ["a0"],
        },
    ],
    "effects": [
        {"id": "fog", "kind": "prevent", "to": "D"},
        {"id": "beast", "kind": "cant-be-prevented", "sources": ["a0"]},
    ],
    "assignment": [
        {"source": "a0", "to": "b0", "amount": 3},
        {"source": "b0", "to": "a0", "amount": 2},
    ],
}


@pytest.mark.parametrize(
    ("method", "wrong", "shows"),
    [
        ("toxic", lambda self, c: 0, "toxic("),
        ("regeneration_shields", lambda self, c: 0, "regeneration_shields("),
        ("has_type", lambda self, c, t: False, "has_type("),
        ("cant_be_prevented", lambda self, c: False, "cant_be_prevented("),
        ("prevent_all", lambda self, r: False, "effects on"),
        ("protection_qualities", lambda self, x: ("wolves", "knights"), "prevents("),
        ("dealt", lambda self, s, r, n: n, "dealt "),
    ],
)
def test_a_wrong_answer_about_damage_results_is_caught(monkeypatch, method, wrong, shows):
    scenario = slotted(parse(RESULTS_FILE, warn=False), BOUNDS)
    assert Agreement(BOUNDS).disagreements(scenario, scenario.assignment) == []
    monkeypatch.setattr(SymbolicCombat, method, wrong)
    found = Agreement(BOUNDS).disagreements(scenario, scenario.assignment)
    assert any(line.startswith(shows) for line in found), found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_combat_read_back_as_a_file_has_the_same_unknowns(data):
    """What a counterexample writes reads back as the combat it came from: every unknown
    (orders aside, which a file gives only for creatures that have one) has the same value,
    the new ones of damage results included."""
    scenario = slotted(parse(data.draw(files_with_effects()), warn=False), BOUNDS)
    assume(scenario is not None)
    judged = AGREEMENT.judged(scenario.edition)
    pinned = judged.pinned(scenario)
    written = counterexample.public(counterexample.scenario(judged.combat, pinned.model))
    back = parse(written, warn=False)
    before = counterexample.unknowns(scenario, judged.combat)
    after = counterexample.unknowns(back, judged.combat)
    differ = {
        k: (before[k], after[k]) for k in before if ".order " not in k and before[k] != after[k]
    }
    assert differ == {}
