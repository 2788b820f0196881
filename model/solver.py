"""The one module that talks to Z3: the rules' constraints over integer unknowns.

The structure of the combat stays concrete; each (source, recipient) pair that may receive
damage gets an integer variable, and every constraint is tracked under its CR subrule so an
unsatisfiable query can name the rules that stand in its way.
"""

from __future__ import annotations

from collections.abc import Iterable

import z3

from . import rules
from .amounts import Amounts
from .combat import Entry, Scenario
from .errors import SolverUnknown
from .rules import division
from .rules.constraint import Constraint
from .view import ScenarioView

SEED = 0  # results must not depend on the run


class Encoding:
    """A scenario's step as Z3 constraints over the amounts of its assignment."""

    def __init__(self, scenario: Scenario, extra_pairs: Iterable[tuple[str, str]] = ()):
        view = ScenarioView(scenario)
        pairs = {
            (s, r): None
            for s in view.creatures
            for r in view.recipients
            if division.may_receive(view, s, r) is not False
        }
        pairs.update(dict.fromkeys(extra_pairs))
        self.variables = {pair: z3.Int(f"{pair[0]}->{pair[1]}") for pair in pairs}
        self.constraints: list[Constraint] = [
            c for c in rules.constraints(view, Amounts(self.variables)) if c.holds is not True
        ]

    def solver(self) -> z3.Solver:
        solver = z3.Solver()
        solver.set("random_seed", SEED)
        for variable in self.variables.values():
            solver.add(variable >= 0)  # damage is never negative: the domain, not a rule
        for i, constraint in enumerate(self.constraints):
            label = z3.Bool(f"{constraint.rules[0]} {constraint.source} #{i}")
            solver.assert_and_track(
                z3.BoolVal(constraint.holds)
                if isinstance(constraint.holds, bool)
                else constraint.holds,
                label,
            )
        return solver


def is_legal(scenario: Scenario, entries: Iterable[Entry]) -> bool:
    """Whether the solver finds the given assignment among the legal ones of the step."""
    entries = tuple(entries)
    given = {(e.source, e.to): e.amount for e in entries}
    encoding = Encoding(scenario, extra_pairs=given)
    solver = encoding.solver()
    for pair, variable in encoding.variables.items():
        solver.add(variable == given.get(pair, 0))
    return decide(solver)


def decide(solver: z3.Solver) -> bool:
    """sat or unsat; `unknown` raises, because it is neither."""
    answer = solver.check()
    if answer == z3.unknown:
        raise SolverUnknown(f"Z3 answered unknown: {solver.reason_unknown()}")
    return answer == z3.sat
