"""The public strategies keep their promises: every drawn file reads without error or warning,
drawn assignments are what they are drawn to be by `lethal.check`, the options are honoured,
failing examples shrink to small plain combats, and only this module imports Hypothesis."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from dataclasses import asdict, replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import lethal
from lethal import check, parse, strategies
from lethal.editions import in_force
from lethal.strategies import (
    ASSIGNMENT_KEYWORDS,
    PROTECTION_FROM,
    QUALITIES,
    InvalidStrategyArgument,
    StrategyInternalError,
    editions,
    illegal_assignments,
    legal_assignments,
    scenarios,
)

from .pages import fences

ROOT = Path(__file__).parent.parent
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STRIKES = {"first strike", "double strike"}


def read_quietly(data: dict) -> lethal.Scenario:
    """The drawn file read, any warning an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return parse(json.loads(json.dumps(data)))  # as a file: JSON and nothing else


def creatures(data: dict) -> list[dict]:
    return [p for p in data["permanents"] if "creature" in p["types"]]


@FAST
@given(
    scenarios(keywords=[*ASSIGNMENT_KEYWORDS, PROTECTION_FROM], effects=True, open_orders=2)
    | scenarios(crowded=True, rules=editions(orders_only=True))
    | scenarios()
)
def test_every_drawn_file_reads_without_error_or_warning(data):
    assert data["format"] == "lethal/1" and "assignment" not in data
    read_quietly(data)


@FAST
@given(st.data())
def test_legal_assignments_are_legal_and_illegal_ones_illegal(data):
    scenario = read_quietly(data.draw(scenarios()))
    ids = {p.id for p in scenario.players} | {p.id for p in scenario.permanents}
    for strategy, legal in ((legal_assignments, True), (illegal_assignments, False)):
        assignment = data.draw(strategy(scenario))
        assert isinstance(assignment, tuple)
        assert check(scenario, assignment).legal is legal
        pairs = [(e.source, e.to) for e in assignment]
        assert len(pairs) == len(set(pairs))  # as a file may give them: each pair once,
        assert all(e.amount >= 1 and {e.source, e.to} <= ids for e in assignment)  # known ids


@FAST
@given(st.data())
def test_the_files_own_assignment_is_ignored(data):
    drawn = data.draw(scenarios(max_attackers=2, max_others=2))
    scenario = parse(drawn)
    first = data.draw(illegal_assignments(scenario))
    given_one = {**drawn, "assignment": [asdict(e) for e in first]}
    assert check(scenario, data.draw(legal_assignments(parse(given_one)))).legal


def test_every_legal_assignment_can_be_drawn():
    """The 702.19b example's combat, without its assignment: each of its legal assignments is
    drawn."""
    scenario = lethal.load(ROOT / "model" / "examples" / "trample-short-of-lethal.json")
    listed = lethal.count(replace(scenario, assignment=None), 100)
    assert 1 < listed.count <= 100
    for wanted in listed.assignments:
        found = find(legal_assignments(scenario), lambda a, w=wanted: set(a) == set(w))
        assert set(found) == set(wanted)


@FAST
@given(st.data())
def test_illegal_assignments_are_near_misses(data):
    """Each is one legal assignment with one damage more, less or moved."""
    scenario = parse(data.draw(scenarios(max_attackers=2, max_others=2, max_power=3)))
    every = lethal.count(replace(scenario, assignment=None), list_limit=2000)
    if every.count > 2000:
        return
    missed = {(e.source, e.to): e.amount for e in data.draw(illegal_assignments(scenario))}

    def distance(legal) -> int:
        amounts = {(e.source, e.to): e.amount for e in legal}
        return sum(abs(amounts.get(p, 0) - missed.get(p, 0)) for p in {*amounts, *missed})

    assert min(distance(a) for a in every.assignments) <= 2


def test_near_misses_include_a_tramplers_damage_past_its_blockers_too_early():
    scenario = lethal.load(ROOT / "model" / "examples" / "trample-short-of-lethal.json")
    found = find(
        illegal_assignments(scenario),
        lambda a: any(v.rule == "702.19b" for v in check(scenario, a).violations),
    )
    assert not check(scenario, found).legal


@FAST
@given(scenarios(keywords=["trample"]), scenarios(keywords=[]))
def test_only_the_keywords_asked_for_are_drawn(tramplers, plain):
    assert all(set(c["keywords"]) <= {"trample"} for c in creatures(tramplers))
    assert all(c["keywords"] == [] for c in creatures(plain))
    assert "bands" not in tramplers and "bands" not in plain


@FAST
@given(
    scenarios(max_attackers=1, max_others=1, max_planeswalkers=0, max_battles=0, max_players=2),
    scenarios(max_power=2, max_attackers=4),
)
def test_sizes_are_honoured(small, weak):
    assert [p["id"] for p in small["players"]] == ["A", "D"]
    assert [p["id"][0] for p in small["permanents"]] in (["a"], ["a", "b"])
    assert all(c["power"] <= 2 for c in creatures(weak))
    assert 1 <= sum(1 for p in weak["permanents"] if p["id"][0] == "a") <= 4


@FAST
@given(
    scenarios(rules=st.just("2015-03-01"), open_orders=0),
    scenarios(rules=st.just(date(2019, 5, 1))),
    scenarios(rules=st.just("2012-01-01"), max_battles=1, keywords=ASSIGNMENT_KEYWORDS),
    scenarios(rules=st.just("current")),
)
def test_the_edition_asked_for_is_the_files(orders, as_a_date, no_battles, current):
    assert orders["rules"] == "2015-03-01" and as_a_date["rules"] == "2019-05-01"
    assert current.get("rules", "current") == "current"
    read = parse(orders)
    for p in read.permanents:  # every order a creature needs is given, none left open
        blockers = [b for b in read.permanents if p.id in (b.blocking or ())]
        if len(blockers) >= 2 or len(p.blocking or ()) >= 2:
            assert p.order is not None
    assert not any(p.order for p in parse(current).permanents)
    assert all("battle" not in p["types"] for p in no_battles["permanents"])
    assert all("trample over planeswalkers" not in c["keywords"] for c in creatures(no_battles))
    assert in_force(as_a_date["rules"]).has_order


@FAST
@given(
    scenarios(steps=["first-strike"]),
    scenarios(steps=["only"]),
    scenarios(steps=["second"], keywords=["trample", "first strike"]),
)
def test_the_steps_asked_for_are_drawn(first, only, second):
    assert first["step"] == "first-strike" and only["step"] == "only"
    assert second["step"] == "second"
    assert not any(STRIKES & set(c["keywords"]) for c in creatures(only))
    for data in (first, only, second):
        read_quietly(data)


@FAST
@given(scenarios(), scenarios(effects=True))
def test_effects_only_when_asked_for(plain, dealt):
    assert "effects" not in plain
    assert not any({"life", "poison", "keywords"} & set(p) for p in plain["players"])
    assert all("regeneration_shields" not in p for p in plain["permanents"])
    read_quietly(dealt)


def test_a_failing_example_shrinks_to_a_small_plain_combat():
    def trampler_blocked_by_two(data: dict) -> bool:
        scenario = parse(data)
        return any(
            "trample" in a.keywords
            and sum(1 for b in scenario.permanents if a.id in (b.blocking or ())) >= 2
            for a in scenario.permanents
        )

    # Hypothesis's shrinking is a search, and from some starting points it stops at a
    # larger combat (one seed in eight, three attackers): the claim is made of a fixed run.
    fixed = settings(max_examples=2000, derandomize=True, database=None)
    found = find(scenarios(), trampler_blocked_by_two, settings=fixed)
    attackers = [p for p in found["permanents"] if "attacking" in p]
    others = [p for p in found["permanents"] if "attacking" not in p]
    assert len(found["players"]) == 2 and found.get("rules", "current") == "current"
    assert [a["keywords"] for a in attackers] == [["trample"]]
    assert len(others) == 2 and all(b["blocking"] == ["a0"] for b in others)
    assert all(b["keywords"] == [] for b in others)
    assert all(abs(c["power"]) <= 1 and c["toughness"] == 1 for c in creatures(found))
    assert found["step"] == "only"


def test_an_assignment_shrinks_to_the_first_that_lethal_lists():
    scenario = lethal.load(ROOT / "model" / "examples" / "trample-short-of-lethal.json")
    first = lethal.count(replace(scenario, assignment=None), list_limit=1).assignments[0]
    assert set(find(legal_assignments(scenario), lambda a: True)) == set(first)


@pytest.mark.parametrize(
    "options, named",
    [
        ({"keywords": ["trampel"]}, "'trampel'"),
        ({"keywords": "trample"}, "keywords='trample'"),
        ({"max_attackers": 0}, "max_attackers=0"),
        ({"crowded": True, "max_others": 1}, "max_others=1"),
        ({"steps": ["third"]}, "'third'"),
        ({"steps": ["first-strike"], "keywords": ["trample"]}, "first strike"),
        ({"rules": "current"}, "rules='current'"),
        ({"open_orders": 6}, "open_orders=6"),
    ],
)
def test_options_it_cannot_honour_are_refused_with_the_value(options, named):
    with pytest.raises(InvalidStrategyArgument, match=named) as raised:
        scenarios(**options)
    for kind in (InvalidArgument, ValueError, lethal.LethalError):
        assert isinstance(raised.value, kind)


@pytest.mark.parametrize("day", ["2001-01-01", "2015-02-30", "today"])
def test_an_edition_lethal_does_not_model_is_refused_when_drawn(day):
    with pytest.raises(InvalidStrategyArgument, match=day):
        find(scenarios(rules=st.just(day)), lambda d: True)


def test_assignments_are_drawn_for_a_read_scenario_only():
    with pytest.raises(InvalidStrategyArgument, match="lethal.parse"):
        legal_assignments({"players": []})


def test_the_drawn_qualities_are_the_symbolic_combats():
    from lethal.proving.symbolic import QUALITIES as SLOTS

    assert QUALITIES == SLOTS


def test_the_docs_example_runs():
    """docs/strategies.md's Python, run as written: its stub engine is lethal itself."""
    blocks = [f.text for f in fences(ROOT / "docs" / "strategies.md") if f.language == "python"]
    assert len(blocks) == 2
    names: dict = {}
    for block in blocks:
        exec(compile(block, "docs/strategies.md", "exec"), names)
    tests = [v for k, v in names.items() if k.startswith("test_")]
    assert len(tests) == 2
    for test in tests:
        settings(max_examples=15, deadline=None)(test)()


def test_a_drawn_assignment_lethal_judges_otherwise_is_never_handed_out(monkeypatch):
    scenario = lethal.load(ROOT / "model" / "examples" / "trample-short-of-lethal.json")
    judged_illegal = check(scenario)  # the example's own assignment is illegal
    monkeypatch.setattr(strategies, "_check", lambda step, found: judged_illegal)
    with pytest.raises(StrategyInternalError, match="a bug in lethal"):
        find(legal_assignments(scenario), lambda a: True)


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_a_check_imports_no_hypothesis():
    example = ROOT / "model" / "examples" / "trample-short-of-lethal.json"
    done = run(
        "import sys, io; from lethal.cli import main\n"
        f"main(['check', {str(example)!r}], io.StringIO(), io.StringIO())\n"
        "assert 'hypothesis' not in sys.modules, 'hypothesis imported'\n"
    )
    assert done.returncode == 0, done.stderr


def test_without_hypothesis_the_module_says_how_to_install_it():
    done = run("import sys; sys.modules['hypothesis'] = None; import lethal.strategies")
    assert done.returncode != 0
    assert "pip install 'lethal[strategies]'" in done.stderr
