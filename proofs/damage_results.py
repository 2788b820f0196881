"""Properties of what combat damage does once dealt: CR 120.3, 615.6, 615.12, 702.15,
702.16, 702.19b, 702.80, 702.90, 702.164, 704.5a, 704.5c, 704.5f-h, 701.19a.

Assignment comes first and ignores all of it (702.19b); then each damage event is changed by
the effects on it (`combat.dealt`: protection, preventions, doubling) and what is dealt has
its results (`results.result`), after which the state-based actions look at the creatures.
"""

from lethal.proofs._facts import may_deal
from lethal.proving import Claim, all_of, any_of, fails, holds, implies, ite, negate
from lethal.rules import results

LIFELINK, INFECT, WITHER = "lifelink", "infect", "wither"
DEATHTOUCH, INDESTRUCTIBLE, TRAMPLE = "deathtouch", "indestructible", "trample"
EVERYTHING = "protection from everything"


def _events(combat, x):
    """Every (source, recipient, damage assigned, damage dealt) of an assignment."""
    return [
        (s, r, x.amounts.get(s, r), combat.dealt(s, r, x.amounts.get(s, r)))
        for s in combat.creatures
        for r in combat.recipients
    ]


def _graveyard(combat, c, counters, marked, touched):
    """704.5f-h and 701.19a: c, with these -1/-1 counters and damage marked, dealt damage by
    a deathtouch source or not, leaves the battlefield: toughness 0 or less, or destroyed
    and not regenerated."""
    destroyed = results.destroyed(combat, c, counters, marked, touched)
    return any_of(
        (
            results.toughness_gone(combat.toughness(c), counters),
            all_of((destroyed, negate(results.regenerates(combat, c, destroyed)))),
        )
    )


def _lethal(combat, c):
    """The damage that is lethal to creature c: its toughness less the damage marked on it
    (704.5g), at least 0."""
    left = combat.toughness(c) - combat.marked(c)
    return ite(left > 0, left, 0)


# Assignment ignores what damage does.


@holds(cites=["510.1", "702.15b", "702.19b"])
def lifelink_never_changes_what_can_be_assigned(combat, other):
    """Lifelink changes what a creature's damage does (its controller gains life), never
    which assignments are legal: two combats the same but for lifelink have the same legal
    assignments."""
    a0, b0 = combat.attackers[0], combat.blockers[0]
    x = combat.assignment()
    differs = all_of(
        (
            other.agrees_with(combat, but=(f"{a0}.{LIFELINK}", f"{b0}.{LIFELINK}")),
            other.has(a0, LIFELINK),
            other.has(b0, LIFELINK),
            negate(combat.has(a0, LIFELINK)),
            negate(combat.has(b0, LIFELINK)),
        )
    )
    return Claim(differs, combat.legal(x) == other.legal(x))


@holds(cites=["702.19b", "702.80a", "702.90c", "702.164c"])
def a_trampler_needs_the_same_lethal_damage_with_infect_wither_or_toxic(combat, other):
    """A blocked trampler with infect, wither or toxic must assign its blockers the same
    lethal damage as without them (702.19b: lethal damage counts toughness and damage
    marked, not what the damage will do): the two combats have the same legal
    assignments."""
    a0 = combat.attackers[0]
    x = combat.assignment()
    changed = (f"{a0}.{INFECT}", f"{a0}.{WITHER}", f"{a0}.toxic")
    differs = all_of(
        (
            other.agrees_with(combat, but=changed),
            combat.has(a0, TRAMPLE),
            combat.is_blocked(a0),
            negate(combat.has(a0, INFECT)),
            negate(combat.has(a0, WITHER)),
            combat.toxic(a0) == 0,
            any_of((other.has(a0, INFECT), other.has(a0, WITHER), other.toxic(a0) > 0)),
        )
    )
    return Claim(differs, combat.legal(x) == other.legal(x))


# What damage dealt does (120.3).


@holds(cites=["120.3a", "120.3b", "702.90b", "702.164c"])
def infect_damage_to_a_player_never_lowers_their_life(combat):
    """Damage dealt to a player by a source with infect makes them lose no life: it gives
    them that many poison counters instead, besides the source's toxic value when damage
    is dealt (702.164c)."""
    n = combat.integer("damage")
    claims = []
    for s in combat.creatures:
        for p in combat.players:
            dealt = results.result(combat, s, p, n)
            toxic = ite(n > 0, combat.toxic(s), 0)
            claims.append(
                implies(
                    all_of((combat.has(s, INFECT), combat.is_player(p))),
                    all_of((dealt.life_lost == 0, dealt.poison == n + toxic)),
                )
            )
    return Claim(n >= 0, all_of(claims))


@holds(
    cites=["702.16e", "702.16j", "702.16k", "615", "615.6", "615.7", "615.12", "701.10g", "616.1"]
)
def each_event_deals_what_protection_prevention_and_doubling_leave(combat):
    """Each combat damage event of a legal assignment deals what the effects on it leave of
    the damage assigned: none, when the damage can be prevented and its recipient has
    protection from its source or an effect prevents all damage to the recipient; else the
    damage less a prevention shield on the recipient (up to the shield's amount), doubled
    when a doubler applies to the source, the shield and the doubler in either order, as
    the recipient's controller chooses. (Each event with any shield on its recipient all
    its own.) The properties of the results below speak of this damage dealt."""
    x = combat.assignment()
    claims = [
        may_deal(combat, s, r, assigned, dealt) for s, r, assigned, dealt in _events(combat, x)
    ]
    # Each event on its own: the same claim, 0.73 s for Z3 at once, 0.21 s apart.
    return Claim(combat.legal(x), all_of(claims), apart=True)


@holds(cites=["120.3f", "702.15b"])
def lifelink_gains_the_damage_dealt(combat):
    """A source with lifelink makes its controller gain as much life as the damage it
    deals: all of it (however much more than lethal), and none when it is all prevented (the
    damage dealt, as the property above states it); a source without lifelink, none."""
    x = combat.assignment()
    events = _events(combat, x)
    claims = []
    for s, r, _, dealt in events:
        gained = results.result(combat, s, r, dealt).gained
        claims.append(ite(combat.has(s, LIFELINK), gained == dealt, gained == 0))
    some = any_of(all_of((combat.has(s, LIFELINK), assigned > 0)) for s, _, assigned, _ in events)
    return Claim(all_of((combat.legal(x), some)), all_of(claims))


@fails(cites=["120.3f", "702.15b", "615.6", "701.10g"])
def lifelink_gains_the_damage_assigned(combat):
    """A source with lifelink makes its controller gain as much life as the combat damage
    it assigns (false: it gains the damage dealt, which prevention and doubling change)."""
    x = combat.assignment()
    claims = [
        implies(combat.has(s, LIFELINK), results.result(combat, s, r, dealt).gained == assigned)
        for s, r, assigned, dealt in _events(combat, x)
    ]
    return Claim(combat.legal(x), all_of(claims))


@fails(cites=["120.3f", "702.15b"])
def lifelink_gains_no_more_than_lethal_damage(combat):
    """A source with lifelink dealing damage to a creature gains no more life than the
    lethal damage that creature needed (false: it gains all the damage dealt, 5 for a 5/5
    on a 1/1)."""
    x = combat.assignment()
    claims = [
        implies(
            all_of((combat.has(s, LIFELINK), combat.is_creature(r))),
            results.result(combat, s, r, dealt).gained <= _lethal(combat, r),
        )
        for s, r, _, dealt in _events(combat, x)
        if r in combat.creatures
    ]
    return Claim(combat.legal(x), all_of(claims))


@holds(cites=["702.164c", "120.3g", "615.6", "615.7", "702.16e", "701.10g"])
def toxic_gives_its_value_only_to_players_and_only_when_damage_is_dealt(combat):
    """Combat damage dealt to a player by a creature with toxic gives them poison counters
    equal to its total toxic value, whatever the amount, besides the damage's other results;
    damage to a creature, planeswalker or battle gives none, and neither does damage all
    prevented."""
    x = combat.assignment()
    events = _events(combat, x)
    claims = []
    for s, r, _, dealt in events:
        given = results.result(combat, s, r, dealt).poison
        of_infect = ite(all_of((combat.has(s, INFECT), combat.is_player(r))), dealt, 0)
        toxic = ite(all_of((combat.is_player(r), dealt > 0)), combat.toxic(s), 0)
        claims.append(given - of_infect == toxic)
    some = any_of(all_of((combat.toxic(s) > 0, assigned > 0)) for s, _, assigned, _ in events)
    return Claim(all_of((combat.legal(x), some)), all_of(claims))


# The state-based actions after it (704.5a, c, f-h) and regeneration (701.19a).


@holds(cites=["704.5a", "704.5c", "120.3a", "120.3b", "702.90b", "702.164c"])
def a_player_with_ten_poison_counters_after_the_damage_has_lost(combat):
    """A player dealt combat damage by a creature, and gaining no life at the same time, has
    lost the game exactly when they then have ten or more poison counters (704.5c: those
    they had, and those the damage gave them: as much as the damage with infect, 702.90b,
    and the creature's toxic value for any damage, 702.164c) or 0 or less life (704.5a: the
    damage made them lose that much, unless it had infect): nine counters and some life left
    are not enough."""
    n, life, poison = combat.integer("damage"), combat.integer("life"), combat.integer("poison")
    a0 = combat.attackers[0]
    dealt = results.result(combat, a0, combat.defender, n)
    infect = combat.has(a0, INFECT)
    life_left = life - ite(infect, 0, n)
    counters = poison + ite(infect, n, 0) + ite(n > 0, combat.toxic(a0), 0)
    return Claim(
        all_of((n >= 0, poison >= 0)),
        results.loses(life - dealt.life_lost, poison + dealt.poison)
        == any_of((life_left <= 0, counters >= 10)),
    )


def _counters_dealt(combat):
    """a0 deals b0 `n` damage: its results, and what b0 has after them."""
    a0, b0 = combat.attackers[0], combat.blockers[0]
    n = combat.integer("damage")
    dealt = results.result(combat, a0, b0, n)
    return a0, b0, n, dealt, combat.marked(b0) + dealt.marked


@holds(cites=["704.5f", "702.12b", "701.19a", "120.3d", "702.80a", "702.90c"])
def toughness_zero_beats_indestructible_and_regeneration(combat):
    """A creature dealt at least its toughness in damage by a source with wither or infect
    gets that many -1/-1 counters and is put into its owner's graveyard (704.5f), whether or
    not it is indestructible or has a regeneration shield: that is not destruction, so it is
    not destroyed, neither applies, and no shield is used."""
    a0, b0, n, dealt, marked = _counters_dealt(combat)
    scope = all_of(
        (
            any_of((combat.has(a0, WITHER), combat.has(a0, INFECT))),
            combat.is_creature(b0),
            n >= combat.toughness(b0),
        )
    )
    destroyed = results.destroyed(combat, b0, dealt.counters, marked, dealt.deathtouch)
    return Claim(
        scope,
        all_of(
            (
                dealt.counters == n,
                _graveyard(combat, b0, dealt.counters, marked, dealt.deathtouch),
                negate(destroyed),
                negate(results.regenerates(combat, b0, destroyed)),
            )
        ),
    )


@fails(cites=["704.5f", "704.5g", "701.19a"])
def a_regeneration_shield_saves_a_creature_from_any_combat_damage(combat):
    """A creature that is not indestructible and has a regeneration shield is never put
    into the graveyard by the damage of one source (false: -1/-1 counters from wither or
    infect that take its toughness to 0 are not destruction, 704.5f)."""
    a0, b0, n, dealt, marked = _counters_dealt(combat)
    scope = all_of(
        (
            combat.is_creature(b0),
            n >= 0,
            negate(combat.has(b0, INDESTRUCTIBLE)),
            combat.regeneration_shields(b0) >= 1,
        )
    )
    return Claim(scope, negate(_graveyard(combat, b0, dealt.counters, marked, dealt.deathtouch)))


@holds(cites=["704.5f", "704.5g", "704.5h", "701.19a", "120.3d", "120.3e"])
def a_creature_with_no_regeneration_shield_dies_of_lethal_or_deathtouch_damage(combat):
    """A creature that is not indestructible and has no regeneration shield is put into its
    owner's graveyard exactly when the damage dealt to it, with the damage already marked on
    it, reaches its toughness, or a source with deathtouch dealt it some (704.5g-h): with no
    shield, nothing replaces its destruction (701.19a). Damage dealt as -1/-1 counters
    (wither, infect) takes toughness away instead, which comes to the same (704.5f-g)."""
    a0, b0, n, dealt, marked = _counters_dealt(combat)
    scope = all_of(
        (
            combat.is_creature(b0),
            n >= 0,
            negate(combat.has(b0, INDESTRUCTIBLE)),
            combat.regeneration_shields(b0) == 0,
        )
    )
    dies = any_of(
        (
            combat.marked(b0) + n >= combat.toughness(b0),
            all_of((combat.has(a0, DEATHTOUCH), n >= 1)),
        )
    )
    return Claim(scope, _graveyard(combat, b0, dealt.counters, marked, dealt.deathtouch) == dies)


@holds(cites=["704.5h", "120.3d", "702.80a", "702.90c"])
def deathtouch_damage_as_counters_still_destroys(combat):
    """A creature dealt damage by a source with deathtouch is destroyed (704.5h) even when
    that damage became -1/-1 counters (wither, infect) that leave it some toughness: 704.5h
    asks whether damage was dealt, not marked."""
    a0, b0, n, dealt, marked = _counters_dealt(combat)
    scope = all_of(
        (
            combat.has(a0, DEATHTOUCH),
            any_of((combat.has(a0, WITHER), combat.has(a0, INFECT))),
            combat.is_creature(b0),
            n >= 1,
            n < combat.toughness(b0),
            negate(combat.has(b0, INDESTRUCTIBLE)),
        )
    )
    return Claim(
        scope,
        all_of(
            (
                marked == combat.marked(b0),  # nothing marked: all of it is counters
                results.destroyed(combat, b0, dealt.counters, marked, dealt.deathtouch),
            )
        ),
    )


@holds(cites=["704.3", "704.5g", "704.5h", "701.19a"])
def one_regeneration_shield_replaces_lethal_and_deathtouch_destruction_at_once(combat):
    """A creature dealt lethal damage by a source with deathtouch meets 704.5g and 704.5h at
    once, and is destroyed once (704.3: one event): a single regeneration shield saves
    it."""
    a0, b0, n, dealt, marked = _counters_dealt(combat)
    scope = all_of(
        (
            combat.has(a0, DEATHTOUCH),
            negate(combat.has(a0, WITHER)),
            negate(combat.has(a0, INFECT)),
            combat.is_creature(b0),
            n >= 1,
            combat.marked(b0) + n >= combat.toughness(b0),
            negate(combat.has(b0, INDESTRUCTIBLE)),
            combat.regeneration_shields(b0) == 1,
        )
    )
    destroyed = results.destroyed(combat, b0, dealt.counters, marked, dealt.deathtouch)
    return Claim(
        scope,
        all_of(
            (
                results.lethal_damage(combat.toughness(b0), dealt.counters, marked),
                dealt.deathtouch,
                results.regenerates(combat, b0, destroyed),
                negate(_graveyard(combat, b0, dealt.counters, marked, dealt.deathtouch)),
            )
        ),
    )


# Protection (702.16) and damage that can't be prevented (615.12).


def _protected_from_creatures(combat, x, preventable: bool):
    """Each creature with protection from creatures is dealt no damage by a creature (whose
    damage can be prevented, with `preventable`), and whether some is assigned any."""
    claims, some = [], []
    for s, r, assigned, dealt in _events(combat, x):
        premise = all_of(
            (
                combat.is_creature(s),
                combat.is_creature(r),
                combat.protection_from(r, "creatures"),
                negate(combat.cant_be_prevented(s)) if preventable else True,
            )
        )
        claims.append(implies(premise, dealt == 0))
        some.append(all_of((premise, assigned > 0)))
    return all_of(claims), any_of(some)


@fails(cites=["702.16a", "702.16e", "615.12"])
def a_creature_with_protection_from_creatures_is_never_dealt_combat_damage_by_one(combat):
    """A creature with protection from creatures is never dealt combat damage by a creature
    (false: damage that can't be prevented is dealt through protection, 615.12)."""
    x = combat.assignment()
    never, _ = _protected_from_creatures(combat, x, preventable=False)
    return Claim(combat.legal(x), never)


@holds(cites=["702.16a", "702.16e", "615.12"])
def protection_from_creatures_prevents_every_creatures_preventable_damage(combat):
    """A creature with protection from creatures is dealt no combat damage by a creature
    whose damage can be prevented (702.16a: a card type is a quality; 702.16e), whatever
    the other effects on that damage."""
    x = combat.assignment()
    never, some = _protected_from_creatures(combat, x, preventable=True)
    return Claim(all_of((combat.legal(x), some)), never)


@holds(cites=["702.16j", "615.12"])
def protection_from_everything_prevents_all_preventable_damage(combat):
    """A creature or player with protection from everything is dealt no damage by a
    creature, whatever the amount and the other effects on it, unless that damage can't be
    prevented (615.12)."""
    n = combat.integer("damage")
    a0 = combat.attackers[0]  # any creature: 702.16j asks nothing of the source
    shielded = {r: combat.has(r, EVERYTHING) for r in combat.recipients}
    scope = (n >= 1, combat.is_creature(a0), negate(combat.cant_be_prevented(a0)))
    return Claim(
        all_of((*scope, any_of(shielded.values()))),
        all_of(implies(shielded[r], combat.dealt(a0, r, n) == 0) for r in shielded),
    )
