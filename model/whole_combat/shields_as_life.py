"""A prevention shield on a player, for the totals of the combat damage phase: as much more
life, and as much less damage to that player (615.7).

A shield prevents the next N damage to the player this turn; damage dealt at once is split
among its sources as the player chooses (615.7, 616.1). When the player's shields meet
every event of combat damage the player can be dealt, and nothing else changes that damage
(no other effect, no protection, none of it unpreventable), and the damage does the same
to the player whichever creature deals it (none of them with infect or toxic), the split
decides only which creature's damage is dealt. Over the phase the player is then dealt S - N
of the S assigned to them (nothing when S <= N: the shield is used up before any is left
over, 615.7), and loses in the first-strike step exactly when the same player, with N more
life and no shield, would (104.2a: the second step is then never reached). So the most, the
least and the guarantee of such a combat are those of the combat without the shields and
with that much more life: less N, down to 0, where they count what that player is dealt
from every source. A requirement of `possible` that compares what the player is dealt from
every source with a number asks the same of the combat without them, the number moved by N
(dealt >= 20 is assigned >= 23 with a shield of 3). Where a question names the source of
damage to that player, or counts it with other damage, its split is the answer, and the
combat is dealt every way instead. With lifelink, the split also decides how much life the
attacking player gains (120.3f); they are dealt no combat damage, so nothing asked here hangs
on it, unless they are at 0 life or less, where the gain decides whether they have lost
(704.5a): the combat is then dealt every way too.

The proof is in the tests: tests/test_whole_combat.py holds the answers to those of every
split and every course of the phase, the slow, exact way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..combat import Scenario
from ..keywords import INFECT, LIFELINK
from ..requirements import ANY, Pair, Requirement
from ..rules.dealing import changes
from ..view import ScenarioView


@dataclass(frozen=True)
class AsLife:
    scenario: Scenario  # without the shields, and each shielded player's life raised by them
    prevented: dict[str, int]  # shielded player -> the damage their shields prevent in all

    def value(self, target: Pair, value: int) -> int:
        """The answer about the combat with the shields, from the one without them."""
        return max(value - self.prevented.get(target.to, 0), 0)

    def requirement(self, asked: Requirement) -> Requirement | bool | None:
        """The requirement, asked of the combat without the shields: the same, when it
        counts no shielded player's damage; True or False when it always or never holds;
        None when it cannot be asked so (what a shielded player is dealt compared with
        anything but a number)."""
        pairs = [a for a in (*asked.left, *asked.right) if isinstance(a, Pair)]
        if not any(p.to in self.prevented for p in pairs):
            return asked
        if len(pairs) > 1:
            return None
        (pair,) = pairs
        # dealt `comparison` number: the numbers beside the pair moved to the other side
        if pair in asked.left:
            ours, theirs, comparison = asked.left, asked.right, asked.comparison
        else:
            ours, theirs, comparison = asked.right, asked.left, _FLIPPED[asked.comparison]
        number = sum(theirs) - sum(a for a in ours if isinstance(a, int))
        if comparison in (">", "<"):  # whole numbers: > n is >= n + 1, < n is <= n - 1
            comparison, number = comparison + "=", number + (1 if comparison == ">" else -1)
        n = self.prevented[pair.to]
        # dealt = max(assigned - n, 0)
        if comparison == ">=":
            return True if number <= 0 else Requirement((pair,), ">=", (number + n,))
        if number < 0:  # <= or == a negative number: never
            return False
        if comparison == "<=" or number == 0:
            return Requirement((pair,), "<=", (number + n,))
        return Requirement((pair,), "==", (number + n,))


def _gains_in_vain(player) -> bool:
    """Whether life gained in the combat damage phase changes nothing for the player: they
    have no life total, or more than 0, and are dealt no combat damage (the attacking
    player: 506.2), so they cannot lose for their life in it (704.5a)."""
    return player.life is None or player.life > 0


_FLIPPED = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "=="}


def as_life(scenario: Scenario, asked: Iterable[Pair]) -> AsLife | None:
    """The combat as one without shields on players, for questions about the pairs `asked`;
    None when some shield on a player is not only so much more life (the module's
    conditions), or a pair counts a shielded player's damage other than from every source."""
    players = {p.id: p for p in scenario.players}
    shields: dict[str, list] = {}
    for e in scenario.effects:
        if e.is_shield and not e.once and e.to in players:
            shields.setdefault(e.to, []).append(e)
    if not shields:
        return None
    view, asked = ScenarioView(scenario), list(asked)
    for r, its in shields.items():
        life = players[r].life
        counted = [p for p in asked if p.to in (r, ANY)]
        if any(p != Pair(ANY, r) for p in counted) or (life is not None and life <= 0):
            return None
        names = sorted(e.id for e in its)
        for s in view.creatures:
            if r not in view.reachable(s):
                continue
            if sorted(c.name for c in changes(view, s, r)) != names:
                return None
            if view.has(s, INFECT) or view.toxic(s):
                return None
            if view.has(s, LIFELINK) and not _gains_in_vain(players[view.controller(s)]):
                return None
    prevented = {r: sum(e.amount for e in its) for r, its in shields.items()}
    removed = {e.id for its in shields.values() for e in its}

    def raised(player):
        if player.life is None or player.id not in prevented:
            return player
        return replace(player, life=player.life + prevented[player.id])

    without = replace(
        scenario,
        effects=tuple(e for e in scenario.effects if e.id not in removed),
        players=tuple(map(raised, scenario.players)),
    )
    return AsLife(without, prevented)
