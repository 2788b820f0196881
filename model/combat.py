"""A combat at the moment one combat damage step assigns its damage, as plain values.

This is the domain: it knows nothing of files or of the solver. Values here were validated
when they were read (see `reading.py`), so the rules can trust them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .editions import CURRENT_NAME, Edition, in_force
from .keywords import DOUBLE_STRIKE, FIRST_STRIKE, Keywords

CREATURE = "creature"
PLANESWALKER = "planeswalker"
BATTLE = "battle"
PERMANENT_TYPES = (CREATURE, PLANESWALKER, BATTLE)

# The combat damage steps of CR 510.4: the only one, or the first-strike and the second.
ONLY = "only"
FIRST_STRIKE_STEP = "first-strike"
SECOND = "second"
STEPS = (ONLY, FIRST_STRIKE_STEP, SECOND)


@dataclass(frozen=True)
class Player:
    """A player: its life and poison counters, when the file gives them, and its protection."""

    id: str
    life: int | None = None
    poison: int = 0  # poison counters it has now (704.5c)
    keywords: Keywords = Keywords()  # protection only (702.16b, 702.16j)


@dataclass(frozen=True)
class Permanent:
    """A creature, planeswalker or battle on the battlefield, and its part in this combat."""

    id: str
    controller: str
    types: frozenset[str]
    power: int | None = None
    toughness: int | None = None
    damage: int = 0
    loyalty: int | None = None
    defense: int | None = None
    protector: str | None = None
    keywords: Keywords = Keywords()
    qualities: frozenset[str] = frozenset()  # quality keys, see keywords.quality_key
    attacking: str | None = None  # what it attacks, if it is an attacking creature
    blocked: bool = False  # CR 509.1h; the file's default is already applied
    blocking: tuple[str, ...] | None = None  # None: not a blocking creature
    order: tuple[str, ...] | None = None  # CR 509.2-509.3; None: the file gives none
    removed_from_combat: bool = False  # an attacked planeswalker or battle, CR 506.4c
    struck_first: bool = False  # CR 510.4; the file's default is already applied
    regeneration_shields: int = 0  # 701.19a: each replaces one destruction this turn

    @property
    def is_creature(self) -> bool:
        return CREATURE in self.types

    @property
    def is_planeswalker(self) -> bool:
        return PLANESWALKER in self.types

    @property
    def is_battle(self) -> bool:
        return BATTLE in self.types

    @property
    def in_combat(self) -> bool:
        return self.attacking is not None or self.blocking is not None


@dataclass(frozen=True)
class Entry:
    """Combat damage assigned by one source to one recipient (a permanent or a player)."""

    source: str
    to: str
    amount: int


# Effects that change the damage dealt, not what may be assigned (120.4b, 615, 701.10g).
DOUBLE = "double"  # 701.10g: a source deals double the damage instead
PREVENT = "prevent"  # 615: prevent the next N damage (or all of it) dealt to a recipient
ADD = "add"  # a source deals that much damage plus N instead
CANT_BE_PREVENTED = "cant-be-prevented"  # 615.12: damage from its sources can't be prevented
EFFECT_KINDS = (DOUBLE, PREVENT, ADD, CANT_BE_PREVENTED)


@dataclass(frozen=True)
class Effect:
    """An effect that changes the combat damage dealt, not what may be assigned."""

    id: str
    kind: str
    amount: int | None = 0  # N, for prevent and add; None: a prevention of all the damage
    to: str | None = None  # the recipient a prevention protects; None: any recipient
    sources: frozenset[str] | None = None  # None: any source
    recipients: frozenset[str] | None = None  # None: any recipient
    once: bool = False  # a prevention of the next time such damage would be dealt, only

    def applies(self, source: str, recipient: str) -> bool:
        if self.kind == PREVENT and self.to is not None and recipient != self.to:
            return False
        return (self.sources is None or source in self.sources) and (
            self.recipients is None or recipient in self.recipients
        )

    @property
    def is_shield(self) -> bool:
        """A prevention of the next N damage: what it has left is shared by every event it
        meets (615.7)."""
        return self.kind == PREVENT and self.amount is not None


@dataclass(frozen=True)
class Scenario:
    """A combat as one of its combat damage steps assigns damage: the players, the
    permanents, the effects in force, the edition of the rules and, if the file gives one,
    the assignment to judge."""

    players: tuple[Player, ...]
    active_player: str
    permanents: tuple[Permanent, ...]
    step: str = ONLY
    rules: str = CURRENT_NAME  # "current" or a date: the edition in force that day
    bands: tuple[tuple[str, ...], ...] = ()
    assignment: tuple[Entry, ...] | None = None  # None: the file proposes no assignment
    effects: tuple[Effect, ...] = ()

    @cached_property
    def edition(self) -> Edition:
        return in_force(self.rules)

    def strikers(self) -> list[str]:
        """Attacking and blocking creatures with first strike or double strike: with any,
        the phase has two combat damage steps (CR 510.4)."""
        return [
            p.id
            for p in self.permanents
            if p.in_combat and (FIRST_STRIKE in p.keywords or DOUBLE_STRIKE in p.keywords)
        ]

    def permanent(self, id: str) -> Permanent:
        found = self.find(id)
        if found is None:
            raise KeyError(id)
        return found

    def find(self, id: str) -> Permanent | None:
        """The permanent with this id, or None (a player's id, say)."""
        return self._by_id.get(id)

    @cached_property
    def _by_id(self) -> dict[str, Permanent]:
        # The first of a duplicated id, as a search would find: a file being read may have one.
        return {p.id: p for p in reversed(self.permanents)}
