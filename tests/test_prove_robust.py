"""`lethal prove` never lies and never dies: whatever a property file does, each property
gets a verdict of its own naming its line, the others are still proved, and the exit code
says that the file is broken (2), not that a claim is false (1) or undecided (3)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from lethal import cli
from lethal.cli import parser
from lethal.proving import Bounds, Property, holds, processes, prover, report
from lethal.proving.library import collect
from lethal.proving.prover import ERROR, PROVED, REFUTED, UNKNOWN, Result, prove
from lethal.proving.report import exit_code

HEADER = """\
import sys

from lethal.proving import Bounds, Claim, all_of, holds

SMALL = Bounds(players=2, attackers=1, blockers=1, permanents=0)


@holds(cites=["510.1a"], bounds=SMALL)
def toughness_is_at_least_one(combat):
    \"\"\"Every creature has toughness 1 or more.\"\"\"
    return all_of(combat.toughness(c) >= 1 for c in combat.creatures)

"""


def write(folder: Path, body: str, name: str = "mine.py") -> Path:
    """A property file: one sound property, then `body`."""
    path = folder / name
    path.write_text(HEADER + textwrap.dedent(body))
    return path


def line_of(path: Path, text: str) -> int:
    """The line of the file where `text` is: what an error must point at."""
    (number,) = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return number


def proved(path: Path, name: str, tmp_path: Path, timeout: float = 30) -> Result:
    (prop,) = collect([str(path)], name)
    return prove(prop, timeout, tmp_path / "out")


@pytest.fixture
def quick(monkeypatch):
    """The CLI without its first check, that the symbolic combat answers as lethal check
    does (tests/test_prove.py runs it): here every run is about the user's file alone."""

    def agrees() -> Result:
        return Result(_property("the_model_check", "agrees"), "agrees", 0.0)

    monkeypatch.setattr(prover, "symbolic_combat_answers_as_lethal_check_does", agrees)


def _property(name: str, expected: str) -> Property:
    return Property(name, "", (), expected, Bounds(), function=None)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def verdicts(out: str) -> dict[str, str]:
    """Each property's verdict, from the JSON of a run (the first result, the model check,
    left out)."""
    return {r["name"]: r["verdict"] for r in json.loads(out)[1:]}


# 1, 2: a property that raises, or returns something other than a claim.


def test_a_property_that_raises_is_an_error_at_its_line(tmp_path):
    path = write(
        tmp_path,
        '''
        @holds(cites=["510.1a"], bounds=SMALL)
        def divides_by_zero(combat):
            """A property whose own code raises."""
            return 1 / 0
        ''',
    )
    result = proved(path, "divides_by_zero", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "property")
    line = line_of(path, "return 1 / 0")
    assert result.reason == f"raised ZeroDivisionError: division by zero ({path}:{line})"


@pytest.mark.parametrize(
    "returned, said",
    [
        ("None", "it returned None (a property returns its claim)"),
        ("3", "it returned an int (3)"),
        ("'power <= 5'", "it returned a str ('power <= 5')"),
    ],
)
def test_a_property_that_returns_no_claim_is_an_error_at_its_declaration(tmp_path, returned, said):
    path = write(
        tmp_path,
        f'''
        @holds(cites=["510.1a"], bounds=SMALL)
        def returns_no_claim(combat):
            """A property that returns what is not a claim."""
            return {returned}
        ''',
    )
    result = proved(path, "returns_no_claim", tmp_path)
    line = line_of(path, "def returns_no_claim") - 1  # where it is declared: its decorator
    assert (result.verdict, result.fault) == (ERROR, "property")
    assert result.reason == f"{said}; expected a Claim, a formula or a bool ({path}:{line})"


# 3: Python's own logic on formulas.


@pytest.mark.parametrize(
    "claim",
    [
        "combat.power(a0) >= 0 and combat.toughness(a0) >= 1",
        "combat.power(a0) >= 0 or combat.toughness(a0) >= 1",
        "not combat.has(a0, 'trample')",
        "True if combat.power(a0) > 0 else False",
    ],
)
def test_python_logic_on_a_formula_names_the_operations_to_use(tmp_path, claim):
    path = write(
        tmp_path,
        f'''
        @holds(cites=["510.1a"], bounds=SMALL)
        def decides_in_python(combat):
            """A property that asks Python to decide a formula."""
            a0 = combat.attackers[0]
            return {claim}
        ''',
    )
    result = proved(path, "decides_in_python", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "property")
    assert f"({path}:{line_of(path, 'return ' + claim)})" in result.reason
    assert "and, or, not or if" in result.reason
    assert "all_of, any_of, negate, implies or ite (from lethal.proving)" in result.reason
    assert "Symbolic expressions cannot be cast to concrete Boolean values" in result.reason


def test_the_operations_named_are_those_lethal_proving_offers():
    import lethal.proving

    assert {"all_of", "any_of", "negate", "implies", "ite"} <= set(lethal.proving.__all__)


# 4: a keyword lethal does not know.


@pytest.mark.parametrize("keyword", ["trampel", "Trample"])
def test_an_unknown_keyword_is_an_error_that_suggests_the_known_one(tmp_path, keyword):
    path = write(
        tmp_path,
        f'''
        @holds(cites=["702.19b"], bounds=SMALL)
        def misnames_trample(combat):
            """Without the misspelling, it would be vacuous: a keyword nothing ever has."""
            a0 = combat.attackers[0]
            return Claim(combat.has(a0, {keyword!r}), combat.power(a0) >= 0)
        ''',
    )
    result = proved(path, "misnames_trample", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "property")
    assert result.reason.startswith(
        f"raised UnknownKeyword: unknown keyword '{keyword}' (did you mean 'trample'?)"
    )
    assert result.reason.endswith(f"({path}:{line_of(path, 'combat.has(a0')})")


# 5: citations that are not rule numbers.


@pytest.mark.parametrize(
    "cites, wrong",
    [
        ('"702.19z9"', "'702.19z9'"),
        ('["foo"]', "'foo'"),
        ('["510.1a", "510.1l"]', "'510.1l'"),  # the rules skip l and o, read as 1 and 0
        ('["702.19b, 510.1a"]', "'702.19b, 510.1a'"),
        ("[702.19]", "702.19"),
    ],
)
def test_a_citation_that_is_no_rule_number_is_an_error_at_its_declaration(tmp_path, cites, wrong):
    path = write(
        tmp_path,
        f'''
        @holds(cites={cites}, bounds=SMALL)
        def cites_nonsense(combat):
            """A property whose citations are not rule numbers."""
            return True
        ''',
    )
    result = proved(path, "cites_nonsense", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "property")
    assert result.reason == (
        f"cites: {wrong} is not a rule number of the Comprehensive Rules (such as '615', "
        f"'510.1' or '702.19b') ({path}:{line_of(path, '@holds(cites=' + cites)})"
    )


@pytest.mark.parametrize("cites", [["615"], ["510.1"], ["702.19b", "510.1c"], "702.19b"])
def test_rule_numbers_are_citations_and_one_may_be_given_alone(cites):
    @holds(cites=cites, bounds=Bounds(players=2, attackers=1, blockers=0, permanents=0))
    def cites_rules(combat):
        """Cites rule numbers."""
        return True

    assert cites_rules.problem == ""
    assert cites_rules.cites == ((cites,) if isinstance(cites, str) else tuple(cites))


# 6: bounds that mean nothing, or that would take too long to build.


@pytest.mark.parametrize(
    "bounds, said",
    [
        ("attackers=10**6", "attackers: expected a whole number from 1 to 10, found 1000000"),
        ("power=10**9", "power: expected a whole number from 0 to 1000, found 1000000000"),
        ("blockers=-1", "blockers: expected a whole number from 0 to 10, found -1"),
        ("attackers=0", "attackers: expected a whole number from 1 to 10, found 0"),
        ("attackers=11", "attackers: expected a whole number from 1 to 10, found 11"),
        ("toughness=1001", "toughness: expected a whole number from 1 to 1000, found 1001"),
        ("toughness=0", "toughness: expected a whole number from 1 to 1000, found 0"),
        ("players=1", "players: expected a whole number from 2 to 6, found 1"),
        ("players=7", "players: expected a whole number from 2 to 6, found 7"),
        ("permanents=2.5", "permanents: expected a whole number from 0 to 10, found 2.5"),
        ("loyalty='3'", "loyalty: expected a whole number from 1 to 1000, found '3'"),
    ],
)
def test_bounds_out_of_range_are_refused_before_anything_is_built(
    tmp_path, monkeypatch, bounds, said
):
    path = write(
        tmp_path,
        f'''
        @holds(cites=["510.1a"], bounds=Bounds({bounds}))
        def bounded_by_nonsense(combat):
            """A property whose bounds mean nothing."""
            return True
        ''',
    )

    def never(*args, **kwargs):
        raise AssertionError("a combat was built")

    monkeypatch.setattr(prover.SymbolicCombat, "__init__", never)
    result = proved(path, "bounded_by_nonsense", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "property")
    assert result.reason == f"bounds: {said} ({path}:{line_of(path, 'bounds=Bounds(')})"


def test_bounds_at_the_edges_of_their_ranges_are_used():
    assert Bounds(players=6, attackers=10, blockers=0, permanents=0, power=0).problem() == ""
    assert Bounds(players=2, attackers=1, blockers=10, toughness=1000, loyalty=1).problem() == ""


# 7: exits.


@pytest.mark.parametrize("exits", ["sys.exit(0)", "sys.exit(1)", "raise SystemExit"])
def test_a_property_that_exits_is_an_error_and_the_run_goes_on(tmp_path, quick, exits):
    path = write(
        tmp_path,
        f'''
        @holds(cites=["510.1a"], bounds=SMALL)
        def exits(combat):
            """A property that tries to end the run."""
            {exits}


        @holds(cites=["510.1a"], bounds=SMALL)
        def power_is_at_least_minus_one(combat):
            """Every creature has power -1 or more."""
            return all_of(combat.power(c) >= -1 for c in combat.creatures)
        ''',
    )
    code, out, err = run("prove", str(path), "--json", "--out", str(tmp_path))
    assert (code, err) == (2, "")
    assert verdicts(out) == {
        "toughness_is_at_least_one": PROVED,
        "exits": ERROR,
        "power_is_at_least_minus_one": PROVED,
    }
    (exited,) = [r for r in json.loads(out) if r["name"] == "exits"]
    assert exited["reason"].startswith("it tried to end the run: raised SystemExit")
    assert exited["reason"].endswith(
        f" ({path}:{line_of(path, exits)}); a property returns its claim, and the run goes on"
    )


# 8: a property that never returns.


def test_a_property_that_loops_forever_is_stopped_by_the_timeout(tmp_path):
    path = write(
        tmp_path,
        '''
        @holds(cites=["510.1a"], bounds=SMALL)
        def loops_forever(combat):
            """A property that never returns its claim."""
            while True:
                pass
        ''',
    )
    result = proved(path, "loops_forever", tmp_path, timeout=0.3)
    assert result.verdict == UNKNOWN and result.fault == ""
    # Python checks for signals as the loop jumps back: on the line of `while` or of `pass`.
    assert result.reason in {
        f"did not finish within --timeout 0.3 s (stopped at {path}:{line_of(path, text)})"
        for text in ("while True", "pass")
    }
    assert 0.3 <= result.seconds < 5
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left for the next
    assert proved(path, "toughness_is_at_least_one", tmp_path, timeout=5).verdict == PROVED


def test_a_run_with_a_property_left_undecided_by_the_timeout_exits_3(tmp_path, quick):
    path = write(
        tmp_path,
        '''
        @holds(cites=["510.1a"], bounds=SMALL)
        def loops_forever(combat):
            """A property that never returns its claim."""
            while True:
                combat.legal(combat.assignment())  # lethal's work, called forever
        ''',
    )
    code, out, _ = run("prove", str(path), "--json", "--timeout", "0.5", "--out", str(tmp_path))
    assert code == 3
    assert verdicts(out) == {"toughness_is_at_least_one": PROVED, "loops_forever": UNKNOWN}


# 9: a counterexample the property cannot be asked of.


def test_a_counterexample_the_property_cannot_be_evaluated_on_is_said_and_kept(tmp_path):
    """The smallest combat has one attacker, a0; on the symbolic side a1's order is an
    unknown, on the concrete side a1 is not there to have one."""
    path = write(
        tmp_path,
        '''
        @holds(cites=["509.2"], bounds=Bounds(players=2, attackers=2, blockers=2, permanents=0),
               editions=("2020-01-01",))
        def second_attacker_orders_b0_first(combat):
            """The second attacker's damage assignment order puts b0 before b1."""
            return combat.order(combat.attackers[1])("b0", "b1")
        ''',
    )
    result = proved(path, "second_attacker_orders_b0_first", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "property")
    line = line_of(path, "return combat.order")
    assert result.reason == (
        "the counterexample did not re-check: on the concrete scenario the property raised "
        f"KeyError: 'a1' ({path}:{line}); a1 is absent from the counterexample, and cannot "
        "be asked that there"
    )
    (kept,) = result.counterexamples  # the smallest: no creature at all
    assert json.loads(Path(kept).read_text())["permanents"] == []


# 10: a property file importing the modules beside it.


def test_a_property_file_imports_the_modules_beside_it(tmp_path):
    (tmp_path / "helpers.py").write_text("def at_least_one(x):\n    return x >= 1\n")
    (tmp_path / "_shared.py").write_text(
        "from lethal.proving import Bounds\n\n"
        "TINY = Bounds(players=2, attackers=1, blockers=0, permanents=0)\n"
    )
    write(
        tmp_path,
        '''
        import helpers
        from _shared import TINY


        @holds(cites=["510.1a"], bounds=TINY)
        def toughness_helped(combat):
            """Every creature has toughness 1 or more, said by a helper."""
            return all_of(helpers.at_least_one(combat.toughness(c)) for c in combat.creatures)
        ''',
    )
    path_before = list(sys.path)
    found = collect([str(tmp_path)])
    assert sys.path == path_before
    assert [p.name for p in found] == ["toughness_is_at_least_one", "toughness_helped"]
    assert prove(found[1], 30, tmp_path / "out").verdict == PROVED


# 11: a file that does not import.


@pytest.mark.parametrize(
    "text, said, line",
    [
        ("x = 1\ndef f(:\n    pass\n", "SyntaxError: invalid syntax", 2),
        ("import os\nimport no_such_module\n", "ModuleNotFoundError: No module named", 2),
        ("import sys\n\nsys.exit(0)\n", "SystemExit: 0", 3),
        ("x = 1\nraise KeyboardInterrupt\n", "KeyboardInterrupt: ", 2),
    ],
)
def test_a_file_that_does_not_import_is_an_error_and_the_others_still_run(
    tmp_path, quick, text, said, line
):
    write(tmp_path, "", name="good.py")
    broken = tmp_path / "broken.py"
    broken.write_text(text)
    code, out, err = run("prove", str(tmp_path), "--out", str(tmp_path / "out"))
    assert (code, err) == (2, "")
    lines = out.splitlines()[1:]
    assert lines[0] == f"ERROR    {broken}  0.0s  <- expected to import"
    assert lines[1].startswith(f"  the file does not import: {said}")
    assert lines[1].endswith(f"({broken}:{line})")
    assert lines[2].startswith("PROVED   toughness_is_at_least_one")


def test_a_file_that_does_not_import_is_reported_whatever_the_pattern(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import no_such_module\n")
    (entry,) = collect([str(tmp_path)], "no_such_property")
    assert entry.name == str(broken) and entry.problem.startswith("the file does not import")


# 12: Ctrl-C ends the run; running out of memory or stack is the property's error.


def test_ctrl_c_in_a_property_still_ends_the_run(tmp_path, quick):
    """A real Ctrl-C is a SIGINT to the run (here sent by the property, which is proved in a
    process of its own when run from the command line)."""
    path = write(
        tmp_path,
        f'''
        import os
        import signal
        import time


        @holds(cites=["510.1a"], bounds=SMALL)
        def interrupted(combat):
            """Ctrl-C, while this property is being proved."""
            os.kill({os.getpid()}, signal.SIGINT)
            time.sleep(30)
        ''',
    )
    (prop,) = collect([str(path)], "interrupted")
    with pytest.raises(KeyboardInterrupt):
        prove(prop, 30, tmp_path)
    start = time.monotonic()
    assert run("prove", str(path), "--out", str(tmp_path)) == (130, "", "lethal: interrupted\n")
    assert time.monotonic() - start < 10  # the process proving it is stopped, not waited for


@pytest.mark.parametrize(
    "raised, said",
    [
        ("raise KeyboardInterrupt", "raised KeyboardInterrupt"),
        ("raise BaseException('odd')", "raised BaseException: odd"),
        ("raise GeneratorExit", "raised GeneratorExit"),
    ],
)
def test_a_property_raising_what_no_except_exception_catches_is_its_error(
    tmp_path, quick, raised, said
):
    """Only a SIGINT is a Ctrl-C: a KeyboardInterrupt the property raises is its own error."""
    path = write(
        tmp_path,
        f'''
        @holds(cites=["510.1a"], bounds=SMALL)
        def raises_base(combat):
            """A property that raises what is not an Exception."""
            {raised}


        @holds(cites=["510.1a"], bounds=SMALL)
        def power_is_at_least_minus_one(combat):
            """Every creature has power -1 or more."""
            return all_of(combat.power(c) >= -1 for c in combat.creatures)
        ''',
    )
    reason = f"{said} ({path}:{line_of(path, raised)})"
    result = proved(path, "raises_base", tmp_path)  # in this process
    assert (result.verdict, result.fault, result.reason) == (ERROR, "property", reason)
    code, out, err = run("prove", str(path), "--json", "--out", str(tmp_path))
    assert (code, err) == (2, "")
    assert verdicts(out) == {
        "toughness_is_at_least_one": PROVED,
        "raises_base": ERROR,
        "power_is_at_least_minus_one": PROVED,
    }
    assert json.loads(out)[2]["reason"] == reason


@pytest.mark.parametrize(
    "body, said",
    [
        ("return [None] * 2**62", "raised MemoryError"),
        ("return deeper(0)", "raised RecursionError: maximum recursion depth exceeded"),
    ],
)
def test_running_out_of_memory_or_stack_is_the_propertys_error(tmp_path, body, said):
    path = write(
        tmp_path,
        f'''
        def deeper(n):
            return deeper(n + 1)


        @holds(cites=["510.1a"], bounds=SMALL)
        def exhausts(combat):
            """A property that runs out of memory or stack."""
            {body}
        ''',
    )
    result = proved(path, "exhausts", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "property")
    place = "return deeper(n + 1)" if "deeper" in body else body
    assert result.reason == f"{said} ({path}:{line_of(path, place)})"


# The exit code.


def test_an_error_of_lethal_alone_is_an_internal_error(tmp_path, quick, monkeypatch):
    def broken(solver, combats, model):
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(prover, "smallest", broken)
    path = write(
        tmp_path,
        '''
        @holds(cites=["510.1a"], bounds=SMALL)
        def power_is_positive(combat):
            """False: a creature may have power 0, so a counterexample is looked for."""
            return all_of(combat.power(c) >= 1 for c in combat.creatures)
        ''',
    )
    result = proved(path, "power_is_positive", tmp_path)
    assert (result.verdict, result.fault) == (ERROR, "lethal")
    assert result.reason == (
        "internal error: RuntimeError: broken on purpose (a bug in lethal, not a verdict)"
    )
    code, out, _ = run("prove", str(path), "--json", "--out", str(tmp_path))
    assert code == 4 and verdicts(out)["toughness_is_at_least_one"] == PROVED


def _result(verdict: str, expected: str = "holds", fault: str = "") -> Result:
    return Result(_property(f"{verdict}_{expected}", expected), verdict, 0.0, fault=fault)


@pytest.mark.parametrize(
    "results, code",
    [
        ([(PROVED,), (REFUTED, "fails")], 0),
        ([(PROVED,), (REFUTED,)], 1),
        ([(PROVED,), (UNKNOWN,)], 3),
        ([(UNKNOWN,), (REFUTED,)], 1),
        ([(ERROR, "holds", "")], 1),  # two solvers disagree: no file is to blame
        ([(UNKNOWN,), (REFUTED,), (ERROR, "holds", "property")], 2),
        ([(ERROR, "fails", "property"), (ERROR, "holds", "lethal")], 4),
    ],
)
def test_a_broken_file_exits_2_over_a_wrong_or_undecided_verdict(results, code):
    assert exit_code([_result(*r) for r in results]) == code


def test_two_folders_each_import_their_own_module_of_the_same_name(tmp_path):
    for folder, least in (("one", 1), ("two", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "helpers.py").write_text(f"LEAST = {least}\n")
        write(
            tmp_path / folder,
            f'''
            import helpers


            @holds(cites=["510.1a"], bounds=SMALL)
            def toughness_from_{folder}(combat):
                """Every creature has toughness {least} or more."""
                return all_of(combat.toughness(c) >= helpers.LEAST for c in combat.creatures)
            ''',
        )
    found = collect([str(tmp_path / "one"), str(tmp_path / "two")], "toughness_from_*")
    verdicts = [prove(p, 30, tmp_path / "out").verdict for p in found]
    assert verdicts == [PROVED, REFUTED]  # toughness 1 refutes the second: its own helpers


def test_a_file_that_loops_while_importing_is_stopped_by_the_timeout(tmp_path, quick):
    write(tmp_path, "while True:\n    pass\n")
    code, out, _ = run("prove", str(tmp_path), "--timeout", "0.5", "--json")
    (entry,) = json.loads(out)[1:]
    assert code == 2 and entry["verdict"] == ERROR
    assert "importing it took longer than --timeout 0.5 s" in entry["reason"]


def test_what_a_property_prints_stays_out_of_the_report(tmp_path, quick, capsys):
    write(
        tmp_path,
        '''
        @holds(cites=["510.1a"], bounds=SMALL)
        def chatty(combat):
            """Every creature has toughness 1 or more, said aloud."""
            print("building the claim")
            return all_of(combat.toughness(c) >= 1 for c in combat.creatures)
        ''',
    )
    code, out, _ = run("prove", str(tmp_path), "-k", "chatty", "--json")
    assert code == 0 and verdicts(out) == {"chatty": PROVED}
    assert "building the claim" in capsys.readouterr().err


def test_prove_says_each_property_as_it_is_done(tmp_path, quick):
    write(tmp_path, "")
    terminal = Terminal()
    assert cli.main(["prove", str(tmp_path)], io.StringIO(), terminal) == 0
    assert terminal.getvalue() == "prove: 1 of 1, toughness_is_at_least_one proved\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# 13: what only a process of its own survives: ending the process, a long call into C,
# closing the standard streams.


@pytest.mark.parametrize(
    "ends, how",
    [
        ("os._exit(0)", "exit code 0"),
        ("os._exit(7)", "exit code 7"),
        ("os.kill(os.getpid(), signal.SIGKILL)", "killed by SIGKILL"),
    ],
)
def test_a_property_that_ends_its_process_is_an_error_and_the_run_goes_on(
    tmp_path, quick, ends, how
):
    path = write(
        tmp_path,
        f'''
        import os
        import signal


        @holds(cites=["510.1a"], bounds=SMALL)
        def ends_the_process(combat):
            """A property that ends the process it runs in, with no exception to catch."""
            {ends}


        @holds(cites=["510.1a"], bounds=SMALL)
        def power_is_at_least_minus_one(combat):
            """Every creature has power -1 or more."""
            return all_of(combat.power(c) >= -1 for c in combat.creatures)
        ''',
    )
    code, out, err = run("prove", str(path), "--json", "--out", str(tmp_path))
    assert (code, err) == (2, "")  # never a false pass
    assert verdicts(out) == {
        "toughness_is_at_least_one": PROVED,
        "ends_the_process": ERROR,
        "power_is_at_least_minus_one": PROVED,
    }
    (prop,) = collect([str(path)], "ends_the_process")
    assert json.loads(out)[2]["reason"] == (
        f"it ended the process proving it ({how}) before giving its verdict ({path}:"
        f"{prop.line}); a property returns its claim, and the run goes on"
    )


def test_a_property_stuck_in_c_is_stopped_once_its_time_is_up(tmp_path, quick):
    """Python's deadline fires only between bytecodes; sum over a range is one call into C."""
    path = write(
        tmp_path,
        '''
        @holds(cites=["510.1a"], bounds=SMALL)
        def sums_forever(combat):
            """A property stuck in C code, where no signal handler runs."""
            return sum(range(10**13)) > 0
        ''',
    )
    start = time.monotonic()
    code, out, _ = run("prove", str(path), "--json", "--timeout", "0.3", "--out", str(tmp_path))
    assert time.monotonic() - start < 0.3 + processes.GRACE + 5
    assert code == 3
    assert verdicts(out) == {"toughness_is_at_least_one": PROVED, "sums_forever": UNKNOWN}
    reason = json.loads(out)[2]["reason"]
    assert reason.startswith("did not finish within --timeout 0.3 s; stopped after ")
    assert reason.endswith(f"({path}:{collect([str(path)], 'sums_forever')[0].line})")


# The command line run as a program, its standard streams real file descriptors, its
# first check (as in `quick`) left out.
AS_A_PROGRAM = """\
import sys
from lethal import cli
from lethal.cli import parser
from lethal.proving import Bounds, Property, prover
from lethal.proving.prover import Result

check = Property("the_model_check", "", (), "agrees", Bounds(), function=None)
prover.symbolic_combat_answers_as_lethal_check_does = lambda: Result(check, "agrees", 0.0)
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("fd", [1, 2])
def test_a_property_that_closes_a_standard_stream_takes_nothing_from_the_report(tmp_path, fd):
    path = write(
        tmp_path,
        f'''
        import os


        @holds(cites=["510.1a"], bounds=SMALL)
        def closes_a_stream(combat):
            """Every creature has toughness 1 or more, said after closing fd {fd}."""
            os.close({fd})
            return all_of(combat.toughness(c) >= 1 for c in combat.creatures)


        @holds(cites=["510.1a"], bounds=SMALL)
        def chatty(combat):
            """Every creature has power -1 or more, said aloud after the stream was closed."""
            print("still said")
            return all_of(combat.power(c) >= -1 for c in combat.creatures)
        ''',
    )
    argv = ["prove", str(path), "--json", "--out", str(tmp_path / "out")]
    ran = subprocess.run(
        [sys.executable, "-c", AS_A_PROGRAM, *argv], capture_output=True, text=True, timeout=120
    )
    assert (ran.returncode, ran.stderr) == (0, "still said\n")
    assert verdicts(ran.stdout) == {
        "toughness_is_at_least_one": PROVED,
        "closes_a_stream": PROVED,
        "chatty": PROVED,
    }


def test_what_a_property_writes_to_its_file_descriptors_stays_out_of_the_report(tmp_path):
    path = write(
        tmp_path,
        '''
        import os


        @holds(cites=["510.1a"], bounds=SMALL)
        def writes_to_fd_1(combat):
            """Every creature has toughness 1 or more, written to fd 1 too."""
            os.write(1, b"not the report\\n")
            return all_of(combat.toughness(c) >= 1 for c in combat.creatures)
        ''',
    )
    argv = ["prove", str(path), "--json", "--out", str(tmp_path / "out")]
    ran = subprocess.run(
        [sys.executable, "-c", AS_A_PROGRAM, *argv], capture_output=True, text=True, timeout=120
    )
    assert (ran.returncode, ran.stderr) == (0, "not the report\n")
    assert verdicts(ran.stdout) == {"toughness_is_at_least_one": PROVED, "writes_to_fd_1": PROVED}


@pytest.mark.parametrize(
    "ends, how",
    [
        ("os._exit(0)", "exit code 0"),
        ("os.kill(os.getpid(), signal.SIGKILL)", "killed by SIGKILL"),
    ],
)
def test_a_file_that_ends_its_process_while_importing_is_an_error_and_the_run_goes_on(
    tmp_path, quick, ends, how
):
    write(tmp_path, "", name="good.py")
    broken = tmp_path / "broken.py"
    broken.write_text(f"import os\nimport signal\n\n{ends}\n")
    code, out, err = run("prove", str(tmp_path), "--json", "--out", str(tmp_path / "out"))
    assert (code, err) == (2, "")
    entry, good = json.loads(out)[1:]
    assert entry["verdict"] == ERROR and good["verdict"] == PROVED
    assert entry["reason"].startswith(
        f"the file does not import: importing it ended the process ({how})"
    )


def test_a_file_stuck_in_c_while_importing_is_stopped_once_its_time_is_up(tmp_path, quick):
    write(tmp_path, "", name="good.py")
    (tmp_path / "stuck.py").write_text("total = sum(range(10**13))\n")
    start = time.monotonic()
    code, out, _ = run("prove", str(tmp_path), "--json", "--timeout", "0.3")
    assert time.monotonic() - start < 0.3 + processes.GRACE + 5
    good, entry = json.loads(out)[1:]
    assert code == 2 and good["verdict"] == PROVED and entry["verdict"] == ERROR
    assert "(--timeout 0.3 s), in code the timeout could not interrupt" in entry["reason"]


@pytest.mark.parametrize(
    "does, said",
    [
        ('os.write(1, b"raw\\n")\nprint("printed")', "raw\nprinted\n"),
        ("os.close(1)", ""),
        ("os.close(2)", ""),
    ],
)
def test_what_a_file_does_to_the_standard_streams_while_importing_takes_nothing_from_the_report(
    tmp_path, does, said
):
    path = write(tmp_path, f"import os\n\n{does}\n")
    argv = ["prove", str(path), "--json", "--out", str(tmp_path / "out")]
    ran = subprocess.run(
        [sys.executable, "-c", AS_A_PROGRAM, *argv], capture_output=True, text=True, timeout=120
    )
    assert (ran.returncode, ran.stderr) == (0, said)  # said once, on standard error
    assert verdicts(ran.stdout) == {"toughness_is_at_least_one": PROVED}


@pytest.mark.parametrize(
    "does",
    [
        "import lethal.proving.report\nlethal.proving.report.exit_code = lambda *a: 0",
        "import json\njson.dumps = lambda *a, **k: 'PATCHED'",
        "import atexit\natexit.register(lambda: os.write(1, b'AT EXIT'))",
        "os.chdir('/')",
        "import threading\nthreading.Thread(target=lambda: os.write(1, b'LATE')).start()",
    ],
)
def test_nothing_a_file_does_while_importing_reaches_the_run(tmp_path, does):
    """The file is imported in processes of its own, never in lethal's: here, with a
    property refuted, the run still exits 1 with its report whole, and the counterexample
    is written where --out says."""
    path = write(
        tmp_path,
        """
        import os

        {does}


        @holds(cites=["510.1a"], bounds=SMALL)
        def power_is_small(combat):
            \"\"\"Every creature has power 2 or less.\"\"\"
            return all_of(combat.power(c) <= 2 for c in combat.creatures)
        """.replace("{does}", does.replace("\n", "\n        ")),
    )
    out = tmp_path / "out"
    argv = ["prove", str(path), "--json", "--out", "out"]
    ran = subprocess.run(
        [sys.executable, "-c", AS_A_PROGRAM, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert ran.returncode == 1, ran.stderr
    assert verdicts(ran.stdout) == {"toughness_is_at_least_one": PROVED, "power_is_small": REFUTED}
    assert (out / "power_is_small.json").is_file()


def test_a_file_that_ends_its_process_only_when_imported_again_is_that_property_s_error(tmp_path):
    counter = tmp_path / "imports"
    path = write(
        tmp_path,
        f"""
        import os
        from pathlib import Path

        counter = Path({str(counter)!r})
        times = int(counter.read_text()) + 1 if counter.exists() else 1
        counter.write_text(str(times))
        if times > 1:
            os._exit(0)
        """,
    )
    code, out, err = run("prove", str(path), "--json", "--out", str(tmp_path / "out"))
    assert code == 2
    (entry,) = json.loads(out)[1:]
    assert entry["verdict"] == ERROR
    assert entry["reason"].startswith("it ended the process proving it (exit code 0)")


@pytest.mark.parametrize("where", ["importing", "proving"])
def test_a_process_a_file_starts_ends_with_the_run_and_never_holds_it_up(tmp_path, where):
    pid_file = tmp_path / "pid"
    fork = f"""
        if os.fork() == 0:
            Path({str(pid_file)!r}).write_text(str(os.getpid()))
            time.sleep(60)
            os._exit(0)
    """
    body = textwrap.dedent(fork) if where == "importing" else ""
    proving = textwrap.indent(textwrap.dedent(fork), "    ") if where == "proving" else ""
    path = tmp_path / "mine.py"
    path.write_text(
        HEADER
        + "import os\nimport time\nfrom pathlib import Path\n"
        + body
        + "\n\n@holds(cites=['510.1a'], bounds=SMALL)\ndef forks(combat):\n"
        + '    """Every creature has power -1 or more, said after forking."""\n'
        + proving
        + "    return all_of(combat.power(c) >= -1 for c in combat.creatures)\n"
    )
    start = time.monotonic()
    code, out, _ = run("prove", str(path), "--json", "--out", str(tmp_path / "out"))
    assert time.monotonic() - start < 30
    assert code == 0 and verdicts(out) == {"toughness_is_at_least_one": PROVED, "forks": PROVED}
    time.sleep(0.2)
    stat = Path(f"/proc/{pid_file.read_text()}/stat")
    assert not stat.exists() or stat.read_text().split(") ")[1][0] in "ZX"  # ended


def test_two_properties_of_one_name_are_refused_and_a_file_named_twice_is_proved_once(
    tmp_path, quick
):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        write(tmp_path / folder, "")
    one, two = (str(tmp_path / folder / "mine.py") for folder in ("one", "two"))
    code, out, err = run("prove", one, two, "--out", str(tmp_path / "out"))
    assert (code, out) == (2, "")
    assert err == (
        f"lethal: two properties are named 'toughness_is_at_least_one': {one}:8 and {two}:8; "
        "rename one, as its verdict and counterexample files are named by it\n"
    )
    code, out, _ = run("prove", one, one, str(tmp_path / "one"), "--json", "--out", str(tmp_path))
    assert code == 0 and verdicts(out) == {"toughness_is_at_least_one": PROVED}


# 14: a name that is no plain text.

FORGED = "evil\x1b[2J\nPROVED   forged"


def test_a_name_with_control_characters_is_escaped_in_text_output():
    result = Result(_property(FORGED, "holds"), ERROR, 0.0, reason=f"{FORGED}: raised", fault="x")
    lines = report.text([result]).splitlines()
    assert len(lines) == 3 and "\x1b" not in "".join(lines)
    assert lines[0].startswith(f"ERROR    {FORGED!r}  ")
    assert lines[1] == "  evil\\x1b[2J\\nPROVED   forged: raised"
    assert "\x1b" not in report.junit([result])


def test_a_file_path_with_control_characters_is_escaped_in_text_output(tmp_path, quick):
    broken = tmp_path / "bad\x1b[2J\nname.py"
    broken.write_text("import no_such_module\n")
    code, out, _ = run("prove", str(broken), "--out", str(tmp_path / "out"))
    assert code == 2 and "\x1b" not in out
    assert out.splitlines()[1] == f"ERROR    {str(broken)!r}  0.0s  <- expected to import"


# 15: where the results go, and what is named to prove, looked at before any work.


@pytest.mark.parametrize(
    "given, said",
    [
        (
            ["--junit", "{tmp}/missing/report.xml"],
            "--junit {tmp}/missing/report.xml: its folder {tmp}/missing does not exist",
        ),
        (["--junit", "{tmp}"], "--junit {tmp}: a folder; name the file to write"),
        (["--junit", ""], "--junit '': an empty path; name a file"),
        (
            ["--out", "{tmp}/mine.py"],
            "--out {tmp}/mine.py: not a folder (counterexamples and queries are written in it)",
        ),
        (
            ["--out", "{tmp}/mine.py/out"],
            "--out {tmp}/mine.py/out: {tmp}/mine.py is a file, not a folder",
        ),
        (["--out", ""], "--out '': an empty path; name a folder"),
        ([""], "'': an empty path; name a .py file or a folder"),
        (["{tmp}/f.json"], "{tmp}/f.json: not a .py file or a folder"),
        (["/dev/null"], "/dev/null: not a .py file or a folder"),
        (["{tmp}/fifo"], "{tmp}/fifo: not a .py file or a folder"),
    ],
)
def test_where_results_go_and_what_is_proved_are_refused_before_any_work(
    tmp_path, quick, given, said
):
    write(tmp_path, "\nopen(__file__ + '.imported', 'w').close()\n")
    (tmp_path / "f.json").write_text("{}\n")
    os.mkfifo(tmp_path / "fifo")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in given]
    if argv[0].startswith("--"):
        argv = [str(tmp_path / "mine.py"), *argv]
    else:
        argv = [str(tmp_path / "mine.py"), *argv, "--out", str(tmp_path / "out")]
    assert run("prove", *argv) == (2, "", f"lethal: {said.replace('{tmp}', str(tmp_path))}\n")
    assert not (tmp_path / "mine.py.imported").exists()  # refused before any file is imported


# 16: --jobs.


def test_properties_proved_at_once_give_the_same_results_in_the_same_order(tmp_path, quick):
    write(
        tmp_path,
        '''
        from lethal.proving import fails


        @fails(cites=["510.1a"], bounds=SMALL)
        def power_is_positive(combat):
            """False: a creature may have power 0."""
            return all_of(combat.power(c) >= 1 for c in combat.creatures)


        @holds(cites=["510.1a"], bounds=SMALL)
        def divides_by_zero(combat):
            """A property whose own code raises."""
            return 1 / 0


        @holds(cites=["510.1a"], bounds=SMALL)
        def power_is_at_least_minus_one(combat):
            """Every creature has power -1 or more."""
            return all_of(combat.power(c) >= -1 for c in combat.creatures)


        @holds(cites=["510.1a"], bounds=SMALL)
        def toughness_is_at_most_two(combat):
            """False: toughness may be more than 2."""
            return all_of(combat.toughness(c) <= 2 for c in combat.creatures)
        ''',
    )
    runs = []
    for jobs in ("1", "2", "3"):
        argv = ["prove", str(tmp_path), "--json", "--jobs", jobs, "--out", str(tmp_path / jobs)]
        code, out, err = run(*argv)
        results = json.loads(out.replace(str(tmp_path / jobs), "OUT"))
        runs.append((code, err, [{**r, "seconds": 0} for r in results]))
    assert runs[0][:2] == (2, "") and len(runs[0][2]) == 6
    assert runs[1] == runs[0] and runs[2] == runs[0]


@pytest.mark.parametrize("jobs", ["0", "65", "many", "2.5"])
def test_jobs_is_a_whole_number_from_1_to_64_or_auto(tmp_path, quick, jobs):
    code, _, err = run("prove", str(write(tmp_path, "")), "--jobs", jobs)
    expected = "--jobs: expected a whole number from 1 to 64, or auto"
    assert code == 2 and f"{expected}; found {jobs!r}" in err


def test_jobs_auto_is_one_for_each_cpu_this_process_may_use(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    assert parser.build().parse_args(["prove", "--jobs", "auto"]).jobs == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(100)), raising=False)
    assert parser.build().parse_args(["teeth", "--jobs", "AUTO"]).jobs == 64
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # macOS, Windows
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert parser.build().parse_args(["mutants", "--jobs", "auto"]).jobs == 1


def test_where_no_process_can_be_forked_each_property_is_proved_here(tmp_path, quick, monkeypatch):
    path = write(
        tmp_path,
        '''
        @holds(cites=["510.1a"], bounds=SMALL)
        def divides_by_zero(combat):
            """A property whose own code raises."""
            return 1 / 0
        ''',
    )
    monkeypatch.delattr(os, "fork")
    code, out, _ = run("prove", str(path), "--json", "--jobs", "2", "--out", str(tmp_path))
    assert code == 2
    assert verdicts(out) == {"toughness_is_at_least_one": PROVED, "divides_by_zero": ERROR}
    assert json.loads(out)[2]["reason"].endswith(f"({path}:{line_of(path, 'return 1 / 0')})")
