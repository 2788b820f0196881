"""Properties of the plain division of combat damage: CR 510.1, 510.1a-d."""

from lethal.proving import all_of, holds, implies, ite, negate


@holds(cites=["510.1a"])
def assigned_damage_equals_power(combat):
    """A creature that assigns combat damage assigns exactly its power; the others nothing."""
    x = combat.assignment()
    return implies(
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
    return implies(
        combat.legal(x),
        all_of(
            implies(
                all_of(
                    (
                        combat.is_blocked(a),
                        negate(combat.has(a, "trample")),
                        negate(combat.has(a, "trample over planeswalkers")),
                    )
                ),
                x.amounts.get(a, combat.defender) == 0,
            )
            for a in combat.attackers
        ),
    )


@holds(cites=["510.1"])
def a_legal_assignment_always_exists(combat):
    """The rules never leave a combat damage step with no legal assignment."""
    return combat.some(lambda amounts: True, witness=lambda c: c.simplest_assignment())
