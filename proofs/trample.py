"""Properties of trample: CR 702.19b, 702.19d, with deathtouch (702.2c)."""

from lethal.proofs._facts import (
    THORN,
    assigns,
    attacks_in_combat,
    blocking,
    damage_of,
    first_past,
    lethal_assigned,
    over_a_planeswalker_to,
    past_blockers,
    received,
    still_needs,
    tramples,
    unblocked_by_any,
    with_row,
)
from lethal.proving import Claim, all_of, any_of, fails, holds, implies, ite, negate, total


def _lethal_to_every_blocker(combat, amounts, a):
    return all_of(
        implies(blocks, lethal_assigned(combat, amounts, b)) for b, blocks in blocking(combat, a)
    )


@holds(cites=["702.19b", "702.2c"])
def no_player_damage_without_lethal_to_every_blocker(combat):
    """No damage reaches a player past a creature's blockers unless every blocker was
    assigned lethal damage (Thorn Elemental's ability aside: as though it weren't blocked,
    it has no blockers to get past; proofs/assignment_abilities.py)."""
    x = combat.assignment()
    a0 = combat.attackers[0]  # any attacker: the slots are interchangeable
    to_a_player = any_of(x.amounts.get(a0, p) > 0 for p in combat.players)
    return Claim(
        all_of((combat.legal(x), to_a_player, negate(combat.has(a0, THORN)))),
        _lethal_to_every_blocker(combat, x.amounts, a0),
    )


@holds(cites=["702.19b", "702.19c", "702.2c"])
def nothing_reaches_a_planeswalker_or_battle_past_blockers_without_lethal_to_each(combat):
    """No damage reaches a planeswalker or battle past a creature's blockers unless every
    blocker was assigned lethal damage (Thorn Elemental's ability aside, as above)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    past = any_of(
        all_of((x.amounts.get(a0, p) > 0, negate(combat.blocks(p, a0))))
        for p in combat.planeswalkers
    )
    scope = all_of((combat.legal(x), past, negate(combat.has(a0, THORN))))
    return Claim(scope, _lethal_to_every_blocker(combat, x.amounts, a0))


def _targets(combat):
    return (*combat.defenders, *combat.planeswalkers)


def _lone_trampler(combat, deathtouch: bool):
    """a0 is a blocked trampler that assigns this step, attacking a player, planeswalker or
    battle still in combat and not blocking it; its blockers block nothing else and are
    attacked by nothing else (a creature planeswalker may be both blocking and attacked): no
    other creature's damage can reach them. It has no ability to assign as though it weren't
    blocked, which would let all of its damage past them."""
    a0 = combat.attackers[0]
    alone = all_of(
        implies(blocks, negate(any_of((combat.blocks(b, other), combat.attacks(other, b)))))
        for b, blocks in blocking(combat, a0)
        for other in combat.attackers[1:]
    )
    target = any_of(
        all_of((attacks_in_combat(combat, a0, t), negate(combat.blocks(t, a0))))
        for t in _targets(combat)
    )
    return a0, all_of(
        (
            assigns(combat, a0),
            combat.is_blocked(a0),
            target,
            tramples(combat, a0),
            combat.has(a0, "deathtouch") if deathtouch else negate(combat.has(a0, "deathtouch")),
            negate(combat.has(a0, THORN)),
            alone,
        )
    )


def _needed(combat, a0, deathtouch: bool):
    """What a0's blockers still need for lethal damage, each with deathtouch only 1."""

    def need(b):
        if b not in combat.creatures:  # a player: never a blocker
            return 0
        return ite(still_needs(combat, b) > 0, 1, 0) if deathtouch else still_needs(combat, b)

    return need, total(ite(blocks, need(b), 0) for b, blocks in blocking(combat, a0))


def _excess_is_exactly(combat, deathtouch: bool):
    a0, scope = _lone_trampler(combat, deathtouch)
    need, needed = _needed(combat, a0, deathtouch)
    damage = damage_of(combat, a0)
    most = ite(damage > needed, damage - needed, 0)
    x = combat.assignment()

    def reaching(c):
        """a0 gives each blocker what it needs and the rest to what it attacks; when its
        power falls short, all of it on one blocker."""
        simplest = c.simplest_assignment()
        enough = damage_of(c, a0) >= needed
        row = {
            r: ite(
                enough,
                ite(c.blocks(r, a0), need(r), ite(c.attacks(a0, r), most, 0)),
                simplest.get(a0, r),
            )
            for r in c.recipients
        }
        return with_row(simplest, a0, row)

    at_most = implies(combat.legal(x), past_blockers(combat, x.amounts, a0) <= most)
    reachable = combat.some(
        lambda amounts: past_blockers(combat, amounts, a0) == most, witness=reaching
    )
    # Apart: the bound and the witness share little, and Z3 proves them faster one at a
    # time (0.09 s to 0.07 s each of the two properties at 3x3x2).
    return Claim(scope, all_of((at_most, reachable)), apart=True)


@holds(cites=["702.19b"])
def lone_trampler_excess_is_power_minus_lethal(combat):
    """A trampler whose blockers block nothing else can assign past them at most its power
    minus what they still need for lethal damage, and can assign that much."""
    return _excess_is_exactly(combat, deathtouch=False)


@holds(cites=["702.2c", "702.19b"])
def deathtouch_trampler_needs_one_per_blocker(combat):
    """With deathtouch, the same trampler needs only 1 damage per blocker not already dealt
    lethal damage."""
    return _excess_is_exactly(combat, deathtouch=True)


@holds(cites=["702.19d", "702.19e"])
def blocked_with_no_blockers_tramples_everything_through(combat):
    """A blocked trampler with no blockers left assigns all its power to what it attacks (and,
    with trample over planeswalkers, the attacked planeswalker's controller)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    scope = all_of(
        (
            combat.legal(x),
            assigns(combat, a0),
            combat.is_blocked(a0),
            tramples(combat, a0),
            unblocked_by_any(combat, a0),
        )
    )
    through = total(
        ite(
            any_of((attacks_in_combat(combat, a0, r), over_a_planeswalker_to(combat, a0, r))),
            x.amounts.get(a0, r),
            0,
        )
        for r in combat.recipients
    )
    return Claim(scope, through == damage_of(combat, a0))


@fails(cites=["702.19b"])
def trample_excess_is_at_most_power_minus_blockers_lethal(combat):
    """A trampler without deathtouch assigns to the player at most its power minus its
    blockers' remaining toughness (false: another attacker's damage counts toward lethal)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    needed = total(ite(blocks, still_needs(combat, b), 0) for b, blocks in blocking(combat, a0))
    most = ite(combat.power(a0) > needed, combat.power(a0) - needed, 0)
    scope = all_of(
        (
            combat.has(a0, "trample"),
            negate(combat.has(a0, "deathtouch")),
            combat.legal(x),
        )
    )
    return Claim(
        scope,
        all_of(
            implies(combat.attacks(a0, p), x.amounts.get(a0, p) <= most) for p in combat.defenders
        ),
    )


@fails(cites=["702.19b"])
def trampler_must_assign_toughness_to_each_blocker_before_player(combat):
    """A trampler assigns each blocker damage equal to its toughness before the player gets
    any (false: damage marked, deathtouch and other attackers' damage count)."""
    x = combat.assignment()
    a0 = combat.attackers[0]
    to_a_player = any_of(x.amounts.get(a0, p) > 0 for p in combat.players)
    return Claim(
        all_of((combat.legal(x), to_a_player)),
        all_of(
            implies(blocks, x.amounts.get(a0, b) >= combat.toughness(b))
            for b, blocks in blocking(combat, a0)
        ),
    )


@fails(cites=["702.19b", "120.6", "702.12b"])
def a_blocker_assigned_nothing_holds_a_trampler_back(combat):
    """A trampler assigns past a blocker only if that blocker is assigned some combat damage
    this step (false: damage already marked counts, and an indestructible creature may
    already carry lethal damage)."""
    x = combat.assignment()
    a0, b0 = combat.attackers[0], combat.blockers[0]
    scope = all_of(
        (combat.legal(x), combat.blocks(b0, a0), past_blockers(combat, x.amounts, a0) > 0)
    )
    return Claim(scope, received(combat, x.amounts, b0) > 0)


@fails(cites=["702.19b"])
def a_trampler_can_always_send_its_power_minus_what_blockers_need_past_them(combat):
    """A blocked trampler can always assign past its blockers its power minus what they still
    need for lethal damage (false: when they need more than its power, nothing goes past;
    there is no negative damage)."""
    a0 = combat.attackers[0]
    need, needed = _needed(combat, a0, deathtouch=False)
    # What it assigns (510.1a: its toughness under Doran's effect), so that only blockers
    # needing more than it falsify the claim.
    excess = damage_of(combat, a0) - needed

    def reaching(c):
        row = {
            r: ite(c.blocks(r, a0), need(r), ite(c.attacks(a0, r), excess, 0)) for r in c.recipients
        }
        return with_row(c.simplest_assignment(), a0, row)

    scope = all_of(
        (
            assigns(combat, a0),
            combat.is_blocked(a0),
            combat.has(a0, "trample"),
            negate(combat.has(a0, "deathtouch")),
            any_of(combat.attacks(a0, p) for p in combat.defenders),
        )
    )
    return Claim(
        scope,
        combat.some(lambda amounts: past_blockers(combat, amounts, a0) == excess, witness=reaching),
    )


@fails(cites=["702.2c", "702.19b"])
def another_attackers_deathtouch_lets_a_trampler_past_its_blockers(combat):
    """A blocked trampler can assign all its damage past its blockers when another attacking
    creature has deathtouch (false: deathtouch makes lethal only the damage its source
    assigns; a blocker it assigns nothing still needs lethal damage)."""
    a0 = combat.attackers[0]

    def through(c):
        row = {r: ite(c.attacks(a0, r), c.power(a0), 0) for r in c.recipients}
        return with_row(c.simplest_assignment(), a0, row)

    scope = all_of(
        (
            assigns(combat, a0),
            combat.is_blocked(a0),
            combat.has(a0, "trample"),
            any_of(combat.attacks(a0, p) for p in combat.defenders),
            any_of(
                all_of((combat.is_attacking(a), combat.has(a, "deathtouch")))
                for a in combat.attackers[1:]
            ),
        )
    )
    return Claim(
        scope,
        combat.some(
            lambda amounts: past_blockers(combat, amounts, a0) == combat.power(a0), witness=through
        ),
    )


@holds(cites=["702.19b"])
def more_power_never_means_less_excess(combat, other):
    """Give a creature more power, all else equal, and it can still assign at least as much
    past its blockers as before."""
    a0 = combat.attackers[0]
    x = combat.assignment()
    scope = all_of(
        (
            other.agrees_with(combat, but=(f"{a0}.power",)),
            other.power(a0) >= combat.power(a0),
            combat.legal(x),
        )
    )
    before = past_blockers(combat, x.amounts, a0)

    def more(c):
        """The extra power goes where a0 already sent damage past its blockers, or with the
        rest of its damage; a0 newly able to assign puts it all on one recipient."""
        extra = damage_of(c, a0) - damage_of(combat, a0)  # none by toughness (Doran)
        past = first_past(c, x.amounts, a0)
        anywhere, seen = {}, False
        for r in c.recipients:
            anywhere[r] = all_of((x.amounts.get(a0, r) > 0, negate(seen)))
            seen = any_of((seen, x.amounts.get(a0, r) > 0))
        went_past = any_of(past.values())
        simplest = c.simplest_assignment()
        row = {}
        for r in c.recipients:
            grown = x.amounts.get(a0, r) + ite(ite(went_past, past[r], anywhere[r]), extra, 0)
            fresh = ite(c.assigns(a0), simplest.get(a0, r), x.amounts.get(a0, r))
            row[r] = ite(combat.assigns(a0), grown, fresh)
        return with_row(x.amounts, a0, row)

    return Claim(
        scope,
        other.some(lambda amounts: past_blockers(other, amounts, a0) >= before, witness=more),
    )


@holds(cites=["702.19b"])
def another_blocker_never_means_more_excess(combat, other):
    """Add a blocker to a creature, all else equal, and it can assign no more past its
    blockers than before."""
    a0, extra = combat.attackers[0], combat.blockers[-1]
    x = other.assignment()  # an assignment of the combat with the extra blocker
    blocks_only_a0 = all_of(
        (other.blocks(extra, a0), *(negate(other.blocks(extra, a)) for a in other.attackers[1:]))
    )
    scope = all_of(
        (
            other.agrees_with(
                combat,
                but=(f"{a0}.blocked", *(k for k in combat.unknowns if k.startswith(f"{extra}."))),
            ),
            negate(combat.present[extra]),
            other.present[extra],
            blocks_only_a0,
            other.legal(x),
        )
    )
    after = past_blockers(other, x.amounts, a0)

    def fewer(c):
        """Without the extra blocker, a0's damage to it goes where a0 already sent damage
        past its blockers; if it sent none, any legal assignment will do."""
        past = first_past(other, x.amounts, a0)
        moved = {
            pair: x.amounts.get(*pair)
            + (ite(past[pair[1]], x.amounts.get(a0, extra), 0) if pair[0] == a0 else 0)
            for pair in x.amounts.pairs()
            if extra not in pair
        }
        simplest = c.simplest_assignment()
        return type(simplest)(
            {
                pair: ite(after > 0, moved.get(pair, 0), simplest.get(*pair))
                for pair in set(moved) | set(simplest.pairs())
            }
        )

    return Claim(
        scope,
        combat.some(lambda amounts: past_blockers(combat, amounts, a0) >= after, witness=fewer),
    )
