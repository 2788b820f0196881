"""A scenario's step as Z3 constraints over integer unknowns, one per (source, recipient)
pair that may receive damage.

The structure of the combat stays concrete. Every constraint can be tracked under a label,
so an unsatisfiable query names what stands in its way: rules, requirements, or amounts the
file gives.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable

import z3

from .. import rules
from ..amounts import Amounts
from ..answers import Obstacle
from ..combat import Entry, Scenario
from ..deadline import overdue, remaining
from ..errors import SolverUnknown
from ..rules import division
from ..rules.constraint import Constraint
from ..view import ScenarioView
from . import terms

SEED = 0  # results must not depend on the run
# Z3's reasons for an unknown when Ctrl-C reached it mid-query; the optimizer's own timeout
# ends it as "canceled" too.
INTERRUPTED, CANCELED = "interrupted from keyboard", "canceled"


class Encoding:
    def __init__(self, scenario: Scenario, extra_pairs: Iterable[tuple[str, str]] = ()):
        self.scenario = scenario
        self.view = view = ScenarioView(scenario)
        # A context of its own, so that no earlier query changes what Z3 answers this one:
        # the same file gives the same witness in any process.
        self.context = z3.Context()
        pairs = {
            (s, r): None
            for s in view.creatures
            for r in view.reachable(s)
            if division.may_receive(view, s, r) is not False
        }
        pairs.update(dict.fromkeys(extra_pairs))
        integer = z3.IntSort(self.context)
        self.variables = {pair: terms.constant(f"{pair[0]}->{pair[1]}", integer) for pair in pairs}
        self.amounts = Amounts(self.variables)
        self.constraints: list[Constraint] = [
            c for c in rules.constraints(view, self.amounts) if c.holds is not True
        ]

    def formula(self, holds) -> z3.BoolRef:
        """A constraint's or requirement's truth as a formula, even when it folded to a bool."""
        return z3.BoolVal(holds, self.context) if isinstance(holds, bool) else holds

    def integer(self, value) -> z3.ArithRef:
        return z3.IntVal(value, self.context) if isinstance(value, int) else value

    def solver(self) -> z3.Solver:
        solver = z3.Solver(ctx=self.context)
        solver.set("random_seed", SEED)
        return solver

    def optimizer(self) -> z3.Optimize:
        optimizer = z3.Optimize(ctx=self.context)
        optimizer.set("random_seed", SEED)
        return optimizer

    def tracked_solver(self, parts: Iterable[tuple[z3.BoolRef, Obstacle]]):
        """A solver asserting each part under a label; returns it and the labels' obstacles."""
        solver = self.solver()
        solver.set("core.minimize", True)
        labels = {}
        for i, (formula, obstacle) in enumerate(parts):
            label = z3.Bool(f"#{i} {obstacle.text}", self.context)
            labels[label] = obstacle
            solver.assert_and_track(formula, label)
        return solver, labels

    def domain(self, pairs: Iterable[tuple[str, str]] | None = None) -> list[z3.BoolRef]:
        """Damage is never negative: the domain of the unknowns (all, or those of the pairs
        given), not a rule."""
        if pairs is None:
            return [v >= 0 for v in self.variables.values()]
        return [self.variables[pair] >= 0 for pair in pairs]

    def rule_formulas(
        self, constraints: Iterable[Constraint] | None = None
    ) -> list[tuple[z3.BoolRef, Obstacle]]:
        """The rules' constraints (all, or those given, such as a part's) as formulas, each
        with the obstacle it is when it stands in the way."""
        edition = self.view.edition
        return [
            (
                self.formula(c.holds),
                Obstacle("rule", edition.cite(c.rules[0]), c.source, edition.cite_in(c.summary)),
            )
            for c in (self.constraints if constraints is None else constraints)
        ]

    def given(self, entries: Iterable[Entry]) -> list[tuple[z3.BoolRef, Obstacle]]:
        """Amounts the file fixes, as formulas."""
        return [
            (
                self.variables[(e.source, e.to)] == e.amount,
                Obstacle(
                    "given", None, e.source, f"the file gives {e.source}->{e.to} = {e.amount}"
                ),
            )
            for e in entries
        ]

    def entries(self, model: z3.ModelRef) -> tuple[Entry, ...]:
        """The assignment a model gives, in the scenario's order of creatures."""
        found = []
        for (source, to), variable in self.variables.items():
            amount = model.eval(variable, model_completion=True).as_long()
            if amount:
                found.append(Entry(source, to, amount))
        return tuple(found)


def decide(solver: z3.Solver | z3.Optimize) -> bool:
    """sat or unsat; `unknown` raises, because it is neither. A query runs in C, where no
    deadline can interrupt it, so it is given only the time the command has left."""
    left, ends = remaining(), None
    if left is not None:
        # Rounded up, never down: a query stopped by its timeout ends once the command's
        # time is up, not a millisecond before it, when it would read as something else.
        milliseconds = max(1, math.ceil(left * 1000))  # 0 would mean no limit at all
        solver.set("timeout", milliseconds)
        ends = time.monotonic() + milliseconds / 1000
    answer = solver.check()
    if answer == z3.unknown:
        why = solver.reason_unknown()
        # Ctrl-C, which Z3 catches while it solves: canceled before its time was up.
        canceled = why == CANCELED and (ends is None or time.monotonic() < ends)
        if why == INTERRUPTED or canceled:
            raise KeyboardInterrupt
        overdue()  # the command's time limit, which the query was given, is the reason
        raise SolverUnknown(f"Z3 answered unknown: {why}")
    return answer == z3.sat


def is_legal(scenario: Scenario, entries: Iterable[Entry]) -> bool:
    """Whether the solver finds the given assignment among the legal ones of the step."""
    given = {(e.source, e.to): e.amount for e in entries}
    encoding = Encoding(scenario, extra_pairs=given)
    solver = encoding.solver()
    terms.assert_all(solver, encoding.domain())
    terms.assert_all(solver, [formula for formula, _ in encoding.rule_formulas()])
    for pair, variable in encoding.variables.items():
        solver.add(variable == given.get(pair, 0))
    return decide(solver)
