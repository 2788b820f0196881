"""The symbolic combat the prover reasons about is the combat `lethal check` judges.

Each drawn scenario is pinned into the symbolic combat: every unknown is given the value
the file gives it. Then every question the rules ask of a view, every question the rules
themselves answer, and `legal(x)` for drawn assignments must come out exactly as the
concrete view and `lethal check` answer them, over every source and every recipient,
pairs the rules forbid included. A proof over the symbolic combat is only as good as this.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import z3
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lethal import check, parse, rules
from lethal.amounts import Amounts
from lethal.dealing import DOUBLE, PROTECTION, Change, apply, changes, orders_effects
from lethal.doubling import (
    double_counters,
    double_damage,
    double_life,
    double_power_and_toughness,
)
from lethal.keywords import PLAIN
from lethal.proving import Bounds
from lethal.rules import banding, division, steps, trample
from lethal.solver.counterexample import unknowns
from lethal.solver.symbolic import QUALITIES, STEPS, SymbolicCombat
from lethal.view import ScenarioView

from .strategies import assignments, scenarios

# Room for every drawn file: 3 players, 3 attackers, 3 other creatures, 2 planeswalkers and
# a battle; marked damage past toughness on an indestructible creature.
BOUNDS = Bounds(players=3, attackers=3, blockers=3, permanents=3, toughness=6)
SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def files_with_effects(draw) -> dict:
    """A drawn file, with the effects the symbolic combat can say: a damage doubler on one
    creature's damage, prevention shields on recipients, protection from a quality."""
    data = draw(scenarios(protection=True))
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


# One symbolic combat and one assignment for every example: the formulas do not depend on
# the scenario, only the pins do.
COMBAT = SymbolicCombat(BOUNDS, z3.Context())
X = COMBAT.assignment()
LEGAL = COMBAT.legal(X)
CONSTRAINTS = list(rules.constraints(COMBAT, X.amounts))
WELL_FORMED = COMBAT.well_formed()


@cache
def asked(question, *args):
    """The symbolic combat's answer to a question (a method name or a rule function)."""
    if isinstance(question, str):
        return getattr(COMBAT, question)(*args)
    return question(COMBAT, *args)


class Pinned:
    """The symbolic combat with every unknown fixed to one scenario's values, and the
    assignment's unknowns to the amounts given (0 elsewhere)."""

    def __init__(self, scenario, amounts: dict | None = None):
        values = unknowns(scenario, COMBAT)
        context = COMBAT.context
        pins = [
            term == _constant(values[name], context)
            for name, term in (*COMBAT.unknowns.items(), ("step", COMBAT.step))
        ]
        pins += [v == (amounts or {}).get(pair, 0) for pair, v in X.variables.items()]
        solver = z3.Solver(ctx=context)
        solver.add(pins)
        assert solver.check() == z3.sat
        self.model = solver.model()

    def value(self, term):
        """A term's value under the pins: every unknown is pinned, so it is a constant."""
        if isinstance(term, bool | int):
            return term
        reduced = self.model.eval(term, model_completion=True)
        if z3.is_true(reduced) or z3.is_false(reduced):
            return z3.is_true(reduced)
        return reduced.as_long()


def _constant(value, context):
    if isinstance(value, bool):
        return z3.BoolVal(value, context)
    return z3.IntVal(value, context)


def _questions(combat, scenario) -> list[tuple[str, tuple]]:
    """Every question a view answers, with its arguments. Questions about what a thing is,
    who controls it and who blocks whom are asked of every player and every slot, those the
    file leaves out included (nothing is there); the others of the file's permanents."""
    present = [p.id for p in scenario.permanents]
    everything = list(combat.players) + list(combat.creatures)
    attackers = [p.id for p in scenario.permanents if p.attacking is not None]
    asked: list[tuple[str, tuple]] = []
    for x in everything:
        asked += [(m, (x,)) for m in ("is_player", "is_creature", "is_planeswalker", "is_battle")]
        asked += [("removed", (x,))]
        asked += [(m, (p, x)) for m in ("controls", "protects") for p in combat.players]
        asked += [("blocks", (x, a)) for a in everything]
    for c in present:
        asked += [(m, (c,)) for m in ("is_attacking", "is_blocked", "is_blocking")]
        asked += [("struck_first", (c,))]
        asked += [("has", (c, k)) for k in PLAIN]
        asked += [
            (m, (c, q))
            for m in ("has_quality", "bands_with_other", "protection_from")
            for q in QUALITIES
        ]
        asked += [("attacks", (c, t)) for t in everything]
        if scenario.permanent(c).is_creature:
            asked += [(m, (c,)) for m in ("power", "toughness", "marked")]
        if scenario.permanent(c).is_planeswalker:
            asked += [("loyalty", (c,))]
    for a in attackers:
        asked += [("defends", (p, a)) for p in combat.players]
    asked += [("step_is", (s,)) for s in STEPS]
    return asked


def _rule_questions(scenario) -> list[tuple[str, object, tuple]]:
    """What the rules themselves decide from a view, for every creature and recipient."""
    creatures = [p.id for p in scenario.permanents if p.is_creature]
    recipients = [p.id for p in scenario.players] + [p.id for p in scenario.permanents]
    asked = []
    for s in creatures:
        asked += [
            ("assigns_this_step", steps.assigns_this_step, (s,)),
            ("assigns_combat_damage", division.assigns_combat_damage, (s,)),
            ("tramples", trample.tramples, (s,)),
            ("defending_player_divides", banding.defending_player_divides, (s,)),
            ("active_player_divides", banding.active_player_divides, (s,)),
        ]
        for r in recipients:
            asked += [
                ("may_receive", division.may_receive, (s, r)),
                ("past_blockers", trample.past_blockers, (s, r)),
                ("over_planeswalker", trample.over_planeswalker, (s, r)),
            ]
    for r in recipients:
        asked += [("orders_effects", orders_effects, (p.id, r)) for p in scenario.players]
    return asked


@SLOW
@given(st.data())
def test_symbolic_combat_pinned_to_a_file_answers_every_question_as_the_file_does(data):
    scenario = parse(data.draw(files_with_effects()))
    pinned, view = Pinned(scenario), ScenarioView(scenario)
    event(f"{len(scenario.players)} players")

    # The file is one of the symbolic combat's models: it meets everything well_formed asks.
    assert [f for f in WELL_FORMED if pinned.value(f) is not True] == []

    for method, args in _questions(COMBAT, scenario):
        assert pinned.value(asked(method, *args)) == getattr(view, method)(*args), (method, args)
    for name, rule, args in _rule_questions(scenario):
        assert pinned.value(asked(rule, *args)) == rule(view, *args), (name, args)


@SLOW
@given(st.data())
def test_legal_on_the_symbolic_combat_is_lethal_check_over_every_pair(data):
    scenario = parse(data.draw(files_with_effects()))
    entries = data.draw(assignments(scenario))
    given_amounts = {(e.source, e.to): e.amount for e in entries}
    assert set(given_amounts) <= set(X.variables), "a drawn pair the symbolic combat lacks"
    pinned = Pinned(scenario, given_amounts)
    verdict = check(scenario, entries)
    event("legal" if verdict.legal else "illegal")
    assert pinned.value(LEGAL) == verdict.legal, verdict.violations
    # The same constraints fail, by rule and creature.
    on_symbolic = Counter((c.rules, c.source) for c in CONSTRAINTS if not pinned.value(c.holds))
    concrete = rules.constraints(ScenarioView(scenario), Amounts(given_amounts))
    assert on_symbolic == Counter((c.rules, c.source) for c in concrete if not c.holds)


@SLOW
@given(files_with_effects())
def test_effects_in_the_symbolic_combat_are_the_effects_dealing_applies(data):
    """A doubler on a creature's damage, shields on recipients, protection from a quality:
    the symbolic combat's facts say which apply to each event exactly as dealing finds."""
    scenario = parse(data)
    pinned, combat = Pinned(scenario), COMBAT
    creatures = [p.id for p in scenario.permanents if p.is_creature]
    recipients = [p.id for p in scenario.players] + [p.id for p in scenario.permanents]
    for s in creatures:
        for r in recipients:
            found = changes(scenario, s, r)
            assert pinned.value(combat.doubled(s)) == any(c.kind == DOUBLE for c in found)
            protected = any(
                pinned.value(combat.protection_from(r, q))
                and pinned.value(combat.has_quality(s, q))
                for q in QUALITIES
            )
            assert protected == any(c.kind == PROTECTION for c in found), (s, r)
    for r in recipients:
        shields = sum(e.amount for e in scenario.effects if e.kind == "prevent" and e.to == r)
        assert pinned.value(combat.shield(r)) == shields


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
