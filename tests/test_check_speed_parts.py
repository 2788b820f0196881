"""What keeps `check` linear changes no answer (issue 12).

A plain view remembers the rules' answers about the combat alone (`ops.remembered`), so that
whom a creature may assign to is worked out once however many rules ask; a constraint's
summary is written only when read; a rule's alternatives are asked only until one holds
(`any_of` over a generator); a constraint that folds to True is left out. Here each
remembered answer is the answer asked afresh of a view that keeps none, on drawn combats of
every edition; a copy of a view (a combat judged under another edition) keeps answers of its
own; a check's verdict, violations and choosers are those of the same check without
remembering; and the constraints left out are exactly those that hold.
"""

from __future__ import annotations

import copy
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lethal import check, rules
from lethal.amounts import Amounts
from lethal.rules import banding, division, order, steps, trample, unblocked
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
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def forgetful(combat) -> ScenarioView:
    """A view of the combat that remembers nothing: every question is worked out anew."""
    view = ScenarioView(combat)
    view.answers = None
    return view


def test_every_remembered_question_is_listed_here():
    remembered = {
        f"{module.__name__}.{name}"
        for module in (banding, division, order, steps, trample, unblocked)
        for name, value in vars(module).items()
        if getattr(value, "__wrapped__", None) is not None and value.__module__ == module.__name__
    }
    assert remembered == {f"{q.__module__}.{q.__name__}" for q in OF_A_CREATURE + OF_A_PAIR}


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


def test_a_copy_of_a_view_keeps_answers_of_its_own():
    """replay's `under` judges a copy of a view under another edition: it must not read the
    first edition's answers."""
    combat = scenario(attacker("a", 3, 3, "trample"), blocker("b", 2, 2, blocking=["a"]))
    view = ScenarioView(combat)
    assert division.has_recipient(view, "a") is True and view.answers
    twin = copy.copy(view)
    assert twin.answers == {} and twin.answers is not view.answers
