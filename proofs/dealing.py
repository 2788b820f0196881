"""Properties of dealing damage: CR 120.4b, 615, 616.1, 701.10g, 702.16e."""

from lethal.dealing import Change, apply, orders_effects
from lethal.proving import Claim, all_of, fails, holds, implies, negate

DOUBLER, OTHER_DOUBLER = Change("dictate", "double"), Change("fiery", "double")


def _in_order(amount, changes, shield=0):
    for change in changes:
        amount, shield = apply(change, amount, shield)
    return amount


@holds(cites=["701.10g", "616.1"])
def two_damage_doublers_give_four_times_in_either_order(combat):
    """Two damage doublers on the same damage give four times it, whichever applies first."""
    damage = combat.integer("damage")
    return Claim(
        damage >= 0,
        all_of(
            (
                _in_order(damage, [DOUBLER, OTHER_DOUBLER]) == 4 * damage,
                _in_order(damage, [OTHER_DOUBLER, DOUBLER]) == 4 * damage,
            )
        ),
    )


@fails(cites=["615", "616.1", "701.10g"])
def a_shield_and_a_doubler_give_the_same_in_either_order(combat):
    """A prevention shield and a damage doubler on the same damage give the same in either
    order (false: so the affected player's choice of order, 616.1, matters)."""
    damage, prevents = combat.integer("damage"), combat.integer("shield")
    shield = Change("shield", "prevent", 0)
    first_shield = _in_order(damage, [shield, DOUBLER], prevents)
    first_doubler = _in_order(damage, [DOUBLER, shield], prevents)
    return Claim(all_of((damage >= 1, prevents >= 1)), first_shield == first_doubler)


@holds(cites=["702.19b", "702.16e", "615", "701.10g"])
def legal_assignments_do_not_depend_on_what_changes_damage_dealt(combat, other):
    """Protection, prevention shields and damage doubling change the damage dealt, never
    which assignments are legal."""
    a0, b0 = combat.attackers[0], combat.blockers[0]
    changed = (
        f"{a0}.doubled",
        f"{a0}.protection from wolves",
        f"{b0}.protection from wolves",
        "D.shield",
        f"{b0}.shield",
        f"{a0}.shield",
    )
    x = combat.assignment()
    differs = all_of(
        (
            other.agrees_with(combat, but=changed),
            other.doubled(a0),
            other.protection_from(b0, "wolves"),
            other.shield("D") > 0,
            negate(combat.doubled(a0)),
        )
    )
    return Claim(differs, combat.legal(x) == other.legal(x))


@holds(cites=["616.1"])
def the_player_dealt_damage_orders_the_effects_on_it(combat):
    """The player dealt damage, or the controller of the permanent dealt damage, orders the
    effects on that damage (a shield and a doubler, say): never another player."""
    players = (
        implies(combat.is_player(q), orders_effects(combat, p, q) == (p == q))
        for p in combat.players
        for q in combat.players
    )
    permanents = (
        implies(combat.present[x], orders_effects(combat, p, x) == combat.controls(p, x))
        for p in combat.players
        for x in combat.creatures
    )
    return all_of((*players, *permanents))
