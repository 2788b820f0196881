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
    def __init__(self, scenario: Scenario, assignments: list[list[dict]], integers: dict):
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
        self._integers = integers
        self._bands = [set(band) for band in scenario.bands]

    def assignment(self) -> ConcreteAssignment:
        """The assignments the counterexample names, in the order the property asks for them."""
        made = self._given[self._next]
        self._next += 1
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

    def is_battle(self, x: str) -> bool:
        return any(p.id == x and p.is_battle for p in self.scenario.permanents)

    def doubled(self, c: str) -> bool:
        return any(e.kind == "double" and e.sources == {c} for e in self.scenario.effects)

    def protected(self, c: str) -> bool:
        from .symbolic import QUALITY

        return QUALITY in self._permanents[c].keywords.protection_from

    def shield(self, r: str) -> int:
        return sum(e.amount for e in self.scenario.effects if e.kind == "prevent" and e.to == r)

    def banded(self, x: str, y: str) -> bool:
        return any(x in band and y in band for band in self._bands)

    def assigns(self, c: str) -> Term:
        return division.assigns_combat_damage(self, c)

    @property
    def present(self) -> _Present:
        return _Present(p.id for p in self.scenario.permanents)

    @property
    def unknowns(self) -> dict:
        return _facts(self, [p.id for p in self.scenario.permanents])

    def agrees_with(self, other: ConcreteCombat, *, but: tuple[str, ...] = ()) -> bool:
        """The two scenarios are the same but for the facts named in `but`."""
        slots = sorted({p.id for c in (self, other) for p in c.scenario.permanents})
        mine, theirs = _facts(self, slots), _facts(other, slots)
        same = all(mine[k] == theirs[k] for k in mine if k not in but)
        return same and self.scenario.step == other.scenario.step


class _Present:
    def __init__(self, ids):
        self._ids = set(ids)

    def __getitem__(self, slot: str) -> bool:
        return slot in self._ids


def _facts(combat: ConcreteCombat, slots) -> dict:
    """What `SymbolicCombat.unknowns` names, with this scenario's values; an absent slot has
    the plain values the symbolic combat gives absent slots."""
    from .symbolic import KEYWORDS, QUALITY

    facts = {}
    ids = {p.id: p for p in combat.scenario.permanents}
    targets = ["D", *(s for s in slots if s.startswith("p"))]
    for slot in slots:
        p = ids.get(slot)
        facts[f"{slot}.present"] = p is not None
        creature = p is not None and p.is_creature
        facts[f"{slot}.power"] = p.power if creature else 0
        facts[f"{slot}.toughness"] = p.toughness if creature else 1
        facts[f"{slot}.damage"] = p.damage if creature else 0
        for k in KEYWORDS:
            facts[f"{slot}.{k}"] = creature and k in p.keywords
        facts[f"{slot}.quality"] = creature and combat.has_quality(slot, QUALITY)
        facts[f"{slot}.bands with other"] = creature and combat.bands_with_other(slot, QUALITY)
        facts[f"{slot}.struck first"] = p is not None and p.struck_first
        facts[f"{slot}.doubled"] = p is not None and combat.doubled(slot)
        facts[f"{slot}.protection"] = creature and combat.protected(slot)
        facts[f"{slot}.shield"] = combat.shield(slot)
        if slot.startswith("p"):
            facts[f"{slot}.creature"] = creature
            facts[f"{slot}.battle"] = p is not None and p.is_battle
            facts[f"{slot}.loyalty"] = (p.defense if p.is_battle else p.loyalty) if p else 1
            facts[f"{slot}.removed"] = p is not None and p.removed_from_combat
            facts[f"{slot}.blocking"] = p is not None and p.blocking is not None
        if slot.startswith("a"):
            for t in targets:
                facts[f"{slot}.attacks {t}"] = p is not None and p.attacking == t
            facts[f"{slot}.blocked"] = p is not None and p.blocked
            for other in slots:
                if other.startswith("a") and other != slot:
                    facts[f"{slot}.banded with {other}"] = combat.banded(slot, other)
        if slot.startswith(("b", "p")):
            for a in (s for s in slots if s.startswith("a")):
                facts[f"{slot}.blocks {a}"] = combat.blocks(slot, a)
    return facts
