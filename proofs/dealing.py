"""Properties of dealing damage: CR 120.4b, 615, 616.1, 701.10g, 702.16e."""

from lethal.combat import ADD, DOUBLE, PREVENT
from lethal.proving import Claim, all_of, fails, holds, implies, ite, negate
from lethal.rules.dealing import PROTECTION, Change, apply, orders_effects

DOUBLER, OTHER_DOUBLER = Change("dictate", DOUBLE), Change("fiery", DOUBLE)
PROTECTED = Change("protection from wolves", PROTECTION)
SHIELD = Change("shield", PREVENT)


def _gives(outcome, dealt, left):
    """apply's (damage, shield left) is (dealt, left)."""
    return all_of((outcome[0] == dealt, outcome[1] == left))


def _event(combat):
    """An event's damage and what is left of a prevention shield on its recipient: any
    amounts from 0 up."""
    damage, shield = combat.integer("damage"), combat.integer("shield")
    return damage, shield, all_of((damage >= 0, shield >= 0))


@holds(cites=["702.16e"])
def protection_prevents_all_the_damage(combat):
    """Protection from a quality prevents all the damage a source of that quality would deal,
    and leaves a prevention shield as it was."""
    damage, shield, any_event = _event(combat)
    return Claim(any_event, _gives(apply(PROTECTED, damage, shield), 0, shield))


@holds(cites=["615"])
def a_shield_prevents_up_to_its_amount_and_keeps_the_rest(combat):
    """A prevention shield prevents the damage up to what it has left, and keeps what it did
    not use for the next damage."""
    damage, shield, any_event = _event(combat)
    dealt, left = apply(SHIELD, damage, shield)
    return Claim(
        any_event,
        all_of(
            (
                dealt == ite(damage > shield, damage - shield, 0),
                left == ite(shield > damage, shield - damage, 0),
            )
        ),
    )


@holds(cites=["701.10g"])
def a_doubler_gives_twice_the_damage(combat):
    """A damage doubler makes the source deal twice the damage, and leaves a shield as it
    was."""
    damage, shield, any_event = _event(combat)
    return Claim(any_event, _gives(apply(DOUBLER, damage, shield), 2 * damage, shield))


@holds(cites=["614", "616.1f"])
def that_much_plus_n_adds_n_to_damage_still_dealt(combat):
    """An effect dealing "that much damage plus N" instead adds N to damage still dealt."""
    damage, shield, any_event = _event(combat)
    more = combat.integer("n")
    added = Change("torbran", ADD, more)
    scope = all_of((any_event, damage >= 1, more >= 0))
    return Claim(scope, _gives(apply(added, damage, shield), damage + more, shield))


@holds(cites=["702.16e", "615", "701.10g", "616.1f"])
def no_effect_changes_damage_that_is_already_zero(combat):
    """Once damage is all prevented, no effect changes it: protection, a shield, a doubler
    or "plus N" leave 0 damage at 0 and the shield as it was (the Torbran ruling)."""
    shield, more = combat.integer("shield"), combat.integer("n")
    effects = (PROTECTED, SHIELD, DOUBLER, Change("torbran", ADD, more))
    return Claim(
        all_of((shield >= 0, more >= 0)),
        all_of(_gives(apply(effect, 0, shield), 0, shield) for effect in effects),
    )


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
    """The player dealt damage, or the controller of the permanent dealt damage (of a battle:
    its controller, not its protector), orders the effects on that damage (a shield and a
    doubler, say): never another player."""
    players = (
        implies(combat.is_player(q), orders_effects(combat, p, q) == (p == q))
        for p in combat.players
        for q in combat.players
    )
    permanents = (
        implies(combat.present[x], orders_effects(combat, p, x) == combat.controls(p, x))
        for p in combat.players
        for x in combat.attackers + combat.blockers + combat.planeswalkers  # creatures or not
    )
    return all_of((*players, *permanents))
