"""The symbolic combat the prover reasons about is the combat `lethal check` judges.

Each drawn scenario is pinned into the symbolic combat: every unknown is given the value
the file gives it. Then every question the rules ask of a view, every question the rules
themselves answer, and `legal(x)` for drawn assignments must come out exactly as the
concrete view and `lethal check` answer them, over every source and every recipient,
pairs the rules forbid included. A proof over the symbolic combat is only as good as this.
"""

from __future__ import annotations

from pathlib import Path

import z3
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lethal import check, load, parse
from lethal.proving import agreement
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

from .strategies import assignments, scenarios

EXAMPLES = Path(__file__).parent.parent / "model" / "examples"

# Room for every drawn file and every bundled example: the bounds `lethal prove` pins to.
BOUNDS = agreement.BOUNDS
SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def files_with_effects(draw) -> dict:
    """A drawn file, with the effects the symbolic combat can say: a damage doubler on one
    creature's damage, prevention shields on recipients, protection from a quality."""
    # Every order given: the symbolic combat, like a file it stands for, has its orders.
    data = draw(scenarios(protection=True, leave_open=0))
    ids = [p["id"] for p in data["permanents"]]
    recipients = [p["id"] for p in data["players"]] + ids
    effects = [
        {"id": f"double-{c}", "kind": "double", "sources": [c]}
        for c in draw(st.lists(st.sampled_from(ids), unique=True, max_size=2))
    ] + [
        {"id": f"shield-{r}", "kind": "prevent", "amount": draw(st.integers(1, 5)), "to": r}
        for r in draw(st.lists(st.sampled_from(recipients), unique=True, max_size=2))
    ]
    if effects:
        data["effects"] = effects
    return data


AGREEMENT = Agreement(BOUNDS)  # the symbolic formulas, built once for every example


@SLOW
@given(st.data())
def test_symbolic_combat_pinned_to_a_file_answers_as_lethal_check_does(data):
    """Every view question, every rule question, the effects dealing applies, the failed
    constraints and legal(x), for a drawn file and a drawn assignment (often illegal)."""
    scenario = parse(data.draw(files_with_effects()))
    entries = data.draw(assignments(scenario))
    event(f"{len(scenario.players)} players")
    event("legal" if check(scenario, entries).legal else "illegal")
    assert {(e.source, e.to) for e in entries} <= set(
        AGREEMENT.judged(scenario.edition).x.variables
    )
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
