"""What keeps `check` linear changes no answer (issue 12).

A plain view remembers the rules' answers about the combat alone (`ops.remembered`), so that
whom a creature may assign to is worked out once however many rules ask; a constraint's
summary is written only when read; a rule's alternatives are asked only until one holds
(`any_of` over a generator); a constraint that folds to True is left out. Here each
remembered answer is the answer asked afresh of a view that keeps none, on drawn combats of
every edition; a copy of a view (a combat judged under another edition) keeps answers of its
own; a check's verdict, violations and choosers are those of the same check without
remembering; and the constraints left out are exactly those that hold. A symbolic combat
keeps the formulas of a few questions more (`ops.built_once`), each the very term built
afresh, and holds nothing that keeps its Z3 context from being freed as soon as it goes.
"""

from __future__ import annotations

import copy
import gc
import weakref
from unittest import mock

import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lethal import check, rules
from lethal.amounts import Amounts
from lethal.editions import M10, M11, in_force
from lethal.proving import Bounds
from lethal.proving.symbolic import SymbolicCombat
from lethal.rules import banding, deathtouch, division, order, steps, trample, unblocked
from lethal.solver.encoding import Encoding
from lethal.view import ScenarioView

from .build import attacker, blocker, scenario
from .strategies import assignments, combats

# Every question a rule remembers: of a creature, or of a creature and a recipient.
OF_A_CREATURE = (
    steps.assigns_this_step,
    division.damage_to_assign,
    division.has_recipient,
    trample.tramples,
    unblocked.may_choose,
    banding.defending_player_divides,
    banding.active_player_divides,
)
OF_A_PAIR = (division.may_receive,)
# Every question a symbolic combat keeps the formula of (`ops.built_once`): of a creature, of
# a creature and a recipient, of an assignment and a creature.
BUILT_OF_A_CREATURE = (division.may_assign_nothing,)
BUILT_OF_A_PAIR = (
    division.only_as_though_unblocked,
    division.normally,
    division.as_though_unblocked,
)
BUILT_OF_AMOUNTS = (unblocked.to_blockers, unblocked.taken, deathtouch.lethal_damage_assigned)
BUILT_ONCE = BUILT_OF_A_CREATURE + BUILT_OF_A_PAIR + BUILT_OF_AMOUNTS
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def forgetful(combat) -> ScenarioView:
    """A view of the combat that remembers nothing: every question is worked out anew."""
    view = ScenarioView(combat)
    view.answers = None
    return view


def test_every_remembered_question_is_listed_here():
    remembered = {
        f"{module.__name__}.{name}"
        for module in (banding, deathtouch, division, order, steps, trample, unblocked)
        for name, value in vars(module).items()
        if getattr(value, "__wrapped__", None) is not None and value.__module__ == module.__name__
    }
    listed = OF_A_CREATURE + OF_A_PAIR + BUILT_ONCE
    assert remembered == {f"{q.__module__}.{q.__name__}" for q in listed}


@SETTINGS
@given(combats())
def test_a_remembered_answer_is_the_answer_asked_afresh(combat):
    view, fresh = ScenarioView(combat), forgetful(combat)
    for c in view.creatures:
        for question in OF_A_CREATURE:
            # Asked twice: the second answer is the one remembered.
            assert question(view, c) == question(view, c) == question(fresh, c), question
        for r in view.recipients:
            for question in OF_A_PAIR:
                assert question(view, c, r) == question(view, c, r) == question(fresh, c, r)
    assert view.answers and not fresh.answers


@SETTINGS
@given(st.data())
def test_a_check_gives_the_verdict_of_a_view_that_remembers_nothing(data):
    combat = data.draw(combats())
    entries = data.draw(assignments(combat))
    remembered = check(combat, entries)
    with mock.patch("lethal.verdict.ScenarioView", forgetful):
        afresh = check(combat, entries)
    assert remembered == afresh


@SETTINGS
@given(st.data())
def test_every_constraint_s_summary_names_its_creature(data):
    """Written only when read, a summary still speaks of the constraint's own creature."""
    combat = data.draw(combats())
    entries = data.draw(assignments(combat))
    amounts = Amounts({(e.source, e.to): e.amount for e in entries})
    for constraint in rules.constraints(ScenarioView(combat), amounts):
        assert constraint.source in constraint.summary, constraint.summary


@SETTINGS
@given(st.data())
def test_only_constraints_that_hold_are_left_out(data):
    """On plain amounts every constraint given is broken (those that hold are left out),
    and on the solver's unknowns none given is True: what is left out constrains nothing.
    That those given fail alike on both is test_agreement's."""
    combat = data.draw(combats())
    entries = data.draw(assignments(combat))
    amounts = Amounts({(e.source, e.to): e.amount for e in entries})
    given = list(rules.constraints(ScenarioView(combat), amounts))
    assert all(c.holds is False for c in given)
    encoding = Encoding(combat, extra_pairs=amounts.pairs())
    assert all(c.holds is not True for c in rules.constraints(encoding.view, encoding.amounts))


def test_a_built_formula_is_the_formula_built_afresh():
    """A symbolic combat keeps each formula `built_once` makes (asked twice, the same object),
    and it is the very term (Z3 makes equal terms one) that a combat keeping none builds
    anew; its copy under another edition builds its own, and a plain view keeps none."""
    editions = (in_force(M10), in_force(M11))
    context = z3.Context()
    combat = SymbolicCombat(Bounds(), context, editions=editions)
    fresh = SymbolicCombat(Bounds(), context, editions=editions)
    fresh.built = None
    x = combat.assignment()
    for view, afresh in ((combat, fresh), (combat.under(M11), fresh.under(M11))):
        afresh.built = None
        asked = []
        for c in view.creatures:
            for question in BUILT_OF_A_CREATURE:
                asked.append((question(view, c), question(view, c), question(afresh, c)))
            for r in view.recipients:
                for question in BUILT_OF_A_PAIR:
                    asked.append(
                        (question(view, c, r), question(view, c, r), question(afresh, c, r))
                    )
            for question in BUILT_OF_AMOUNTS:
                answers = (question(view, x.amounts, c) for _ in range(2))
                asked.append((*answers, question(afresh, x.amounts, c)))
        for kept, again, built in asked:
            assert kept is again
            assert z3.is_expr(kept) or isinstance(kept, bool | int)
            assert kept.eq(built) if z3.is_expr(kept) else kept == built
        assert view.built
    assert combat.built is not combat.under(M11).built
    assert ScenarioView.built is None


def test_a_symbolic_combat_frees_its_context_as_soon_as_it_goes():
    """No cycle holds a combat, its copies under other editions or the formulas they keep:
    left to Python's cycle collector, a context would be freed before some of its terms,
    which costs Z3 a sweep of its tables (3 ms a context)."""
    editions = (in_force(M10), in_force(M11))
    context = z3.Context()
    combat = SymbolicCombat(Bounds(), context, editions=editions)
    x = combat.assignment()
    formulas = [combat.legal(x), combat.under(M11).legal(x), *combat.well_formed()]
    assert combat.built and formulas
    freed = weakref.ref(context)
    gc.disable()
    try:
        del context, combat, x, formulas
        assert freed() is None
    finally:
        gc.enable()


def test_a_copy_of_a_view_keeps_answers_of_its_own():
    """replay's `under` judges a copy of a view under another edition: it must not read the
    first edition's answers."""
    combat = scenario(attacker("a", 3, 3, "trample"), blocker("b", 2, 2, blocking=["a"]))
    view = ScenarioView(combat)
    assert division.has_recipient(view, "a") is True and view.answers
    twin = copy.copy(view)
    assert twin.answers == {} and twin.answers is not view.answers
