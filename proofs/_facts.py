"""Facts the properties share, stated here from the CR text, apart from the rules model.

Nothing here imports `lethal.rules`: a property that checks the model states what it expects
in these terms, so a slip in the model is not copied into the expectation.
"""

from lethal.amounts import Amounts
from lethal.proving import all_of, any_of, implies, ite, negate, total

FIRST_STRIKE, DOUBLE_STRIKE = "first strike", "double strike"
TRAMPLE, TOPW = "trample", "trample over planeswalkers"
# The two abilities that change the assignment: Doran, the Siege Tower's and Thorn Elemental's.
DORAN = "assigns combat damage equal to its toughness"
THORN = "may assign combat damage as though it weren't blocked"


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


def damage_of(combat, c):
    """510.1a: the combat damage c assigns (before the test for 0 or less): its power, or
    its toughness when it "assigns combat damage equal to its toughness" (Doran)."""
    return ite(combat.has(c, DORAN), combat.toughness(c), combat.power(c))


def may_choose_unblocked(combat, c):
    """c is a blocked attacking creature that "may assign its combat damage as though it
    weren't blocked" (Thorn Elemental)."""
    return all_of((combat.is_attacking(c), combat.is_blocked(c), combat.has(c, THORN)))


def may_assign_to(combat, c, r):
    """Whether the rules let c assign any combat damage to r, before lethal damage and loyalty
    are counted: 510.1b (unblocked: what it attacks), 510.1c (blocked: its blockers), 702.19b
    and 702.19d (a blocked trampler: also what it attacks), 702.19c and 702.19e (trample over
    planeswalkers: also the attacked planeswalker's controller), 510.1d (a blocker: the
    creatures it blocks); blocked, as though it weren't, what an unblocked creature would
    assign to (Thorn Elemental)."""
    attacking, blocked = combat.is_attacking(c), combat.is_blocked(c)
    return any_of(
        (
            all_of((may_choose_unblocked(combat, c), attacks_in_combat(combat, c, r))),
            all_of((attacking, negate(blocked), attacks_in_combat(combat, c, r))),
            all_of((attacking, combat.blocks(r, c))),
            all_of((attacking, blocked, tramples(combat, c), attacks_in_combat(combat, c, r))),
            all_of((attacking, over_a_planeswalker_to(combat, c, r))),
            all_of((combat.is_blocking(c), combat.blocks(c, r))),
        )
    )


def assigns(combat, c):
    """510.1a-d, 510.4: c assigns combat damage in this step: it is one the step is for, its
    power (or toughness, `damage_of`) is above 0, and the rules leave it somewhere to
    assign."""
    somewhere = any_of(may_assign_to(combat, c, r) for r in combat.recipients)
    return all_of((in_this_step(combat, c), damage_of(combat, c) > 0, somewhere))


def lethal_assigned(combat, amounts, b, deathtouch=True):
    """702.19b, 702.2c: damage marked plus all damage assigned to b reaches its toughness, or
    a source with deathtouch assigns b some. With `deathtouch` False, as the editions before
    2010-07-16 count it: toughness only (their 702.2b made no damage lethal)."""
    received = total(amounts.get(s, b) for s in combat.creatures)
    if not deathtouch:
        return combat.marked(b) + received >= combat.toughness(b)
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


def on_planeswalker_then_controller(combat, a, p, on_p, rest):
    """Some legal assignment has a put `on_p` on p and `rest` on p's controller (702.19c):
    the claim, with that very assignment as its witness (the others' damage as
    `simplest_assignment` puts it)."""

    def onto(c):
        row = {r: 0 for r in c.recipients}
        row[p] = on_p
        for player in c.players:
            row[player] = ite(c.controls(player, p), rest, 0)
        return with_row(c.simplest_assignment(), a, row)

    def body(amounts):
        to_controller = all_of(
            implies(combat.controls(player, p), amounts.get(a, player) == rest)
            for player in combat.players
        )
        return all_of((amounts.get(a, p) == on_p, to_controller))

    return combat.some(body, witness=onto)


def first_past(combat, amounts, a):
    """For each recipient, whether it is the first (in a fixed order) past a's blockers that
    a assigns some damage to."""
    firsts, before = {}, False
    for r in combat.recipients:
        here = all_of((amounts.get(a, r) > 0, negate(combat.blocks(r, a))))
        firsts[r] = all_of((here, negate(before)))
        before = any_of((before, here))
    return firsts


def in_order(combat, s, x):
    """509.2-509.3 (editions before 2024-11-08): x is in s's damage assignment order: x
    blocks s, or s blocks x."""
    return any_of((combat.blocks(x, s), combat.blocks(s, x)))


def order_slots(combat, s):
    """The slots that may be in s's damage assignment order: for an attacker, the creatures
    that may block; for a creature that may block, the attackers."""
    return combat.attackers if s not in combat.attackers else combat.blockers + combat.planeswalkers


def precedes(combat, s, x, y):
    """509.2-509.3: x comes before y in s's damage assignment order, as announced (the
    combat's own fact, for a combat judged by an edition with orders)."""
    return combat.unknowns[f"{s}.order {x}"] < combat.unknowns[f"{s}.order {y}"]


def first_in_order(combat, s, x, ordered=True):
    """x is the first creature of s's damage assignment order (any creature of it, with no
    order)."""
    if not ordered:
        return in_order(combat, s, x)
    ahead = any_of(
        all_of((in_order(combat, s, y), precedes(combat, s, y, x)))
        for y in order_slots(combat, s)
        if y != x
    )
    return all_of((in_order(combat, s, x), negate(ahead)))


def all_on_the_first(combat, ordered=True):
    """Each creature that assigns combat damage assigns all of it to one recipient: the first
    creature of its damage assignment order if it has one (510.1c-d need nothing before the
    first), else a planeswalker or battle, else a player it may assign to (510.1b, 702.19b-e).
    A legal assignment in every edition, the properties of `editions` claim."""
    amounts: dict = {}
    for c in combat.creatures:
        power = ite(assigns(combat, c), damage_of(combat, c), 0)
        preference = [(x, first_in_order(combat, c, x, ordered)) for x in order_slots(combat, c)]
        if c in combat.attackers:
            preference += [(r, True) for r in (*combat.planeswalkers, *combat.defenders)]
        taken = False
        for r, preferred in preference:
            chosen = all_of((preferred, may_assign_to(combat, c, r), negate(taken)))
            amounts[(c, r)] = total((amounts.get((c, r), 0), ite(chosen, power, 0)))
            taken = any_of((taken, chosen))
    return Amounts(amounts)


def lone_trampler(combat, a0):
    """a0 is a blocked trampler that assigns this step, attacking a player, planeswalker or
    battle still in combat and not blocking it; its blockers block nothing else and are
    attacked by nothing else: no other creature's damage can reach them (510.1b-d)."""
    alone = all_of(
        implies(blocks, negate(any_of((combat.blocks(b, other), combat.attacks(other, b)))))
        for b, blocks in blocking(combat, a0)
        for other in combat.attackers
        if other != a0
    )
    target = any_of(
        all_of((attacks_in_combat(combat, a0, t), negate(combat.blocks(t, a0))))
        for t in (*combat.defenders, *combat.planeswalkers)
    )
    return all_of((assigns(combat, a0), combat.is_blocked(a0), target, tramples(combat, a0), alone))


def protected_from(combat, r, s):
    """702.16a, e, j, k: r (a permanent or a player) has protection from everything, from a
    quality s has (one of its colours, or a card type it is: a creature), or from the player
    who controls s."""
    return any_of(
        (
            combat.has(r, "protection from everything"),
            *(
                all_of((combat.protection_from(r, p), combat.controls(p, s)))
                for p in combat.players
            ),
            *(
                all_of(
                    (
                        combat.protection_from(r, q),
                        any_of((combat.has_quality(s, q), combat.has_type(s, q))),
                    )
                )
                for q in combat.protection_qualities(r)
            ),
        )
    )


def may_deal(combat, s, r, assigned, dealt):
    """`dealt` is damage s may deal to r of the combat damage `assigned`, as one event with
    any shield on r all its own. Damage that can be prevented (615.12) is all prevented when
    r has protection from s (702.16e) or an effect prevents all damage to r (615); otherwise
    a prevention shield on r prevents up to its amount (615.7) and a doubler on s doubles the
    damage (701.10g), in the order r's controller chooses (616.1): either is allowed here."""
    preventable = negate(combat.cant_be_prevented(s))
    shield = ite(preventable, combat.shield(r), 0)

    def shielded(n):
        return ite(n > shield, n - shield, 0)

    prevented = all_of((preventable, any_of((protected_from(combat, r, s), combat.prevent_all(r)))))
    doubled_either_way = any_of((dealt == 2 * shielded(assigned), dealt == shielded(2 * assigned)))
    return ite(
        prevented,
        dealt == 0,
        ite(combat.doubled(s), doubled_either_way, dealt == shielded(assigned)),
    )
