"""Proving properties of the rules over every combat within bounds, and refuting claims with
the smallest counterexample, re-checked on the concrete path before it is reported.

Every answer of the solver is looked at: unsat, sat and unknown each lead somewhere, and
unknown is never read as either of the others. Whatever one property does (raise, return
something that is not a claim, exit, loop forever), it gets a verdict of its own, naming the
line of its file, and the others are still proved; only Ctrl-C ends the run.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import z3

from ..deadline import TimedOut, deadline, remaining
from ..editions import in_force
from ..errors import LethalError, ScenarioError
from ..reading import bundled_examples, parse
from ..solver import terms
from ..solver.encoding import SEED
from ..verdict import check
from . import Claim, Property, agreement, counterexample
from . import certify as certification
from .replay import ConcreteCombat
from .symbolic import SymbolicCombat, as_formula

PROVED, REFUTED, UNKNOWN, VACUOUS, ERROR = "proved", "refuted", "unknown", "vacuous", "error"
# The symbolic combat and the concrete check disagree: on a counterexample, or on a bundled
# example. A definite finding (a wrong model), not the solver giving up.
AGREES, MISMATCH = "agrees", "mismatch"
# Definite verdicts, which a change in the rules may move between: not the solver giving up
# (unknown) or a property's crash (error).
DECIDED = (PROVED, REFUTED, VACUOUS, AGREES, MISMATCH)
# A user's file that does not import stands for the properties it would have held; it is
# expected to import, which it never does by the time it has a verdict.
EXPECTED = {"holds": PROVED, "fails": REFUTED, "agrees": AGREES, "imports": "imported"}
Z3, CVC5 = "z3", "cvc5"
# Whose fault an error is: the property's (its file is broken, so no verdict of the run can
# be trusted), or lethal's own (a bug). An error that is neither, such as two solvers
# disagreeing, is a verdict not as expected.
THE_PROPERTY, LETHAL = "property", "lethal"
# What Z3 says when Python's `and`, `or`, `not` or `if` is asked to decide one of its formulas.
CAST = "Symbolic expressions cannot be cast to concrete Boolean values"


class PropertyError(LethalError, TypeError):
    """A property that returned something other than a claim, a formula or a bool."""


@dataclass(frozen=True)
class Result:
    property: Property
    verdict: str
    seconds: float
    counterexamples: tuple[str, ...] = ()  # scenario files, one per combat
    table: str = ""  # the counterexample, readable
    reason: str = ""  # why it is unknown, vacuous or an error; what a refutation lacks
    certified_by: tuple[str, ...] = ()  # the solvers that found the negated claim unsat
    fault: str = ""  # for an error: THE_PROPERTY or LETHAL, if it is either's

    @property
    def as_expected(self) -> bool:
        return self.verdict == EXPECTED[self.property.expected]


def prove(prop: Property, timeout: float, out: Path, certify: bool = False) -> Result:
    """The verdict on `prop` within its bounds, found within `timeout` seconds (the
    property's own Python, building, solving and the re-check of a counterexample: past
    them, it is unknown); counterexamples and undecided queries are written to `out`. With
    `certify`, a proof stands only if cvc5 also finds the negated claim unsatisfiable,
    within `timeout` seconds of its own."""
    start = time.perf_counter()
    problem = prop.problem or prop.bounds.problem()
    if problem:  # refused before anything is built
        return Result(
            prop, ERROR, 0.0, reason=f"{problem} ({declared_at(prop)})", fault=THE_PROPERTY
        )
    limit = f"{prop.name}: did not finish within --timeout {timeout:g} s"
    asked: list[z3.Solver] = []  # the solver, once the query is built
    with _watching_ctrl_c() as ctrl_c:
        try:
            # What a property prints goes to standard error: standard output is the report's.
            with deadline(timeout, limit), contextlib.redirect_stdout(sys.stderr):
                verdict, details = _decide(prop, timeout, out, asked)
            if certify and verdict == PROVED:  # cvc5 reads the query Z3 answered
                verdict, details = _certified(asked[0], prop, timeout, out)
        except TimedOut as error:
            if str(error) != limit:  # a limit of the whole run's, which ends it
                raise
            verdict, details = UNKNOWN, {"reason": _timed_out(error, prop, timeout, asked, out)}
        except PropertyError as error:
            reason = f"{error} ({declared_at(prop)})"
            verdict, details = ERROR, {"reason": reason, "fault": THE_PROPERTY}
        except BaseException as error:  # one property's failure loses no other result
            if isinstance(error, KeyboardInterrupt) and ctrl_c.real():
                raise
            verdict, details = ERROR, _failed(error, prop)
    return Result(prop, verdict, time.perf_counter() - start, **details)


class _CtrlC:
    """Whether a KeyboardInterrupt is a real Ctrl-C, which ends the run, or one a property
    raised itself, which is that property's error: a real one comes with a SIGINT."""

    def __init__(self, watched: bool) -> None:
        self.watched = watched
        self.came = False

    def real(self) -> bool:
        if self.watched:
            return self.came
        # Unwatched: in a process that ignores SIGINT (a child proving one property), none
        # is real; elsewhere, as before, every one is.
        return signal.getsignal(signal.SIGINT) is not signal.SIG_IGN


@contextlib.contextmanager
def _watching_ctrl_c() -> Iterator[_CtrlC]:
    """Within the block, notes any SIGINT before handling it as the handler in place does
    (raising KeyboardInterrupt). Only the main thread can set a handler."""
    previous = signal.getsignal(signal.SIGINT)
    ctrl_c = _CtrlC(threading.current_thread() is threading.main_thread() and callable(previous))
    if not ctrl_c.watched:
        yield ctrl_c
        return

    def interrupted(signum, frame) -> None:
        ctrl_c.came = True
        previous(signum, frame)

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield ctrl_c
    finally:
        signal.signal(signal.SIGINT, previous)


def _decide(prop: Property, timeout: float, out: Path, asked: list[z3.Solver]) -> tuple[str, dict]:
    context = z3.Context()
    editions = tuple(in_force(rules) for rules in prop.editions)
    combats = [
        SymbolicCombat(prop.bounds, context, "" if n == 0 else f"c{n}.", editions)
        for n in range(prop.combats)
    ]
    claim = _claim(prop.function(*combats), context)
    solver = _seeded(z3.Solver(ctx=context), timeout)
    for combat in combats:
        terms.assert_all(solver, [as_formula(f, context) for f in combat.well_formed()])
    solver.add(claim.assume)
    for combat in combats:  # every assignment the property names is one of amounts in range
        terms.assert_all(solver, [f for x in combat.assignments for f in x.domain()])
    asked.append(solver)

    # Asked between push and pop, which turns Z3 to its incremental solver for good: the
    # query is taken in once for this check, the next and the search for the smallest
    # counterexample, where otherwise each check without assumptions would preprocess all
    # of it again (the library at 3x3x2, 34 to 21 s CPU). Popped at once, so that the
    # negated claim is asserted at the base level: asserted inside a scope, a claim with
    # quantifiers takes Z3 several times longer to shrink.
    solver.push()
    assumptions = solver.check()
    solver.pop()
    if assumptions == z3.unsat:
        return VACUOUS, {"reason": "its assumptions can never hold within the bounds"}
    if assumptions != z3.sat:
        return UNKNOWN, {"reason": _unknown(solver, prop, out)}
    proved_apart = claim.apart and _each_conjunct_holds(solver, claim.conclude)
    solver.add(z3.Not(claim.conclude))  # the query as a whole, for cvc5 to certify too
    if proved_apart:
        answer, found = z3.unsat, None
    elif prop.expected == "holds" and any(c.witnessed for c in combats):
        answer, found = _with_equations_solved(solver, timeout)
    else:
        answer, found = solver.check(), solver
    if answer == z3.unsat:
        return PROVED, {"certified_by": (Z3,)}
    if answer != z3.sat:
        return UNKNOWN, {"reason": _unknown(found, prop, out)}
    model, caveat = smallest(solver, combats, found.model())
    scenarios = [counterexample.scenario(combat, model) for combat in combats]
    verdict, problem = _recheck(prop, scenarios)
    if verdict == MISMATCH and any(c.witnessed for c in combats):
        # The witness may be what failed, not the model: some other legal assignment has
        # what the property asks (the concrete side tries them all).
        verdict, problem = ERROR, f"{problem} (the property's witness may be what fails)"
    if verdict == ERROR and problem.startswith(UNEVALUATED):
        # Kept, so that whoever fixes the property sees the combat it could not speak of.
        files = counterexample.write(prop, scenarios, out)
        table = counterexample.table(scenarios)
        details = {"counterexamples": files, "table": table, "fault": THE_PROPERTY}
        return ERROR, {**details, "reason": f"the counterexample did not re-check: {problem}"}
    if problem:
        # A claim broken on the symbolic side and not on the concrete one: the two sides of
        # lethal disagree; either way not a refutation.
        return verdict, {"reason": f"the counterexample did not re-check: {problem}"}
    files = counterexample.write(prop, scenarios, out)
    table = counterexample.table(scenarios)
    return REFUTED, {"counterexamples": files, "table": table, "reason": caveat}


def _with_equations_solved(
    solver: z3.Solver, timeout: float
) -> tuple[z3.CheckSatResult, z3.Solver]:
    """The query asked afresh of a solver that first solves its equations, and that solver.

    A witness is an assignment written in terms of the property's others, whose legality
    Z3 must then follow through every rule; with the equations among their amounts (each
    creature's adding up to its power, one combat's facts equal to another's) solved
    first, the heaviest of those proofs take half the time. Only for claims declared to
    hold: the others would pay for taking the query in again, and one declared to fail is
    shown satisfiable as fast by the solver in hand, which shrinks its counterexample next
    (docs/speed.md).

    Its SMT core uses Z3's older arithmetic solver (`arith.solver` 2): on these queries,
    integers bounded and mostly equal to sums of others, the witnessed claims of the
    library take 0.57 s in all against 0.78 s with the default one, each of them faster."""
    context = solver.ctx
    smt = z3.With(z3.Tactic("smt", context), **{"arith.solver": 2})
    tactic = z3.Then(z3.Tactic("simplify", context), z3.Tactic("solve-eqs", context), smt)
    fresh = _seeded(tactic.solver(), timeout)
    terms.assert_copy(fresh, solver)
    return fresh.check(), fresh


def _seeded(solver: z3.Solver, timeout: float) -> z3.Solver:
    """The solver with the run's fixed seed, and a limit of `timeout` seconds or what is left
    of the property's time, if less (what building the query left of it)."""
    solver.set("random_seed", SEED)
    left = remaining()
    seconds = timeout if left is None else min(timeout, left)
    solver.set("timeout", max(1, round(seconds * 1000)))  # 0 would mean no limit at all
    return solver


def _each_conjunct_holds(solver: z3.Solver, conclude: z3.BoolRef) -> bool:
    """Each conjunct of the conclusion is proved on its own, its negation asked between push
    and pop. False as soon as one is not proved (refuted, or undecided): the whole claim is
    then asked, as without `apart`, and its counterexample shrunk."""
    for conjunct in conclude.children() if z3.is_and(conclude) else [conclude]:
        solver.push()
        solver.add(z3.Not(conjunct))
        answer = solver.check()
        solver.pop()
        if answer != z3.unsat:
            return False
    return True


def _claim(returned: object, context: z3.Context) -> Claim:
    """What the property returned, as a Claim of formulas of `context`. Anything else is the
    property's mistake, said with the value rather than left to fail deep inside Z3."""
    if not isinstance(returned, Claim):
        problem = _not_a_formula(returned, context)
        if problem:
            raise PropertyError(f"it returned {problem}; expected a Claim, a formula or a bool")
        return Claim(z3.BoolVal(True, context), as_formula(returned, context))
    for part in ("assume", "conclude"):
        problem = _not_a_formula(getattr(returned, part), context)
        if problem:
            raise PropertyError(f"its Claim's {part} is {problem}; expected a formula or a bool")
    assume, conclude = (as_formula(part, context) for part in (returned.assume, returned.conclude))
    return Claim(assume, conclude, returned.apart)


def _not_a_formula(value: object, context: z3.Context) -> str:
    """What is wrong with `value` as a truth value of `context`, or "" if nothing is."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, z3.ExprRef):
        if not z3.is_bool(value):
            return f"a term of sort {value.sort()} ({_shown(value)}), not a truth value"
        if value.ctx is not context:  # the identity Z3 itself checks before mixing terms
            return "a formula made outside the combat's Z3 context; build it from the combat"
        return ""
    if value is None:
        return "None (a property returns its claim)"
    kind = type(value).__name__
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} ({_shown(value)})"


def _shown(value: object) -> str:
    text = repr(value) if not isinstance(value, z3.ExprRef) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def declared_at(prop: Property) -> str:
    """Where the property is declared: its file and line."""
    return f"{prop.source}:{prop.line}" if prop.source else prop.name


def _line_in(error: BaseException, prop: Property) -> str:
    """The last line of the property's file the exception came through, or ""."""
    place = ""
    for frame in traceback.extract_tb(error.__traceback__):
        if prop.source and frame.filename == prop.source:
            place = f"{frame.filename}:{frame.lineno}"
    return place


def _raised(error: BaseException, prop: Property, otherwise: str = "") -> str:
    """The exception, and the line of the property's file it came through (or `otherwise`)."""
    place = _line_in(error, prop) or otherwise
    said = f": {error}" if str(error) else ""  # MemoryError and SystemExit may say nothing
    return f"raised {type(error).__name__}{said}" + (f" ({place})" if place else "")


def _failed(error: BaseException, prop: Property) -> dict:
    """The reason of the error `error` gives the property, and whose fault it is. What the
    property's own code raised, or what it made lethal raise, is the property's; so is an
    exit, or running out of memory or stack on its claim. What came of lethal alone is a bug."""
    place = _line_in(error, prop)
    if isinstance(error, SystemExit):
        reason = (
            f"it tried to end the run: {_raised(error, prop, declared_at(prop))}; a property "
            "returns its claim, and the run goes on"
        )
        return {"reason": reason, "fault": THE_PROPERTY}
    if isinstance(error, z3.Z3Exception) and CAST in str(error):
        reason = (
            "Python's and, or, not or if was asked to decide a formula "
            f"({place or declared_at(prop)}), which only the solver can: write all_of, "
            f"any_of, negate, implies or ite (from lethal.proving) instead (Z3: {CAST})"
        )
        return {"reason": reason, "fault": THE_PROPERTY}
    if place or isinstance(error, (MemoryError, RecursionError)):
        return {"reason": _raised(error, prop), "fault": THE_PROPERTY}
    reason = f"internal error: {type(error).__name__}: {error} (a bug in lethal, not a verdict)"
    return {"reason": reason, "fault": LETHAL}


def _timed_out(
    error: TimedOut, prop: Property, timeout: float, asked: list[z3.Solver], out: Path
) -> str:
    """Where the time ran out: in the property's own code, or with the query it was solving
    saved, as an unknown answer of the solver's is."""
    place = _line_in(error, prop)
    reason = f"did not finish within --timeout {timeout:g} s"
    if place:
        return f"{reason} (stopped at {place})"
    if asked:
        path = _save(out, f"{prop.name}.smt2", asked[0].to_smt2())
        return f"{reason}; the query it was solving is in {path}"
    return reason


def _save(out: Path, name: str, text: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(text)
    return path


def _unknown(solver: z3.Solver, prop: Property, out: Path) -> str:
    path = _save(out, f"{prop.name}.smt2", solver.to_smt2())
    return f"Z3: {solver.reason_unknown()}; the query is in {path}"


def _certified(solver: z3.Solver, prop: Property, timeout: float, out: Path) -> tuple[str, dict]:
    """Z3 found the negated claim unsatisfiable; the proof stands if cvc5, reading the same
    query as exported, does too. If cvc5 finds it satisfiable, one of them is wrong: both
    queries are kept. If cvc5 cannot say, the proof is not certified, and that is no pass."""
    query = certification.export(solver)
    answer = certification.ask_cvc5(query, f"{prop.name}.smt2", timeout)
    if answer.verdict == certification.UNSAT:
        return PROVED, {"certified_by": (Z3, CVC5)}
    read = _save(out, f"{prop.name}.cvc5.smt2", query)
    if answer.verdict == certification.SAT:
        own = _save(out, f"{prop.name}.z3.smt2", certification.z3_query(solver))
        reason = (
            "the solvers disagree: Z3 finds the negated claim unsatisfiable (proved), cvc5 "
            f"finds it satisfiable; Z3's query is in {own}, the query cvc5 read is in {read}"
        )
        return ERROR, {"certified_by": (Z3,), "reason": reason}
    reason = (
        f"certification undecided: Z3 proved it, but cvc5 {answer.reason}; the query is in {read}"
    )
    return UNKNOWN, {"certified_by": (Z3,), "reason": reason}


def smallest(
    solver: z3.Solver, combats: list[SymbolicCombat], model: z3.ModelRef
) -> tuple[z3.ModelRef, str]:
    """The counterexample with the fewest creatures, then the fewest keywords and other
    flags, then the plainest step, then the smallest numbers: each measure found by a binary
    search between what is known impossible and the model in hand, then pinned. When the
    solver cannot decide whether a smaller one exists, the smallest found so far is kept,
    with a caveat saying so. `model` is the counterexample found, a model of the solver's
    assertions."""
    asked = 0
    for measure in measures(combats):
        least, best = 0, measure.value(model)
        while least < best:
            middle = (least + best - 1) // 2
            # Asked under an assumption rather than between push and pop, so that what Z3
            # learns on one question stays for the next: an unsat bound costs it once.
            asked += 1
            bound = z3.Bool(f"smaller {asked}", solver.ctx)
            solver.add(z3.Implies(bound, measure.at_most(middle)))
            answer = solver.check(bound)
            if answer == z3.sat:
                model = solver.model()
                best = measure.value(model)
            elif answer == z3.unsat:
                least = middle + 1
            else:
                return model, _not_smallest(solver.reason_unknown())
        # The model in hand meets the pin and every earlier one: it is the answer so far.
        solver.add(measure.exactly(best))
    return model, ""


def _not_smallest(why: str) -> str:
    return (
        "not necessarily the smallest counterexample: Z3 could not decide whether a smaller "
        f"one exists ({why})"
    )


@dataclass(frozen=True)
class Measure:
    """One measure of a counterexample's size: a whole number in each model."""

    term: z3.ArithRef
    # When the measure counts flags: the flags. Bounds on a count are then asked as
    # pseudo-Boolean constraints, which Z3 decides several times faster than the same bound
    # on a sum of 0s and 1s (the library's shrinking, 3.5x).
    flags: tuple[z3.BoolRef, ...] = ()

    def value(self, model: z3.ModelRef) -> int:
        return terms.value_in(model, self.term)

    # The bounds are the formulas z3.AtMost, PbEq and the operators make, made as
    # `solver.terms` makes them: z3py's spend most of their time coercing each of the
    # hundreds of flags, at every step of the search.
    def at_most(self, n: int) -> z3.BoolRef:
        return terms.at_most_of(self.flags, n) if self.flags else self.term <= n

    def exactly(self, n: int) -> z3.BoolRef:
        return terms.exactly_of(self.flags, n) if self.flags else self.term == n


def _sum(summed: list, context: z3.Context) -> z3.ArithRef:
    """z3.Sum(summed + [z3.IntVal(0, context)])."""
    return terms.sum_of([*summed, terms.numeral(0, context)])


def _magnitude(v: z3.ArithRef) -> z3.ArithRef:
    return terms.if_then_else(v >= 0, v, -v)


def _count(flags: list[z3.BoolRef], context: z3.Context) -> Measure:
    one, zero = terms.numeral(1, context), terms.numeral(0, context)
    return Measure(_sum([terms.if_then_else(f, one, zero) for f in flags], context), tuple(flags))


def measures(combats: list[SymbolicCombat]) -> list[Measure]:
    """What "smallest" means, measure by measure: the fewest slots present, then the fewest
    keywords and other flags, then the plainest step, then the smallest numbers."""
    context = combats[0].context
    size = _count([p for c in combats for p in c.present.values()], context)
    flags = _count(
        [
            v
            for c in combats
            for k, v in c.unknowns.items()
            if z3.is_bool(v) and not k.endswith(".present")
        ],
        context,
    )
    steps = Measure(z3.Sum([c.step for c in combats]))
    # Not the order positions: each creature's are a permutation, whose sum never changes,
    # and asking Z3 to lower it would only make it prove the pigeonhole principle.
    numbers = Measure(
        _sum(
            [
                _magnitude(v)
                for c in combats
                for k, v in c.unknowns.items()
                if z3.is_int(v) and ".order " not in k
            ]
            + [_magnitude(v) for c in combats for v in c.integers.values()]
            + [v for c in combats for x in c.assignments for v in x.variables.values()],
            context,
        )
    )
    return [size, flags, steps, numbers]


# The property, asked of its counterexample read back as a scenario, gave no answer.
UNEVALUATED = "on the concrete scenario the property"


def _absent(error: Exception, combats: list[ConcreteCombat]) -> str:
    """A hint when the property asked a plain combat about a slot the counterexample lacks."""
    named = error.args[0] if isinstance(error, KeyError) and error.args else None
    if any(named in c.slots.creatures and not c.present[named] for c in combats):
        return f"; {named} is absent from the counterexample, and cannot be asked that there"
    return ""


def _recheck(prop: Property, scenarios: list[dict]) -> tuple[str, str]:
    """Reads each counterexample back as a file and evaluates the claim on it with plain
    values: it must be well formed, meet the assumptions and break the conclusion. What went
    wrong, if anything: a mismatch of the two sides, or the property's own error."""
    combats = []
    for data in scenarios:
        file, judged_by = counterexample.replayable(data)
        try:
            scenario = parse(file, prop.name, warn=False)
            for other in data["_under"].values():
                parse(other, prop.name, warn=False)
        except ScenarioError as error:
            return MISMATCH, f"it does not read as a scenario: {error}"
        combat = ConcreteCombat(
            scenario,
            data["_assignments"],
            data["_integers"],
            prop.bounds,
            tuple(in_force(rules) for rules in prop.editions),
        )
        combats.append(combat if judged_by is None else combat.under(judged_by))
        others = list(data["_under"].values())
        files = [counterexample.public(data), *others]
        if "assignment" in data and not any(
            check(parse(f, prop.name, warn=False)).legal for f in files
        ):
            # The claim is broken elsewhere (say, nothing reaches a value); an assignment
            # illegal under every edition would only mislead whoever replays it.
            for f in [data, *others]:
                del f["assignment"]
    try:
        claim = prop.function(*combats)
    except TimedOut:
        raise
    except Exception as error:  # the property's own code, on plain values
        return ERROR, f"{UNEVALUATED} {_raised(error, prop)}{_absent(error, combats)}"
    if not isinstance(claim, Claim):
        claim = Claim(True, claim)
    for part in ("assume", "conclude"):
        value = getattr(claim, part)
        if not isinstance(value, bool):
            return ERROR, f"{UNEVALUATED} gave {_shown(value)} as its {part}, not True or False"
    if claim.assume is not True:
        return MISMATCH, "its assumptions do not hold on the concrete scenario"
    if claim.conclude is not False:
        return MISMATCH, "its conclusion holds on the concrete scenario"
    return REFUTED, ""


def symbolic_combat_answers_as_lethal_check_does() -> Result:
    """Pinned to each bundled example, the symbolic combat answers every question the rules
    ask, and legal(x), as lethal check does."""
    start = time.perf_counter()
    paths = bundled_examples()
    fitted, found = agreement.on_examples(paths)
    check = Property(
        name=symbolic_combat_answers_as_lethal_check_does.__name__,
        statement=" ".join(symbolic_combat_answers_as_lethal_check_does.__doc__.split()),
        cites=(),
        expected="agrees",
        bounds=agreement.BOUNDS,
        function=symbolic_combat_answers_as_lethal_check_does,
    )
    shown = "; ".join(f"{name}: {lines[0]}" for name, lines in found.items())
    reason = f"{fitted} of {len(paths)} bundled examples fit the symbolic combat"
    if found:
        reason += f"; it disagrees on {len(found)}: {shown}"
    verdict = MISMATCH if found or not fitted else AGREES
    return Result(check, verdict, time.perf_counter() - start, reason=reason)
