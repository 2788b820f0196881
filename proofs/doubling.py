"""Properties of the keyword action double: CR 701.10a-g."""

from lethal.proofs._facts import past_blockers
from lethal.proving import Claim, all_of, any_of, fails, holds, negate
from lethal.rules.doubling import (
    double_counters,
    double_life,
    double_mana,
    double_power_and_toughness,
)


@holds(cites=["701.10b", "701.10c"])
def doubling_power_gives_twice_the_power(combat):
    """For every integer power, negative included, doubling it gives twice the power (and
    doubling toughness twice the toughness)."""
    power, toughness = combat.integer("power"), combat.integer("toughness")
    change = double_power_and_toughness(power, toughness)
    return all_of(
        (power + change.power == 2 * power, toughness + change.toughness == 2 * toughness)
    )


@holds(cites=["701.10b", "701.10c"])
def doubling_power_twice_gives_four_times(combat):
    """Doubling a power twice gives four times the power, for every integer power."""
    power = combat.integer("power")
    once = power + double_power_and_toughness(power, 0, toughness_too=False).power
    twice = once + double_power_and_toughness(once, 0, toughness_too=False).power
    return twice == 4 * power


@holds(cites=["701.10d"])
def doubling_a_life_total_leaves_twice_it(combat):
    """Doubling a life total of L leaves 2L, whether L is positive, zero or negative."""
    life = combat.integer("life")
    change = double_life(life)
    return life + change.gained - change.lost == 2 * life


@holds(cites=["701.10e"])
def doubling_counters_leaves_twice_as_many(combat):
    """Doubling the counters of a kind on a permanent or player leaves twice as many."""
    count = combat.integer("counters")
    return Claim(count >= 0, count + double_counters(count) == 2 * count)


@holds(cites=["701.10e"])
def doubling_counters_twice_gives_four_times(combat):
    """Doubling the counters of a kind twice leaves four times as many."""
    count = combat.integer("counters")
    once = count + double_counters(count)
    return Claim(count >= 0, once + double_counters(once) == 4 * count)


@holds(cites=["701.10f"])
def doubling_mana_leaves_twice_as_much(combat):
    """Doubling the mana of a type in a pool leaves twice as much."""
    mana = combat.integer("mana")
    return Claim(mana >= 0, mana + double_mana(mana) == 2 * mana)


@fails(cites=["701.10b", "702.19b"])
def doubling_power_never_changes_what_a_trampler_can_assign(combat, other):
    """Doubling a blocked trampler's power before combat never lets more damage past its
    blockers (false: with more power, more can go past them)."""
    a0 = combat.attackers[0]
    x = other.assignment()  # with the power doubled
    scope = all_of(
        (
            other.agrees_with(combat, but=(f"{a0}.power",)),
            other.power(a0) == 2 * combat.power(a0),
            combat.has(a0, "trample"),
            any_of(combat.blocks(b, a0) for b in combat.blockers),
            other.legal(x),
        )
    )
    after = past_blockers(other, x.amounts, a0)
    as_much = combat.some(
        lambda amounts: past_blockers(combat, amounts, a0) >= after,
        witness=lambda c: c.simplest_assignment(),  # all on a blocker: where a refutation starts
    )
    return Claim(scope, as_much)


@holds(cites=["701.10g", "702.19b"])
def damage_doubling_never_changes_what_can_be_assigned(combat, other):
    """A damage doubler on a creature changes the damage it deals, never which assignments
    are legal (702.19b: assignment ignores what changes the damage dealt)."""
    a0 = combat.attackers[0]
    x = combat.assignment()
    scope = all_of(
        (
            other.agrees_with(combat, but=(f"{a0}.doubled",)),
            other.doubled(a0),
            negate(combat.doubled(a0)),
        )
    )
    return Claim(scope, combat.legal(x) == other.legal(x))
