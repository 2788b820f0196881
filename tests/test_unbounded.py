"""The proofs for combats of any size, and the abstraction they rest on.

The proofs evaluate the rules on an open combat: a few named objects in roles, the rest of the
combat only in sums. That is sound only if every real combat maps onto the open combat so that
each constraint kept evaluates exactly as the real one, and every fact assumed holds. Drawn
combats and assignments are mapped here, role by role, and compared with `lethal check`'s own
constraints. Then the proofs: their verdicts, and that weakening them makes them fail.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lethal import Entry, check, parse, rules
from lethal.amounts import Amounts
from lethal.keywords import AS_THOUGH_UNBLOCKED, DEATHTOUCH
from lethal.ops import all_of
from lethal.proving import unbounded
from lethal.proving.unbounded import (
    A1,
    A2,
    ASSIGNMENT_FACTS,
    B1,
    B2,
    ELSEWHERE,
    NAMED,
    PAST_BLOCKERS_FACTS,
    PREFERENCE,
    OpenCombat,
    P,
    Query,
    R,
    S,
    T,
    Theorem,
    decide,
    kept,
    lethal_by_the_text,
    open_amounts,
    others,
)
from lethal.view import ScenarioView

from .strategies import assignments, scenarios

UNNAMED = others("")  # how a pseudo-source's id begins
SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The proofs are of today's rules (unbounded.LEAVES_OUT): the drawn combats are too.
TODAY = st.just("current")

# One open combat for every example: its formulas do not depend on the scenario, only the
# valuation does.
COMBAT = OpenCombat(z3.Context())
AMOUNTS = open_amounts(COMBAT)
KEPT = kept(COMBAT, AMOUNTS, S)
LETHAL = {b: lethal_by_the_text(COMBAT, AMOUNTS, b) for b in COMBAT.creatures}
FACTS = {f.name: all_of(f.holds(COMBAT)) for f in {*PAST_BLOCKERS_FACTS, *ASSIGNMENT_FACTS}}


def roles(view: ScenarioView, s: str, data) -> dict[str, str | None]:
    """The real object in each role for the creature s, as the module's docstring defines
    them; None for a role nobody fills. B2, A2 and R are free choices."""
    target = view.target(s)
    controller = None if target is None or view.is_player(target) else view.controller(target)
    blockers = [b for b in view.blockers_of(s) if b != target]
    blocked = [a for a in view.creatures if view.blocks(s, a)]
    chosen = {
        S: s,
        T: target,
        P: controller,
        B1: blockers[0] if blockers else None,
        B2: data.draw(st.sampled_from([None, *blockers[1:]])),
        A1: blocked[0] if blocked else None,
        A2: data.draw(st.sampled_from([None, *blocked[1:]])),
    }
    rest = [x for x in view.recipients if x not in chosen.values()]
    chosen[R] = data.draw(st.sampled_from([None, *rest]))
    return chosen


class Mapping:
    """A real combat and assignment seen as a valuation of the open combat."""

    def __init__(self, view: ScenarioView, amounts: dict, role: dict[str, str | None]):
        self.view, self.amounts, self.role = view, amounts, role
        named = set(role.values())
        self.unnamed_creatures = [c for c in view.creatures if c not in named]
        self.unnamed_recipients = [r for r in view.recipients if r not in named]

    def value(self, question: str, *args: str):
        if question == "x":
            return self.amount(*args)
        if question == "has" and args[0].startswith(UNNAMED):
            assert args[1] == DEATHTOUCH, args  # the only thing the rules ask of the unnamed
            y = self.role[args[0].removeprefix(UNNAMED)]
            return y is not None and any(
                self.view.has(c, DEATHTOUCH) and self.amounts.get((c, y), 0) > 0
                for c in self.unnamed_creatures
            )
        real = [self.role[a] if a in self.role else a for a in args]
        default = 0 if question in ("power", "toughness", "marked", "loyalty") else False
        if None in real:  # a role nobody fills: every fact false, every number 0
            return default
        try:
            answer = getattr(self.view, question)(*real)
        except KeyError:  # a player asked what only a permanent has: it has none of it
            return default
        return default if answer is None else answer  # a non-creature's power, say

    def amount(self, source: str, recipient: str) -> int:
        if source.startswith(UNNAMED):
            y = self.role[recipient]
            return sum(self.amounts.get((c, y), 0) for c in self.unnamed_creatures) if y else 0
        s = self.role[source]
        if recipient == ELSEWHERE:
            return sum(self.amounts.get((s, r), 0) for r in self.unnamed_recipients) if s else 0
        return self.amounts.get((s, self.role[recipient]), 0)

    def model(self) -> z3.ModelRef:
        """The valuation as a Z3 model, so that each formula is evaluated as built."""
        solver = z3.Solver(ctx=COMBAT.context)
        for key, unknown in COMBAT.unknowns.items():
            value = self.value(*key)
            assert isinstance(value, (bool, int)), (key, value)
            solver.add(unknown == value)
        assert solver.check() == z3.sat
        return solver.model()


def mentioned(summary: str, ids) -> tuple[str, ...]:
    """The ids a constraint's summary names, in order: which instance it is. A solver
    term in it, such as `power(S)`, is a number in the real one, so it does not count."""
    words = re.findall(r"\w+", re.sub(r"\w+\([^)]*\)", "", summary))
    return tuple(w for w in words if w in ids)


def truth(model: z3.ModelRef, term) -> bool:
    value = model.eval(term, model_completion=True)
    assert z3.is_true(value) or z3.is_false(value), value
    return z3.is_true(value)


def lethal_by_hand(view: ScenarioView, amounts: dict, b: str) -> bool:
    """702.19b, 702.2c over the whole real combat, for comparison with the open combat's."""
    assigned = sum(amounts.get((c, b), 0) for c in view.creatures)
    deathtouch = any(view.has(c, DEATHTOUCH) and amounts.get((c, b), 0) > 0 for c in view.creatures)
    return view.marked(b) + assigned >= view.toughness(b) or deathtouch


def instances_of(view: ScenarioView, amounts: dict, s: str) -> dict:
    """The real constraints of s, each by its rules and the ids it names, with its truth
    value; every pair counted, those without an amount at 0."""
    everything = {(c, r): amounts.get((c, r), 0) for c in view.creatures for r in view.recipients}
    instances = {}
    for c in rules.constraints(view, Amounts(everything)):
        if c.source == s:
            key = (c.rules, mentioned(c.summary, view.recipients))
            assert key not in instances, key
            instances[key] = c.holds
    return instances


def exact_for(view: ScenarioView, amounts: dict, role: dict[str, str | None]) -> bool:
    """Whether the mapping is exact for S, as the module's docstring claims: S cannot assign
    as though it weren't blocked, or it assigns nothing to a blocker no role names (the open
    combat sees what S assigns to its blockers on the named ones alone)."""
    s, named = role[S], set(role.values())
    hidden = [b for b in view.blockers_of(s) if b not in named]
    return not view.has(s, AS_THOUGH_UNBLOCKED) or all(amounts.get((s, b), 0) == 0 for b in hidden)


def agrees(view: ScenarioView, amounts: dict, role: dict[str, str | None]) -> bool:
    """Every kept constraint of the open combat, under the mapping, is the real instance it
    names and has its truth value (where the mapping is claimed exact); one naming a role
    nobody fills holds, as does a real one whose premise folded away; every real instance
    among the named objects is kept; every fact holds; and lethal damage by the rule text is
    the real combat's. Returns whether the real constraints of S all hold."""
    instances = instances_of(view, amounts, role[S])
    model = Mapping(view, amounts, role).model()
    exact = exact_for(view, amounts, role)
    kept_keys = set()
    for c in KEPT:
        ids = mentioned(c.summary, NAMED)
        if any(role[x] is None for x in ids):
            assert truth(model, c.holds), c.summary
            continue
        key = (c.rules, tuple(role[x] for x in ids))
        kept_keys.add(key)
        if exact:
            assert truth(model, c.holds) == instances.get(key, True), (c.summary, key)
    images = {x for x in role.values() if x is not None}
    assert [k for k in instances if set(k[1]) <= images and k not in kept_keys] == []
    for name, fact in FACTS.items():
        assert truth(model, fact), name
    for b in COMBAT.creatures:
        if role[b] in view.creatures:
            assert truth(model, LETHAL[b]) == lethal_by_hand(view, amounts, role[b]), b
    return all(instances.values())


@SLOW
@given(st.data())
def test_each_kept_constraint_evaluates_as_the_real_one(data):
    """For a drawn combat and assignment, each creature in the role S, with the other roles
    as defined and the free ones (B2, A2, R) drawn: the abstraction is exact. And the
    assignment is legal exactly when every creature's own constraints hold."""
    scenario = parse(data.draw(scenarios(rules=TODAY)))
    entries = data.draw(assignments(scenario))
    view = ScenarioView(scenario)
    amounts = {(e.source, e.to): e.amount for e in entries}
    each_holds = [agrees(view, amounts, roles(view, s, data)) for s in view.creatures]
    assert all(each_holds) == check(scenario, entries).legal


def test_the_mapping_is_not_exact_beyond_what_it_claims():
    """The premise of exactness is needed, not merely cautious: a creature that may assign as
    though it weren't blocked, and assigns to a blocker no role names and to what it attacks,
    breaks 702.19b in the real combat but not in the open one, which sees nothing on its
    blockers and takes it to be assigning as though unblocked."""
    blocker = {"controller": "D", "types": ["creature"], "power": 0, "toughness": 1}
    thorn = ["deathtouch", "trample", "may assign combat damage as though it weren't blocked"]
    scenario = parse(
        {
            "players": [{"id": "A"}, {"id": "D"}],
            "active_player": "A",
            "permanents": [
                {
                    "id": "a0",
                    "controller": "A",
                    "types": ["creature"],
                    "power": 2,
                    "toughness": 2,
                    "keywords": thorn,
                    "attacking": "D",
                },
                {"id": "b0", **blocker, "blocking": ["a0"]},
                {"id": "b1", **blocker, "blocking": ["a0"]},
            ],
        }
    )
    view = ScenarioView(scenario)
    amounts = {("a0", "b1"): 1, ("a0", "D"): 1}
    role = {S: "a0", T: "D", P: None, B1: "b0", B2: None, A1: None, A2: None, R: None}
    assert not exact_for(view, amounts, role)
    assert not check(scenario, [Entry(s, r, x) for (s, r), x in amounts.items()]).legal
    instances = instances_of(view, amounts, "a0")
    model = Mapping(view, amounts, role).model()
    differ = []
    for c in KEPT:
        key = (c.rules, tuple(role[x] for x in mentioned(c.summary, NAMED)))
        if key in instances and truth(model, c.holds) != instances[key]:
            differ.append(c.summary)
    assert differ == ["S assigns to T, past its blockers, only once B1 has lethal damage"]


@SLOW
@given(st.data())
def test_the_witness_is_a_legal_assignment_of_every_drawn_combat(data):
    """Theorem 2's witness, built on a real combat with the roles it chooses from, is legal
    by `lethal check`: each creature's row is the one the proof speaks of."""
    scenario = parse(data.draw(scenarios(rules=TODAY)))
    view = ScenarioView(scenario)
    entries = []
    for s in view.creatures:
        role = roles(view, s, data)
        chosen = [role[r] for r in PREFERENCE if role[r] is not None]
        row = unbounded.witness(view, s, chosen)
        entries += [Entry(s, r, amount) for r, amount in row.items() if amount > 0]
    verdict = check(scenario, entries)
    assert verdict.legal, [v.message for v in verdict.violations]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return unbounded.prove_unbounded(60, tmp_path_factory.mktemp("unbounded"))


def test_both_theorems_are_proved(results):
    assert [(r.name, r.verdict) for r in results] == [
        ("no_damage_past_blockers_without_lethal_to_every_blocker", "proved"),
        ("a_legal_assignment_always_exists_at_any_size", "proved"),
    ]
    past = results[0]
    assert "fact: blocked attackers" in past.used
    assert any("702.19b" in used for used in past.used)
    for r in results:
        assert r.smt2 is None and not r.model and r.certified_by == ("z3",)
        assert any("Z3" in a for a in r.assumptions)


def test_text_and_json_say_the_verdict_and_what_it_rests_on(results):
    shown = unbounded.text(results)
    assert shown.splitlines()[0].startswith("PROVED   no_damage_past_blockers")
    assert "An attacking creature blocks nothing." in shown and "not covered:" in shown
    data = json.loads(json.dumps(unbounded.as_json(results)))
    assert {"name", "statement", "verdict", "seconds", "assumptions", "citations"} <= set(data[0])
    assert data[1]["verdict"] == "proved" and data[1]["smt2"] is None


def test_without_the_lethal_constraint_theorem_1_is_refuted(tmp_path):
    """The proof has teeth: take away the rule it rests on and it fails, with the values of
    the open combat that break it."""
    with rules.without("702.19b"):
        result = decide(unbounded.past_blockers_theorem(), 60, tmp_path)
    assert result.verdict == "refuted"
    assert any(shown.startswith("blocks(") for shown in result.model), result.model


@pytest.mark.parametrize(
    "make, facts, fact",
    [(unbounded.past_blockers_theorem, PAST_BLOCKERS_FACTS, f) for f in PAST_BLOCKERS_FACTS]
    + [(unbounded.assignment_exists_theorem, ASSIGNMENT_FACTS, f) for f in ASSIGNMENT_FACTS],
    ids=lambda x: x.name if isinstance(x, unbounded.Fact) else "",
)
def test_every_fact_assumed_is_needed(make, facts, fact, tmp_path):
    """No theorem assumes more than it needs: without any one of its facts it is refuted."""
    result = decide(make(tuple(f for f in facts if f is not fact)), 60, tmp_path)
    assert result.verdict == "refuted", fact.name


def test_a_witness_that_tramples_over_before_its_blockers_is_refuted(tmp_path):
    """The witness is checked, not trusted: one that prefers what S attacks to its
    blockers breaks 702.19b, and the proof says so."""
    wrong = unbounded.assignment_exists_theorem(preference=(T, B1, P, A1))
    assert decide(wrong, 60, tmp_path).verdict == "refuted"


def test_a_query_z3_cannot_decide_is_unknown_and_saved(tmp_path):
    """Unknown is reported as unknown, never as proved, with the query written out."""

    def fermat(context):
        x, y, z = z3.Ints("x y z", context)
        cube = x * x * x + y * y * y == z * z * z
        return Query(OpenCombat(context), [("positive", all_of((x > 0, y > 0, z > 0)))], cube, ())

    result = decide(Theorem("cubes", "No cube is the sum of two.", (), fermat), 0.05, tmp_path)
    assert result.verdict == "unknown", result
    assert "(assert" in Path(result.smt2).read_text()
    assert "Z3:" in result.reason


def test_cvc5_agrees_when_asked(tmp_path):
    pytest.importorskip("cvc5")
    certified = unbounded.prove_unbounded(60, tmp_path, certify=True)
    assert [r.certified_by for r in certified] == [("z3", "cvc5"), ("z3", "cvc5")]
