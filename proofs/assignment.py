"""Properties of the plain division of combat damage: CR 510.1, 510.1a-d, 506.4c."""

from lethal.proofs._facts import (
    DORAN,
    THORN,
    assigns,
    blocking,
    damage_of,
    over_a_planeswalker_to,
    unblocked_by_any,
    with_row,
)
from lethal.proving import Bounds, Claim, all_of, any_of, fails, holds, implies, ite, negate, total


@holds(cites=["510.1a", "510.4"])
def assigned_damage_equals_power(combat):
    """A creature that assigns combat damage assigns exactly its power (its toughness under
    Doran's effect); the others nothing. (One that may assign as though it weren't blocked
    may also take a way that leaves it nowhere to assign: proofs/assignment_abilities.py.)"""
    x = combat.assignment()
    return Claim(
        combat.legal(x),
        all_of(
            implies(
                negate(combat.has(c, THORN)),
                x.amounts.sent_by(c) == ite(assigns(combat, c), damage_of(combat, c), 0),
            )
            for c in combat.creatures
        ),
    )


@holds(cites=["510.1a", "510.1b", "510.1c", "510.1d", "510.4"])
def the_creatures_that_assign_are_the_ones_the_rules_name(combat):
    """The model's answer to which creatures assign combat damage this step is the rules':
    those the step is for, with power above 0 and somewhere to assign it."""
    return all_of(combat.assigns(c) == assigns(combat, c) for c in combat.creatures)


@holds(cites=["510.1a"])
def a_creature_with_power_below_zero_assigns_no_combat_damage(combat):
    """A creature whose power is below 0 assigns no combat damage to anything, not a
    negative amount (510.1a: 0 or less assigns none), unless it assigns combat damage equal
    to its toughness (Doran's effect)."""
    x = combat.assignment()
    below = {
        c: all_of((combat.power(c) < 0, negate(combat.has(c, DORAN)))) for c in combat.creatures
    }
    return Claim(
        all_of((combat.legal(x), any_of(below.values()))),
        all_of(
            implies(below[c], all_of(x.amounts.get(c, r) == 0 for r in combat.recipients))
            for c in combat.creatures
        ),
    )


@fails(cites=["510.1a"])
def an_unblocked_creature_assigns_its_power_to_the_player_it_attacks(combat):
    """An unblocked creature assigns combat damage equal to its power to the player it
    attacks (false: with power below 0 it assigns none, not a negative amount)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    scope = all_of(
        (
            combat.legal(x),
            combat.step_is("only"),
            negate(combat.is_blocked(a0)),
            any_of(combat.attacks(a0, p) for p in combat.defenders),
        )
    )
    return Claim(
        scope,
        all_of(
            implies(combat.attacks(a0, p), x.amounts.get(a0, p) == combat.power(a0))
            for p in combat.defenders
        ),
    )


@holds(cites=["510.1b", "510.1c", "510.1d", "702.19c"])
def no_creature_assigns_combat_damage_to_the_active_player(combat):
    """No creature assigns combat damage to the active player: attackers assign to what they
    attack or past it, blockers to creatures."""
    x = combat.assignment()
    return Claim(
        combat.legal(x),
        all_of(x.amounts.get(c, combat.active_player) == 0 for c in combat.creatures),
    )


@holds(cites=["510.1b", "510.1c", "510.1d", "702.19b"])
def a_creature_is_assigned_damage_only_by_creatures_it_fights(combat):
    """A creature is assigned combat damage only by a creature it blocks, one blocking it,
    or one attacking it (a creature planeswalker)."""
    x = combat.assignment()
    return Claim(
        combat.legal(x),
        all_of(
            implies(
                x.amounts.get(c, r) > 0,
                any_of((combat.blocks(c, r), combat.blocks(r, c), combat.attacks(c, r))),
            )
            for c in combat.creatures
            for r in combat.creatures
        ),
    )


@holds(cites=["510.1b", "702.19c", "702.19e", "702.19f"])
def a_player_is_assigned_damage_only_by_creatures_attacking_them_or_over_a_planeswalker(combat):
    """A player is assigned combat damage only by a creature attacking them, or by one with
    trample over planeswalkers attacking a planeswalker they control."""
    x = combat.assignment()
    return Claim(
        combat.legal(x),
        all_of(
            implies(
                x.amounts.get(c, p) > 0,
                any_of((combat.attacks(c, p), over_a_planeswalker_to(combat, c, p))),
            )
            for c in combat.creatures
            for p in combat.players
        ),
    )


@holds(cites=["510.1d"])
def a_blocker_assigns_only_to_creatures_it_blocks(combat):
    """A blocking creature assigns combat damage only to the creatures it blocks."""
    x = combat.assignment()
    return Claim(
        combat.legal(x),
        all_of(
            implies(x.amounts.get(b, r) > 0, combat.blocks(b, r))
            for b in combat.blockers + combat.planeswalkers
            for r in combat.recipients
        ),
    )


@holds(cites=["510.1c", "702.19b"])
def blocked_without_trample_assigns_only_to_its_blockers(combat):
    """A blocked creature without trample (and without Thorn Elemental's ability) assigns
    combat damage only to the creatures blocking it: never to a player, planeswalker or
    battle."""
    x = combat.assignment()
    a0 = combat.attackers[0]  # any attacker: the slots are interchangeable
    scope = all_of(
        (
            combat.legal(x),
            combat.is_blocked(a0),
            negate(combat.has(a0, "trample")),
            negate(combat.has(a0, "trample over planeswalkers")),
            negate(combat.has(a0, THORN)),
        )
    )
    return Claim(
        scope,
        all_of(implies(x.amounts.get(a0, r) > 0, combat.blocks(r, a0)) for r in combat.recipients),
    )


@holds(cites=["506.4c", "510.1b", "702.19b"])
def nothing_is_assigned_to_what_was_removed_from_combat_by_its_attacker(combat):
    """A creature attacking a planeswalker or battle that was removed from combat assigns it
    no combat damage (unless it also blocks that creature)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    return Claim(
        combat.legal(x),
        all_of(
            implies(
                all_of((combat.attacks(a0, p), combat.removed(p), negate(combat.blocks(p, a0)))),
                x.amounts.get(a0, p) == 0,
            )
            for p in combat.planeswalkers
        ),
    )


@holds(cites=["510.1c", "510.1d", "702.19b"])
def a_creature_may_put_all_its_damage_on_any_one_creature_it_fights(combat):
    """A blocked creature may assign all its combat damage to any one of its blockers, with
    or without trample, and a blocker to any one creature it blocks: no order, no lethal
    damage needed among them."""
    a0 = combat.attackers[0]

    def all_on(source, recipient):
        def witness(c):
            row = {r: 0 for r in c.recipients}
            row[recipient] = damage_of(c, source)
            return with_row(c.simplest_assignment(), source, row)

        return combat.some(
            lambda amounts: amounts.get(source, recipient) == damage_of(combat, source), witness
        )

    # A creature blocker, and a planeswalker that is a creature too (a slot that is not one
    # never blocks).
    fights = {
        b: all_of((assigns(combat, a0), assigns(combat, b), combat.blocks(b, a0)))
        for b in (combat.blockers[0], *combat.planeswalkers[:1])
    }
    return Claim(
        any_of(fights.values()),
        all_of(
            implies(fight, all_of((all_on(a0, b), all_on(b, a0)))) for b, fight in fights.items()
        ),
    )


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
    scope = all_of((combat.legal(x), combat.is_blocked(a0), unblocked_by_any(combat, a0)))
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


@fails(cites=["510.1c"], bounds=Bounds(players=2, attackers=1, blockers=2, permanents=0))
def a_blocked_creature_can_assign_some_damage_to_each_blocker(combat):
    """A blocked creature can always assign some combat damage to each creature blocking it
    (false: two blockers and only 1 power)."""
    a0 = combat.attackers[0]

    def one_each(c):
        """1 to each creature blocking a0, the rest to the first of them; with none blocking
        it, as `simplest_assignment` has it."""
        simplest = c.simplest_assignment()
        blockers = blocking(c, a0)
        rest = damage_of(c, a0) - total(ite(blocks, 1, 0) for _, blocks in blockers)
        row = {r: 0 for r in c.recipients}
        before = False  # a creature earlier in the list blocks a0
        for b, blocks in blockers:
            row[b] = ite(blocks, ite(before, 1, 1 + rest), 0)
            before = any_of((before, blocks))
        blocked = negate(unblocked_by_any(c, a0))
        return with_row(
            simplest, a0, {r: ite(blocked, row[r], simplest.get(a0, r)) for r in c.recipients}
        )

    # With a witness, the claim is quantifier-free: without one, Z3's search for the
    # counterexample took 0.2 to 5.6 s as its random seed changed, 0.04-0.06 s with it.
    each = combat.some(
        lambda amounts: all_of(
            implies(blocks, amounts.get(a0, b) > 0) for b, blocks in blocking(combat, a0)
        ),
        witness=one_each,
    )
    return Claim(assigns(combat, a0), each)
