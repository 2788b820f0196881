"""Properties of trample over planeswalkers: CR 702.19c, 702.19e-f (and the Thrasta rulings)."""

from lethal.proofs._facts import (
    TOPW,
    assigns,
    blocking,
    damage_of,
    on_planeswalker_then_controller,
    received,
    still_needs,
    unblocked_by_any,
    with_row,
)
from lethal.proving import Bounds, Claim, all_of, any_of, fails, holds, implies, ite, negate


@holds(cites=["702.19c"])
def trample_over_planeswalkers_is_trample_when_attacking_a_player(combat, other):
    """Attacking a player, a creature with trample over planeswalkers has exactly the legal
    assignments it would have with trample instead."""
    a0 = combat.attackers[0]
    swapped = all_of(
        (
            other.agrees_with(combat, but=(f"{a0}.trample", f"{a0}.{TOPW}")),
            combat.has(a0, TOPW),
            negate(combat.has(a0, "trample")),
            other.has(a0, "trample"),
            negate(other.has(a0, TOPW)),
            any_of(combat.attacks(a0, p) for p in combat.defenders),
        )
    )
    x = combat.assignment()
    return Claim(swapped, combat.legal(x) == other.legal(x))


@holds(cites=["702.19c"])
def controller_damage_needs_loyalty_on_the_planeswalker(combat):
    """Damage reaches a player from a creature attacking a planeswalker still in combat only
    once the planeswalker is assigned damage at least equal to its loyalty."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    scope = all_of(
        (
            combat.legal(x),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
            any_of(x.amounts.get(a0, p) > 0 for p in combat.players),
        )
    )
    return Claim(scope, received(combat, x.amounts, p0) >= combat.loyalty(p0))


@holds(cites=["702.19f"])
def plain_trample_attacking_a_planeswalker_never_reaches_its_controller(combat):
    """A creature without trample over planeswalkers that attacks a planeswalker or a battle
    assigns no combat damage to any player."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    scope = all_of((combat.legal(x), combat.attacks(a0, p0), negate(combat.has(a0, TOPW))))
    return Claim(scope, all_of(x.amounts.get(a0, p) == 0 for p in combat.players))


@holds(cites=["702.19e", "506.4c"])
def trample_over_a_removed_planeswalker_sends_everything_to_its_controller(combat):
    """A creature with trample over planeswalkers attacking a planeswalker removed from
    combat, with no creature blocking it, assigns all its power to that planeswalker's
    controller."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    scope = all_of(
        (
            combat.legal(x),
            combat.has(a0, TOPW),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            combat.removed(p0),
            unblocked_by_any(combat, a0),
            assigns(combat, a0),
        )
    )
    return Claim(
        scope,
        all_of(
            implies(combat.controls(p, p0), x.amounts.get(a0, p) == damage_of(combat, a0))
            for p in combat.players
        ),
    )


@fails(cites=["702.19c"])
def topw_excess_to_controller_is_at_most_power_minus_loyalty(combat):
    """A creature with trample over planeswalkers assigns to the controller at most its power
    minus the planeswalker's loyalty (false: other attackers' damage counts too)."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    most = ite(
        damage_of(combat, a0) > combat.loyalty(p0), damage_of(combat, a0) - combat.loyalty(p0), 0
    )
    scope = all_of(
        (
            combat.has(a0, TOPW),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
            combat.legal(x),
        )
    )
    return Claim(
        scope,
        all_of(
            implies(combat.controls(p, p0), x.amounts.get(a0, p) <= most) for p in combat.players
        ),
    )


def _onto(combat, on_p, battle=False):
    """a0, with trample over planeswalkers, attacks p0 (a planeswalker, or a battle when
    `battle`), still in combat; some legal assignment puts `on_p` on p0 and the rest, at least
    1, on p0's controller. Returns that scope and that claim."""
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    rest = damage_of(combat, a0) - on_p
    scope = all_of(
        (
            combat.has(a0, TOPW),
            assigns(combat, a0),
            combat.attacks(a0, p0),
            combat.is_battle(p0) if battle else combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
            rest >= 1,
        )
    )
    return scope, on_planeswalker_then_controller(combat, a0, p0, on_p, rest)


@holds(cites=["702.19c"])
def exactly_the_loyalty_is_enough_before_the_controller(combat):
    """An unblocked creature with trample over planeswalkers may assign the attacked
    planeswalker exactly its loyalty and the rest to its controller."""
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    scope, wanted = _onto(combat, combat.loyalty(p0))
    return Claim(all_of((scope, negate(combat.is_blocked(a0)))), wanted)


@holds(cites=["702.19c"])
def the_loyalty_counts_every_creatures_damage(combat):
    """Whatever other creatures assign to the attacked planeswalker counts toward its
    loyalty: an unblocked creature with trample over planeswalkers need add only what is
    missing before the rest of its damage goes to the controller."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    others = received(combat, x.amounts, p0) - x.amounts.get(a0, p0)
    missing = ite(combat.loyalty(p0) > others, combat.loyalty(p0) - others, 0)
    rest = damage_of(combat, a0) - missing

    def topped_up(c):
        row = {r: 0 for r in c.recipients}
        row[p0] = missing
        for p in c.players:
            row[p] = ite(c.controls(p, p0), rest, 0)
        return with_row(x.amounts, a0, row)

    def body(amounts):
        return all_of(
            implies(combat.controls(p, p0), amounts.get(a0, p) == rest) for p in combat.players
        )

    scope = all_of(
        (
            combat.legal(x),
            combat.has(a0, TOPW),
            assigns(combat, a0),
            negate(combat.is_blocked(a0)),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
            # Damage taken off a blocking planeswalker could leave another trampler short.
            negate(combat.is_blocking(p0)),
            rest >= 0,
        )
    )
    return Claim(scope, combat.some(body, witness=topped_up))


@fails(cites=["702.19c", "702.2c"])
def deathtouch_makes_one_damage_enough_for_a_planeswalker(combat):
    """With deathtouch, 1 damage on the attacked planeswalker lets the rest go to its
    controller (false: deathtouch does not make damage to a planeswalker enough)."""
    a0 = combat.attackers[0]
    scope, wanted = _onto(combat, 1)
    unblocked = negate(combat.is_blocked(a0))
    return Claim(all_of((scope, unblocked, combat.has(a0, "deathtouch"))), wanted)


@fails(cites=["702.19c", "702.19b"])
def creature_planeswalker_blocker_needs_only_its_toughness(combat):
    """A creature planeswalker blocking the creature that attacks it needs only lethal damage
    before the rest goes to its controller (false: it needs its loyalty too, whichever is
    greater)."""
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    scope, wanted = _onto(combat, still_needs(combat, p0))
    alone = all_of(
        (combat.blocks(p0, a0), *(negate(blocks) for b, blocks in blocking(combat, a0) if b != p0))
    )
    return Claim(all_of((scope, alone)), wanted)


@fails(cites=["702.19c"], bounds=Bounds(loyalty=1))
def trample_over_planeswalkers_carries_excess_past_a_battle(combat):
    """An unblocked creature with trample over planeswalkers attacking a battle with defense 1
    may assign it 1 and the rest to its controller (false: 702.19c is about planeswalkers
    only; the excess stays on the battle)."""
    # Defense 1, fixed by the bounds: the smallest battle makes the smallest counterexample.
    a0 = combat.attackers[0]
    scope, wanted = _onto(combat, 1, battle=True)
    alone = all_of(negate(combat.is_attacking(a)) for a in combat.attackers[1:])
    return Claim(all_of((scope, negate(combat.is_blocked(a0)), alone)), wanted)
