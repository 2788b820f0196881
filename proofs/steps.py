"""Properties of the two combat damage steps: CR 510.4, 702.4b-d, 702.7b-c."""

from lethal.proofs._facts import DOUBLE_STRIKE, FIRST_STRIKE
from lethal.proving import Claim, all_of, fails, holds, implies, negate


@holds(cites=["510.4", "702.4c", "702.7c"])
def struck_first_assigns_nothing_in_the_second_step_without_double_strike(combat):
    """A creature that struck in the first-strike step assigns no combat damage in the
    second unless it has double strike now."""
    x = combat.assignment()
    return Claim(
        all_of((combat.legal(x), combat.step_is("second"))),
        all_of(
            implies(
                all_of((combat.struck_first(c), negate(combat.has(c, DOUBLE_STRIKE)))),
                x.amounts.sent_by(c) == 0,
            )
            for c in combat.creatures
        ),
    )


@holds(cites=["510.4", "702.4b", "702.7b"])
def only_first_and_double_strike_assign_in_the_first_strike_step(combat):
    """In the first-strike combat damage step, a creature with neither first strike nor
    double strike assigns no combat damage."""
    x = combat.assignment()
    return Claim(
        all_of((combat.legal(x), combat.step_is("first-strike"))),
        all_of(
            implies(
                all_of((negate(combat.has(c, FIRST_STRIKE)), negate(combat.has(c, DOUBLE_STRIKE)))),
                x.amounts.sent_by(c) == 0,
            )
            for c in combat.creatures
        ),
    )


@fails(cites=["510.4", "702.7c"])
def a_creature_with_first_strike_assigns_nothing_in_the_second_step(combat):
    """A creature with first strike and without double strike assigns no combat damage in
    the second combat damage step (false: one given first strike after the first step did
    not strike in it, so it assigns in the second)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    scope = all_of(
        (
            combat.legal(x),
            combat.step_is("second"),
            combat.has(a0, FIRST_STRIKE),
            negate(combat.has(a0, DOUBLE_STRIKE)),
        )
    )
    return Claim(scope, x.amounts.sent_by(a0) == 0)
