"""Properties of trample over planeswalkers: CR 702.19c, 702.19e-f (and the Thrasta rulings)."""

from lethal.proofs._facts import blocking, still_needs, with_row
from lethal.proving import Claim, all_of, any_of, fails, holds, ite, negate, total

TOPW = "trample over planeswalkers"


def _received(combat, amounts, p):
    return total(amounts.get(s, p) for s in combat.creatures)


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
            combat.attacks(a0, combat.defender),
        )
    )
    x = combat.assignment()
    return Claim(swapped, combat.legal(x) == other.legal(x))


@holds(cites=["702.19c"])
def controller_damage_needs_loyalty_on_the_planeswalker(combat):
    """Damage reaches a planeswalker's controller from a creature attacking it only once the
    planeswalker is assigned damage at least equal to its loyalty."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    scope = all_of(
        (
            combat.legal(x),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
            x.amounts.get(a0, combat.defender) > 0,
        )
    )
    return Claim(scope, _received(combat, x.amounts, p0) >= combat.loyalty(p0))


@holds(cites=["702.19f"])
def plain_trample_attacking_a_planeswalker_never_reaches_its_controller(combat):
    """A creature without trample over planeswalkers that attacks a planeswalker (or a
    battle) assigns no combat damage to the defending player."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    scope = all_of((combat.legal(x), combat.attacks(a0, p0), negate(combat.has(a0, TOPW))))
    return Claim(scope, x.amounts.get(a0, combat.defender) == 0)


@fails(cites=["702.19c"])
def topw_excess_to_controller_is_at_most_power_minus_loyalty(combat):
    """A creature with trample over planeswalkers assigns to the controller at most its power
    minus the planeswalker's loyalty (false: other attackers' damage counts too)."""
    x = combat.assignment()
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    most = ite(combat.power(a0) > combat.loyalty(p0), combat.power(a0) - combat.loyalty(p0), 0)
    scope = all_of(
        (
            combat.has(a0, TOPW),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
        )
    )
    return Claim(all_of((scope, combat.legal(x))), x.amounts.get(a0, combat.defender) <= most)


def _onto(combat, amount_on_p):
    """a0, with trample over planeswalkers and the only attacker, attacks planeswalker p0
    (in combat); some legal assignment puts `amount_on_p` on p0 and the rest on D."""
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    on_p = amount_on_p(combat)
    rest = combat.power(a0) - on_p
    scope = all_of(
        (
            combat.has(a0, TOPW),
            combat.assigns(a0),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
            rest >= 1,
            *(negate(combat.is_attacking(a)) for a in combat.attackers[1:]),
        )
    )

    def onto(c):
        row = {r: 0 for r in c.recipients if r != a0}
        row[p0], row[c.defender] = on_p, rest
        return with_row(c.simplest_assignment(), a0, row)

    wanted = combat.some(
        lambda amounts: all_of(
            (amounts.get(a0, p0) == on_p, amounts.get(a0, combat.defender) == rest)
        ),
        witness=onto,
    )
    return a0, p0, scope, wanted


@fails(cites=["702.19c", "702.2c"])
def deathtouch_makes_one_damage_enough_for_a_planeswalker(combat):
    """With deathtouch, 1 damage on the attacked planeswalker lets the rest go to its
    controller (false: deathtouch does not make damage to a planeswalker enough)."""
    a0, p0, scope, wanted = _onto(combat, lambda c: 1)
    unblocked = negate(any_of(blocks for _, blocks in blocking(combat, a0)))
    return Claim(all_of((scope, combat.has(a0, "deathtouch"), unblocked)), wanted)


@fails(cites=["702.19c", "702.19b"])
def creature_planeswalker_blocker_needs_only_its_toughness(combat):
    """A creature planeswalker blocking the creature that attacks it needs only lethal damage
    before the rest goes to its controller (false: it needs its loyalty too, whichever is
    greater)."""
    p0 = combat.planeswalkers[0]
    a0, p0, scope, wanted = _onto(combat, lambda c: still_needs(c, p0))
    alone = all_of(
        (combat.blocks(p0, a0), *(negate(blocks) for b, blocks in blocking(combat, a0) if b != p0))
    )
    return Claim(all_of((scope, alone)), wanted)
