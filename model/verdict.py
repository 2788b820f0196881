"""The legality check: is a proposed assignment of the step legal, and if not, why.

It evaluates the rules' constraints on the assignment's plain numbers, the same constraints
the solver reasons with, so no solver call is needed and every broken rule is named.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import factorial
from typing import NamedTuple

from . import rules
from .amounts import Amounts
from .combat import Entry, Scenario
from .editions import Edition
from .errors import Problem, ScenarioError
from .rules import banding, division, order, unblocked
from .view import ScenarioView


@dataclass(frozen=True)
class Violation:
    """A rule the assignment breaks, for one creature's combat damage."""

    rule: str  # the CR subrule broken
    source: str  # the creature whose assignment breaks it
    message: str  # one line, in the scenario's ids and numbers


# A named tuple, not a frozen dataclass: a check makes one for each creature, and a tuple
# is made several times faster.
class Chooser(NamedTuple):
    source: str  # a creature that assigns combat damage this step
    player: str  # who chooses how its damage is divided
    rule: str  # why that player: 510.1, or 702.22j-k for banding
    # That player also chooses whether it assigns as though it weren't blocked (Thorn
    # Elemental; the Rhox ruling of 2018-04-27 gives banding's chooser that choice).
    as_though_unblocked: bool = False


@dataclass(frozen=True)
class OrdersFound:
    """A damage assignment order the file leaves open, searched: CR 509.2-509.3."""

    source: str
    announcer: str  # who announces it: the active player (509.2) or the blocker's controller
    rule: str  # 509.2 or 509.3
    tried: int  # how many orders were tried
    legal: tuple[tuple[str, ...], ...]  # the orders under which its assignment is legal


@dataclass(frozen=True, eq=False)
class Verdict:
    """The judgement of a step's assignment: every rule it breaks (none: legal), who divides
    each creature's combat damage, and the orders searched for when the file gives none."""

    violations: tuple[Violation, ...]
    step: str
    edition: Edition
    # The combat as judged, for `choosers`: who divides is worked out only when asked, as
    # legality does not depend on it (a fifth of a large check's time).
    view: ScenarioView = field(repr=False)
    orders: tuple[OrdersFound, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.violations

    @cached_property
    def choosers(self) -> tuple[Chooser, ...]:
        """Who divides the damage of each creature that assigns combat damage this step."""
        return choosers(self.view)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Verdict) and self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def _compared(self) -> tuple:
        return (self.violations, self.choosers, self.step, self.edition, self.orders)


def check(scenario: Scenario, assignment: Iterable[Entry] | None = None) -> Verdict:
    """Judges the whole assignment of the step (CR 510.1e): the scenario's own, or `assignment`."""
    entries = scenario.assignment if assignment is None else tuple(assignment)
    if entries is None:
        raise ScenarioError(
            "<scenario>", [Problem("assignment", "missing: there is nothing to check")]
        )
    view = ScenarioView(scenario)
    edition = scenario.edition
    amounts = Amounts({(e.source, e.to): e.amount for e in entries})
    violations = []
    for constraint in rules.constraints(view, amounts):
        if not isinstance(constraint.holds, bool):  # plain amounts must give plain answers
            raise TypeError(f"constraint {constraint.rules} did not evaluate: {constraint.holds}")
        if not constraint.holds:
            rule, message = constraint.explain()
            violations.append(
                Violation(edition.cite(rule), constraint.source, edition.cite_in(message))
            )
    return Verdict(
        violations=tuple(violations),
        step=scenario.step,
        edition=edition,
        view=view,
        orders=tuple(_search(view, amounts, s) for s in order.open_orders(view)),
    )


def _search(view: ScenarioView, amounts: Amounts, s: str) -> OrdersFound:
    """Every order of s, and those under which the assignment is legal."""
    found = order.orders_that_work(view, amounts, s)
    rule = order.rule_of(view, s)[1]
    announcer = view.active_player if rule == "509.2" else view.controller(s)
    return OrdersFound(s, announcer, rule, factorial(len(order.candidates(view, s))), found)


def choosers(view: ScenarioView) -> tuple[Chooser, ...]:
    """Who divides the damage of each creature that assigns combat damage this step."""
    cited = _cited(view.edition)
    found = []
    for c in view.creatures:
        if division.assigns_combat_damage(view, c) is True:
            player, rule = banding.who_divides(view, c)
            found.append(Chooser(c, player, cited[rule], unblocked.may_choose(view, c) is True))
    return tuple(found)


@lru_cache(maxsize=64)
def _cited(edition: Edition) -> dict[str, str]:
    """The numbers of the choosers' rules in an edition: made once for every check by it,
    not for each creature (a check of a small combat would spend a tenth of its time here)."""
    choices = (banding.DEFAULT, banding.DEFENDER_DIVIDES, banding.ATTACKER_DIVIDES)
    return {rule: edition.cite(rule) for rule in choices}
