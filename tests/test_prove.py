"""`lethal prove`: the library's verdicts, what a user's properties can get, and the reports."""

from __future__ import annotations

import io
import json
import re
import textwrap
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
import z3

from lethal import load
from lethal.cli import main
from lethal.proving import prover
from lethal.proving.library import collect
from lethal.proving.prover import measures, prove

MODEL_CHECK = "symbolic_combat_answers_as_lethal_check_does"


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def properties(results: list[dict]) -> list[dict]:
    """The properties' results: every run also starts with the model check, and a run of
    the whole library ends with the invariants proved beyond the bounds."""
    return [r for r in results if r["expected"] in ("holds", "fails") and "bounds" in r]


def property_lines(out: str) -> list[str]:
    """The text after the model check's line (and its one line of detail)."""
    lines = out.splitlines()
    assert lines[0].startswith(f"AGREES   {MODEL_CHECK}"), lines[0]
    return lines[2:]


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    out = tmp_path_factory.mktemp("counterexamples")
    code, text, _ = run("prove", "--json", "--out", str(out))
    return code, json.loads(text), out


def test_every_library_property_has_its_expected_verdict(library):
    code, results, _ = library
    assert code == 0
    assert [r["name"] for r in results if not r["as_expected"]] == []
    assert sum(r["verdict"] == "proved" for r in results) >= 13
    assert sum(r["verdict"] == "refuted" for r in results) >= 8


def test_json_gives_what_a_pipeline_needs(library):
    _, results, _ = library
    assert results[0]["name"] == MODEL_CHECK and results[0]["verdict"] == "agrees"
    for r in properties(results):
        assert {"name", "expected", "verdict", "citations", "bounds", "seconds"} <= set(r)
        assert r["citations"] and bool(r["counterexample"]) == (r["verdict"] == "refuted")
        if r["expected"] == "holds":  # a false claim may be refuted in a smaller combat
            assert r["bounds"]["attackers"] >= 3 and r["bounds"]["players"] >= 3
            assert r["bounds"]["blockers"] >= 3 and r["bounds"]["permanents"] >= 2
    beyond = [r for r in results if "scope" in r]
    assert [r["verdict"] for r in beyond] == ["proved", "proved"]
    assert all(r["assumptions"] and r["as_expected"] for r in beyond)


def test_counterexamples_read_back_and_replay_in_check(library):
    """A counterexample keeps its assignment only when it is legal: for a property judging
    the combat by several editions, legal under at least one of them (the files of one
    combat, one per edition, share its name)."""
    _, results, _ = library
    for r in results:
        combats: dict[str, list[int]] = {}
        for path in r["counterexample"]:
            scenario = load(path)
            if scenario.assignment is not None:
                combat = re.sub(r"\.(\d{4}-\d{2}-\d{2}|current)$", "", Path(path).stem)
                combats.setdefault(combat, []).append(run("check", path)[0])
        for combat, codes in combats.items():
            assert 0 in codes and set(codes) <= {0, 1}, (r["name"], combat, codes)


def test_the_counterexample_is_the_smallest(library):
    """Fewest creatures, then the plainest: a 1/1 blocked by two 0/1s puts its 1 on the
    second (CR 510.1c has no order since 2024-11-08)."""
    _, results, _ = library
    (found,) = [
        r for r in results if r["name"] == "non_trampler_must_kill_one_blocker_before_the_next"
    ]
    permanents = json.loads(Path(found["counterexample"][0]).read_text())["permanents"]
    assert [p["id"] for p in permanents] == ["a0", "b0", "b1"]
    assert [(p["power"], p["toughness"]) for p in permanents] == [(1, 1), (0, 1), (0, 1)]


def test_protection_from_creatures_is_broken_only_by_damage_that_cant_be_prevented(library):
    """The counterexample to "a creature with protection from creatures is never dealt
    combat damage by a creature" is damage that can't be prevented (615.12), and the
    property with that premise holds."""
    _, results, _ = library
    by_name = {r["name"]: r for r in results}
    found = by_name["a_creature_with_protection_from_creatures_is_never_dealt_combat_damage_by_one"]
    data = json.loads(Path(found["counterexample"][0]).read_text())
    assert [e["kind"] for e in data["effects"]] == ["cant-be-prevented"]
    keywords = {p["id"]: p.get("keywords", []) for p in data["permanents"]}
    protected = [id for id, words in keywords.items() if "protection from creatures" in words]
    assert len(protected) == 1
    assert any(e["to"] == protected[0] and e["amount"] > 0 for e in data["assignment"])
    held = by_name["protection_from_creatures_prevents_every_creatures_preventable_damage"]
    assert held["verdict"] == "proved"


def _lowered_one_call_at_a_time(solver, combats):
    """The plain way to the smallest counterexample, as lethal searched before: each measure
    lowered by one solver call at a time while a smaller one exists, then pinned."""
    assert solver.check() == z3.sat
    model = solver.model()
    for measure in (m.term for m in measures(combats)):
        best = model.eval(measure, model_completion=True).as_long()
        while best > 0:
            solver.push()
            solver.add(measure < best)
            answer = solver.check()
            if answer == z3.sat:
                model = solver.model()
                best = model.eval(measure, model_completion=True).as_long()
            solver.pop()
            assert answer in (z3.sat, z3.unsat)
            if answer == z3.unsat:
                break
        solver.add(measure == best)
    return [m.value(model) for m in measures(combats)]


@pytest.mark.parametrize(
    "name",
    [
        "non_trampler_must_kill_one_blocker_before_the_next",
        "trample_excess_is_at_most_power_minus_blockers_lethal",
        "a_blocker_assigned_nothing_holds_a_trampler_back",
        "every_assignment_legal_under_m11_is_legal_under_m10",
        "a_shield_and_a_doubler_give_the_same_in_either_order",
        "lifelink_gains_no_more_than_lethal_damage",
    ],
)
def test_the_search_for_the_smallest_finds_what_lowering_one_at_a_time_does(
    name, tmp_path, monkeypatch
):
    """The binary search, counts bounded as pseudo-Boolean constraints, ends at the same
    measures (creatures, flags, step, numbers) as the plain descent over sums, asked of a
    copy of the same solver."""
    found = {}
    search = prover.smallest

    def both(solver, combats, model):
        found["plain"] = _lowered_one_call_at_a_time(solver.translate(solver.ctx), combats)
        model, caveat = search(solver, combats, model)
        found["search"] = [m.value(model) for m in measures(combats)]
        return model, caveat

    monkeypatch.setattr(prover, "smallest", both)
    (claim,) = collect([], name)
    result = prove(claim, 120, tmp_path)
    assert result.verdict == "refuted" and not result.reason
    assert found["search"] == found["plain"]


PROTECTED_FILE = '''
from lethal.proving import Bounds, Claim, fails, negate

@fails(cites=["702.16j"], bounds=Bounds(attackers=1, blockers=1, permanents=0))
def no_blocker_has_protection_from_everything(combat):
    """False: any creature may have it."""
    b0 = combat.blockers[0]
    return Claim(combat.is_blocking(b0), negate(combat.has(b0, "protection from everything")))
'''


def test_a_counterexample_writes_each_keyword_once(tmp_path):
    path = tmp_path / "protected.py"
    path.write_text(PROTECTED_FILE)
    code, out, _ = run("prove", str(path), "--json", "--out", str(tmp_path / "cx"))
    (found,) = [r for r in json.loads(out) if r["verdict"] == "refuted"]
    data = json.loads(Path(found["counterexample"][0]).read_text())
    (b0,) = [p for p in data["permanents"] if p["id"] == "b0"]
    assert b0["keywords"].count("protection from everything") == 1
    assert code == 0


def test_results_do_not_depend_on_the_run(tmp_path):
    (claim,) = collect([], "trample_excess_is_at_most_power_minus_blockers_lethal")
    first = prove(claim, 60, tmp_path / "one")
    second = prove(claim, 60, tmp_path / "two")
    assert Path(first.counterexamples[0]).read_text() == Path(second.counterexamples[0]).read_text()


USER_FILE = '''
from lethal.proving import Claim, Bounds, fails, holds, all_of, negate

SMALL = Bounds(attackers=1, blockers=1, permanents=1)


@holds(cites=["510.1a"], bounds=SMALL)
def power_is_never_more_than_five(combat):
    """Within the bounds, no creature has power above 5."""
    return all_of(combat.power(c) <= 5 for c in combat.creatures)


@holds(cites=["510.1a"], bounds=SMALL)
def every_creature_deals_damage(combat):
    """Every attacking creature assigns combat damage (false: power 0)."""
    a0 = combat.attackers[0]
    return Claim(combat.is_attacking(a0), combat.assigns(a0))


@fails(cites=["510.1a"], bounds=SMALL)
def a_claim_that_is_true(combat):
    """Toughness is at least 1."""
    return all_of(combat.toughness(c) >= 1 for c in combat.creatures)


@holds(cites=["510.1a"], bounds=SMALL)
def about_nothing(combat):
    """Assumes a creature with toughness 0, which no combat has."""
    return Claim(combat.toughness(combat.attackers[0]) <= 0, True)
'''


@pytest.fixture
def user_file(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(textwrap.dedent(USER_FILE))
    return path


def test_a_users_properties_get_each_verdict(user_file, tmp_path):
    code, out, _ = run("prove", str(user_file), "--json", "--out", str(tmp_path / "cx"))
    verdicts = {r["name"]: (r["verdict"], r["as_expected"]) for r in json.loads(out)}
    assert verdicts == {
        MODEL_CHECK: ("agrees", True),
        "power_is_never_more_than_five": ("proved", True),
        "every_creature_deals_damage": ("refuted", False),
        "a_claim_that_is_true": ("proved", False),
        "about_nothing": ("vacuous", False),
    }
    assert code == 1


def test_k_selects_properties_and_text_has_one_line_each(user_file, tmp_path):
    code, out, _ = run("prove", str(user_file), "-k", "power_*", "--out", str(tmp_path))
    assert code == 0
    lines = property_lines(out)
    assert lines[0].startswith("PROVED   power_is_never_more_than_five  [CR 510.1a]")
    assert lines[-1] == "2 properties: 1 agrees, 1 proved; 0 not as expected"


def test_junit_report(user_file, tmp_path):
    report = tmp_path / "proofs.xml"
    run("prove", str(user_file), "--junit", str(report), "--out", str(tmp_path))
    suite = ET.parse(report).getroot()
    assert suite.get("tests") == "5" and suite.get("failures") == "3"
    failed = {case.get("name") for case in suite if case.find("failure") is not None}
    assert failed == {"every_creature_deals_damage", "a_claim_that_is_true", "about_nothing"}


def test_unknown_is_not_a_pass_and_saves_the_query(tmp_path):
    path = tmp_path / "hard.py"
    path.write_text(
        textwrap.dedent('''
        from lethal.proving import Claim, holds

        @holds(cites=["510.1"])
        def some_assignment_without_a_witness(combat):
            """Some legal assignment exists, asked of Z3 with a quantifier."""
            return Claim(True, combat.some(lambda amounts: True))
    ''')
    )
    code, out, _ = run("prove", str(path), "--json", "--timeout", "2", "--out", str(tmp_path))
    (result,) = properties(json.loads(out))
    assert result["verdict"] == "unknown" and code == 3
    assert (tmp_path / "some_assignment_without_a_witness.smt2").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["prove", "no/such/file.py"], "no such file or folder"),
        (["prove", "-k", "no_such_property"], "no property matches 'no_such_property'"),
        (["prove", "--timeout", "0"], "--timeout: expected a number of seconds from 0.001"),
    ],
)
def test_bad_usage_exits_2(argv, message):
    code, _, err = run(*argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_file_that_does_not_import_is_reported(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("import no_such_module\n")
    code, out, err = run("prove", str(path), "--json")
    (result,) = json.loads(out)[1:]
    assert code == 2 and err == ""
    assert (result["name"], result["verdict"], result["expected"]) == (
        str(path),
        "error",
        "imports",
    )
    assert result["reason"] == (
        f"the file does not import: ModuleNotFoundError: No module named 'no_such_module' "
        f"({path}:1)"
    )


def test_a_counterexample_that_does_not_recheck_is_not_reported(tmp_path):
    """A witness that is not legal makes the symbolic side find a 'counterexample'; read back
    as a file, every legal assignment is tried, one exists, and the verdict is an error: the
    two sides disagree, which is no question of the solver's time."""
    path = tmp_path / "witness.py"
    path.write_text(
        textwrap.dedent('''
        from lethal.amounts import Amounts
        from lethal.proving import Claim, Bounds, holds

        @holds(cites=["510.1"], bounds=Bounds(attackers=1, blockers=0, permanents=0))
        def exists_with_a_bad_witness(combat):
            """Some legal assignment exists (the witness given is wrong)."""
            wrong = lambda c: Amounts({("a0", "D"): 99})
            return Claim(True, combat.some(lambda amounts: True, witness=wrong))
    ''')
    )
    code, out, _ = run("prove", str(path), "--json", "--out", str(tmp_path))
    (result,) = properties(json.loads(out))
    assert result["verdict"] == "error" and code == 1
    assert "did not re-check" in result["reason"]


BROKEN_FILE = '''
from lethal.proving import Bounds, Claim, all_of, holds

SMALL = Bounds(attackers=1, blockers=1, permanents=1)


@holds(cites=["510.1a"], bounds=SMALL)
def divides_by_zero(combat):
    """A property whose own code raises."""
    return 1 / 0


@holds(cites=["510.1a"], bounds=SMALL)
def power_is_never_more_than_five(combat):
    """Within the bounds, no creature has power above 5."""
    return all_of(combat.power(c) <= 5 for c in combat.creatures)


@holds(cites=["510.1a"], bounds=SMALL)
def returns_a_string(combat):
    """A property that returns text instead of a claim."""
    return "power <= 5"


@holds(cites=["510.1a"], bounds=SMALL)
def returns_a_number(combat):
    """A property that returns a creature's power, not a statement about it."""
    return Claim(True, combat.power(combat.attackers[0]))
'''


@pytest.fixture
def broken_file(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(textwrap.dedent(BROKEN_FILE))
    return path


def test_a_broken_property_is_an_error_and_the_others_are_still_proved(broken_file, tmp_path):
    code, out, err = run("prove", str(broken_file), "--json", "--out", str(tmp_path))
    results = {r["name"]: r for r in properties(json.loads(out))}
    assert code == 2 and err == ""  # a broken file: no verdict of the run can be trusted
    assert {name: r["verdict"] for name, r in results.items()} == {
        "divides_by_zero": "error",
        "power_is_never_more_than_five": "proved",
        "returns_a_string": "error",
        "returns_a_number": "error",
    }
    assert not any(r["as_expected"] for r in results.values() if r["verdict"] == "error")


def test_an_error_names_the_exception_and_the_line(broken_file, tmp_path):
    (raising,) = collect([str(broken_file)], "divides_by_zero")
    result = prove(raising, 60, tmp_path)
    assert result.verdict == "error"
    assert result.reason == f"raised ZeroDivisionError: division by zero ({broken_file}:10)"


@pytest.mark.parametrize(
    "name, reason",
    [
        (
            "returns_a_string",
            "it returned a str ('power <= 5'); expected a Claim, a formula or a bool",
        ),
        (
            "returns_a_number",
            "its Claim's conclude is a term of sort Int (a0.power), not a truth value; "
            "expected a formula or a bool",
        ),
    ],
)
def test_a_property_that_returns_no_claim_is_told_what_it_returned(
    broken_file, tmp_path, name, reason
):
    (prop,) = collect([str(broken_file)], name)
    # Its decorator's line: the one before the def's, counted from 1.
    declared = broken_file.read_text().splitlines().index(f"def {name}(combat):")
    assert prove(prop, 60, tmp_path).reason == f"{reason} ({broken_file}:{declared})"


def test_errors_show_in_text_and_junit(broken_file, tmp_path):
    report = tmp_path / "proofs.xml"
    code, out, _ = run("prove", str(broken_file), "--junit", str(report), "--out", str(tmp_path))
    lines = property_lines(out)
    assert code == 2
    assert lines[0].startswith("ERROR    divides_by_zero  [CR 510.1a]")
    assert lines[0].endswith("<- expected to hold")
    assert lines[1].startswith("  raised ZeroDivisionError: division by zero (")
    assert lines[-1] == "5 properties: 1 agrees, 3 error, 1 proved; 3 not as expected"
    suite = ET.parse(report).getroot()
    assert (suite.get("errors"), suite.get("failures")) == ("3", "0")
    (case,) = [c for c in suite if c.get("name") == "divides_by_zero"]
    assert "ZeroDivisionError: division by zero" in case.find("error").text


def test_a_short_timeout_gives_unknown_and_keeps_the_other_verdicts(user_file, tmp_path):
    """Within 2 seconds a property, its building, solving and re-check included: the
    quantified property is left undecided, the query it was solving saved, and the plain
    ones still get their verdicts."""
    hard = user_file.parent / "hard.py"
    hard.write_text(
        textwrap.dedent('''
        from lethal.proving import Claim, holds

        @holds(cites=["510.1"])
        def some_assignment_without_a_witness(combat):
            """Some legal assignment exists, asked of Z3 with a quantifier."""
            return Claim(True, combat.some(lambda amounts: True))
    ''')
    )
    out = tmp_path / "cx"
    argv = ("prove", str(hard), str(user_file), "--json", "--timeout", "2")
    code, text, err = run(*argv, "--out", str(out))
    results = {r["name"]: r for r in json.loads(text)}
    assert code == 1 and "Traceback" not in err  # 1: a wrong verdict beside the unknown
    undecided = results["some_assignment_without_a_witness"]
    assert undecided["verdict"] == "unknown"
    assert str(out / "some_assignment_without_a_witness.smt2") in undecided["reason"]
    assert (out / "some_assignment_without_a_witness.smt2").read_text().startswith("; benchmark")
    assert results["power_is_never_more_than_five"]["verdict"] == "proved"
    assert results["every_creature_deals_damage"]["verdict"] == "refuted"


@pytest.mark.parametrize("first_unknown", [3, 4, 5])
def test_an_unknown_while_shrinking_keeps_the_counterexample_found(
    user_file, tmp_path, monkeypatch, first_unknown
):
    """Checks 1 and 2 find a counterexample; from `first_unknown` on, Z3 gives up. The
    smallest found so far is reported, re-checked, and said to be perhaps not the smallest."""
    real = z3.Solver.check
    calls = []

    def giving_up(solver, *assumptions):
        calls.append(1)
        return z3.unknown if len(calls) >= first_unknown else real(solver, *assumptions)

    monkeypatch.setattr(z3.Solver, "check", giving_up)
    (claim,) = collect([str(user_file)], "every_creature_deals_damage")
    result = prove(claim, 60, tmp_path)
    assert result.verdict == "refuted"
    assert result.reason.startswith("not necessarily the smallest counterexample")
    assert load(result.counterexamples[0]).permanents


def test_json_says_which_solvers_proved_it(user_file, tmp_path):
    code, out, _ = run("prove", str(user_file), "--json", "--out", str(tmp_path))
    solvers = {r["name"]: r["certified_by"] for r in properties(json.loads(out))}
    assert solvers == {
        "power_is_never_more_than_five": ["z3"],
        "every_creature_deals_damage": [],
        "a_claim_that_is_true": ["z3"],
        "about_nothing": [],
    }


def test_removing_a_rule_changes_what_check_says():
    """`lethal teeth` relies on rules.without: with 702.19b gone, short lethal is fine."""
    from importlib import resources

    from lethal import check, rules

    example = resources.files("lethal") / "examples" / "trample-short-of-lethal.json"
    scenario = load(example)
    assert not check(scenario).legal
    with rules.without("702.19b"):
        assert check(scenario).legal
    assert not check(scenario).legal


def test_the_readme_property_is_refuted_then_proved(tmp_path):
    """The README's example property, as written there, and with the fix it describes."""
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    code = readme.split("```python\n# my_properties.py\n", 1)[1].split("```", 1)[0]
    first = tmp_path / "first.py"
    first.write_text(code)
    assert run("prove", str(first), "--out", str(tmp_path))[0] == 1
    fixed = tmp_path / "fixed.py"
    fixed.write_text(
        code.replace(
            '            negate(combat.has(a0, "trample over planeswalkers")),\n',
            '            negate(combat.has(a0, "trample over planeswalkers")),\n'
            "            negate(combat.blocks(p0, a0)),\n",
        )
    )
    assert run("prove", str(fixed), "--out", str(tmp_path))[0] == 0


APART_FILE = '''
from lethal.proving import Bounds, Claim, all_of, fails, holds

SMALL = Bounds(attackers=1, blockers=1, permanents=1)


def _in_bounds(combat, most):
    return all_of(
        [*(combat.toughness(c) >= 1 for c in combat.creatures),
         *(combat.power(c) <= most for c in combat.creatures)]
    )


@holds(cites=["510.1a"], bounds=SMALL)
def in_bounds_apart(combat):
    """Every creature has toughness 1 or more and power 5 or less, each proved apart."""
    return Claim(True, _in_bounds(combat, 5), apart=True)


@fails(cites=["510.1a"], bounds=SMALL)
def power_at_most_two_apart(combat):
    """False, apart: power 3 is within the bounds."""
    return Claim(True, _in_bounds(combat, 2), apart=True)


@fails(cites=["510.1a"], bounds=SMALL)
def power_at_most_two(combat):
    """False, as a whole: the same claim."""
    return Claim(True, _in_bounds(combat, 2))
'''


def test_a_claim_proved_apart_is_the_same_claim(tmp_path, monkeypatch):
    """Each conjunct proved on its own proves the claim; one that is not sends the whole
    claim to Z3, whose smallest counterexample is the one found without `apart`."""
    path = tmp_path / "apart.py"
    path.write_text(APART_FILE)
    asked = []
    each = prover._each_conjunct_holds

    def watched(solver, conclude):
        asked.append(each(solver, conclude))
        return asked[-1]

    monkeypatch.setattr(prover, "_each_conjunct_holds", watched)
    results = {p.name: prove(p, 60, tmp_path / p.name) for p in collect([str(path)])}
    assert asked == [True, False]  # only the claims with `apart`, in the order proved
    assert {name: r.verdict for name, r in results.items()} == {
        "in_bounds_apart": "proved",
        "power_at_most_two_apart": "refuted",
        "power_at_most_two": "refuted",
    }
    apart, whole = (
        results[n].counterexamples[0] for n in ("power_at_most_two_apart", "power_at_most_two")
    )
    assert (
        json.loads(Path(apart).read_text())["permanents"]
        == json.loads(Path(whole).read_text())["permanents"]
    )


WITNESS_FILE = '''
from lethal.proving import Bounds, Claim, fails, holds

SMALL = Bounds(attackers=1, blockers=1, permanents=0)


def _spares_b0(combat):
    """Some legal assignment gives b0 nothing (false once b0 blocks a0 alone)."""
    return combat.some(
        lambda amounts: amounts.get("a0", "b0") == 0,
        witness=lambda c: c.simplest_assignment(),
    )


@holds(cites=["510.1a"], bounds=SMALL)
def some_assignment_exists(combat):
    """Some legal assignment exists: the simplest."""
    return Claim(True, combat.some(lambda amounts: True, witness=lambda c: c.simplest_assignment()))


@holds(cites=["510.1c"], bounds=SMALL)
def spares_b0_declared_to_hold(combat):
    """Wrongly declared to hold."""
    return Claim(True, _spares_b0(combat))


@fails(cites=["510.1c"], bounds=SMALL)
def spares_b0_declared_to_fail(combat):
    """The same claim, declared to fail."""
    return Claim(True, _spares_b0(combat))
'''


def test_a_witnessed_claim_declared_to_hold_is_decided_as_any_other(tmp_path, monkeypatch):
    """A claim expected to hold that names a witness is asked of a solver that solves its
    equations first: it proves what holds, and what does not is refuted with the smallest
    counterexample, the one found when the same claim is declared to fail."""
    path = tmp_path / "witnessed.py"
    path.write_text(WITNESS_FILE)
    asked = []
    solved = prover._with_equations_solved

    def watched(solver, timeout):
        answer, found = solved(solver, timeout)
        asked.append(str(answer))
        return answer, found

    monkeypatch.setattr(prover, "_with_equations_solved", watched)
    results = {p.name: prove(p, 60, tmp_path / p.name) for p in collect([str(path)])}
    assert asked == ["unsat", "sat"]  # only the claims declared to hold, in the order proved
    assert {name: r.verdict for name, r in results.items()} == {
        "some_assignment_exists": "proved",
        "spares_b0_declared_to_hold": "refuted",
        "spares_b0_declared_to_fail": "refuted",
    }
    held, failed = (
        json.loads(Path(results[n].counterexamples[0]).read_text())
        for n in ("spares_b0_declared_to_hold", "spares_b0_declared_to_fail")
    )
    assert held == failed and any("blocking" in p for p in held["permanents"])
