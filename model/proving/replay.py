"""A counterexample read back as a scenario, offering what a property asks of a combat with
plain values: the concrete path on which every counterexample is re-checked."""

from __future__ import annotations

import copy
import functools
from dataclasses import replace

import z3

from .. import rules
from ..amounts import Amounts
from ..combat import Scenario
from ..editions import Edition
from ..ops import Term, all_of, any_of
from ..rules import division
from ..solver.counting import count
from ..view import ScenarioView
from . import Bounds, counterexample
from .symbolic import SymbolicCombat, dealt, effects_on


class ConcreteAssignment:
    def __init__(self, amounts: Amounts):
        self.amounts = amounts


class ConcreteCombat(ScenarioView):
    def __init__(
        self,
        scenario: Scenario,
        assignments: list[list[dict]],
        integers: dict,
        bounds: Bounds,
        editions: tuple[Edition, ...] = (),
    ):
        super().__init__(scenario)
        self.bounds = bounds
        # For the names of the unknowns, those of the orders included.
        self.slots = _slots(bounds, editions or (scenario.edition,))
        self.editions = self.slots.editions
        # The same slots and players as the symbolic combat, those the file leaves out
        # answering as absent, so that a property ranges over the same things on both sides.
        self.attackers = self.slots.attackers
        self.blockers = self.slots.blockers
        self.planeswalkers = self.slots.planeswalkers
        self.creatures = self.slots.creatures
        self.players = self.slots.players
        self.recipients = self.slots.recipients
        self.defenders = self.slots.defenders
        self.defender = self.slots.defender
        self._given = [
            ConcreteAssignment(Amounts({(e["source"], e["to"]): e["amount"] for e in entries}))
            for entries in assignments
        ]
        self._next = [0]  # shared with the combat judged by another edition
        self._integers = integers
        self._bands = [set(band) for band in scenario.bands]
        self.unknowns = counterexample.unknowns(scenario, self.slots)

    def under(self, rules: str) -> ConcreteCombat:
        """The same scenario, judged by the rules in force on that date."""
        judged = copy.copy(self)
        judged.scenario = replace(self.scenario, rules=rules)
        judged.edition = judged.scenario.edition
        return judged

    def assignment(self) -> ConcreteAssignment:
        """The assignments the counterexample names, in the order the property asks for them."""
        made = self._given[self._next[0]]
        self._next[0] += 1
        return made

    def integer(self, name: str) -> int:
        """The value the counterexample gives the property's integer of that name."""
        return self._integers[name]

    def legal(self, x: ConcreteAssignment) -> Term:
        amounts_ok = all(x.amounts.get(*pair) >= 0 for pair in x.amounts.pairs())
        return all_of([amounts_ok, *(c.holds for c in rules.constraints(self, x.amounts))])

    def some(self, body, witness=None) -> Term:
        """Some legal assignment has body: every legal assignment is listed and tried (a
        witness is only a shortcut for the symbolic side)."""
        every = count(replace(self.scenario, assignment=None), list_limit=10**9)
        return any_of(
            body(Amounts({(e.source, e.to): e.amount for e in entries}))
            for entries in every.assignments
        )

    def doubled(self, c: str) -> bool:
        return bool(self.unknowns[f"{c}.doubled"])

    def shield(self, r: str) -> int:
        return int(self.unknowns[f"{r}.shield"])

    def prevent_all(self, r: str) -> bool:
        return bool(self.unknowns[f"{r}.prevent all"])

    def cant_be_prevented(self, c: str) -> bool:
        return bool(self.unknowns[f"{c}.cant be prevented"])

    def effects_on(self, s: str, r: str) -> list:
        return effects_on(self, s, r)

    def dealt(self, s: str, r: str, amount: int) -> int:
        return dealt(self, s, r, amount)

    def protection_qualities(self, x: str) -> tuple[str, ...]:
        return ScenarioView.protection_qualities(self, x) if self._there(x) else ()

    def _there(self, x: str) -> bool:
        return x in self._permanents or x in self._players

    def banded(self, x: str, y: str) -> bool:
        return any(x in band and y in band for band in self._bands)

    def assigns(self, c: str) -> Term:
        return division.assigns_combat_damage(self, c)

    @property
    def present(self) -> dict[str, bool]:
        return {c: bool(self.unknowns[f"{c}.present"]) for c in self.slots.creatures}

    def agrees_with(self, other: ConcreteCombat, *, but: tuple[str, ...] = ()) -> bool:
        """The two scenarios are the same but for the facts named in `but`."""
        same = all(v == other.unknowns[k] for k, v in self.unknowns.items() if k not in but)
        return same and self.scenario.step == other.scenario.step


@functools.lru_cache(maxsize=16)
def _slots(bounds: Bounds, editions: tuple[Edition, ...]) -> SymbolicCombat:
    """A symbolic combat of those bounds and editions, asked only for its slots' and
    unknowns' names, never changed: made once rather than for each counterexample, in a
    context of its own."""
    return SymbolicCombat(bounds, z3.Context(), editions=editions)


def _absent_or(name: str, plain):
    """A slot or player the scenario leaves out answers as the symbolic combat's absent
    ones do; so does a slot there but not a creature, asked for a creature's number."""
    asks = getattr(ScenarioView, name)

    def answer(self, x: str, *rest):
        # Only protection is asked of players as of permanents.
        if name in ("has", "protection_from"):
            there = self._there(x)
        elif name in _OF_CREATURES:
            there = self.is_creature(x)
        else:
            there = x in self._permanents
        return asks(self, x, *rest) if there else plain

    answer.__name__ = name
    return answer


# The numbers a non-creature slot has, plain in the symbolic combat's well-formedness.
_OF_CREATURES = ("power", "toughness", "marked", "toxic", "regeneration_shields")
# Properties may ask about every slot of the bounds, present or not.
for _name, _plain in (
    ("power", 0),
    ("toughness", 1),
    ("marked", 0),
    ("loyalty", 1),
    ("has", False),
    ("toxic", 0),
    ("regeneration_shields", 0),
    ("has_type", False),
    ("has_quality", False),
    ("bands_with_other", False),
    ("protection_from", False),
    ("attacks", False),
    ("is_attacking", False),
    ("is_blocked", False),
    ("is_blocking", False),
    ("struck_first", False),
):
    setattr(ConcreteCombat, _name, _absent_or(_name, _plain))
