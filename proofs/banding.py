"""Properties of banding: CR 702.22c, 702.22j-k."""

from lethal.proofs._facts import (
    THORN,
    assigns,
    attacks_in_combat,
    banding_among,
    tramples,
    with_row,
)
from lethal.proving import Claim, all_of, any_of, fails, holds, implies, ite, negate, total
from lethal.rules import banding


def _blockers_of(combat, a):
    return [(b, combat.blocks(b, a)) for b in combat.creatures]


@holds(cites=["702.22j"])
def the_defending_player_divides_an_attackers_damage_exactly_when_banding_blocks_it(combat):
    """The defending player divides an attacking creature's combat damage exactly when it
    is blocked by a creature with banding, or by both a [quality] creature with "bands with
    other [quality]" and another [quality] creature."""
    a0 = combat.attackers[0]  # any attacker: the slots are interchangeable
    expected = all_of((combat.is_attacking(a0), banding_among(combat, _blockers_of(combat, a0))))
    return banding.defending_player_divides(combat, a0) == expected


@holds(cites=["702.22j"])
def a_lone_bands_with_other_blocker_changes_nothing(combat):
    """An attacking creature blocked by one creature without banding (with "bands with
    other" or not) has its damage divided by the active player: "bands with other" needs
    another creature of the quality beside it."""
    a0, b0 = combat.attackers[0], combat.blockers[0]
    alone = all_of(negate(combat.blocks(b, a0)) for b in combat.creatures if b != b0)
    scope = all_of((combat.blocks(b0, a0), alone, negate(combat.has(b0, "banding"))))
    return Claim(scope, negate(banding.defending_player_divides(combat, a0)))


@holds(cites=["702.22k"])
def the_active_player_divides_a_blockers_damage_exactly_when_it_blocks_banding(combat):
    """The active player divides a blocking creature's combat damage exactly when it blocks
    a creature with banding, or both a [quality] creature with "bands with other [quality]"
    and another [quality] creature."""
    b0 = combat.blockers[0]  # any blocker: the slots are interchangeable
    blocked = [(a, combat.blocks(b0, a)) for a in combat.attackers]
    expected = all_of((combat.is_blocking(b0), banding_among(combat, blocked)))
    return banding.active_player_divides(combat, b0) == expected


@holds(cites=["702.22c"])
def a_band_has_banding_and_at_most_one_without_or_shares_a_quality(combat):
    """Every attacking band holds one or more creatures with banding and at most one
    without, or creatures that all have a quality, one of which "bands with other" it."""

    def allowed(x):
        band = [(x, True)] + [(y, combat.banded(x, y)) for y in combat.attackers if y != x]
        with_banding = any_of(all_of((inside, combat.has(m, "banding"))) for m, inside in band)
        without = total(
            ite(all_of((inside, negate(combat.has(m, "banding")))), 1, 0) for m, inside in band
        )
        by_quality = any_of(
            all_of(
                (
                    all_of(implies(inside, combat.has_quality(m, q)) for m, inside in band),
                    any_of(all_of((inside, combat.bands_with_other(m, q))) for m, inside in band),
                )
            )
            for q in combat.qualities
        )
        return any_of((all_of((with_banding, without <= 1)), by_quality))

    return all_of(
        implies(any_of(combat.banded(x, y) for y in combat.attackers if y != x), allowed(x))
        for x in combat.attackers
    )


@holds(cites=["702.22j"])
def banding_blocker_lets_the_defender_keep_damage_off_the_player(combat):
    """When banding blocks an attacker, the defending player divides its damage, and can
    keep all of it off every player, whatever the other creatures assign."""
    x = combat.assignment()
    a0 = combat.attackers[0]

    def moved(c):
        # Its damage to players goes onto its first blocker instead: no blocker gets less,
        # so every other creature's division stays legal. With Thorn Elemental's ability,
        # damage it sends to the planeswalker it attacks may be all of it as though it
        # weren't blocked: then the rest goes there too, not onto a blocker.
        to_players = total(x.amounts.get(a0, p) for p in c.players)
        onto = {
            p: all_of(
                (
                    c.has(a0, THORN),
                    attacks_in_combat(c, a0, p),
                    negate(c.blocks(p, a0)),
                    x.amounts.get(a0, p) > 0,
                )
            )
            for p in c.planeswalkers
        }
        to_planeswalker = any_of(onto.values())
        row, before = {}, False
        for r in c.recipients:
            first = all_of((c.blocks(r, a0), negate(before), negate(to_planeswalker)))
            before = any_of((before, c.blocks(r, a0)))
            kept = 0 if r in c.players else x.amounts.get(a0, r)
            row[r] = total((kept, ite(any_of((first, onto.get(r, False))), to_players, 0)))
        return with_row(x.amounts, a0, row)

    def kept_off(amounts):
        return all_of(amounts.get(a0, p) == 0 for p in combat.players)

    scope = all_of(
        (
            combat.legal(x),
            combat.is_attacking(a0),
            banding_among(combat, _blockers_of(combat, a0)),
        )
    )
    defender_divides = banding.defending_player_divides(combat, a0)
    return Claim(scope, all_of((defender_divides, combat.some(kept_off, witness=moved))))


@fails(cites=["702.22j", "702.19b"])
def active_player_can_always_trample_excess_over(combat):
    """The active player divides a blocked trampler's damage, so can always trample excess
    over (false: a blocker with banding gives that choice to the defending player)."""
    a0 = combat.attackers[0]
    scope = all_of((assigns(combat, a0), combat.is_blocked(a0), tramples(combat, a0)))
    return Claim(scope, negate(banding.defending_player_divides(combat, a0)))
