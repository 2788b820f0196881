"""The legality check: is a proposed assignment of the step legal, and if not, why.

It evaluates the rules' constraints on the assignment's plain numbers, the same constraints
the solver reasons with, so no solver call is needed and every broken rule is named.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import rules, rulesets
from .amounts import Amounts
from .combat import Entry, Scenario
from .errors import Problem, ScenarioError
from .rules import banding, division
from .view import ScenarioView


@dataclass(frozen=True)
class Violation:
    rule: str  # the CR subrule broken
    source: str  # the creature whose assignment breaks it
    message: str  # one line, in the scenario's ids and numbers


@dataclass(frozen=True)
class Chooser:
    source: str  # a creature that assigns combat damage this step
    player: str  # who chooses how its damage is divided
    rule: str  # why that player: 510.1, or 702.22j-k for banding


@dataclass(frozen=True)
class Verdict:
    violations: tuple[Violation, ...]
    choosers: tuple[Chooser, ...]
    step: str
    ruleset: rulesets.Ruleset

    @property
    def legal(self) -> bool:
        return not self.violations


def check(scenario: Scenario, assignment: Iterable[Entry] | None = None) -> Verdict:
    """Judges the whole assignment of the step (CR 510.1e): the scenario's own, or `assignment`."""
    entries = scenario.assignment if assignment is None else tuple(assignment)
    if entries is None:
        raise ScenarioError(
            "<scenario>", [Problem("assignment", "missing: there is nothing to check")]
        )
    view = ScenarioView(scenario)
    amounts = Amounts({(e.source, e.to): e.amount for e in entries})
    violations = []
    for constraint in rules.constraints(view, amounts):
        if not isinstance(constraint.holds, bool):  # plain amounts must give plain answers
            raise TypeError(f"constraint {constraint.rules} did not evaluate: {constraint.holds}")
        if not constraint.holds:
            rule, message = constraint.explain()
            violations.append(Violation(rule, constraint.source, message))
    return Verdict(
        violations=tuple(violations),
        choosers=choosers(view),
        step=scenario.step,
        ruleset=rulesets.KNOWN[scenario.rules],
    )


def choosers(view: ScenarioView) -> tuple[Chooser, ...]:
    """Who divides the damage of each creature that assigns combat damage this step."""
    return tuple(
        Chooser(c, *banding.who_divides(view, c))
        for c in view.creatures
        if division.assigns_combat_damage(view, c) is True
    )
