"""The best course of a whole combat whose first step may end the game, joined from the
courses of its independent parts.

Parts share nothing in either step but the players (`solver/combat_parts`), and a player
loses on what all of them deal together: the life each loses and gains (120.3a, 120.3f)
and the poison counters each gets (120.3b, 120.3g) are sums over the parts. So each part's
first-step assignments are tried apart, each with the best second step after it, and the
parts are joined by a dynamic programme over those sums: for each sum reached, the best
value over the phase if the game goes on, and the best of the first step alone if it ends
there (104.2a, 104.4a: all players but one, or all, have lost, and there is no second
step). The sums are whole numbers within the damage the parts can deal, so the programme
holds a few of them for each player who could lose; one who cannot is left out.

Plain values only: the parts' courses are found by the caller (`whole_combat`).

    best_joined(players, options, maximize) -> (value, [Option of each part], ended)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..combat import Entry, Player
from ..rules.results import POISON_TO_LOSE, game_ends, loses


@dataclass(frozen=True)
class Option:
    """One first-step assignment of a part, with the best second step after it."""

    first: tuple[Entry, ...]  # the first step's assignment
    second: tuple[Entry, ...]  # the second step's, if the game goes on
    value_first: int  # what the first step deals to the target
    value: int  # what both steps deal to the target, if the game goes on
    lost: dict[str, int]  # each player's net life lost in the first step (lost - gained)
    poison: dict[str, int]  # the poison counters each player gets in the first step


def best_joined(
    players: Sequence[Player], options: Sequence[Sequence[Option]], maximize: bool
) -> tuple[int, list[Option], bool]:
    """The best value over the phase of one option of each part, those options, and whether
    the game ends after their first step."""
    watched = [p for p in players if _may_lose(p, options)]

    def step(sums: tuple, option: Option) -> tuple:
        return tuple(
            (lost + option.lost[p.id], min(POISON_TO_LOSE, poison + option.poison[p.id]))
            for p, (lost, poison) in zip(watched, sums, strict=True)
        )

    better = (lambda a, b: a > b) if maximize else (lambda a, b: a < b)
    # For each sum: the best (value, chain of options) if the game goes on, and if it ends.
    # A chain is (option, the rest): each layer shares the chains of the one before.
    start = tuple((0, 0) for _ in watched)
    layer: dict[tuple, tuple] = {start: ((0, None), (0, None))}
    for choices in options:
        joined: dict[tuple, tuple] = {}
        for sums, (going, ending) in layer.items():
            for option in choices:
                key = step(sums, option)
                on = (going[0] + option.value, (option, going[1]))
                off = (ending[0] + option.value_first, (option, ending[1]))
                best = joined.get(key)
                if best is None:
                    joined[key] = (on, off)
                    continue
                joined[key] = (
                    on if better(on[0], best[0][0]) else best[0],
                    off if better(off[0], best[1][0]) else best[1],
                )
        layer = joined
    found, ended = None, False
    for sums, (going, ending) in layer.items():
        ends = _ends(players, watched, sums)
        candidate = ending if ends else going
        if found is None or better(candidate[0], found[0]):
            found, ended = candidate, ends
    value, chain = found
    chosen = []
    while chain is not None:
        option, chain = chain
        chosen.append(option)
    return value, chosen[::-1], ended


def _may_lose(player: Player, options: Sequence[Sequence[Option]]) -> bool:
    """Whether some choice of options makes the player lose (704.5a, 704.5c)."""
    most_lost = sum(max(o.lost[player.id] for o in choices) for choices in options)
    most_poison = sum(max(o.poison[player.id] for o in choices) for choices in options)
    life = None if player.life is None else player.life - most_lost
    return loses(life, player.poison + most_poison)


def _ends(players: Sequence[Player], watched: Sequence[Player], sums: tuple) -> bool:
    """All players but one, or all, have lost (104.2a, 104.4a): those watched on the sums,
    the others as they began (a player who cannot lose here has not)."""
    losing = sum(
        loses(None if p.life is None else p.life - lost, p.poison + poison)
        for p, (lost, poison) in zip(watched, sums, strict=True)
    )
    return game_ends(losing, len(players))
