"""Properties across editions of the rules: the damage assignment order (CR 509.2-509.3,
510.1c-d, 2009-07-11 to 2024-11-07), M10's and M11's deathtouch (702.2b of 2009-2010,
702.2c), and the Foundations change of 2024-11-08 that removed the order.

Each property judges one combat by two editions (`combat.under`). The dates name the edition
in force that day: 2009-07-11 (M10), 2010-07-16 (M11), 2024-07-30 (the last with the order),
"current" (none since 2024-11-08). A combat judged by an edition with orders has each
creature's order as announced, and only what every edition named has (no trample over
planeswalkers before 2021-06-18, no battles before 2023-04-14).

A rule is cited by its number in the edition the claim is about: M10's and M11's deathtouch
rule is 702.2b, their trample 702.17b, M10's banding 702.19j; today's are 702.2c, 702.19b,
702.22j.
"""

from lethal.proofs._facts import (
    THORN,
    all_on_the_first,
    attacks_in_combat,
    banding_among,
    blocking,
    in_order,
    lethal_assigned,
    lone_trampler,
    order_slots,
    past_blockers,
    precedes,
    with_row,
)
from lethal.proving import Bounds, Claim, all_of, any_of, fails, holds, implies, ite, negate, total

M10 = "2009-07-11"  # the order; 702.2b: deathtouch divides freely, makes nothing lethal
M11 = "2010-07-16"  # 702.2b: nonzero deathtouch damage is lethal, and the order binds it
MIDDLE = "2015-01-01"  # an edition of the order era between M11 and the new keywords
LAST_ORDER = "2024-07-30"  # the last edition with the order
CURRENT = "current"  # no order since 2024-11-08
# Every counterexample below fits in two attackers and two blockers; smaller bounds keep the
# search for the smallest one short.
SMALL = Bounds(players=2, attackers=2, blockers=2, permanents=1, power=3, toughness=3, loyalty=3)
# A claim with `some` and no witness is quantified: tiny bounds keep it decidable in time.
TINY = Bounds(players=2, attackers=2, blockers=2, permanents=0, power=1, toughness=1, loyalty=1)


# What is legal: the Foundations change, M10 and M11.


@holds(cites=["509.2", "509.3", "510.1c", "510.1d"], editions=(LAST_ORDER, CURRENT))
def the_foundations_change_only_relaxes_assignment(combat):
    """Every assignment legal under the rules of 2024-07-30 is legal today: removing the
    damage assignment order from 509.2 and 510.1c-d dropped a constraint and added none."""
    x = combat.assignment()
    return implies(combat.legal(x), combat.under(CURRENT).legal(x))


@fails(cites=["509.2", "509.3", "510.1c", "510.1d"], bounds=SMALL, editions=(LAST_ORDER, CURRENT))
def every_assignment_legal_today_was_legal_before_foundations(combat):
    """Every assignment legal today was legal under the rules of 2024-07-30 (false: a
    creature blocked by two creatures may now put its damage on the one its order put
    second, without lethal damage to the first)."""
    x = combat.assignment()
    return implies(combat.under(CURRENT).legal(x), combat.legal(x))


@holds(
    cites=["510.1c", "510.1d", "702.2b", "702.2c", "702.17b", "702.19b"], editions=(M10, CURRENT)
)
def every_assignment_legal_under_m10_is_legal_today(combat):
    """Every assignment legal under the rules of 2009-07-11 (M10) is legal today: M10's
    order is gone, and its trample counted only toughness as lethal, where today nonzero
    deathtouch damage also counts."""
    x = combat.assignment()
    return implies(combat.legal(x), combat.under(CURRENT).legal(x))


@fails(cites=["702.2b", "510.1c", "510.1d"], bounds=SMALL, editions=(M10, M11))
def every_assignment_legal_under_m10_is_legal_under_m11(combat):
    """Every assignment legal under M10 (2009-07-11) is legal under M11 (2010-07-16)
    (false: M10's 702.2b lets a creature with deathtouch divide its damage ignoring its
    damage assignment order; from M11 the order binds it)."""
    x = combat.assignment()
    return implies(combat.legal(x), combat.under(M11).legal(x))


@fails(cites=["702.2b", "702.17b", "510.1c"], bounds=SMALL, editions=(M11, M10))
def every_assignment_legal_under_m11_is_legal_under_m10(combat):
    """Every assignment legal under M11 (2010-07-16) is legal under M10 (2009-07-11)
    (false: from M11 any nonzero deathtouch damage is lethal damage, so a trampler with
    deathtouch may assign 1 to its blocker and the rest to the player; M10 needs the
    blocker's toughness)."""
    x = combat.assignment()
    return implies(combat.legal(x), combat.under(M10).legal(x))


@holds(cites=["509.2", "510.1c", "510.1d", "702.2b", "702.2c"], editions=(M11, LAST_ORDER))
def from_m11_to_foundations_no_edition_changed_what_is_legal(combat):
    """An assignment is legal under the rules of 2010-07-16 exactly when it is legal under
    those of 2024-07-30: in between, the editions renumbered rules and added trample over
    planeswalkers and battles, and changed nothing else a combat without them depends on."""
    x = combat.assignment()
    return combat.legal(x) == combat.under(LAST_ORDER).legal(x)


@holds(cites=["509.2", "509.3", "510.1c", "510.1d"], editions=(MIDDLE, CURRENT))
def with_no_multiple_blocks_the_order_never_matters(combat):
    """When no creature is blocked by two or more creatures and none blocks two or more, an
    assignment is legal under the rules of 2015-01-01 exactly when it is legal today: an
    order of one creature constrains nothing (510.1c-d: a creature blocked by one creature,
    or blocking one, assigns all its damage to it)."""
    x = combat.assignment()
    single = all_of(
        total(ite(in_order(combat, s, y), 1, 0) for y in order_slots(combat, s)) <= 1
        for s in combat.creatures
    )
    return Claim(single, combat.legal(x) == combat.under(CURRENT).legal(x))


@holds(
    cites=["509.2", "509.3", "510.1c", "510.1d", "702.22j", "702.22k"],
    editions=(LAST_ORDER, CURRENT),
)
def banding_lifts_the_damage_assignment_order(combat):
    """Under the rules of 2024-07-30, the player banding hands a creature's division to
    divides its combat damage as they choose, whatever its damage assignment order (702.22j-k,
    exceptions to 510.1c-d): when some creature has two or more creatures in its order, and
    each that has has banding among them (a creature with banding, or a "bands with other"
    pair), an assignment is legal exactly when it is legal today, with no orders."""
    x = combat.assignment()
    groups = [
        [(y, in_order(combat, s, y)) for y in order_slots(combat, s)] for s in combat.creatures
    ]
    several = [total(ite(inside, 1, 0) for _, inside in group) >= 2 for group in groups]
    handed = all_of(
        implies(many, banding_among(combat, group))
        for many, group in zip(several, groups, strict=True)
    )
    return Claim(
        all_of((handed, any_of(several))),
        combat.legal(x) == combat.under(CURRENT).legal(x),
    )


# The damage assignment order itself, as the editions before 2024-11-08 state it.


@holds(cites=["509.2", "510.1c", "702.2c", "702.22j"], editions=(LAST_ORDER,))
def an_attacker_follows_its_damage_assignment_order(combat):
    """Under the rules of 2024-07-30, a blocked creature assigns combat damage to a creature
    blocking it only if each creature before that one in its damage assignment order is
    assigned lethal damage (counting damage marked, other creatures' damage and any
    deathtouch damage), unless banding hands its division to the defending player. (As
    though it weren't blocked, Thorn Elemental follows no order: see
    proofs/assignment_abilities.py.)"""
    a0 = combat.attackers[0]
    return _follows_its_order(combat, a0, blocking(combat, a0), negate(combat.has(a0, THORN)))


@holds(cites=["509.3", "510.1d", "702.2c", "702.22k"], editions=(LAST_ORDER,))
def a_blocker_follows_its_damage_assignment_order(combat):
    """Under the rules of 2024-07-30, a creature blocking two or more creatures assigns
    combat damage to one of them only if each creature before that one in its damage
    assignment order is assigned lethal damage, unless banding hands its division to the
    active player."""
    b0 = combat.blockers[0]
    return _follows_its_order(combat, b0, [(a, combat.blocks(b0, a)) for a in combat.attackers])


@holds(cites=["509.2", "510.1c", "702.2b", "702.19j"], editions=(M10,))
def under_m10_only_deathtouch_and_banding_ignore_the_order(combat):
    """Under M10 (2009-07-11), a blocked creature without deathtouch assigns combat damage
    to a creature blocking it only if each creature before that one in its order is
    assigned damage at least its toughness, counting damage marked: deathtouch makes nothing
    lethal, and frees only its own creature's division (702.2b then), as banding frees the
    defending player's (702.19j then). Thorn Elemental's ability aside, as above."""
    a0 = combat.attackers[0]
    without = all_of((negate(combat.has(a0, "deathtouch")), negate(combat.has(a0, THORN))))
    return _follows_its_order(combat, a0, blocking(combat, a0), without, deathtouch=False)


def _follows_its_order(combat, s, members, assume=True, deathtouch=True):
    """Where banding does not hand s's division to the other player: s assigns to a creature
    of its order (`members`: each slot with whether it is in the order) only once each one
    before it has lethal damage (`deathtouch`: whether deathtouch damage makes it lethal)."""
    x = combat.assignment()
    return Claim(
        all_of((combat.legal(x), negate(banding_among(combat, members)), assume)),
        all_of(
            implies(
                all_of((y_in, w_in, precedes(combat, s, w, y), x.amounts.get(s, y) > 0)),
                lethal_assigned(combat, x.amounts, w, deathtouch=deathtouch),
            )
            for y, y_in in members
            for w, w_in in members
            if w != y
        ),
    )


# A legal assignment exists in every edition.


def _exists(combat, ordered: bool):
    return Claim(
        True,
        combat.some(lambda amounts: True, witness=lambda c: all_on_the_first(c, ordered)),
    )


@holds(cites=["510.1", "509.2", "509.3", "702.2b"], editions=(M10,))
def a_legal_assignment_always_exists_under_m10(combat):
    """Under M10 (2009-07-11) the rules never leave a combat damage step with no legal
    assignment: each creature may put all its damage on the first creature of its order."""
    return _exists(combat, ordered=True)


@holds(cites=["510.1", "509.2", "509.3", "702.2b"], editions=(M11,))
def a_legal_assignment_always_exists_under_m11(combat):
    """Under M11 (2010-07-16) the rules never leave a combat damage step with no legal
    assignment."""
    return _exists(combat, ordered=True)


@holds(cites=["510.1", "509.2", "509.3", "702.19c"], editions=(LAST_ORDER,))
def a_legal_assignment_always_exists_under_the_last_order_edition(combat):
    """Under the rules of 2024-07-30, with trample over planeswalkers and battles, the rules
    never leave a combat damage step with no legal assignment."""
    return _exists(combat, ordered=True)


@holds(cites=["510.1"], editions=(CURRENT,))
def a_legal_assignment_always_exists_today(combat):
    """Under today's rules a combat damage step always has a legal assignment: each creature
    may put all its damage on one creature it fights, or on what it attacks."""
    return _exists(combat, ordered=False)


# What a lone trampler can send past its blockers.


def _to_its_target(combat, a0):
    """Each recipient, with whether it is what a0 attacks, in combat and not blocking it."""
    return {
        r: all_of((attacks_in_combat(combat, a0, r), negate(combat.blocks(r, a0))))
        for r in combat.recipients
    }


def _as_much_past(combat, x, a0, base):
    """A witness under another edition, given `base`, an assignment legal under it: base
    itself where it sends as much past a0's blockers as x does; else base with a0's row
    made x's way: a0 assigns its blockers what x does and sends past them, to what it
    attacks, all that x sends past them. The other creatures keep base's rows: no other
    creature's damage reaches a0's blockers, and a0 then deals more than in base to what it
    attacks, which never takes lethal damage or loyalty away from another's assignment."""
    sent = past_blockers(combat, x.amounts, a0)
    more = sent > past_blockers(combat, base.amounts, a0)

    def witness(c):
        target = _to_its_target(c, a0)
        row = {
            r: ite(
                more,
                ite(c.blocks(r, a0), x.amounts.get(a0, r), ite(target[r], sent, 0)),
                base.amounts.get(a0, r),
            )
            for r in c.recipients
        }
        return with_row(base.amounts, a0, row)

    return witness


def _same_most_excess(combat, later: str, later_admits=False, earlier_admits=False):
    """For a lone trampler a0: whatever it sends past its blockers under one edition, it can
    send as much under the other, both ways.

    When one edition admits every assignment the other does (`later_admits`,
    `earlier_admits`: as a property of its own proves), the witness under it is the other
    edition's assignment itself. A witness only guides Z3 (the claim is the same, and a
    counterexample is re-checked against every assignment), and this one spares it the
    edition's whole legality of a made-up assignment, several times the work."""
    a0 = combat.attackers[0]
    other = combat.under(later)
    x, y = combat.assignment(), combat.assignment()
    scope = all_of((lone_trampler(combat, a0), combat.legal(x), other.legal(y)))

    def at_least(judged, z, admits, base):
        return judged.some(
            lambda amounts: (
                past_blockers(combat, amounts, a0) >= past_blockers(combat, z.amounts, a0)
            ),
            witness=(lambda c: z.amounts) if admits else _as_much_past(combat, z, a0, base),
        )

    return Claim(
        scope,
        all_of((at_least(other, x, later_admits, y), at_least(combat, y, earlier_admits, x))),
    )


@holds(cites=["702.17b", "702.19b", "702.2b", "702.2c", "510.1c"], editions=(M11, LAST_ORDER))
def a_lone_trampler_sends_as_much_past_its_blockers_from_m11_to_foundations(combat):
    """A trampler whose blockers block nothing else and are attacked by nothing else can
    assign past its blockers as much under the rules of 2010-07-16 as under those of
    2024-07-30: its power minus the lethal damage they still need, in either."""
    # Either edition admits every assignment the other does (the property
    # from_m11_to_foundations_no_edition_changed_what_is_legal).
    return _same_most_excess(combat, LAST_ORDER, later_admits=True, earlier_admits=True)


@holds(cites=["702.19b", "702.2c", "510.1c"], editions=(LAST_ORDER, CURRENT))
def a_lone_trampler_sends_as_much_past_its_blockers_before_and_after_foundations(combat):
    """A lone trampler can assign past its blockers as much under the rules of 2024-07-30
    as today: its own damage assignment order never stood in the way of lethal damage to
    every blocker."""
    # Today admits every assignment 2024-07-30 did (the_foundations_change_only_relaxes_assignment).
    return _same_most_excess(combat, CURRENT, later_admits=True)


@holds(cites=["702.17b", "702.19b", "702.2b", "702.2c", "510.1c"], editions=(M11, CURRENT))
def a_lone_trampler_sends_as_much_past_its_blockers_since_m11(combat):
    """A lone trampler can assign past its blockers as much under the rules of 2010-07-16
    as today."""
    # Today admits every assignment M11 did: the properties
    # from_m11_to_foundations_no_edition_changed_what_is_legal, then
    # the_foundations_change_only_relaxes_assignment.
    return _same_most_excess(combat, CURRENT, later_admits=True)


@fails(cites=["702.2b", "702.17b"], bounds=SMALL, editions=(M10, M11))
def a_lone_trampler_sends_as_much_past_its_blockers_under_m10_as_under_m11(combat):
    """A lone trampler can assign past its blockers as much under M10 as under M11 (false:
    with deathtouch, M11 needs only 1 damage per blocker; M10 needs its toughness)."""
    return _same_most_excess(combat, M11)


@fails(
    cites=["702.19b", "510.1c", "509.2"],
    bounds=TINY,
    editions=(LAST_ORDER, CURRENT),
)
def any_trampler_sends_as_much_past_its_blockers_before_and_after_foundations(combat):
    """Any blocked trampler can assign past its blockers as much under the rules of
    2024-07-30 as today (false: a blocker it shares with another attacker may need that
    attacker's damage for lethal, and that attacker's order may put another blocker
    first)."""
    a0 = combat.attackers[0]
    x = combat.under(CURRENT).assignment()
    scope = all_of((combat.is_blocked(a0), combat.under(CURRENT).legal(x)))
    return Claim(
        scope,
        combat.some(
            lambda amounts: (
                past_blockers(combat, amounts, a0) >= past_blockers(combat, x.amounts, a0)
            )
        ),
    )
