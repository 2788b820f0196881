"""Properties of the two abilities that change the assignment: assigning combat damage equal
to toughness (Doran, the Siege Tower; 510.1a) and assigning combat damage as though the
creature weren't blocked (Thorn Elemental; 510.1b-c and the Rhox rulings of 2018-04-27).

Each is stated from the card texts and the rules, in the terms of `_facts`, not with the
model's own functions: see docs/readings.md, "Assigning as though unblocked, and toughness
as damage"."""

from lethal.proofs._facts import (
    DORAN,
    THORN,
    TOPW,
    TRAMPLE,
    assigns,
    attacks_in_combat,
    blocking,
    damage_of,
    in_this_step,
    lethal_assigned,
    may_assign_to,
    on_planeswalker_then_controller,
    past_blockers,
    with_row,
)
from lethal.proving import Claim, all_of, any_of, fails, holds, implies, ite, negate, total


def _unblocked_at_a_player(combat, x, a0):
    """x is legal, a0 is unblocked and attacks a player in the only combat damage step."""
    return all_of(
        (
            combat.legal(x),
            combat.step_is("only"),
            combat.is_attacking(a0),
            negate(combat.is_blocked(a0)),
            any_of(combat.attacks(a0, p) for p in combat.defenders),
        )
    )


@holds(cites=["510.1a"])
def by_toughness_an_unblocked_creature_assigns_its_toughness_to_the_player(combat):
    """An unblocked creature that assigns combat damage equal to its toughness assigns the
    player it attacks exactly its toughness, whatever its power (a 0/5 assigns 5)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    scope = all_of((_unblocked_at_a_player(combat, x, a0), combat.has(a0, DORAN)))
    return Claim(
        scope,
        all_of(
            implies(combat.attacks(a0, p), x.amounts.get(a0, p) == combat.toughness(a0))
            for p in combat.defenders
        ),
    )


@fails(cites=["510.1a"])
def by_toughness_a_creature_still_assigns_its_power(combat):
    """An unblocked creature that assigns combat damage equal to its toughness assigns its
    power (0 if that is 0 or less) to the player it attacks (false: its toughness, so a 0/5
    assigns 5)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    power = combat.power(a0)
    scope = all_of((_unblocked_at_a_player(combat, x, a0), combat.has(a0, DORAN)))
    return Claim(
        scope,
        all_of(
            implies(combat.attacks(a0, p), x.amounts.get(a0, p) == ite(power > 0, power, 0))
            for p in combat.defenders
        ),
    )


@holds(cites=["510.1a", "510.4"])
def by_toughness_a_creature_in_combat_never_assigns_nothing(combat):
    """A creature that assigns combat damage equal to its toughness, in a step it assigns in
    and with somewhere to assign, assigns some: its toughness is at least 1, whatever its
    power. (Without Thorn Elemental's ability, which may leave it a way with nowhere to
    assign.)"""
    x = combat.assignment()

    def by_toughness(c):
        somewhere = any_of(may_assign_to(combat, c, r) for r in combat.recipients)
        return all_of(
            (combat.has(c, DORAN), negate(combat.has(c, THORN)), in_this_step(combat, c), somewhere)
        )

    # An attacker and a blocker: the other slots of each kind are these, renamed.
    creatures = (combat.attackers[0], combat.blockers[0])
    return Claim(
        all_of((combat.legal(x), any_of(by_toughness(c) for c in creatures))),
        all_of(
            implies(by_toughness(c), x.amounts.sent_by(c) == combat.toughness(c)) for c in creatures
        ),
    )


def _on_blockers(combat, amounts, a0):
    """What a0 assigns to creatures blocking it."""
    return total(ite(blocks, amounts.get(a0, b), 0) for b, blocks in blocking(combat, a0))


def _tramples(combat, a0):
    return any_of((combat.has(a0, TRAMPLE), combat.has(a0, TOPW)))


@holds(cites=["510.1b", "510.1c"])
def as_though_unblocked_never_splits_between_blockers_and_what_it_attacks(combat):
    """A blocked creature without trample that may assign its combat damage as though it
    weren't blocked assigns either nothing past its blockers or nothing to them: all of it
    to what it attacks, or its normal assignment (Rhox ruling of 2018-04-27)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    scope = all_of((combat.legal(x), combat.has(a0, THORN), negate(_tramples(combat, a0))))
    split = all_of(
        (_on_blockers(combat, x.amounts, a0) > 0, past_blockers(combat, x.amounts, a0) > 0)
    )
    return Claim(scope, negate(split))


@fails(cites=["510.1b", "510.1c", "702.19b"])
def as_though_unblocked_never_splits_even_with_trample(combat):
    """A trampler that may assign as though it weren't blocked never assigns both to its
    blockers and past them (false: its normal assignment with trample may give the blockers
    lethal damage and the rest past them)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    scope = all_of((combat.legal(x), combat.has(a0, THORN), _tramples(combat, a0)))
    split = all_of(
        (_on_blockers(combat, x.amounts, a0) > 0, past_blockers(combat, x.amounts, a0) > 0)
    )
    return Claim(scope, negate(split))


@holds(cites=["702.19b", "702.2c"])
def with_damage_on_its_blockers_the_rest_goes_past_only_after_lethal_damage(combat):
    """A creature that may assign as though it weren't blocked but puts some of its damage
    on a creature blocking it (one it does not attack) makes its normal assignment: anything
    past its blockers needs lethal damage on every one of them first (702.19b)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    on_a_blocker = any_of(
        all_of((blocks, negate(combat.attacks(a0, b)), x.amounts.get(a0, b) > 0))
        for b, blocks in blocking(combat, a0)
    )
    scope = all_of(
        (
            combat.legal(x),
            combat.has(a0, THORN),
            on_a_blocker,
            past_blockers(combat, x.amounts, a0) > 0,
        )
    )
    return Claim(
        scope,
        all_of(
            implies(blocks, lethal_assigned(combat, x.amounts, b))
            for b, blocks in blocking(combat, a0)
        ),
    )


@holds(cites=["510.1b", "510.1c", "506.4c"])
def as_though_unblocked_it_may_assign_all_to_what_it_attacks(combat):
    """A blocked creature that may assign as though it weren't blocked, and that assigns
    combat damage this step, may assign all of it to the player, planeswalker or battle it
    attacks, when that is still in combat: whatever its blockers need, and with or without
    trample."""
    a0 = combat.attackers[0]
    targets = (*combat.defenders, *combat.planeswalkers)

    def all_there(c):
        row = {r: ite(attacks_in_combat(c, a0, r), damage_of(c, a0), 0) for r in c.recipients}
        return with_row(c.simplest_assignment(), a0, row)

    def body(amounts):
        return all_of(
            implies(attacks_in_combat(combat, a0, t), amounts.get(a0, t) == damage_of(combat, a0))
            for t in targets
        )

    scope = all_of(
        (
            assigns(combat, a0),
            combat.is_blocked(a0),
            combat.has(a0, THORN),
            any_of(attacks_in_combat(combat, a0, t) for t in targets),
        )
    )
    return Claim(scope, combat.some(body, witness=all_there))


@holds(cites=["702.19c", "510.1b"])
def as_though_unblocked_trample_over_planeswalkers_reaches_the_controller(combat):
    """A blocked creature with trample over planeswalkers that may assign as though it
    weren't blocked, attacking a planeswalker still in combat, may give it damage equal to
    its loyalty and the rest to its controller, as an unblocked one may (Thrasta ruling,
    docs/readings.md): whatever its blockers need, even when the planeswalker is a creature
    blocking it."""
    a0, p0 = combat.attackers[0], combat.planeswalkers[0]
    loyalty = combat.loyalty(p0)
    rest = damage_of(combat, a0) - loyalty

    scope = all_of(
        (
            assigns(combat, a0),
            combat.is_blocked(a0),
            combat.has(a0, THORN),
            combat.has(a0, TOPW),
            combat.attacks(a0, p0),
            combat.is_planeswalker(p0),
            negate(combat.removed(p0)),
            rest >= 1,
        )
    )
    return Claim(scope, on_planeswalker_then_controller(combat, a0, p0, loyalty, rest))
