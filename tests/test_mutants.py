"""`lethal mutants`: every mutant fits the source, runs on a copy of its own, and is judged
by each net as the README says. Only the examples net runs here: the library and the tests
nets take minutes over every mutant (`lethal mutants` measures them)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from lethal.cli import main
from lethal.proving import mutation
from lethal.proving.mutants import MUTANTS, Mutant
from lethal.proving.mutation import KILLED, SURVIVED, UNCLEAN, Ran

PACKAGE = mutation.installed().package

# Survivors of every net in an earlier audit: each must stay a mutant until a net kills it.
AUDITED = {
    "symbolic.marked-read-as-zero",
    "symbolic.targets-never-removed",
    "symbolic.struck-first-pinned-in-the-second-step",
    "symbolic.legal-forgets-the-domain",
    "dealing.battle-protector-orders-effects",
    "doubling.counters-tripled",
}


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_every_mutant_applies_to_the_current_source_exactly_once():
    assert mutation.stale(MUTANTS, PACKAGE) == []


def test_the_mutants_are_many_distinct_and_cover_every_rule_module():
    assert len(MUTANTS) >= 40
    assert len({m.id for m in MUTANTS}) == len(MUTANTS)
    covered = {m.file for m in MUTANTS}
    rules = {f"rules/{p.name}" for p in (PACKAGE / "rules").glob("*.py")}
    rules -= {"rules/__init__.py", "rules/constraint.py"}  # no rule in them
    assert rules | {"proving/symbolic.py"} <= covered
    assert AUDITED <= {m.id for m in MUTANTS}
    for m in MUTANTS:
        assert m.original != m.replacement, m.id
        assert "\n" not in m.description and m.description, m.id


def _first_line(file: str) -> str:
    return (PACKAGE / file).read_text().splitlines(keepends=True)[0]


@pytest.fixture(scope="module")
def measured():
    """Four mutants through the examples net: one that breaks the import, one the examples
    kill, and the same harmless change twice, once marked equivalent."""
    future = "from __future__ import annotations\n"
    breaks = Mutant(
        "test.breaks-the-import",
        "rules/trample.py",
        future,
        future + 'raise ImportError("a mutant that breaks the import")\n',
        "the module does not import",
    )
    line = _first_line("rules/trample.py")
    harmless = Mutant(
        "test.harmless", "rules/trample.py", line, line.replace('"""', '""" ', 1), "a space"
    )
    marked = Mutant(
        harmless.id + "-marked", harmless.file, line, harmless.replacement, "a space", "a space"
    )
    (killed,) = (m for m in MUTANTS if m.id == "steps.only-step-forgotten")
    return mutation.measure([breaks, killed, harmless, marked], ("examples",), jobs=2)


def test_a_mutant_that_breaks_the_import_crashes_so_the_copy_is_what_runs(measured):
    catch = measured.reports[0].catch("examples")
    assert (catch.outcome, catch.how) == (UNCLEAN, "crash")
    assert "a mutant that breaks the import" in catch.by[0]
    assert not measured.reports[0].survived


def test_the_examples_net_kills_a_mutant_that_changes_a_verdict(measured):
    catch = measured.reports[1].catch("examples")
    assert catch.outcome == KILLED
    assert "trample-counts-other-attackers-damage.json" in catch.by


def test_a_survivor_fails_the_run_unless_marked_equivalent(measured):
    harmless, marked = measured.reports[2:]
    assert harmless.survived and marked.survived
    assert [r.mutant.id for r in mutation.unexplained(measured)] == ["test.harmless"]
    assert not mutation.passes(measured)
    explained = mutation.Measured(
        measured.nets, measured.reports[:2] + (marked,), measured.baseline_seconds, 1.0
    )
    assert mutation.passes(explained)


def test_the_table_shows_each_mutant_and_the_survivors(measured):
    lines = mutation.table(measured).splitlines()
    assert lines[0].split() == ["mutant", "examples"]
    assert lines[1].split() == ["test.breaks-the-import", "crash"]
    assert lines[2].split() == ["steps.only-step-forgotten", "killed"]
    assert lines[4].split() == ["test.harmless-marked", "survived", "(equivalent)"]
    assert "survivors of every net run (examples): 2" in lines
    assert "    equivalent: a space" in lines
    assert not any(line.startswith("library:") for line in lines)  # the library did not run


def test_the_json_gives_each_net_s_outcome_and_the_summary(measured):
    data = mutation.as_json(measured)
    assert data["nets"] == ["examples"]
    assert data["library"] is None
    assert data["survivors"] == ["test.harmless", "test.harmless-marked"]
    assert data["unexplained"] == ["test.harmless"]
    assert data["passed"] is False
    first = data["mutants"][0]
    assert set(first) == {"id", "file", "description", "equivalent", "survived", "nets"}
    assert first["nets"]["examples"]["outcome"] == UNCLEAN
    assert first["nets"]["examples"]["how"] == "crash"
    assert set(data["baseline_seconds"]) == {"examples"}


def _library(verdicts: dict[str, str], code: int = 0) -> Ran:
    results = [{"name": n, "verdict": v} for n, v in verdicts.items()]
    return Ran(code, json.dumps(results), "", 1.0)


BASELINE = {"p": "proved", "q": "refuted", "model": "agrees"}


@pytest.mark.parametrize(
    "found, outcome, how",
    [
        ({"p": "proved", "q": "refuted", "model": "agrees"}, SURVIVED, ""),
        ({"p": "refuted", "q": "refuted", "model": "agrees"}, KILLED, ""),
        ({"p": "vacuous", "q": "unknown", "model": "agrees"}, KILLED, ""),
        ({"p": "proved", "q": "unknown", "model": "agrees"}, UNCLEAN, "unknown"),
        ({"p": "error", "model": "agrees"}, UNCLEAN, "error,missing"),
        ({"p": "proved", "q": "refuted", "model": "mismatch"}, KILLED, ""),
        ({"p": "proved", "q": "refuted", "model": "error"}, UNCLEAN, "error"),
    ],
)
def test_only_a_change_between_definite_verdicts_is_a_clean_library_kill(found, outcome, how):
    catch = mutation._JUDGES["library"](BASELINE, _library(found))
    assert (catch.outcome, catch.how) == (outcome, how)


def test_a_net_that_times_out_or_prints_no_verdicts_is_an_unclean_kill():
    timed_out = mutation._JUDGES["library"](BASELINE, Ran(None, "", "", 300.0))
    assert (timed_out.outcome, timed_out.how) == (UNCLEAN, "timeout")
    crashed = mutation._JUDGES["library"](BASELINE, Ran(1, "", "Traceback\nTypeError: x\n", 1.0))
    assert (crashed.outcome, crashed.how, crashed.by) == (UNCLEAN, "crash", ("TypeError: x",))
    stopped = mutation._JUDGES["tests"](True, Ran(2, "", "collection error\n", 1.0))
    assert (stopped.outcome, stopped.how) == (UNCLEAN, "crash")


def test_a_failed_test_kills_and_is_named():
    out = "F\n=== short test summary info ===\nFAILED tests/test_x.py::test_y - assert 1 == 2\n"
    catch = mutation._JUDGES["tests"](True, Ran(1, out, "", 5.0))
    assert (catch.outcome, catch.by) == (KILLED, ("tests/test_x.py::test_y",))


def test_the_command_runs_one_net_on_chosen_mutants():
    code, out, _ = run("mutants", "--nets", "examples", "-k", "steps.only-step-forgotten", "--json")
    data = json.loads(out)
    assert code == 0, out  # killed, and the library (not run) sets no rate to meet
    assert [m["id"] for m in data["mutants"]] == ["steps.only-step-forgotten"]


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--nets", "examples,lbrary"], "--nets: expected some of examples, library, tests"),
        (["-k", "no-such-mutant"], "no mutant matches 'no-such-mutant'"),
        (["--jobs", "0"], "--jobs: expected a whole number from 1 to 64, or auto; found '0'"),
        (["--timeout", "0"], "--timeout: expected a number of seconds from 0.001 to 604800"),
    ],
)
def test_bad_usage_exits_2_and_says_what_was_expected(argv, says):
    code, _, err = run("mutants", *argv)
    assert code == 2 and says in err


def test_the_mutated_copy_leaves_the_package_alone(tmp_path):
    (m,) = (m for m in MUTANTS if m.id == "doubling.counters-tripled")
    root = mutation.snapshot(mutation.installed(), tmp_path / "copy", with_tests=False)
    mutation.mutate(root, m)
    assert m.replacement in (root / "lethal" / m.file).read_text()
    assert m.original in (PACKAGE / m.file).read_text()
    assert (root / "lethal" / "proofs" / "__init__.py").is_file()
    assert not Path(root / "tests").exists()


def test_patterns_choose_mutants_in_the_list_s_order_and_each_must_match():
    chosen = mutation.select(["doubling.counters-tripled", "steps.only-*"])
    assert [m.id for m in chosen] == ["steps.only-step-forgotten", "doubling.counters-tripled"]
    with pytest.raises(mutation.MutationError, match="no mutant matches 'stpes'"):
        mutation.select(["steps.only-*", "stpes"])


def test_a_net_that_cannot_finish_unmutated_stops_the_run_and_says_so():
    (m,) = mutation.select(["steps.only-step-forgotten"])
    with pytest.raises(mutation.MutationError, match="does not finish within 0.01s"):
        mutation.measure([m], ("examples",), timeout=0.01)


def test_with_the_tests_the_checkout_s_paths_lead_into_the_copy(tmp_path):
    root = mutation.snapshot(mutation.installed(), tmp_path / "copy", with_tests=True)
    examples = root / PACKAGE.name / "examples"
    assert examples.resolve() == (root / "lethal" / "examples").resolve()
    assert (root / "tests" / "test_mutants.py").is_file() and (root / "README.md").is_file()
