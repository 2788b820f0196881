"""A second solver's word on what Z3 proved: the same query, exported as SMT-LIB 2, asked of
cvc5.

A proof rests on Z3 finding the negated claim unsatisfiable. Certifying it asks cvc5 the same
question, read from the text Z3 exports, so that a bug in how Z3 solved that query cannot
pass unnoticed. It guards against nothing the two share: the symbolic combat, the rules, the
property's statement, the export itself, the bounds. This is the only module that talks to
cvc5, which is an optional dependency (`pip install 'lethal[certify]'`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import z3

from ..errors import LethalError

SAT, UNSAT, UNKNOWN = "sat", "unsat", "unknown"

# cvc5 tunes its preprocessing to the logic it is told: told ALL, it gave up after two
# minutes on library queries it proves in seconds as QF_LIA. Linear before non-linear.
_THEORIES = (("is-lia", "LIA"), ("is-nia", "NIA"))


class CertifierMissing(LethalError, ImportError):
    """Certification was asked for and cvc5 is not installed."""


@dataclass(frozen=True)
class Answer:
    """cvc5's answer to a query: sat, unsat or unknown, and for unknown, why."""

    verdict: str
    reason: str = ""


def require_cvc5() -> None:
    """Raises CertifierMissing, saying how to install it, when cvc5 does not import."""
    try:
        import cvc5  # noqa: F401
    except ImportError as error:
        raise CertifierMissing(
            f"--certify needs the cvc5 solver, which does not import ({error}); "
            "install it with: pip install 'lethal[certify]'"
        ) from None


def export(solver: z3.Solver) -> str:
    """The query Z3 was asked, as SMT-LIB 2 text for another solver to read, headed by the
    narrowest logic it is in (Z3 prints none)."""
    return f"(set-logic {logic(solver)})\n" + solver.to_smt2()


def logic(solver: z3.Solver) -> str:
    """The SMT-LIB logic of the solver's assertions, as Z3's own probes classify them."""
    goal = z3.Goal(ctx=solver.ctx)
    goal.add(solver.assertions())
    # Quantifiers are asked apart: Z3's is-qflia probe turns down linear queries that is-lia
    # accepts (`a0.power >= -1` among them).
    prefix = "" if z3.Probe("has-quantifiers", solver.ctx)(goal) else "QF_"
    for probe, theory in _THEORIES:
        if z3.Probe(probe, solver.ctx)(goal):
            return prefix + theory
    return "ALL"


def z3_query(solver: z3.Solver) -> str:
    """Z3's own statement of the query (its assertions as it holds them), printed apart from
    the export so that, in a disagreement, `z3 FILE` replays what Z3 was asked."""
    return solver.sexpr() + "(check-sat)\n"


def ask_cvc5(query: str, name: str, timeout: float) -> Answer:
    """cvc5's answer to the SMT-LIB 2 `query` within `timeout` seconds. A query cvc5 cannot
    read is answered unknown, with cvc5's complaint as the reason."""
    import cvc5

    terms = cvc5.TermManager()
    solver = cvc5.Solver(terms)
    solver.setOption("tlimit-per", str(max(1, round(timeout * 1000))))
    if not re.search(r"\(\s*set-logic\b", query):
        solver.setLogic("ALL")  # a query with no logic of its own; cvc5 allows one set-logic
    symbols = cvc5.SymbolManager(terms)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, query, name)
    try:
        problem = _read(parser, solver, symbols)
    except RuntimeError as error:  # how cvc5's bindings report a parse error
        problem = str(error)
    if problem:
        return Answer(UNKNOWN, f"could not read the query: {problem}")
    try:
        result = solver.checkSat()
    except RuntimeError as error:
        return Answer(UNKNOWN, f"failed on the query: {error}")
    if result.isUnsat():
        return Answer(UNSAT)
    if result.isSat():
        return Answer(SAT)
    return Answer(UNKNOWN, f"answered unknown ({_explanation(result)})")


def _read(parser, solver, symbols) -> str:
    """Runs every command of the query but its check-sat (asked afterwards, for a Result
    rather than text); returns the error cvc5 printed for a command, if any."""
    while True:
        command = parser.nextCommand()
        if command.isNull():
            return ""
        if command.getCommandName() == "check-sat":
            continue
        # Some errors (a symbol declared twice) come back as printed text, not an exception.
        printed = command.invoke(solver, symbols)
        if printed.lstrip().startswith("(error"):
            return printed.strip()


def _explanation(result) -> str:
    return str(result.getUnknownExplanation()).rsplit(".", 1)[-1].lower().replace("_", " ")
