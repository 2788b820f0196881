"""Properties of banding: CR 702.22j-k."""

from lethal.proofs._facts import blocking, with_row
from lethal.proving import Claim, all_of, any_of, fails, holds, ite, negate, total
from lethal.rules import banding


@holds(cites=["702.22j"])
def banding_blocker_lets_the_defender_keep_damage_off_the_player(combat):
    """When banding blocks an attacker, the defending player, who then divides its damage,
    can keep all of it off the player, whatever the other creatures assign."""
    x = combat.assignment()

    def kept_off(a):
        def moved(c):
            # Its damage to the player goes onto its first blocker instead: no blocker gets
            # less, so every other creature's division stays legal.
            blockers = blocking(c, a)
            firsts, before = [], False
            for b, blocks in blockers:
                firsts.append((b, all_of((blocks, negate(before)))))
                before = any_of((before, blocks))
            row = {r: x.amounts.get(a, r) for r in c.recipients}
            row[c.defender] = 0
            for b, first in firsts:
                row[b] = total((row[b], ite(first, x.amounts.get(a, c.defender), 0)))
            return with_row(x.amounts, a, row)

        return combat.some(lambda amounts: amounts.get(a, combat.defender) == 0, witness=moved)

    a0 = combat.attackers[0]  # any attacker: the slots are interchangeable
    scope = all_of((combat.legal(x), banding.defending_player_divides(combat, a0)))
    return Claim(scope, kept_off(a0))


@fails(cites=["702.22j", "702.19b"])
def active_player_can_always_trample_excess_over(combat):
    """The active player divides a blocked trampler's damage, so can always trample excess
    over (false: a blocker with banding gives that choice to the defending player)."""
    a0 = combat.attackers[0]
    scope = all_of(
        (
            combat.assigns(a0),
            combat.is_blocked(a0),
            any_of((combat.has(a0, "trample"), combat.has(a0, "trample over planeswalkers"))),
        )
    )
    return Claim(scope, negate(banding.defending_player_divides(combat, a0)))
