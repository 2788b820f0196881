"""Facts the properties share, stated here from the CR text, apart from the rules model."""

from lethal.amounts import Amounts
from lethal.proving import all_of, any_of, ite, negate, total


def blocking(combat, a):
    """Each slot that could block a, with whether it does."""
    return [(b, combat.blocks(b, a)) for b in combat.blockers + combat.planeswalkers]


def lethal_assigned(combat, amounts, b):
    """702.19b, 702.2c: damage marked plus all damage assigned to b reaches its toughness, or
    a source with deathtouch assigns b some."""
    received = total(amounts.get(s, b) for s in combat.creatures)
    deathtouch = any_of(
        all_of((combat.has(s, "deathtouch"), amounts.get(s, b) > 0)) for s in combat.creatures
    )
    return any_of((combat.marked(b) + received >= combat.toughness(b), deathtouch))


def past_blockers(combat, amounts, a):
    """What a assigns to anything but the creatures blocking it."""
    return total(ite(combat.blocks(r, a), 0, amounts.get(a, r)) for r in combat.recipients)


def still_needs(combat, b):
    """Damage b still needs to have lethal damage, counting what is marked."""
    short = combat.toughness(b) - combat.marked(b)
    return ite(short > 0, short, 0)


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
