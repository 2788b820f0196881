"""Facts the properties share, stated here from the CR text, apart from the rules model.

Nothing here imports `lethal.rules`: a property that checks the model states what it expects
in these terms, so a slip in the model is not copied into the expectation.
"""

from lethal.amounts import Amounts
from lethal.proving import all_of, any_of, ite, negate, total

FIRST_STRIKE, DOUBLE_STRIKE = "first strike", "double strike"
TRAMPLE, TOPW = "trample", "trample over planeswalkers"


def blocking(combat, a):
    """Each slot that could block a, with whether it does."""
    return [(b, combat.blocks(b, a)) for b in combat.blockers + combat.planeswalkers]


def unblocked_by_any(combat, a):
    """No creature is blocking a now (it may still be a blocked creature, 509.1h)."""
    return negate(any_of(blocks for _, blocks in blocking(combat, a)))


def tramples(combat, c):
    """702.19c: trample over planeswalkers is a kind of trample."""
    return any_of((combat.has(c, TRAMPLE), combat.has(c, TOPW)))


def in_this_step(combat, c):
    """510.4, 702.4b-d, 702.7b-c: c is among the creatures this combat damage step is for.

    With no first or double strike in combat there is one step, for everyone. The first of
    two is for creatures with first or double strike; the second for those that did not
    strike in the first, and for those with double strike now."""
    return any_of(
        (
            combat.step_is("only"),
            all_of(
                (
                    combat.step_is("first-strike"),
                    any_of((combat.has(c, FIRST_STRIKE), combat.has(c, DOUBLE_STRIKE))),
                )
            ),
            all_of(
                (
                    combat.step_is("second"),
                    any_of((negate(combat.struck_first(c)), combat.has(c, DOUBLE_STRIKE))),
                )
            ),
        )
    )


def attacks_in_combat(combat, a, r):
    """a attacks r, and r was not removed from combat (506.4c: then a attacks nothing)."""
    return all_of((combat.attacks(a, r), negate(combat.removed(r))))


def over_a_planeswalker_to(combat, a, player):
    """702.19c, 702.19e: a has trample over planeswalkers and attacks a planeswalker (in
    combat or removed from it) that `player` controls."""
    return all_of(
        (
            combat.has(a, TOPW),
            any_of(
                all_of(
                    (combat.attacks(a, p), combat.is_planeswalker(p), combat.controls(player, p))
                )
                for p in combat.planeswalkers
            ),
        )
    )


def may_assign_to(combat, c, r):
    """Whether the rules let c assign any combat damage to r, before lethal damage and loyalty
    are counted: 510.1b (unblocked: what it attacks), 510.1c (blocked: its blockers), 702.19b
    and 702.19d (a blocked trampler: also what it attacks), 702.19c and 702.19e (trample over
    planeswalkers: also the attacked planeswalker's controller), 510.1d (a blocker: the
    creatures it blocks)."""
    attacking, blocked = combat.is_attacking(c), combat.is_blocked(c)
    return any_of(
        (
            all_of((attacking, negate(blocked), attacks_in_combat(combat, c, r))),
            all_of((attacking, combat.blocks(r, c))),
            all_of((attacking, blocked, tramples(combat, c), attacks_in_combat(combat, c, r))),
            all_of((attacking, over_a_planeswalker_to(combat, c, r))),
            all_of((combat.is_blocking(c), combat.blocks(c, r))),
        )
    )


def assigns(combat, c):
    """510.1a-d, 510.4: c assigns combat damage in this step: it is one the step is for, its
    power is above 0, and the rules leave it somewhere to assign."""
    somewhere = any_of(may_assign_to(combat, c, r) for r in combat.recipients)
    return all_of((in_this_step(combat, c), combat.power(c) > 0, somewhere))


def lethal_assigned(combat, amounts, b):
    """702.19b, 702.2c: damage marked plus all damage assigned to b reaches its toughness, or
    a source with deathtouch assigns b some."""
    received = total(amounts.get(s, b) for s in combat.creatures)
    deathtouch = any_of(
        all_of((combat.has(s, "deathtouch"), amounts.get(s, b) > 0)) for s in combat.creatures
    )
    return any_of((combat.marked(b) + received >= combat.toughness(b), deathtouch))


def received(combat, amounts, r):
    """Combat damage assigned to r by every creature."""
    return total(amounts.get(s, r) for s in combat.creatures)


def past_blockers(combat, amounts, a):
    """What a assigns to anything but the creatures blocking it."""
    return total(ite(combat.blocks(r, a), 0, amounts.get(a, r)) for r in combat.recipients)


def still_needs(combat, b):
    """Damage b still needs to have lethal damage, counting what is marked."""
    short = combat.toughness(b) - combat.marked(b)
    return ite(short > 0, short, 0)


def banding_among(combat, group):
    """702.22j-k: among the creatures `group` (each with whether it is in it) one has
    banding, or a [quality] creature with "bands with other [quality]" and another [quality]
    creature are both in it."""
    banding = [all_of((inside, combat.has(c, "banding"))) for c, inside in group]
    pairs = [
        all_of(
            (
                x_in,
                y_in,
                combat.bands_with_other(x, q),
                combat.has_quality(x, q),
                combat.has_quality(y, q),
            )
        )
        for q in combat.qualities
        for x, x_in in group
        for y, y_in in group
        if x != y
    ]
    return any_of(banding + pairs)


def with_row(amounts, source, row):
    """The same amounts, but `source` assigns `row` (recipient -> amount) instead."""
    kept = {pair: amounts.get(*pair) for pair in amounts.pairs() if pair[0] != source}
    kept.update({(source, r): amount for r, amount in row.items()})
    return Amounts(kept)


def first_past(combat, amounts, a):
    """For each recipient, whether it is the first (in a fixed order) past a's blockers that
    a assigns some damage to."""
    firsts, before = {}, False
    for r in combat.recipients:
        here = all_of((amounts.get(a, r) > 0, negate(combat.blocks(r, a))))
        firsts[r] = all_of((here, negate(before)))
        before = any_of((before, here))
    return firsts
