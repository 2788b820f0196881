"""Proving properties of the rules over every combat within bounds, and refuting claims with
the smallest counterexample, re-checked on the concrete path before it is reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import z3

from ..check import check
from ..errors import ScenarioError
from ..proving import Claim, Property
from ..reading import parse
from . import counterexample
from .encoding import SEED
from .replay import ConcreteCombat
from .symbolic import SymbolicCombat, as_formula

PROVED, REFUTED, UNKNOWN, VACUOUS = "proved", "refuted", "unknown", "vacuous"


@dataclass(frozen=True)
class Result:
    property: Property
    verdict: str
    seconds: float
    counterexamples: tuple[str, ...] = ()  # scenario files, one per combat
    table: str = ""  # the counterexample, readable
    reason: str = ""  # for unknown and vacuous: why; for a failed re-check: what

    @property
    def as_expected(self) -> bool:
        return self.verdict == (PROVED if self.property.expected == "holds" else REFUTED)


def prove(prop: Property, timeout: float, out: Path) -> Result:
    start = time.perf_counter()
    context = z3.Context()
    combats = [
        SymbolicCombat(prop.bounds, context, "" if n == 0 else f"c{n}.")
        for n in range(prop.combats)
    ]
    claim = prop.function(*combats)
    if not isinstance(claim, Claim):
        claim = Claim(True, claim)
    solver = z3.Solver(ctx=context)
    solver.set("random_seed", SEED)
    solver.set("timeout", int(timeout * 1000))
    for combat in combats:
        solver.add([as_formula(f, context) for f in combat.well_formed()])
    solver.add(as_formula(claim.assume, context))
    for combat in combats:  # every assignment the property names is one of amounts in range
        solver.add([f for x in combat.assignments for f in x.domain()])

    def done(verdict, **details) -> Result:
        return Result(prop, verdict, time.perf_counter() - start, **details)

    assumptions = solver.check()
    if assumptions == z3.unsat:
        return done(VACUOUS, reason="its assumptions can never hold within the bounds")
    if assumptions == z3.unknown:
        return done(UNKNOWN, reason=_unknown(solver, prop, out))
    solver.add(z3.Not(as_formula(claim.conclude, context)))
    answer = solver.check()
    if answer == z3.unsat:
        return done(PROVED)
    if answer == z3.unknown:
        return done(UNKNOWN, reason=_unknown(solver, prop, out))
    model = _smallest(solver, combats)
    scenarios = [counterexample.scenario(combat, model) for combat in combats]
    problem = _recheck(prop, scenarios)
    if problem:
        return done(UNKNOWN, reason=f"the counterexample did not re-check: {problem}")
    files = counterexample.write(prop, scenarios, out)
    return done(REFUTED, counterexamples=files, table=counterexample.table(scenarios))


def _unknown(solver: z3.Solver, prop: Property, out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{prop.name}.smt2"
    path.write_text(solver.to_smt2())
    return f"Z3: {solver.reason_unknown()}; the query is in {path}"


def _smallest(solver: z3.Solver, combats: list[SymbolicCombat]) -> z3.ModelRef:
    """The counterexample with the fewest creatures, then the fewest keywords and other
    flags, then the plainest step, then the smallest numbers: each measure lowered while the
    solver still finds one."""
    context = combats[0].context
    size = z3.Sum([z3.If(p, 1, 0) for c in combats for p in c.present.values()])
    flags = z3.Sum(
        [
            z3.If(v, 1, 0)
            for c in combats
            for k, v in c.unknowns.items()
            if z3.is_bool(v) and not k.endswith(".present")
        ]
        + [z3.IntVal(0, context)]
    )
    steps = z3.Sum([c.step for c in combats])
    numbers = z3.Sum(
        [z3.If(v >= 0, v, -v) for c in combats for v in c.unknowns.values() if z3.is_int(v)]
        + [z3.If(v >= 0, v, -v) for c in combats for v in c.integers.values()]
        + [v for c in combats for x in c.assignments for v in x.variables.values()]
        + [z3.IntVal(0, context)]
    )
    model = solver.model()
    for measure in (size, flags, steps, numbers):
        best = model.eval(measure, model_completion=True).as_long()
        while best > 0:
            solver.push()
            solver.add(measure < best)
            if solver.check() != z3.sat:
                solver.pop()
                break
            model = solver.model()
            best = model.eval(measure, model_completion=True).as_long()
            solver.pop()
        solver.add(measure == best)
        solver.check()
        model = solver.model()
    return model


def _recheck(prop: Property, scenarios: list[dict]) -> str:
    """Reads each counterexample back as a file and evaluates the claim on it with plain
    values: it must be well formed, meet the assumptions and break the conclusion."""
    combats = []
    for data in scenarios:
        file = {k: v for k, v in data.items() if not k.startswith("_")}
        try:
            scenario = parse(file, prop.name)
        except ScenarioError as error:
            return f"it does not read as a scenario: {error}"
        combats.append(
            ConcreteCombat(scenario, data["_assignments"], data["_integers"], prop.bounds)
        )
        if "assignment" in data and not check(scenario).legal:
            # The claim is broken elsewhere (say, nothing reaches a value); an illegal
            # assignment in the file would only mislead whoever replays it.
            del data["assignment"]
    claim = prop.function(*combats)
    if not isinstance(claim, Claim):
        claim = Claim(True, claim)
    if claim.assume is not True:
        return "its assumptions do not hold on the concrete scenario"
    if claim.conclude is not False:
        return "its conclusion holds on the concrete scenario"
    return ""
