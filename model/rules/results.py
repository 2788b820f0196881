"""What damage dealt does, and the state-based actions that follow: CR 120.3, 702.15,
702.80, 702.90, 702.164, 704.5a, c, f, g, h, 701.19.

Written with `ops`, so that it runs on plain numbers in `dealing` and on unknowns in proofs.
The amount here is damage *dealt*, after prevention and every other change (615.6: prevented
damage is never dealt, so it has no result at all).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..keywords import DEATHTOUCH, INDESTRUCTIBLE, INFECT, LIFELINK, WITHER
from ..ops import Term, all_of, any_of, ite, negate

POISON_TO_LOSE = 10  # 704.5c


@dataclass(frozen=True)
class Result:
    """The results of one damage event (120.3), each 0 where it has none."""

    life_lost: Term  # 120.3a: by the player dealt damage
    poison: Term  # 120.3b, 120.3g: poison counters given to the player dealt damage
    counters: Term  # 120.3d: -1/-1 counters put on the creature dealt damage
    marked: Term  # 120.3e: damage marked on the creature
    loyalty: Term  # 120.3c: loyalty counters removed from the planeswalker
    defense: Term  # 120.3h: defense counters removed from the battle
    gained: Term  # 120.3f, 702.15b: life gained by the source's controller
    deathtouch: Term  # 704.5h: a creature dealt damage by a source with deathtouch


def result(view, source: str, recipient: str, amount: Term) -> Result:
    """What `amount` combat damage dealt by source to recipient does (120.3). A permanent
    that is both a creature and a planeswalker gets both results (120.3c, d-e)."""
    infect, wither = view.has(source, INFECT), view.has(source, WITHER)
    dealt = amount > 0
    to_player = view.is_player(recipient)
    to_creature = view.is_creature(recipient)
    as_counters = any_of((infect, wither))  # 120.3d, 702.80a, 702.90c
    return Result(
        life_lost=ite(all_of((to_player, negate(infect))), amount, 0),  # 120.3a, 702.90b
        # 120.3b; 120.3g, 702.164c: combat damage from a creature with toxic adds its total
        # toxic value, whatever the amount (the Phyrexia: All Will Be One rulings).
        poison=ite(to_player, ite(infect, amount, 0) + ite(dealt, view.toxic(source), 0), 0),
        counters=ite(all_of((to_creature, as_counters)), amount, 0),
        marked=ite(all_of((to_creature, negate(as_counters))), amount, 0),
        loyalty=ite(view.is_planeswalker(recipient), amount, 0),
        defense=ite(view.is_battle(recipient), amount, 0),
        gained=ite(view.has(source, LIFELINK), amount, 0),
        deathtouch=all_of((to_creature, dealt, view.has(source, DEATHTOUCH))),
    )


def loses(life: Term | None, poison: Term) -> Term:
    """704.5a, 704.5c: 0 or less life, or ten or more poison counters; a player whose life
    total the file leaves out (None) loses by poison alone."""
    if life is None:
        return _poisoned(poison)
    return any_of((life <= 0, _poisoned(poison)))


def _poisoned(poison: Term) -> Term:
    return poison >= POISON_TO_LOSE


def game_ends(losing: Term, players: int) -> Term:
    """104.2a, 104.4a: `losing` of the game's `players` have lost, all but one (the one left
    wins) or all (a draw)."""
    return losing >= players - 1


def toughness_gone(toughness: Term, counters: Term) -> Term:
    """704.5f: toughness 0 or less after -1/-1 counters: put into the graveyard, which is not
    destruction, so neither indestructible nor regeneration helps."""
    return toughness - counters <= 0


def lethal_damage(toughness: Term, counters: Term, marked: Term) -> Term:
    """704.5g: toughness above 0 and damage marked at least that toughness."""
    left = toughness - counters
    return all_of((left > 0, marked >= left))


def destroyed(view, creature: str, counters: Term, marked: Term, deathtouched: Term) -> Term:
    """704.5g-h: lethal damage, or damage from a deathtouch source since the last check,
    even as -1/-1 counters; not an indestructible creature (702.12b). Whether a
    regeneration shield then replaces the destruction is `regenerates`."""
    toughness = view.toughness(creature)
    return all_of(
        (
            negate(view.has(creature, INDESTRUCTIBLE)),
            negate(toughness_gone(toughness, counters)),
            any_of((lethal_damage(toughness, counters, marked), deathtouched)),
        )
    )


def regenerates(view, creature: str, is_destroyed: Term) -> Term:
    """701.19a: a regeneration shield replaces the destruction: all damage is removed, the
    creature is tapped and removed from combat. 704.5g and h at once are one destruction
    (704.3: the state-based actions happen as one event), so one shield is used."""
    return all_of((is_destroyed, view.regeneration_shields(creature) > 0))
