"""Properties of the plain division of combat damage: CR 510.1, 510.1a-d."""

from lethal.proving import Claim, all_of, any_of, fails, holds, ite, negate


@holds(cites=["510.1a"])
def assigned_damage_equals_power(combat):
    """A creature that assigns combat damage assigns exactly its power; the others nothing."""
    x = combat.assignment()
    return Claim(
        combat.legal(x),
        all_of(
            x.amounts.sent_by(c) == ite(combat.assigns(c), combat.power(c), 0)
            for c in combat.creatures
        ),
    )


@holds(cites=["510.1c", "702.19b"])
def blocked_without_trample_never_reaches_player(combat):
    """A blocked creature without trample assigns no combat damage to the player."""
    x = combat.assignment()
    a0 = combat.attackers[0]  # any attacker: the slots are interchangeable
    scope = all_of(
        (
            combat.legal(x),
            combat.is_blocked(a0),
            negate(combat.has(a0, "trample")),
            negate(combat.has(a0, "trample over planeswalkers")),
        )
    )
    return Claim(scope, x.amounts.get(a0, combat.defender) == 0)


@holds(cites=["510.1"])
def a_legal_assignment_always_exists(combat):
    """The rules never leave a combat damage step with no legal assignment."""
    return Claim(True, combat.some(lambda amounts: True, witness=lambda c: c.simplest_assignment()))


@fails(cites=["510.1c", "702.19d"])
def blocked_creature_with_no_blockers_deals_no_damage(combat):
    """A blocked creature whose blockers have all left combat assigns no combat damage
    (false: with trample it assigns all of it to the player, 702.19d)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    scope = all_of(
        (
            combat.legal(x),
            combat.is_blocked(a0),
            negate(any_of(combat.blocks(b, a0) for b in combat.creatures)),
        )
    )
    return Claim(scope, x.amounts.sent_by(a0) == 0)


@fails(cites=["510.1c"])
def non_trampler_must_kill_one_blocker_before_the_next(combat):
    """A blocked creature assigns lethal damage to its first blocker before any to the next
    (false since 2024-11-08: there is no damage assignment order)."""
    x = combat.assignment()
    a0, b0, b1 = combat.attackers[0], combat.blockers[0], combat.blockers[1]
    lethal = combat.marked(b0) + x.amounts.get(a0, b0) >= combat.toughness(b0)
    scope = all_of(
        (combat.blocks(b0, a0), combat.blocks(b1, a0), negate(combat.has(a0, "trample")))
    )
    return Claim(all_of((scope, combat.legal(x), x.amounts.get(a0, b1) > 0)), lethal)
