"""The semantic mutants `lethal mutants` applies to the rules' source, one plausible bug each.

Each mutant replaces one snippet of one file of the package (a path inside it, such as
`rules/trample.py`) with another: a comparison changed, a term forgotten, a player or a
chooser swapped, a disjunct dropped. The original snippet must occur exactly once in its
file, so a mutant that no longer fits the source fails loudly instead of testing nothing.
A mutant is marked `equivalent` only with the reason it changes no behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str  # the path inside the package, e.g. "rules/trample.py"
    original: str  # occurs exactly once in the file
    replacement: str
    description: str  # the plausible bug, in one line
    equivalent: str = ""  # why it changes no behaviour, when it changes none


MUTANTS: tuple[Mutant, ...] = (
    # 510.4, 702.4, 702.7: who assigns in which step.
    Mutant(
        "steps.first-step-forgets-double-strike",
        "rules/steps.py",
        "any_of((view.has(c, FIRST_STRIKE), double_strike))",
        "view.has(c, FIRST_STRIKE)",
        "only first strike assigns in the first-strike step; double strike is forgotten",
    ),
    Mutant(
        "steps.second-step-forgets-double-strike",
        "rules/steps.py",
        "any_of((negate(view.struck_first(c)), double_strike))",
        "negate(view.struck_first(c))",
        "a creature that struck first never assigns again, double strike or not",
    ),
    Mutant(
        "steps.second-step-reads-the-keyword",
        "rules/steps.py",
        "negate(view.struck_first(c))",
        "negate(view.has(c, FIRST_STRIKE))",
        "the second step asks for first strike now, not whether it struck first (702.7c)",
    ),
    Mutant(
        "steps.only-step-forgotten",
        "rules/steps.py",
        "    only = view.step_is(ONLY)\n",
        "    only = False\n",
        "no creature assigns combat damage in a combat without first or double strike",
    ),
    # 510.1a-d: how much, and to whom.
    Mutant(
        "division.negative-power-not-clamped",
        "rules/division.py",
        "sent == at_least_zero(amount)",
        "sent == amount",
        "a creature with negative power must assign its power, not nothing (510.1a)",
    ),
    Mutant(
        "division.less-than-power",
        "rules/division.py",
        "sent == at_least_zero(amount)",
        "sent <= at_least_zero(amount)",
        "a creature may assign less than its power (510.1a says exactly)",
    ),
    Mutant(
        "division.power-regardless-of-step",
        "rules/division.py",
        "premise = all_of((steps.assigns_this_step(view, s), has_recipient(view, s)))",
        "premise = has_recipient(view, s)",
        "a creature must assign its power even in a step it does not assign in",
    ),
    Mutant(
        "division.power-one-assigns-nothing",
        "rules/division.py",
        "damage_to_assign(view, s) > 0,",
        "damage_to_assign(view, s) > 1,",
        "a creature with power 1 is taken not to assign combat damage (off by one)",
    ),
    Mutant(
        "division.unblocked-reaches-removed-target",
        "rules/division.py",
        "all_of((attacking, negate(blocked), view.attacks(s, r), negate(view.removed(r))))",
        "all_of((attacking, negate(blocked), view.attacks(s, r)))",
        "an unblocked attacker assigns to a planeswalker removed from combat (506.4c)",
    ),
    Mutant(
        "division.blocked-reaches-its-target",
        "rules/division.py",
        "all_of((attacking, negate(blocked), view.attacks(s, r), negate(view.removed(r))))",
        "all_of((attacking, view.attacks(s, r), negate(view.removed(r))))",
        "a blocked attacker without trample assigns to what it attacks (510.1c)",
    ),
    Mutant(
        "division.attacker-forgets-its-blockers",
        "rules/division.py",
        "    way = view.blocks(r, s)\n",
        "    way = False\n",
        "a blocked attacker may not assign to the creatures blocking it (510.1c)",
    ),
    Mutant(
        "division.blocker-forgets-its-attackers",
        "rules/division.py",
        "    way = view.blocks(s, r)\n    if way is True:  # as any_of would fold it, for every "
        "blocker and what it blocks\n        return True\n    ways.append(way)\n",
        "",
        "a blocker may not assign to the creatures it blocks (510.1d)",
    ),
    Mutant(
        "division.toughness-as-damage-forgotten",
        "rules/division.py",
        "ite(doran, view.toughness(c), view.power(c))",
        "view.power(c)",
        "a creature that assigns combat damage equal to its toughness assigns its power (510.1a)",
    ),
    Mutant(
        "division.as-though-unblocked-reaches-removed-target",
        "rules/division.py",
        "all_of((view.attacks(s, r), negate(view.removed(r))))",
        "view.attacks(s, r)",
        "as though unblocked, a creature assigns to a planeswalker removed from combat (506.4c)",
    ),
    # Thorn Elemental's ability (510.1b-c, the Rhox rulings).
    Mutant(
        "unblocked.blockers-with-damage-still-lift-trample",
        "rules/unblocked.py",
        "all_of((chosen, to_blockers(view, amounts, s) == 0))",
        "chosen",
        "with the ability, damage past its blockers never needs lethal damage on them (702.19b)",
    ),
    Mutant(
        "unblocked.attacked-blocker-counts-as-a-blocker",
        "rules/unblocked.py",
        "ite(all_of((view.blocks(b, s), negate(view.attacks(s, b)))), amounts.get(s, b), 0)",
        "ite(view.blocks(b, s), amounts.get(s, b), 0)",
        "all to the creature planeswalker it attacks, which blocks it, is taken as a split",
    ),
    # 702.19b-f: trample's gates.
    Mutant(
        "trample.over-planeswalkers-is-not-trample",
        "rules/trample.py",
        "any_of((trample, view.has(s, TRAMPLE_OVER_PLANESWALKERS)))",
        "trample",
        "trample over planeswalkers does not trample over blockers (702.19c)",
    ),
    Mutant(
        "trample.past-blockers-into-removed-target",
        "rules/trample.py",
        "all_of((trampler, view.attacks(s, r), negate(view.removed(r))))",
        "all_of((trampler, view.attacks(s, r)))",
        "a blocked trampler assigns to a planeswalker removed from combat (506.4c)",
    ),
    Mutant(
        "trample.blockers-need-lethal-among-themselves",
        "rules/trample.py",
        "trampler, negate(view.blocks(r, s))))",
        "trampler))",
        "a trampler's damage to one blocker waits for lethal damage to every blocker",
    ),
    Mutant(
        "trample.plain-trample-reaches-the-controller",
        "rules/trample.py",
        # The first of two: the controller reached, not the lethal damage owed (702.19c).
        "    over_planeswalkers = view.has(s, TRAMPLE_OVER_PLANESWALKERS)\n    if over",
        "    over_planeswalkers = tramples(view, s)\n    if over",
        "plain trample reaches an attacked planeswalker's controller (702.19f)",
    ),
    Mutant(
        "trample.loyalty-strictly-exceeded",
        "rules/trample.py",
        "amounts.received_by(p) >= view.loyalty(p)",
        "amounts.received_by(p) > view.loyalty(p)",
        "the controller is reached only past the loyalty, not at it (off by one)",
    ),
    Mutant(
        "trample.loyalty-from-its-own-damage",
        "rules/trample.py",
        "amounts.received_by(p) >= view.loyalty(p)",
        "amounts.get(s, p) >= view.loyalty(p)",
        "only the trampler's own damage counts toward the planeswalker's loyalty (702.19c)",
    ),
    Mutant(
        "trample.loyalty-before-controller-when-removed",
        "rules/trample.py",
        "                    negate(view.removed(p)),\n                    view.controls(r, p),",
        "                    view.controls(r, p),",
        "a planeswalker removed from combat still needs its loyalty before its controller",
    ),
    # 702.19b, 702.2c: lethal damage.
    Mutant(
        "deathtouch.zero-damage-is-deathtouch",
        "rules/deathtouch.py",
        "any_positive((view.has(o, DEATHTOUCH), x) for o, x in amounts.into(b))",
        "any_of(view.has(o, DEATHTOUCH) for o, x in amounts.into(b))",
        "a deathtouch source assigning 0 makes the damage lethal (702.2c: any nonzero amount)",
    ),
    Mutant(
        "deathtouch.damage-marked-forgotten",
        "rules/deathtouch.py",
        "view.marked(b) + amounts.received_by(b) >= view.toughness(b)",
        "amounts.received_by(b) >= view.toughness(b)",
        "lethal damage ignores damage already marked (702.19b counts it)",
    ),
    Mutant(
        "deathtouch.lethal-strictly-exceeded",
        "rules/deathtouch.py",
        "view.marked(b) + amounts.received_by(b) >= view.toughness(b)",
        "view.marked(b) + amounts.received_by(b) > view.toughness(b)",
        "lethal damage must exceed toughness, not reach it (off by one)",
    ),
    Mutant(
        "deathtouch.forgotten",
        "rules/deathtouch.py",
        "any_of((by_toughness, deathtouch_damage_assigned(view, amounts, b)))",
        "by_toughness",
        "deathtouch does not make 1 damage lethal for assignment (702.2c)",
    ),
    Mutant(
        "deathtouch.m10-deathtouch-already-lethal",
        "rules/deathtouch.py",
        "not view.edition.deathtouch_is_lethal or by_toughness is True",
        "by_toughness is True",
        "M10's deathtouch makes 1 damage lethal, as M11's does (A5: it made nothing lethal)",
    ),
    # 509.2-509.3, 510.1c-d: the damage assignment order of the editions before 2024-11-08.
    Mutant(
        "order.reversed",
        "rules/order.py",
        "precedes(x, y), sent > 0",
        "precedes(y, x), sent > 0",
        "the creature later in the order must have lethal damage first",
    ),
    Mutant(
        "order.m10-deathtouch-bound",
        "rules/order.py",
        "all_of((view.edition.deathtouch_divides_freely, view.has(s, DEATHTOUCH))),",
        "False,",
        "M10's deathtouch follows its order like any creature (702.2b then freed it)",
    ),
    Mutant(
        "order.banding-chooser-bound",
        "rules/order.py",
        "            banding.defending_player_divides(view, s),\n",
        "",
        "the defending player who divides an attacker's damage under banding follows the "
        "attacker's order (702.22j: as they choose)",
    ),
    Mutant(
        "order.blockers-have-none",
        "rules/order.py",
        "any_of((view.blocks(x, s), view.blocks(s, x)))",
        "view.blocks(x, s)",
        "a blocker's damage assignment order (509.3) is forgotten",
    ),
    Mutant(
        "order.any-order-is-given",
        "rules/order.py",
        "        holds = any_of(\n            all_of(c.holds for c in",
        "        holds = all_of(\n            all_of(c.holds for c in",
        "an order the file leaves open must work in every order, not some order",
    ),
    Mutant(
        "order.kept-after-foundations",
        "editions.py",
        "        return self.since < FOUNDATIONS\n",
        "        return True\n",
        "the damage assignment order is kept in today's rules",
    ),
    # 702.22c-k: banding, and who divides.
    Mutant(
        "banding.defender-divides-for-the-wrong-side",
        "rules/banding.py",
        "lambda b: view.blocks(b, a)",
        "lambda b: view.blocks(a, b)",
        "702.22j asks whether the attacker blocks banding, not is blocked by it",
    ),
    Mutant(
        "banding.defender-divides-for-every-blocked-attacker",
        "rules/banding.py",
        "    if banding is False:  # as all_of would fold it, for most blocked attackers\n"
        "        return False\n"
        "    return all_of((view.is_attacking(a), banding))\n",
        "    return all_of((view.is_attacking(a), view.is_blocked(a)))\n",
        "the defending player divides the damage of every blocked attacker, banding or not "
        "(702.22j)",
    ),
    Mutant(
        "banding.attacker-divides-for-the-wrong-side",
        "rules/banding.py",
        "lambda a: view.blocks(b, a)",
        "lambda a: view.blocks(a, b)",
        "702.22k asks whether the blocker is blocked by banding, not blocks it",
    ),
    Mutant(
        "banding.banding-anywhere-counts",
        "rules/banding.py",
        "way = all_of((in_group(c), has))",
        "way = has",
        "any creature with banding turns the chooser round, not only one in the block",
    ),
    Mutant(
        "banding.bands-with-other-by-itself",
        "rules/banding.py",
        "        for y in group\n        if x != y\n",
        "        for y in group\n",
        "a lone creature with bands with other <quality> counts as a banding pair",
    ),
    Mutant(
        "banding.two-without-banding",
        "rules/banding.py",
        "without <= 1",
        "without <= 2",
        "a band may hold two creatures without banding (702.22c: at most one)",
    ),
    Mutant(
        "banding.quality-only-on-the-bander",
        "rules/banding.py",
        "                all_of(implies(m_in, view.has_quality(m, q)) for m, m_in in pairs),\n",
        "",
        "a bands-with-other band need not all have the quality (702.22c)",
    ),
    # 616.1, 615, 702.16e: dealing damage.
    Mutant(
        "dealing.battle-protector-orders-effects",
        "rules/dealing.py",
        "view.controls(player, to)",
        "ite(view.is_battle(to), view.protects(player, to), view.controls(player, to))",
        "a battle's protector, not its controller, orders the effects on damage to it (616.1)",
    ),
    Mutant(
        "dealing.other-player-orders-effects",
        "rules/dealing.py",
        "player == to",
        "player != to",
        "the player not dealt the damage orders the effects on it (616.1)",
    ),
    Mutant(
        "dealing.protection-forgotten",
        "rules/dealing.py",
        "PROTECTION:  # 702.16e\n        return 0, shield\n",
        "PROTECTION:  # 702.16e\n        return amount, shield\n",
        "protection from a quality does not prevent the damage (702.16e)",
    ),
    Mutant(
        "dealing.shield-never-used-up",
        "rules/dealing.py",
        "ite(dealt, shield - prevented, shield)",
        "shield",
        "a prevention shield prevents the next N damage again and again (615)",
    ),
    Mutant(
        "dealing.shield-prevents-more-than-dealt",
        "rules/dealing.py",
        "ite(amount < shield, amount, shield)",
        "ite(amount < shield, shield, amount)",
        "the damage prevented is the larger of damage and shield, not the smaller",
    ),
    Mutant(
        "dealing.adds-to-prevented-damage",
        "rules/dealing.py",
        "return ite(dealt, amount + change.amount, amount), shield",
        "return amount + change.amount, shield",
        "'that much damage plus N' applies to damage already prevented (Torbran ruling)",
    ),
    # 120.3, 702.15, 702.80, 702.90, 702.164, 704.5: what damage dealt does.
    Mutant(
        "results.toughness-gone-is-destruction",
        "rules/results.py",
        "            negate(toughness_gone(toughness, counters)),\n",
        "",
        "-1/-1 counters that take toughness to 0 destroy the creature, so a regeneration "
        "shield is used on it (704.5f is not destruction)",
    ),
    Mutant(
        "results.lifelink-forgotten",
        "rules/results.py",
        "gained=ite(view.has(source, LIFELINK), amount, 0)",
        "gained=0",
        "lifelink gains no life (120.3f)",
    ),
    Mutant(
        "results.infect-player-loses-life",
        "rules/results.py",
        "life_lost=ite(all_of((to_player, negate(infect))), amount, 0)",
        "life_lost=ite(to_player, amount, 0)",
        "infect damage to a player makes them lose life as well as get poison (702.90b)",
    ),
    Mutant(
        "results.wither-marks-damage",
        "rules/results.py",
        "as_counters = any_of((infect, wither))",
        "as_counters = infect",
        "wither's damage is marked, not put as -1/-1 counters (702.80a)",
    ),
    Mutant(
        "results.toxic-without-damage",
        "rules/results.py",
        "ite(dealt, view.toxic(source), 0)",
        "view.toxic(source)",
        "toxic gives poison even when no damage is dealt (120.3g: combat damage dealt)",
    ),
    Mutant(
        "results.nine-poison-lose",
        "rules/results.py",
        "poison >= POISON_TO_LOSE",
        "poison > POISON_TO_LOSE",
        "ten poison counters are not enough to lose (704.5c)",
    ),
    Mutant(
        "results.deathtouch-counters-harmless",
        "rules/results.py",
        "deathtouch=all_of((to_creature, dealt, view.has(source, DEATHTOUCH)))",
        "deathtouch=all_of((to_creature, dealt, view.has(source, DEATHTOUCH), negate(infect)))",
        "deathtouch damage that arrives as infect's -1/-1 counters destroys nothing (704.5h)",
    ),
    Mutant(
        "results.regeneration-without-a-shield",
        "rules/results.py",
        "view.regeneration_shields(creature) > 0",
        "view.regeneration_shields(creature) >= 0",
        "a creature regenerates with no regeneration shield (701.19a)",
    ),
    # 702.16a, e, j, k: protection.
    Mutant(
        "protection.card-type-not-a-quality",
        "rules/protection.py",
        "                                view.has_type(source, quality),\n",
        "",
        "protection from a card type matches only sources given it as a quality (702.16a)",
    ),
    Mutant(
        "protection.player-forgotten",
        "rules/protection.py",
        "                                _controlled_by(view, quality, source),\n",
        "",
        "protection from a player prevents nothing of what that player controls (702.16k)",
    ),
    Mutant(
        "protection.everything-forgotten",
        "rules/protection.py",
        "            view.has(recipient, PROTECTION_FROM_EVERYTHING),  # 702.16j\n",
        "",
        "protection from everything prevents nothing (702.16j)",
    ),
    # 701.10: doubling.
    Mutant(
        "doubling.counters-tripled",
        "rules/doubling.py",
        "    return count\n",
        "    return 2 * count\n",
        "doubling counters puts twice as many on, leaving three times as many (701.10e)",
    ),
    Mutant(
        "doubling.negative-power-sign",
        "rules/doubling.py",
        "ite(value < 0, -(0 - value), value)",
        "ite(value < 0, 0 - value, value)",
        "doubling a negative power gives +X/+0, not -X/-0 (701.10c)",
    ),
    Mutant(
        "doubling.toughness-by-power",
        "rules/doubling.py",
        "_change(toughness) if toughness_too",
        "_change(power) if toughness_too",
        "doubling toughness adds the power (a swapped argument)",
    ),
    Mutant(
        "doubling.negative-life-sign",
        "rules/doubling.py",
        "lost=ite(life < 0, 0 - life, 0)",
        "lost=ite(life < 0, life, 0)",
        "doubling a negative life total loses a negative amount (701.10d)",
    ),
    Mutant(
        "doubling.damage-not-doubled",
        "rules/doubling.py",
        "    return 2 * amount\n",
        "    return amount\n",
        "a damage doubler deals the same damage instead of twice it (701.10g)",
    ),
    # The symbolic view: what every combat within the bounds is, for the property library.
    # Written against symbolic.py as rewritten for 3 players (uncommitted when written).
    Mutant(
        "symbolic.marked-read-as-zero",
        "proving/symbolic.py",
        "return self.stats[c][2]",
        "return 0",
        "damage marked is read as 0 in every combat, so no property sees it",
    ),
    Mutant(
        "symbolic.targets-never-removed",
        "proving/symbolic.py",
        "return self._removed.get(target, False)",
        "return False",
        "no attacked planeswalker or battle is ever removed from combat (506.4c)",
    ),
    Mutant(
        "symbolic.struck-first-pinned-in-the-second-step",
        "proving/symbolic.py",
        "implies(negate(free), self._struck_first[c] == striker[c])",
        "self._struck_first[c] == striker[c]",
        "in the second step a creature struck first exactly when it has the keyword (702.7c)",
    ),
    Mutant(
        "symbolic.legal-forgets-the-domain",
        "proving/symbolic.py",
        "return all_of([*x.domain(), *(c.holds",
        "return all_of([*(c.holds",
        "a legal assignment may hold negative amounts",
    ),
    Mutant(
        "symbolic.witness-amounts-may-be-negative",
        "proving/symbolic.py",
        "*(amounts.get(*p) >= 0 for p in pairs),",
        "",
        "a witness with a negative amount counts as a legal assignment",
    ),
    Mutant(
        "symbolic.no-negative-power",
        "proving/symbolic.py",
        "power >= -1",
        "power >= 0",
        "the bounds leave out negative power (510.1a: 0 or less assigns nothing)",
    ),
    Mutant(
        "symbolic.no-second-step",
        "proving/symbolic.py",
        "self.step <= 2",
        "self.step <= 1",
        "the bounds leave out the second combat damage step (off by one)",
    ),
    Mutant(
        "symbolic.battle-is-a-planeswalker",
        "proving/symbolic.py",
        "p: all_of((self.present[p], negate(self.battle[p]))) for p in self.planeswalkers",
        "p: self.present[p] for p in self.planeswalkers",
        "a battle answers yes to is_planeswalker, so has loyalty for 702.19c",
    ),
    Mutant(
        "symbolic.dealt-ignores-effects",
        "proving/symbolic.py",
        "        amount, shield = ite(applies, changed, amount), ite(applies, left, shield)\n",
        "",
        "the damage a proof reasons about is the damage assigned: no protection, prevention "
        "or doubling changes it",
    ),
    Mutant(
        "symbolic.blocked-only-while-blockers-remain",
        "proving/symbolic.py",
        "implies(any_of(blocked_by), self._blocked[a])",
        "self._blocked[a] == any_of(blocked_by)",
        "a creature whose blockers all left is no longer blocked (509.1h, 702.19d)",
    ),
)
