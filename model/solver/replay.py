"""A counterexample read back as a scenario, offering what a property asks of a combat with
plain values: the concrete path on which every counterexample is re-checked."""

from __future__ import annotations

from dataclasses import replace

from .. import rules
from ..amounts import Amounts
from ..combat import Scenario
from ..ops import Term, all_of, any_of
from ..rules import division
from ..view import ScenarioView
from .counting import count


class ConcreteAssignment:
    def __init__(self, amounts: Amounts):
        self.amounts = amounts


class ConcreteCombat(ScenarioView):
    def __init__(self, scenario: Scenario, assignments: list[list[dict]]):
        super().__init__(scenario)
        ids = [p.id for p in scenario.permanents]
        self.attackers = tuple(i for i in ids if self.is_attacking(i))
        self.blockers = tuple(i for i in ids if i.startswith("b"))
        self.planeswalkers = tuple(i for i in ids if i.startswith("p"))
        self.defender = "D"
        self._given = [
            ConcreteAssignment(Amounts({(e["source"], e["to"]): e["amount"] for e in entries}))
            for entries in assignments
        ]
        self._next = 0
        self._bands = [set(band) for band in scenario.bands]

    def assignment(self) -> ConcreteAssignment:
        """The assignments the counterexample names, in the order the property asks for them."""
        made = self._given[self._next]
        self._next += 1
        return made

    def legal(self, x: ConcreteAssignment) -> Term:
        amounts_ok = all(amount >= 0 for amount in x.amounts._amounts.values())
        return all_of([amounts_ok, *(c.holds for c in rules.constraints(self, x.amounts))])

    def some(self, body, witness=None) -> Term:
        """Some legal assignment has body: every legal assignment is listed and tried (a
        witness is only a shortcut for the symbolic side)."""
        every = count(replace(self.scenario, assignment=None), list_limit=10**9)
        return any_of(
            body(Amounts({(e.source, e.to): e.amount for e in entries}))
            for entries in every.assignments
        )

    def is_battle(self, x: str) -> bool:
        return any(p.id == x and p.is_battle for p in self.scenario.permanents)

    def banded(self, x: str, y: str) -> bool:
        return any(x in band and y in band for band in self._bands)

    def assigns(self, c: str) -> Term:
        return division.assigns_combat_damage(self, c)
