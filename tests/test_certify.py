"""`lethal prove --certify`: a proof stands only if cvc5, reading the query Z3 exports, also
finds the negated claim unsatisfiable; a disagreement is an error, an undecided check is no
pass."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from xml.etree import ElementTree as ET

import pytest
import z3

from lethal.cli import main
from lethal.proving import certify

from .test_prove import properties, property_lines

pytest.importorskip("cvc5")

USER_FILE = '''
from lethal.proving import Bounds, Claim, all_of, fails, holds

SMALL = Bounds(attackers=1, blockers=1, permanents=1)


@holds(cites=["510.1a"], bounds=SMALL)
def power_is_never_more_than_five(combat):
    """Within the bounds, no creature has power above 5."""
    return all_of(combat.power(c) <= 5 for c in combat.creatures)


@holds(cites=["510.1a"], bounds=SMALL)
def toughness_is_at_least_one(combat):
    """Every creature within the bounds has toughness 1 or more."""
    return all_of(combat.toughness(c) >= 1 for c in combat.creatures)


@holds(cites=["510.1a"], bounds=SMALL)
def toughness_at_least_one_apart(combat):
    """The same, each creature's toughness proved apart (cvc5 reads the whole claim)."""
    return Claim(True, all_of(combat.toughness(c) >= 1 for c in combat.creatures), apart=True)


@fails(cites=["510.1a"], bounds=SMALL)
def every_attacker_deals_damage(combat):
    """Every attacking creature assigns combat damage (false: power 0)."""
    a0 = combat.attackers[0]
    return Claim(combat.is_attacking(a0), combat.assigns(a0))
'''

# Satisfiable in truth (with numbers of seventeen digits), beyond cvc5 in a second.
HARD = (
    "(set-logic QF_NIA)(declare-fun x () Int)(declare-fun y () Int)(declare-fun z () Int)"
    "(assert (= (+ (* x x x) (* y y y) (* z z z)) 33))(check-sat)"
)
SATISFIABLE = "(set-logic QF_LIA)(declare-fun x () Int)(assert (> x 0))(check-sat)"


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def user_file(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(textwrap.dedent(USER_FILE))
    return path


def prove_json(*argv) -> tuple[int, dict]:
    code, out, _ = run("prove", *argv, "--json")
    return code, {r["name"]: r for r in properties(json.loads(out))}


def test_both_solvers_certify_each_proof(user_file, tmp_path):
    code, results = prove_json(str(user_file), "--certify", "--out", str(tmp_path))
    assert code == 0
    assert {name: (r["verdict"], r["certified_by"]) for name, r in results.items()} == {
        "power_is_never_more_than_five": ("proved", ["z3", "cvc5"]),
        "toughness_is_at_least_one": ("proved", ["z3", "cvc5"]),
        "toughness_at_least_one_apart": ("proved", ["z3", "cvc5"]),
        # A refutation rests on a counterexample re-checked on plain values, not on unsat.
        "every_attacker_deals_damage": ("refuted", []),
    }


def test_the_text_names_the_solvers(user_file, tmp_path):
    code, out, _ = run(
        "prove", str(user_file), "--certify", "-k", "power_*", "--out", str(tmp_path)
    )
    assert code == 0
    assert property_lines(out)[0].startswith("PROVED (z3, cvc5) power_is_never_more_than_five  [CR")


def test_without_certify_only_z3_is_asked(user_file, tmp_path):
    code, results = prove_json(str(user_file), "-k", "power_*", "--out", str(tmp_path))
    assert code == 0
    assert results["power_is_never_more_than_five"]["certified_by"] == ["z3"]


def test_a_disagreement_is_an_error_with_both_queries_saved(user_file, tmp_path, monkeypatch):
    """cvc5 is handed a satisfiable query in place of the export: as if one solver erred."""
    monkeypatch.setattr(certify, "export", lambda solver: SATISFIABLE)
    out = tmp_path / "cx"
    code, results = prove_json(str(user_file), "--certify", "-k", "power_*", "--out", str(out))
    found = results["power_is_never_more_than_five"]
    assert code == 1
    assert (found["verdict"], found["as_expected"]) == ("error", False)
    cvc5_read = out / "power_is_never_more_than_five.cvc5.smt2"
    z3_own = out / "power_is_never_more_than_five.z3.smt2"
    assert cvc5_read.read_text() == SATISFIABLE
    assert "(declare-fun a0.power () Int)" in z3_own.read_text()
    assert z3_own.read_text().endswith("(check-sat)\n")
    assert "the solvers disagree" in found["reason"]
    assert str(cvc5_read) in found["reason"] and str(z3_own) in found["reason"]


def test_a_disagreement_is_a_junit_error(user_file, tmp_path, monkeypatch):
    monkeypatch.setattr(certify, "export", lambda solver: SATISFIABLE)
    report = tmp_path / "proofs.xml"
    run("prove", str(user_file), "--certify", "--junit", str(report), "--out", str(tmp_path))
    suite = ET.parse(report).getroot()
    assert (suite.get("errors"), suite.get("failures")) == ("3", "0")
    errors = {case.get("name") for case in suite if case.find("error") is not None}
    assert errors == {
        "power_is_never_more_than_five",
        "toughness_is_at_least_one",
        "toughness_at_least_one_apart",
    }


def test_cvc5_undecided_is_no_pass(user_file, tmp_path, monkeypatch):
    monkeypatch.setattr(certify, "export", lambda solver: HARD)
    argv = (str(user_file), "--certify", "-k", "power_*", "--timeout", "1", "--out", str(tmp_path))
    code, results = prove_json(*argv)
    found = results["power_is_never_more_than_five"]
    assert code == 3
    assert (found["verdict"], found["certified_by"]) == ("unknown", ["z3"])
    assert "certification undecided" in found["reason"] and "answered unknown" in found["reason"]
    assert (tmp_path / "power_is_never_more_than_five.cvc5.smt2").read_text() == HARD


def test_an_export_cvc5_cannot_read_is_undecided_not_a_crash(tmp_path):
    """Z3 prints pseudo-boolean constraints as `(_ pbeq ...)`, which is not SMT-LIB."""
    path = tmp_path / "pb.py"
    path.write_text(
        textwrap.dedent('''
        import z3
        from lethal.proving import Bounds, holds

        @holds(cites=["510.1a"], bounds=Bounds(attackers=1, blockers=1, permanents=1))
        def trample_or_not(combat):
            """An attacker has trample or has not, exactly one of the two."""
            a0 = combat.attackers[0]
            trample = combat.has(a0, "trample")
            return z3.PbEq([(trample, 1), (z3.Not(trample), 1)], 1)
    ''')
    )
    code, results = prove_json(str(path), "--certify", "--out", str(tmp_path))
    found = results["trample_or_not"]
    assert code == 3 and found["verdict"] == "unknown"
    assert "could not read the query" in found["reason"] and "pbeq" in found["reason"]
    assert "(_ pbeq" in (tmp_path / "trample_or_not.cvc5.smt2").read_text()


def test_without_cvc5_certify_is_bad_usage(user_file, monkeypatch):
    monkeypatch.setitem(sys.modules, "cvc5", None)  # import cvc5 now raises ImportError
    code, out, err = run("prove", str(user_file), "--certify")
    assert code == 2 and out == ""
    assert "--certify needs the cvc5 solver" in err and "lethal[certify]" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "query, verdict",
    [
        (SATISFIABLE, certify.SAT),
        ("(declare-fun x () Int)(assert (> x 0))(assert (< x 1))(check-sat)", certify.UNSAT),
        ("(declare-fun x () Int)(assert (> x 0)", certify.UNKNOWN),  # cut short
        ("(declare-fun x () Int)(declare-fun x () Int)", certify.UNKNOWN),  # printed error
        (HARD, certify.UNKNOWN),
    ],
)
def test_cvc5_answers(query, verdict):
    assert certify.ask_cvc5(query, "query.smt2", 0.5).verdict == verdict


def test_the_export_names_the_narrowest_logic():
    """cvc5 told ALL gave up on queries it proves in seconds told QF_LIA."""
    context = z3.Context()
    x, y = z3.Int("x", context), z3.Int("y", context)

    def logic_of(*facts) -> str:
        solver = z3.Solver(ctx=context)
        solver.add(*facts)
        return certify.export(solver).splitlines()[0]

    assert logic_of(x >= -1, x + 2 * y < 3) == "(set-logic QF_LIA)"
    assert logic_of(x * y == 7) == "(set-logic QF_NIA)"
    assert logic_of(z3.ForAll([y], x + y >= y)) == "(set-logic LIA)"
    assert logic_of(z3.Real("r", context) > 0) == "(set-logic ALL)"
