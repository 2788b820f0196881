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

When both sides divide damage in that step, the active player first and the defending
players in reply (510.1), `best_in_turn` plays it so: the reply may turn on the game's end,
so for each sum the active player's parts keep every pair of values (the game going on,
the game ended) that no other beats in both.

Plain values only: the parts' courses are found by the caller (`whole_combat`).

    best_joined(players, options, maximize) -> (value, [Option of each part], ended)
    best_in_turn(players, options, mine, maximize) -> (value, [Option of each part], ended)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product

from ..combat import Entry, Player
from ..errors import TooManyAssignments
from ..limits import ASSIGNMENTS
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
    better = _better(maximize)
    found, ended = None, False
    for sums, (going, ending) in _joined(watched, list(enumerate(options)), better).items():
        ends = _ends(players, watched, sums)
        candidate = ending if ends else going
        if found is None or better(candidate[0], found[0]):
            found, ended = candidate, ends
    value, chain = found
    return value, _in_order(len(options), ended, chain), ended


def best_in_turn(
    players: Sequence[Player],
    options: Sequence[Sequence[Option]],
    mine: Callable[[Option], frozenset],
    maximize: bool,
) -> tuple[int, list[Option], bool]:
    """The value over the phase when the active player chooses its share of each part's
    first-step option (`mine`: the entries of the creatures it divides) and the defending
    players then reply in each part, knowing every choice (510.1c-d), each side for its
    own ends (`maximize`: the active player wants the most); the options played, and
    whether the game ends after their first step.

    A reply that changes no player's life or poison cannot change whether the game ends:
    where every reply to a choice leaves the same sums, the choice stands for its best
    reply if the game goes on and its best if it ends, and the part is the active player's
    alone. Those parts are joined by sums; since a reply elsewhere may turn on whether the
    game ends, each sum keeps every pair (value going on, value ended) that no other beats
    in both. Each way of choosing in the other parts is then tried, the replies there
    joined by sums as the defending players would have them, and the two sides' sums added
    to see whether the game ends."""
    watched = [p for p in players if _may_lose(p, options)]
    ours, theirs = _better(maximize), _better(not maximize)
    alone, replied = [], []
    for i, choices in enumerate(options):
        groups = _by_share(choices, mine)
        if all(len({_sums_of(watched, r) for r in replies}) == 1 for replies in groups):
            alone.append((i, [_answered(replies, theirs) for replies in groups]))
        else:
            replied.append((i, groups))
    ways = math.prod(len(groups) for _, groups in replied)
    if ways > ASSIGNMENTS.value():
        raise TooManyAssignments(
            f"the first-strike step has {ways:,} ways for the active player to divide damage "
            "where the defending players' replies change a player's life or poison, more "
            f"than the assignment limit of {ASSIGNMENTS.value():,} to try one by one; raise "
            f"{ASSIGNMENTS.flag}"
        )
    held: dict[tuple, list] = {tuple((0, 0) for _ in watched): [(0, 0, None)]}
    for i, answered in alone:
        grown: dict[tuple, list] = {}
        each = [(going, ending, _sums_of(watched, going)) for going, ending in answered]
        for sums, pairs in held.items():
            for going, ending, more in each:
                grown.setdefault(_added(sums, more), []).extend(
                    (on + going.value, off + ending.value_first, ((i, going, ending), chain))
                    for on, off, chain in pairs
                )
        held = {sums: _unbeaten(pairs, maximize) for sums, pairs in grown.items()}
    places = [i for i, _ in replied]
    found = None
    for choice in product(*(groups for _, groups in replied)):
        replies = _joined(watched, list(zip(places, choice, strict=True)), theirs)
        for sums, pairs in held.items():
            for on, off, chain in pairs:
                reply = None
                for their_sums, (going, ending) in replies.items():
                    ends = _ends(players, watched, _added(sums, their_sums))
                    here, (there, rest) = (off, ending) if ends else (on, going)
                    if reply is None or theirs(here + there, reply[0]):
                        reply = (here + there, (chain, rest), ends)
                if found is None or ours(reply[0], found[0]):
                    found = reply
    value, chains, ended = found
    return value, _in_order(len(options), ended, *chains), ended


def _answered(replies: list[Option], theirs) -> tuple[Option, Option]:
    """The defending players' best reply to one choice if the game goes on, and if it
    ends, by their ends (`theirs`)."""
    going = ending = replies[0]
    for reply in replies[1:]:
        going = reply if theirs(reply.value, going.value) else going
        ending = reply if theirs(reply.value_first, ending.value_first) else ending
    return going, ending


def _better(maximize: bool) -> Callable[[int, int], bool]:
    return (lambda a, b: a > b) if maximize else (lambda a, b: a < b)


def _sums_of(watched: Sequence[Player], option: Option) -> tuple:
    """Each watched player's net life lost and poison counters got in one option's first
    step: the sums the parts are joined on."""
    return tuple((option.lost[p.id], min(POISON_TO_LOSE, option.poison[p.id])) for p in watched)


def _added(one: tuple, other: tuple) -> tuple:
    """Two sums together, poison counted only up to as many as a player loses to."""
    return tuple(
        (lost + more, min(POISON_TO_LOSE, poison + counters))
        for (lost, poison), (more, counters) in zip(one, other, strict=True)
    )


def _joined(watched: Sequence[Player], parts: list[tuple[int, Sequence[Option]]], better) -> dict:
    """For each sum reached by one option of each part (its place, its options): the best
    (value, chain of options) if the game goes on, and the best if it ends. A chain is
    ((place, option, option), the rest), the option twice as `_in_order` reads it: each
    layer shares the chains of the one before."""
    layer: dict[tuple, tuple] = {tuple((0, 0) for _ in watched): ((0, None), (0, None))}
    for i, choices in parts:
        joined: dict[tuple, tuple] = {}
        each = [(option, _sums_of(watched, option)) for option in choices]
        for sums, (going, ending) in layer.items():
            for option, more in each:
                key = _added(sums, more)
                link = (i, option, option)
                on = (going[0] + option.value, (link, going[1]))
                off = (ending[0] + option.value_first, (link, ending[1]))
                best = joined.get(key)
                if best is None:
                    joined[key] = (on, off)
                    continue
                joined[key] = (
                    on if better(on[0], best[0][0]) else best[0],
                    off if better(off[0], best[1][0]) else best[1],
                )
        layer = joined
    return layer


def _by_share(choices: Sequence[Option], mine) -> list[list[Option]]:
    """A part's options grouped by the active player's share of them: the replies to each
    of its choices."""
    groups: dict[frozenset, list[Option]] = {}
    for option in choices:
        groups.setdefault(mine(option), []).append(option)
    return list(groups.values())


def _unbeaten(pairs: list, maximize: bool) -> list:
    """The (value going on, value ended, chain) that no other beats in both values, one of
    each pair of values."""
    sign = 1 if maximize else -1
    kept, best_ended = [], None
    for on, off, chain in sorted(pairs, key=lambda p: (-sign * p[0], -sign * p[1])):
        if best_ended is None or sign * off > best_ended:
            kept.append((on, off, chain))
            best_ended = sign * off
    return kept


def _in_order(parts: int, ended: bool, *chains) -> list[Option]:
    """The options of the chains, each part's in its place: of each link (place, option
    if the game goes on, option if it ends), the one for how the game went."""
    chosen: dict[int, Option] = {}
    for chain in chains:
        while chain is not None:
            (i, going, ending), chain = chain
            chosen[i] = ending if ended else going
    return [chosen[i] for i in range(parts)]


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
