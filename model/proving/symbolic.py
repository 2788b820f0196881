"""A symbolic combat: every number, keyword, quality, controller, target and block an unknown
within bounds.

It answers the same questions as `ScenarioView`, with Z3 terms, so the rules of `rules/`
speak of every combat up to the bounds at once. Its slots are attackers a0, a1, ...,
blockers b0, b1, ... (creatures that may block, or stand outside combat), and planeswalkers
or battles p0, p1, ... (a planeswalker may also be a creature, and block); the players are
A (active) and the defending players D, E, ... A slot may be absent. `well_formed` says what
a scenario file would have to satisfy to be read: the same things the reader checks, so that
every counterexample reads back as a file, and every file within the bounds is one of its
models (tests/test_symbolic.py pins it to drawn files and compares every answer).
"""

from __future__ import annotations

import copy
import weakref

import z3

from .. import rules
from ..amounts import Amounts
from ..combat import BATTLE, DOUBLE, FIRST_STRIKE_STEP, ONLY, PREVENT, SECOND
from ..editions import CURRENT, Edition, in_force, not_in_all
from ..keywords import (
    DOUBLE_STRIKE,
    FIRST_STRIKE,
    INDESTRUCTIBLE,
    PLAIN,
    PROTECTION_FROM_EVERYTHING,
    TOXIC,
    card_type,
    plain_keyword,
    protection_key,
    quality_key,
)
from ..ops import Term, all_of, any_of, implies, ite, negate, total
from ..rules import banding, division, protection
from ..rules.dealing import PROTECTION, Change, apply, prevents_any
from ..solver import terms
from . import Bounds

KEYWORDS = PLAIN  # every keyword that is not about a quality
# Two qualities: enough to tell a "bands with other" pair from a band of mixed qualities,
# and protection from one quality from protection from another.
QUALITIES = ("wolves", "knights")
# What a creature or a player may have protection from: the two qualities, and the card type
# creature (702.16a), so that "protection from creatures" can be said. The sources of combat
# damage are creatures, so no other card type would tell anything apart.
PROTECTIONS = (*QUALITIES, "creature")
# The card types a slot may have: a creature, or a planeswalker or battle slot's own.
TYPES = ("creature", "planeswalker", "battle")
STEPS = (ONLY, FIRST_STRIKE_STEP, SECOND)
ACTIVE = "A"
DEFENDING = ("D", "E", "F", "G", "H")  # the defending players' names, as many as the bounds ask


def exactly_one(choices: list) -> Term:
    """Written as clauses, one of them and no two, rather than as Z3's pseudo-boolean PbEq
    (which other SMT-LIB 2 solvers do not read in an exported query) or a sum of 0s and 1s
    (which Z3 decides more slowly: the library at 3x3x2, 8.2 to 7.8 s)."""
    no_two = [negate(all_of((x, y))) for i, x in enumerate(choices) for y in choices[i + 1 :]]
    return all_of((any_of(choices), *no_two))


class SymbolicCombat:
    def __init__(
        self,
        bounds: Bounds,
        context: z3.Context,
        name: str = "",
        editions: tuple[Edition, ...] = (CURRENT,),
    ):
        self.bounds = bounds
        self.context = context
        # Made once for every unknown (see terms.constant).
        self._boolean, self._integer = z3.BoolSort(context), z3.IntSort(context)
        self.name = name
        # The editions the property judges this combat by; the first is its own. The combat
        # has only what all of them have, so that it is a file under each.
        self.editions = editions
        self.edition = editions[0]
        self.active_player = ACTIVE
        self.players = self.player_names(bounds)
        self.defenders = self.players[1:]
        self.defender = self.defenders[0]  # the one defending player a property may name
        self.attackers = tuple(f"a{i}" for i in range(bounds.attackers))
        self.blockers = tuple(f"b{i}" for i in range(bounds.blockers))
        self.planeswalkers = tuple(f"p{i}" for i in range(bounds.permanents))
        self.creatures = self.attackers + self.blockers + self.planeswalkers
        self.recipients = self.players + self.creatures
        self.targets = (*self.defenders, *self.planeswalkers)
        self.qualities = QUALITIES
        self._assignments: list[SymbolicAssignment] = []
        self.unknowns: dict[str, z3.ExprRef] = {}  # by name without the combat's prefix
        self.integers: dict[str, z3.ArithRef] = {}  # free integers a property asks for
        self._witnessed = [False]  # some() was given a witness: a hint that may fail
        # The rules' answers about the combat alone (`ops.remembered`), each formula built
        # once: a property asks `legal` of several assignments, each of the same questions.
        self.answers: dict = {}
        self.built: dict = {}  # the formulas `ops.built_once` keeps, of the combat and amounts
        # By edition, shared by every copy: `under` makes each once while it is in use. Held
        # weakly: a copy holding the table that holds it would be a cycle, and the Z3 context
        # would wait for Python's cycle collector, which frees it before some of its terms
        # (Z3 then empties its tables one by one: 3 ms a context).
        self._judged: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._defends: dict = {}  # the same under every edition

        b, i = self._bool, self._int
        owned = self.blockers + self.planeswalkers  # slots whose controller is an unknown
        # A and D are always there; a player beyond them may be absent, as a slot may.
        self.present = {c: b(c, "present") for c in (*self.players[2:], *self.creatures)}
        self.creature = {p: b(p, "creature") for p in self.planeswalkers}
        self.battle = {p: b(p, "battle") for p in self.planeswalkers}
        self.stats = {c: (i(c, "power"), i(c, "toughness"), i(c, "damage")) for c in self.creatures}
        self._loyalty = {p: i(p, "loyalty") for p in self.planeswalkers}  # defense, for a battle
        self._controller = {(x, p): b(x, f"controller {p}") for x in owned for p in self.players}
        self._protector = {
            (x, p): b(x, f"protector {p}") for x in self.planeswalkers for p in self.players
        }
        self._removed = {p: b(p, "removed") for p in self.planeswalkers}
        self._keywords = {(c, k): b(c, k) for c in self.creatures for k in KEYWORDS}
        # 702.16b, 702.16j: a player may have protection, and nothing else here.
        self._keywords |= {
            (p, PROTECTION_FROM_EVERYTHING): b(p, PROTECTION_FROM_EVERYTHING) for p in self.players
        }
        self._toxic = {c: i(c, "toxic") for c in self.creatures}  # 702.164b: its total
        self._quality = {(c, q): b(c, f"quality {q}") for c in self.creatures for q in QUALITIES}
        self._bands_with = {
            (c, q): b(c, f"bands with other {q}") for c in self.creatures for q in QUALITIES
        }
        self._struck_first = {c: b(c, "struck first") for c in self.creatures}
        self._attacks = {(a, t): b(a, f"attacks {t}") for a in self.attackers for t in self.targets}
        self._blocked = {a: b(a, "blocked") for a in self.attackers}
        self._blocks = {(x, a): b(x, f"blocks {a}") for x in owned for a in self.attackers}
        self._blocking = {x: b(x, "blocking") for x in owned}
        self._banded = {
            (x, y): b(x, f"banded with {y}")
            for n, x in enumerate(self.attackers)
            for y in self.attackers[n + 1 :]
        }
        # What changes the damage dealt and never what may be assigned (120.4b, 702.19b):
        # here so that properties can say so.
        # The combat's qualities and card type, and its players (702.16k), as quality keys.
        self._player_called = {quality_key(p): p for p in self.players}
        self.protections = (*PROTECTIONS, *self._player_called)
        self._protection = {
            (x, q): b(x, f"protection from {q}") for x in self.recipients for q in self.protections
        }
        self._doubled = {c: b(c, "doubled") for c in self.creatures}
        self._shield = {r: i(r, "shield") for r in self.recipients}
        self._prevent_all = {r: b(r, "prevent all") for r in self.recipients}  # a Fog, 615
        # 615.12: an effect says the damage c deals can't be prevented.
        self._unpreventable = {c: b(c, "cant be prevented") for c in self.creatures}
        # 701.19a: each replaces one destruction this turn.
        self._regeneration = {c: i(c, "regeneration shields") for c in self.creatures}
        self.step = terms.constant(f"{name}step", self._integer)
        # Asked by the rules for nearly every constraint: each formula built once.
        self._step_is = {s: self.step == n for n, s in enumerate(STEPS)}
        self._planeswalker = {
            p: all_of((self.present[p], negate(self.battle[p]))) for p in self.planeswalkers
        }
        # 509.2-509.3: each creature's damage assignment order, as a position for each
        # creature that may be in it. Only when some edition of the property has orders.
        self._position = {}
        if any(e.has_order for e in editions):
            pairs = [(a, x) for a in self.attackers for x in owned]
            pairs += [(x, a) for x in owned for a in self.attackers]
            self._position = {(s, x): i(s, f"order {x}") for s, x in pairs}

    @property
    def witnessed(self) -> bool:
        return self._witnessed[0]

    def under(self, rules: str) -> SymbolicCombat:
        """The same combat, judged by the rules in force on that date (or "current"): one of
        the editions the property declares."""
        edition = in_force(rules)
        if all(e.since != edition.since for e in self.editions):
            declared = ", ".join(e.asked for e in self.editions)
            raise ValueError(
                f"the property judges its combats by {declared}, not {rules}: add it to its "
                "editions"
            )
        judged = self._judged.get(edition.since)
        if judged is None:
            judged = copy.copy(self)  # shares every unknown and assignment
            judged.edition = edition
            judged.answers, judged.built = {}, {}  # the rules' answers differ by edition
            self._judged[edition.since] = judged
        return judged

    def order(self, s: str):
        """s's damage assignment order: x precedes y when its position is lower."""
        return lambda x, y: self._position[(s, x)] < self._position[(s, y)]

    @staticmethod
    def player_names(bounds: Bounds) -> tuple[str, ...]:
        return (ACTIVE, *DEFENDING[: bounds.players - 1])

    def _bool(self, slot: str, what: str) -> z3.BoolRef:
        unknown = terms.constant(f"{self.name}{slot}.{what}", self._boolean)
        self.unknowns[f"{slot}.{what}"] = unknown
        return unknown

    def _int(self, slot: str, what: str) -> z3.ArithRef:
        unknown = terms.constant(f"{self.name}{slot}.{what}", self._integer)
        self.unknowns[f"{slot}.{what}"] = unknown
        return unknown

    def agrees_with(self, other: SymbolicCombat, *, but: tuple[str, ...] = ()) -> Term:
        """The two combats are the same but for the unknowns named in `but`, such as
        "a0.power" or "b1.present" (a slot's name, a dot, and what it is)."""
        unknown = set(but) - set(self.unknowns)
        if unknown:
            raise ValueError(f"no such unknowns: {', '.join(sorted(unknown))}")
        same = [v == other.unknowns[k] for k, v in self.unknowns.items() if k not in but]
        return all_of([*same, self.step == other.step])

    def assigns(self, c: str) -> Term:
        """c assigns combat damage this step (510.1a-d, 510.4): the model's own answer, for
        witnesses; properties state their claims without it."""
        return division.assigns_combat_damage(self, c)

    # The questions the rules ask (see view.ScenarioView).

    def is_player(self, x: str) -> Term:
        if x not in self.players:
            return False
        return self.present.get(x, True)

    def is_creature(self, x: str) -> Term:
        if x in self.planeswalkers:
            return self.creature[x]
        return self.present[x] if x in self.attackers + self.blockers else False

    def is_planeswalker(self, x: str) -> Term:
        return self._planeswalker.get(x, False)

    def is_battle(self, x: str) -> Term:
        return self.battle[x] if x in self.planeswalkers else False

    def controls(self, player: str, x: str) -> Term:
        if x in self.attackers:  # only the active player's creatures attack (506.2)
            return self.present[x] if player == ACTIVE else False
        return self._controller.get((x, player), False)

    def protects(self, player: str, x: str) -> Term:
        """player is the battle x's protector (310.8)."""
        return self._protector.get((x, player), False)

    def power(self, c: str) -> Term:
        return self.stats[c][0]

    def toughness(self, c: str) -> Term:
        return self.stats[c][1]

    def marked(self, c: str) -> Term:
        return self.stats[c][2]

    def loyalty(self, p: str) -> Term:
        return self._loyalty[p]

    def has(self, c: str, keyword: str) -> Term:
        # A keyword lethal does not know would be an unknown never true, and a property
        # asking for it vacuous without a word of why: it is refused instead.
        return self._keywords.get((c, plain_keyword(keyword)), False)

    def has_quality(self, c: str, quality: str) -> Term:
        return self._quality.get((c, quality_key(quality)), False)

    def bands_with_other(self, c: str, quality: str) -> Term:
        return self._bands_with.get((c, quality_key(quality)), False)

    def protection_from(self, x: str, quality: str) -> Term:
        """x (a permanent or a player) has protection from the quality, or the card type
        (702.16a)."""
        return self._protection.get((x, protection_key(quality)), False)

    def protection_qualities(self, x: str) -> tuple[str, ...]:
        """The qualities x may have protection from: every one the combat can say."""
        return self.protections if x in self.recipients else ()

    def player_called(self, quality: str) -> str | None:
        return self._player_called.get(quality)

    def toxic(self, c: str) -> Term:
        """702.164b: c's total toxic value."""
        return self._toxic.get(c, 0)

    def has_type(self, c: str, name: str) -> Term:
        """c has the card type: a creature slot is a creature, a planeswalker slot a
        planeswalker or a battle, maybe a creature too; no slot has another type."""
        asked = card_type(name)
        if asked == "creature":
            return self.is_creature(c)
        if asked == "planeswalker":
            return self.is_planeswalker(c)
        if asked == "battle":
            return self.is_battle(c)
        return False

    def regeneration_shields(self, c: str) -> Term:
        return self._regeneration.get(c, 0)

    def attacks(self, a: str, target: str) -> Term:
        return self._attacks.get((a, target), False)

    def is_attacking(self, c: str) -> Term:
        return self.present[c] if c in self.attackers else False

    def removed(self, target: str) -> Term:
        return self._removed.get(target, False)

    def is_blocked(self, a: str) -> Term:
        return self._blocked.get(a, False)

    def blocks(self, x: str, a: str) -> Term:
        return self._blocks.get((x, a), False)

    def is_blocking(self, c: str) -> Term:
        return self._blocking.get(c, False)

    # Whom the rules range over (see view.py): who blocks whom and what is attacked are
    # unknowns, so every slot that might be.
    def blockers_of(self, a: str) -> tuple[str, ...]:
        return self.blockers + self.planeswalkers if a in self.attackers else ()

    def blocked_by(self, b: str) -> tuple[str, ...]:
        return self.attackers if b in self.blockers + self.planeswalkers else ()

    def targets_of(self, a: str) -> tuple[str, ...]:
        return self.targets if a in self.attackers else ()

    def reachable(self, s: str) -> tuple[str, ...]:
        return self.recipients

    def step_is(self, step: str) -> Term:
        return self._step_is[step]

    def struck_first(self, c: str) -> Term:
        return self._struck_first[c]

    def doubled(self, c: str) -> Term:
        """A damage doubler (701.10g) applies to the combat damage c deals."""
        return self._doubled[c]

    def shield(self, r: str) -> Term:
        """The damage a prevention shield on r prevents next (615)."""
        return self._shield[r]

    def prevent_all(self, r: str) -> Term:
        """An effect prevents all the damage that would be dealt to r (615, a Fog)."""
        return self._prevent_all[r]

    def cant_be_prevented(self, c: str) -> Term:
        """An effect says the damage c deals can't be prevented (615.12)."""
        return self._unpreventable.get(c, False)

    def effects_on(self, s: str, r: str) -> list[tuple[Change, Term]]:
        """The effects that may change the damage s deals to r, each with when it applies:
        what `rules.dealing.changes` finds in a file (the agreement check compares them)."""
        return effects_on(self, s, r)

    def dealt(self, s: str, r: str, amount: Term) -> Term:
        """The damage s deals to r of `amount` assigned, after the effects on it (see
        `dealt` below)."""
        return dealt(self, s, r, amount)

    def banded(self, x: str, y: str) -> Term:
        if (x, y) in self._banded:
            return self._banded[(x, y)]
        return self._banded.get((y, x), False)

    def defends(self, player: str, a: str) -> Term:
        """player is a's defending player: the player it attacks, the controller of the
        planeswalker it attacks, or the protector of the battle (506.2, 310.8). Built once
        for each pair: well_formed asks it of every creature that may block a."""
        if (player, a) not in self._defends:
            self._defends[(player, a)] = self._defending(player, a)
        return self._defends[(player, a)]

    def _defending(self, player: str, a: str) -> Term:
        return any_of(
            (
                self.attacks(a, player),
                *(
                    all_of(
                        (
                            self.attacks(a, p),
                            ite(self.battle[p], self.protects(player, p), self.controls(player, p)),
                        )
                    )
                    for p in self.planeswalkers
                ),
            )
        )

    # What a scenario file would have to satisfy to be read.

    def well_formed(self) -> list:
        facts: list = []
        for slots in (self.attackers, self.blockers, self.planeswalkers):
            # Absent slots come last: one combat, one way to write it.
            for x, y in zip(slots, slots[1:], strict=False):
                facts.append(implies(self.present[y], self.present[x]))
        for c in self.creatures:
            facts += self._creature_fits(c)
        for p in self.players[2:]:  # players come in order too
            named = [v for (_, q), v in self._controller.items() if q == p]
            named += [v for (_, q), v in self._protector.items() if q == p]
            named += [self._attacks[(a, p)] for a in self.attackers]
            facts.append(implies(any_of(named), self.present[p]))
            facts.append(implies(negate(self.present[p]), self._shield[p] == 0))
            facts.append(implies(negate(self.present[p]), negate(self._prevent_all[p])))
            facts += [
                implies(negate(self.present[p]), negate(self.protection_from(p, q)))
                for q in self.protections
            ]
            facts.append(
                implies(negate(self.present[p]), negate(self.has(p, PROTECTION_FROM_EVERYTHING)))
            )
        for p, q in zip(self.players[2:], self.players[3:], strict=False):
            facts.append(implies(self.present[q], self.present[p]))
        for x in self.blockers + self.planeswalkers:
            owners = [self._controller[(x, p)] for p in self.players]
            facts.append(ite(self.present[x], exactly_one(owners), all_of(map(negate, owners))))
            facts.append(implies(self._blocking[x], self.is_creature(x)))
            for a in self.attackers:
                # 509.1a, 310.8c: a creature blocks only what attacks its controller, or
                # the planeswalkers it controls or the battles it protects.
                facts.append(
                    implies(
                        self.blocks(x, a),
                        all_of(
                            (
                                self._blocking[x],
                                self.present[a],
                                *(
                                    implies(self.defends(p, a), self.controls(p, x))
                                    for p in self.players
                                ),
                            )
                        ),
                    )
                )
        for r, shield in self._shield.items():
            facts += [shield >= 0, shield <= self.bounds.loyalty]
            if r in self.creatures:
                facts.append(implies(negate(self.present[r]), shield == 0))
                facts.append(implies(negate(self.present[r]), negate(self._prevent_all[r])))
        for p in self.planeswalkers:
            facts += self._permanent_fits(p)
        for a in self.attackers:
            facts += self._attacker_fits(a)
        return facts + self._step_fits() + self._bands_fit() + self._editions_fit()

    def _editions_fit(self) -> list:
        """Only what every edition of the property has; each order a permutation."""
        facts: list = []
        for missing in not_in_all(self.editions):
            if missing == BATTLE:
                facts += [negate(self.battle[p]) for p in self.planeswalkers]
            elif missing == TOXIC:
                facts += [self._toxic[c] == 0 for c in self.creatures]
            else:
                facts += [negate(self.has(c, missing)) for c in self.creatures]
        by_creature: dict[str, list] = {}
        for (s, _), position in self._position.items():
            by_creature.setdefault(s, []).append(position)
        for positions in by_creature.values():
            facts += [p >= 0 for p in positions] + [p < len(positions) for p in positions]
            facts.append(z3.Distinct(positions))
        return facts

    def _creature_fits(self, c: str) -> list:
        bounds = self.bounds
        power, toughness, damage = self.stats[c]
        facts = [power >= -1, power <= bounds.power, toughness >= 1]
        facts += [toughness <= bounds.toughness, damage >= 0, damage <= bounds.toughness]
        # 704.5g: lethal damage marked only on a creature that survived it.
        facts.append(any_of((damage < toughness, self.has(c, INDESTRUCTIBLE))))
        # Toxic counts like power; regeneration shields like prevention shields.
        facts += [self._toxic[c] >= 0, self._toxic[c] <= bounds.power]
        shields = self._regeneration[c]
        facts += [shields >= 0, shields <= bounds.loyalty]
        # An effect's sources are creatures (510.1).
        facts.append(implies(self._doubled[c], self.is_creature(c)))
        facts.append(implies(self._unpreventable[c], self.is_creature(c)))
        # An absent or non-creature slot has plain values, so a model names one combat.
        facts.append(
            implies(
                negate(self.is_creature(c)),
                all_of(
                    [power == 0, toughness == 1, damage == 0, self._toxic[c] == 0, shields == 0]
                    + [negate(self.has(c, k)) for k in KEYWORDS]
                    + [negate(self._quality[(c, q)]) for q in QUALITIES]
                    + [negate(self._bands_with[(c, q)]) for q in QUALITIES]
                    + [negate(self._protection[(c, q)]) for q in self.protections]
                ),
            )
        )
        return facts

    def _permanent_fits(self, p: str) -> list:
        facts = [self._loyalty[p] >= 1, self._loyalty[p] <= self.bounds.loyalty]
        facts.append(implies(self.battle[p], negate(self.creature[p])))  # R9, MOM rulings
        protectors = [self._protector[(p, q)] for q in self.players]
        facts.append(ite(self.battle[p], exactly_one(protectors), all_of(map(negate, protectors))))
        attacked = any_of(self._attacks[(a, p)] for a in self.attackers)
        facts.append(implies(self._removed[p], attacked))
        # 506.4: a permanent removed from combat is no longer a blocking creature either.
        facts.append(implies(self._removed[p], negate(self._blocking[p])))
        facts.append(
            implies(
                negate(self.present[p]),
                all_of((negate(self.battle[p]), negate(self.creature[p]), self._loyalty[p] == 1)),
            )
        )
        return facts

    def _attacker_fits(self, a: str) -> list:
        choices = [self._attacks[(a, t)] for t in self.targets]
        facts = [ite(self.present[a], exactly_one(choices), all_of(map(negate, choices)))]
        for p in self.planeswalkers:
            # 508.1b, 310.8b: never the active player's own planeswalker, nor a battle it
            # protects.
            attackable = ite(
                self.battle[p], negate(self.protects(ACTIVE, p)), negate(self.controls(ACTIVE, p))
            )
            facts.append(implies(self._attacks[(a, p)], all_of((self.present[p], attackable))))
        blocked_by = [self.blocks(x, a) for x in self.blockers + self.planeswalkers]
        facts.append(implies(any_of(blocked_by), self._blocked[a]))
        facts.append(implies(self._blocked[a], self.present[a]))
        return facts

    def _step_fits(self) -> list:
        """510.4: two steps exactly when a creature in combat has first or double strike."""
        in_combat = {c: any_of((self.is_attacking(c), self.is_blocking(c))) for c in self.creatures}
        striker = {
            c: any_of((self.has(c, FIRST_STRIKE), self.has(c, DOUBLE_STRIKE)))
            for c in self.creatures
        }
        strikes = any_of(all_of((in_combat[c], striker[c])) for c in self.creatures)
        facts = [self.step >= 0, self.step <= 2]
        facts.append(implies(strikes, negate(self.step_is(ONLY))))
        facts.append(implies(self.step_is(FIRST_STRIKE_STEP), strikes))
        for c in self.creatures:
            # struck_first is what the file would default it to, except for a creature in
            # combat in the second step, where a file may say otherwise.
            free = all_of((self.step_is(SECOND), in_combat[c]))
            facts.append(implies(negate(free), self._struck_first[c] == striker[c]))
        return facts

    def _bands_fit(self) -> list:
        """702.22c, d, h: bands of attackers that banding allows, attacking one thing, blocked
        together."""
        facts = []
        for (x, y), banded in self._banded.items():
            facts.append(implies(banded, all_of((self.present[x], self.present[y]))))
            for t in self.targets:
                facts.append(implies(banded, self._attacks[(x, t)] == self._attacks[(y, t)]))
            for blocker in self.blockers + self.planeswalkers:
                facts.append(implies(banded, self.blocks(blocker, x) == self.blocks(blocker, y)))
        for x in self.attackers:  # a band is closed: with 3 attackers, a triangle or nothing
            for y in self.attackers:
                for z in self.attackers:
                    if len({x, y, z}) == 3:
                        facts.append(
                            implies(
                                all_of((self.banded(x, y), self.banded(y, z))), self.banded(x, z)
                            )
                        )
        for x in self.attackers:
            in_band = [True if y == x else self.banded(x, y) for y in self.attackers]
            allowed = banding.band_allowed(self, self.attackers, in_band)
            others = [self.banded(x, y) for y in self.attackers if y != x]
            facts.append(implies(any_of(others), allowed))
        return facts

    def integer(self, name: str) -> z3.ArithRef:
        """An integer unknown of the property's own, with no bounds: "for every integer"."""
        if name not in self.integers:
            self.integers[name] = terms.constant(f"{self.name}{name}", self._integer)
        return self.integers[name]

    # Assignments.

    @property
    def assignments(self) -> list[SymbolicAssignment]:
        """The assignments the property has asked for, in order: its universal unknowns."""
        return list(self._assignments)

    def assignment(self) -> SymbolicAssignment:
        """An assignment with an unknown for every source and every recipient, pairs the
        rules forbid included, so that a rule wrongly allowing damage somewhere shows."""
        n = len(self._assignments)
        variables = {
            (c, r): terms.constant(f"{self.name}x{n}[{c}->{r}]", self._integer)
            for c in self.creatures
            for r in self.recipients
        }
        # A creature assigns its power, or its toughness (510.1a with Doran's effect).
        most = max(self.bounds.power, self.bounds.toughness)
        made = SymbolicAssignment(Amounts(variables), variables, most)
        self._assignments.append(made)
        return made

    def legal(self, x: SymbolicAssignment) -> Term:
        """x is a legal assignment of this combat's step."""
        return all_of([*x.domain(), *(c.holds for c in rules.constraints(self, x.amounts))])

    def some(self, body, witness=None) -> Term:
        """Some legal assignment x of this combat has body(x).

        With `witness` (a function of the combat giving amounts), the claim is that this
        assignment is legal and has body: quantifier-free, so Z3 decides it, and enough to
        prove "some". Without, Z3 is asked about every assignment and may answer unknown. A
        counterexample is always re-checked against every legal assignment of the concrete
        scenario, so a witness that merely fails never refutes anything."""
        if witness is not None:
            self._witnessed[0] = True
            amounts = witness(self)
            return all_of((self.legal_amounts(amounts), body(amounts)))
        x = self.assignment()
        self._assignments.pop()  # bound here, not a free unknown of the counterexample
        inner = all_of((self.legal(x), body(x.amounts)))
        return z3.Exists(list(x.variables.values()), as_formula(inner, self.context))

    def legal_amounts(self, amounts: Amounts) -> Term:
        """Amounts given as terms (not unknowns of their own) are a legal assignment."""
        pairs = amounts.pairs()
        return all_of(
            [
                *(amounts.get(*p) >= 0 for p in pairs),
                *(c.holds for c in rules.constraints(self, amounts)),
            ]
        )

    def simplest_assignment(self) -> Amounts:
        """Each creature that assigns puts all its power (or toughness, 510.1a with Doran's
        effect) on one recipient: a blocker if it can, else what it attacks, else a
        planeswalker's controller. A legal assignment in every combat, as
        `a_legal_assignment_always_exists` proves."""
        amounts: dict = {}
        for c in self.creatures:
            power = ite(self.assigns(c), division.damage_to_assign(self, c), 0)
            taken: Term = False
            for r, preferred in self._preference(c):
                chosen = all_of((preferred, division.may_receive(self, c, r), negate(taken)))
                amounts[(c, r)] = total((amounts.get((c, r), 0), ite(chosen, power, 0)))
                taken = any_of((taken, chosen))
        return Amounts(amounts)

    def _preference(self, c: str) -> list[tuple[str, Term]]:
        """Whom c would rather assign to, in order, each with when it may be chosen."""
        if c not in self.attackers:
            return [(a, True) for a in self.attackers]
        blockers = self.blockers + self.planeswalkers
        return [(b, self.blocks(b, c)) for b in blockers] + [
            (r, True) for r in (*self.planeswalkers, *self.defenders)
        ]


class SymbolicAssignment:
    def __init__(self, amounts: Amounts, variables: dict, most: int):
        self.amounts = amounts
        self.variables = variables
        self.most = most
        self._domain: list | None = None

    def domain(self) -> list:
        """Each amount from 0 to `most`: asked by `legal` and again by the prover, so built
        once."""
        if self._domain is None:
            self._domain = [f for v in self.variables.values() for f in (v >= 0, v <= self.most)]
        return self._domain


def effects_on(view, s: str, r: str) -> list[tuple[Change, Term]]:
    """The effects of a combat (symbolic, or a counterexample read back) that may change the
    damage s deals to r, in the order `dealt` applies them, each with when it applies:
    protection (702.16e, j), a prevention of all the damage to r (615), a prevention shield
    on r (615.7), a damage doubler on s (701.10g). Damage that can't be prevented meets no
    prevention (615.12)."""
    found = [
        (Change(PROTECTION, PROTECTION), protection.prevents(view, s, r)),
        (Change(f"fog-{r}", PREVENT, None), view.prevent_all(r)),
        (Change(f"shield-{r}", PREVENT, 0), view.shield(r) > 0),
        (Change(f"double-{s}", DOUBLE), view.doubled(s)),
    ]
    return [(change, all_of((when, prevents_any(view, change, s)))) for change, when in found]


def dealt(view, s: str, r: str, amount: Term) -> Term:
    """The damage dealt of `amount` assigned by s to r, after the effects on it, applied
    in the order `effects_on` lists them: one of the orders r's player may choose (616.1),
    and the only one when at most one effect applies. A shield on r is taken whole, as if
    this were the only damage dealt to r."""
    shield = view.shield(r)
    for change, applies in view.effects_on(s, r):
        changed, left = apply(change, amount, shield)
        amount, shield = ite(applies, changed, amount), ite(applies, left, shield)
    return amount


def as_formula(term: Term, context: z3.Context) -> z3.BoolRef:
    """A truth value as a Z3 formula of that context, even when it folded to a bool."""
    return z3.BoolVal(term, context) if isinstance(term, bool) else term
