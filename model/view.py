"""The questions the rules ask about a combat, answered from a scenario.

The rules never read a `Scenario` directly: they ask a view. This one answers with plain
values; a symbolic view, whose answers are solver terms, lets the same rules speak of every
combat up to a size. Every answer is a bool or an int, never a truthy stand-in, because
`ops` folds on `True` and `False` exactly.

A rule ranges over whom a creature meets (`reachable`, `blockers_of`, `blocked_by`,
`targets_of`), not over the whole combat, and still asks `blocks` or `attacks` of each: so a
view may list more than the answer, never less. This one lists exactly what the file names,
which keeps a check linear in the combat's size; a symbolic view, whose structure is
unknown, lists every slot that might be.
"""

from __future__ import annotations

from .combat import CANT_BE_PREVENTED, CREATURE, PLANESWALKER, Scenario
from .keywords import PLAIN, card_type, plain_keyword, protection_key, quality_key
from .rules.order import ranked

_PLAIN = frozenset(PLAIN)


class ScenarioView:
    # No formulas kept (`ops.built_once`): its answers are plain values, cheaper to work out
    # again than to look up, or, over a query's unknown amounts, asked of one assignment.
    built = None

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.edition = scenario.edition
        self.active_player = scenario.active_player
        permanents, players = scenario.permanents, scenario.players
        self._permanents = {p.id: p for p in permanents}
        self._players = {p.id: p for p in players}
        # The plain keywords of each permanent and player: `has` is the question asked most.
        self._keywords = {x.id: x.keywords.plain for x in (*players, *permanents)}
        self.players = tuple([p.id for p in players])
        # The tables below, each made by a comprehension (a check of a small combat spends
        # as much here as in the rules). The permanents that may be planeswalkers: the rules
        # still ask `is_planeswalker`, because in a symbolic view that is an unknown.
        ids = [p.id for p in permanents]
        creatures = [p.id for p in permanents if CREATURE in p.types]
        planeswalkers = [p.id for p in permanents if PLANESWALKER in p.types]
        self._targets = {p.id: (p.attacking,) for p in permanents if p.attacking is not None}
        qualities = set().union(
            *(p.qualities for p in permanents if p.qualities),
            *(p.keywords.bands_with_other for p in permanents if p.keywords.bands_with_other),
        )
        # Who blocks whom, both ways, each list in the order of the permanents: built once,
        # so that no rule scans the whole combat for the few creatures one creature meets.
        blocks = [(p.id, a) for p in permanents if p.blocking for a in p.blocking]
        self._blocks = set(blocks)
        blockers: dict[str, list[str]] = {}
        for b, attacker in blocks:
            blockers.setdefault(attacker, []).append(b)
        self.creatures = tuple(creatures)
        self.planeswalkers = tuple(planeswalkers)
        self._planeswalkers = frozenset(planeswalkers)
        self.recipients = self.players + tuple(ids)
        self.qualities = tuple(sorted(qualities))
        blocked_by: dict[str, list[str]] = {}
        for attacker in ids:
            if attacker in blockers:
                for b in blockers[attacker]:
                    blocked_by.setdefault(b, []).append(attacker)
        # As tuples, handed out as they are: the rules ask them of each creature.
        self._blockers = {a: tuple(bs) for a, bs in blockers.items()}
        self._blocked_by = {b: tuple(attackers) for b, attackers in blocked_by.items()}
        # Made when first asked: most checks never ask them.
        self._rank: dict[str, int] | None = None
        self._unpreventable: set[str] | None = None
        self._player_keys: dict[str, str] | None = None
        # The rules' answers about the combat alone, each asked once (`ops.remembered`).
        self.answers: dict = {}
        self._reachable: dict[str, tuple[str, ...]] = {}

    def __copy__(self):
        """A copy may be judged under another edition (`replay`'s `under`): its answers are
        its own."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.answers, twin._reachable = {}, {}
        return twin

    # What a thing is.
    def is_player(self, x: str) -> bool:
        return x in self._players

    def is_creature(self, x: str) -> bool:
        p = self._permanents.get(x)
        return p is not None and p.is_creature

    def is_planeswalker(self, x: str) -> bool:
        return x in self._planeswalkers

    def is_battle(self, x: str) -> bool:
        p = self._permanents.get(x)
        return p is not None and p.is_battle

    def controls(self, player: str, x: str) -> bool:
        p = self._permanents.get(x)
        return p is not None and p.controller == player

    def protects(self, player: str, x: str) -> bool:
        p = self._permanents.get(x)
        return p is not None and p.is_battle and p.protector == player

    # Numbers.
    def power(self, c: str) -> int:
        return self._permanents[c].power

    def toughness(self, c: str) -> int:
        return self._permanents[c].toughness

    def marked(self, c: str) -> int:
        return self._permanents[c].damage

    def loyalty(self, p: str) -> int:
        """Loyalty, or a battle's defense: the counters its damage removes (120.3c, 120.3h)."""
        permanent = self._permanents[p]
        return permanent.defense if permanent.is_battle else permanent.loyalty

    def cant_be_prevented(self, c: str) -> bool:
        """615.12: an effect says the damage c deals can't be prevented."""
        if self._unpreventable is None:
            self._unpreventable = {
                c
                for e in self.scenario.effects
                if e.kind == CANT_BE_PREVENTED
                for c in (self.creatures if e.sources is None else e.sources)
            }
        return c in self._unpreventable

    def regeneration_shields(self, c: str) -> int:
        return self._permanents[c].regeneration_shields

    # Abilities and qualities, of a permanent or (protection only) a player.
    def has(self, x: str, keyword: str) -> bool:
        if keyword not in _PLAIN:  # a rule's misspelt keyword (asked most: no call otherwise)
            plain_keyword(keyword)  # raises UnknownKeyword
        return keyword in self._keywords[x]

    def toxic(self, c: str) -> int:
        """702.164b: its total toxic value."""
        return self._permanents[c].keywords.toxic

    def has_quality(self, c: str, quality: str) -> bool:
        return quality_key(quality) in self._permanents[c].qualities

    def has_type(self, c: str, name: str) -> bool:
        return card_type(name) in self._permanents[c].types

    def bands_with_other(self, c: str, quality: str) -> bool:
        return quality_key(quality) in self._permanents[c].keywords.bands_with_other

    def protection_from(self, x: str, quality: str) -> bool:
        return protection_key(quality) in self._holder(x).keywords.protection_from

    def protection_qualities(self, x: str) -> tuple[str, ...]:
        """The qualities x may have protection from: exactly its own."""
        return tuple(sorted(self._holder(x).keywords.protection_from))

    def player_called(self, quality: str) -> str | None:
        """The player a protection quality names (702.16k), if it names one: a player's id,
        compared as qualities are."""
        if self._player_keys is None:
            self._player_keys = {quality_key(p.id): p.id for p in self.scenario.players}
        return self._player_keys.get(quality)

    def _holder(self, x: str):
        return self._permanents.get(x) or self._players[x]

    # Combat.
    def attacks(self, a: str, target: str) -> bool:
        return self._permanents[a].attacking == target

    def is_attacking(self, c: str) -> bool:
        return self._permanents[c].attacking is not None

    def removed(self, target: str) -> bool:
        p = self._permanents.get(target)
        return p is not None and p.removed_from_combat

    def is_blocked(self, a: str) -> bool:
        return self._permanents[a].blocked

    def blocks(self, b: str, a: str) -> bool:
        return (b, a) in self._blocks

    def is_blocking(self, c: str) -> bool:
        return self._permanents[c].blocking is not None

    def order(self, c: str):
        """c's damage assignment order, as whether one creature precedes another in it; None
        when the file leaves it open (CR 509.2-509.3)."""
        given = self._permanents[c].order
        return None if given is None else ranked(given)

    def step_is(self, step: str) -> bool:
        return self.scenario.step == step

    def struck_first(self, c: str) -> bool:
        return self._permanents[c].struck_first

    # Plain-value answers for explanations and reports; constraints do not use these.
    def controller(self, x: str) -> str:
        return self._permanents[x].controller

    def target(self, a: str) -> str | None:
        return self._permanents[a].attacking

    def defending_player(self, a: str) -> str:
        """The defending player of an attacking creature (CR 506.2, 310.8, 506.4c)."""
        target = self._permanents[a].attacking
        if target in self._players:
            return target
        attacked = self._permanents[target]
        return attacked.protector if attacked.is_battle else attacked.controller

    def defends(self, player: str, a: str) -> bool:
        return self.is_attacking(a) and self.defending_player(a) == player

    # Whom the rules range over: exactly those the file names.
    def blockers_of(self, a: str) -> tuple[str, ...]:
        """The creatures blocking a."""
        return self._blockers.get(a, ())

    def blocked_by(self, b: str) -> tuple[str, ...]:
        """The creatures b blocks."""
        return self._blocked_by.get(b, ())

    def targets_of(self, a: str) -> tuple[str, ...]:
        """What a attacks: a player, a planeswalker or a battle."""
        return self._targets.get(a, ())

    def _ranks(self) -> dict[str, int]:
        """Each player's and permanent's place in the file, the order of `recipients`, by
        which `reachable` sorts."""
        if self._rank is None:
            found = (*self.scenario.players, *self.scenario.permanents)
            self._rank = {x.id: i for i, x in enumerate(found)}
        return self._rank

    def reachable(self, s: str) -> tuple[str, ...]:
        """Those s could assign combat damage to, in the order of `recipients`: what it
        attacks, its blockers, what it blocks, and the controller of the planeswalker it
        attacks (trample over planeswalkers, 702.19c). Made once for each s: every rule
        that ranges over whom s may assign to asks it, and read from this view's tables
        rather than asked, as it is asked of every creature."""
        reachable = self._reachable.get(s)
        if reachable is None:
            targets = self._targets.get(s, ())
            blockers = self._blockers.get(s, ())
            blocked = self._blocked_by.get(s, ())
            # Most creatures are a blocker, or an attacker of a player: their lists are in the
            # order of the permanents, after the players, so the order of `recipients`, when
            # none is listed twice.
            if not targets and not blockers:
                reachable = blocked
            elif targets and not blocked and targets[0] in self._players:
                reachable = (targets[0], *blockers)
            if reachable is None or len(set(reachable)) < len(reachable):
                found = {*targets, *blockers, *blocked}
                for target in targets:
                    if target in self._planeswalkers:
                        found.add(self._permanents[target].controller)
                # Sorted only when there is an order to give.
                ordered = sorted(found, key=self._ranks().__getitem__) if len(found) > 1 else found
                reachable = tuple(ordered)
            self._reachable[s] = reachable
        return reachable
