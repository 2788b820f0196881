"""Is the symbolic combat the combat `lethal check` judges?

A proof speaks of the symbolic combat; a user's file is judged by the concrete view. Pinned
to a scenario (every unknown given the value the file gives it), the symbolic combat must
answer every question the rules ask of a view, every question the rules themselves answer,
and `legal(x)` exactly as the concrete side does, over every source and every recipient. The
tests pin it to thousands of drawn files; `lethal prove` pins it to the bundled examples
before it reports a verdict, so a proof over a wrong model does not pass quietly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

import z3

from .. import rules
from ..amounts import Amounts
from ..combat import CANT_BE_PREVENTED, DOUBLE, PERMANENT_TYPES, PREVENT, Entry, Scenario
from ..editions import Edition
from ..keywords import PLAIN, Keywords, card_type, quality_key
from ..rules import banding, division, order, protection, results, steps, trample
from ..rules.dealing import changes, deal, orders_effects
from ..verdict import check
from ..view import ScenarioView
from . import Bounds
from .counterexample import unknowns
from .symbolic import QUALITIES, STEPS, TYPES, SymbolicCombat

# Room for every bundled example: 3 players, 3 attackers, 4 other creatures, 2 planeswalkers
# and a battle, values up to 7. Every bound is the same code, so agreement here is agreement
# at any bounds a property names.
BOUNDS = Bounds(players=3, attackers=3, blockers=4, permanents=3, power=7, toughness=7, loyalty=7)


def on_examples(paths: Iterable) -> tuple[int, dict[str, list[str]]]:
    """How many of the scenario files fit the symbolic combat, and where each that fits
    disagrees (files that do not fit are left out and counted apart by the caller)."""
    from ..reading import load

    agreement, fitted, found = Agreement(BOUNDS), 0, {}  # one symbolic combat per edition
    for path in paths:
        scenario = slotted(load(path, warn=False), BOUNDS)
        if scenario is None:
            continue
        fitted += 1
        lines = agreement.disagreements(scenario, scenario.assignment or ())
        if lines:
            found[path.name] = lines
    return fitted, found


def slotted(scenario: Scenario, bounds: Bounds) -> Scenario | None:
    """The same scenario with the symbolic combat's names: attackers a0.., other creatures
    b0.., planeswalkers and battles p0.., the active player A and the others D, E, ...,
    qualities as the symbolic combat's. None when it does not fit the bounds, or says what
    the symbolic combat cannot (effects other than a doubler on one source, shields,
    preventions of all the damage to a recipient and damage that can't be prevented;
    protection from a card type other than creature, or from a player). Card types other
    than creature, planeswalker and battle are left out when no protection names them, and
    the qualities of a permanent that is not a creature (a Siege's changes only where it
    goes, 310.11b): then they change nothing the symbolic combat speaks of."""
    combat_players = SymbolicCombat.player_names(bounds)
    others = [p.id for p in scenario.players if p.id != scenario.active_player]
    attackers = [p.id for p in scenario.permanents if p.attacking is not None]
    targets = [p.id for p in scenario.permanents if p.is_planeswalker or p.is_battle]
    creatures = [p.id for p in scenario.permanents if p.id not in attackers + targets]
    holders = (*scenario.players, *scenario.permanents)
    players = {quality_key(p.id) for p in scenario.players}  # protection from one: 702.16k
    protections = {q for x in holders for q in x.keywords.protection_from} - players
    qualities = sorted(
        {q for p in scenario.permanents if p.is_creature for q in p.qualities}
        | {q for p in scenario.permanents for q in p.keywords.bands_with_other}
        | {q for q in protections if card_type(q) is None}
    )
    fits = (
        len(others) < len(combat_players)
        and len(attackers) <= bounds.attackers
        and len(creatures) <= bounds.blockers
        and len(targets) <= bounds.permanents
        and len(qualities) <= len(QUALITIES)
        and not any(card_type(q) for q in qualities)  # a quality that reads as a type
        and all(card_type(q) in (None, "creature") for q in protections)
        and all(_expressible(e) for e in scenario.effects)
        and all(_within(p, bounds) for p in scenario.permanents)
        and all(e.amount <= bounds.loyalty for e in scenario.effects if e.is_shield)
    )
    if not fits or order.open_orders(ScenarioView(scenario)):
        return None  # the symbolic combat's orders are always given
    names = {scenario.active_player: combat_players[0]}
    names.update(zip(others, combat_players[1:], strict=False))
    for prefix, ids in (("a", attackers), ("b", creatures), ("p", targets)):
        names.update({old: f"{prefix}{n}" for n, old in enumerate(ids)})
    quality = dict(zip(qualities, QUALITIES, strict=False))
    return _renamed(scenario, names.__getitem__, quality.__getitem__)


def _within(p, bounds: Bounds) -> bool:
    numbers = [
        (p.power, -1, bounds.power),
        (p.toughness, 1, bounds.toughness),
        (p.damage, 0, bounds.toughness),
        (p.loyalty, 1, bounds.loyalty),
        (p.defense, 1, bounds.loyalty),
        (p.keywords.toxic, 0, bounds.power),
        (p.regeneration_shields, 0, bounds.loyalty),
    ]
    return all(low <= n <= high for n, low, high in numbers if n is not None)


def _expressible(effect) -> bool:
    """The symbolic combat says: a shield on a recipient, a prevention of all the damage to
    one recipient or to every one, a doubler of one source's damage, and damage of any
    sources that can't be prevented; each of any source and recipient but those named."""
    if effect.kind == PREVENT:
        to_one = effect.to is not None or effect.amount is None
        return to_one and effect.sources is None and not effect.once
    if effect.kind == CANT_BE_PREVENTED:
        return effect.recipients is None
    one_source = effect.sources is not None and len(effect.sources) == 1
    return effect.kind == DOUBLE and one_source and effect.recipients is None


def _renamed(scenario: Scenario, name: Callable, quality: Callable) -> Scenario:
    def ids(values: Iterable[str] | None):
        return None if values is None else tuple(name(v) for v in values)

    player = {quality_key(p.id): p.id for p in scenario.players}

    def protection(q: str) -> str:
        if q in player:
            return quality_key(name(player[q]))
        return q if card_type(q) else quality(q)

    def keywords(k: Keywords) -> Keywords:
        return replace(
            k,
            bands_with_other=frozenset(map(quality, k.bands_with_other)),
            protection_from=frozenset(map(protection, k.protection_from)),
        )

    holders = (*scenario.players, *scenario.permanents)
    named_types = {card_type(q) for x in holders for q in x.keywords.protection_from}
    permanents = tuple(
        replace(
            p,
            id=name(p.id),
            controller=name(p.controller),
            types=frozenset(t for t in p.types if t in PERMANENT_TYPES or t in named_types),
            protector=None if p.protector is None else name(p.protector),
            attacking=None if p.attacking is None else name(p.attacking),
            blocking=ids(p.blocking),
            order=ids(p.order),
            qualities=frozenset(map(quality, p.qualities)) if p.is_creature else frozenset(),
            keywords=keywords(p.keywords),
        )
        for p in scenario.permanents
    )
    effects = tuple(
        replace(
            e,
            to=None if e.to is None else name(e.to),
            sources=None if e.sources is None else frozenset(ids(e.sources)),
        )
        for e in scenario.effects
    )
    assignment = scenario.assignment
    if assignment is not None:
        assignment = tuple(Entry(name(e.source), name(e.to), e.amount) for e in assignment)
    return replace(
        scenario,
        players=tuple(
            replace(p, id=name(p.id), keywords=keywords(p.keywords)) for p in scenario.players
        ),
        active_player=name(scenario.active_player),
        permanents=permanents,
        bands=tuple(ids(band) for band in scenario.bands),
        assignment=assignment,
        effects=effects,
    )


class Pinned:
    """A symbolic combat with every unknown fixed to one scenario's values, and one
    assignment's unknowns to the amounts given (0 elsewhere)."""

    def __init__(self, combat: SymbolicCombat, x, scenario: Scenario, amounts: dict):
        values = unknowns(scenario, combat)
        context = combat.context
        # The model itself, each unknown given its value: no formula to solve for it.
        self.model = z3.Model(context)
        for name, term in (*combat.unknowns.items(), ("step", combat.step)):
            make = z3.BoolVal if isinstance(values[name], bool) else z3.IntVal
            self.model.update_value(term, make(values[name], context))
        for pair, v in x.variables.items():
            self.model.update_value(v, z3.IntVal(amounts.get(pair, 0), context))

    def value(self, term):
        """A term's value in the model: every unknown has its value there, so it is a
        constant. A tuple's, item by item."""
        if isinstance(term, bool | int | str):
            return term
        if isinstance(term, tuple):
            return tuple(self.value(t) for t in term)
        reduced = self.model.eval(term, model_completion=True)
        # A truth value read through the C API: z3.is_true and is_false ask several
        # questions each, and the model check reads tens of thousands of values.
        truth = z3.Z3_get_bool_value(reduced.ctx.ref(), reduced.as_ast())
        if truth != z3.Z3_L_UNDEF:
            return truth == z3.Z3_L_TRUE
        return reduced.as_long()


def view_questions(combat: SymbolicCombat, scenario: Scenario) -> list[tuple[str, tuple]]:
    """Every question a view answers, with its arguments. Questions about what a thing is,
    who controls it and who blocks whom are asked of every player and every slot, those the
    file leaves out included (nothing is there); the others of the file's permanents."""
    present = [p.id for p in scenario.permanents]
    everything = list(combat.players) + list(combat.creatures)
    asked: list[tuple[str, tuple]] = [("step_is", (s,)) for s in STEPS]
    for x in everything:
        asked += [(m, (x,)) for m in ("is_player", "is_creature", "is_planeswalker", "is_battle")]
        asked += [("removed", (x,))]
        asked += [(m, (p, x)) for m in ("controls", "protects") for p in combat.players]
        asked += [("blocks", (x, a)) for a in everything]
    for p in scenario.players:  # a player's protection (702.16b, 702.16j)
        asked += [("has", (p.id, k)) for k in PLAIN]
        asked += [("protection_from", (p.id, q)) for q in combat.protections]
    for c in present:
        permanent = scenario.permanent(c)
        asked += [(m, (c,)) for m in ("is_attacking", "is_blocked", "is_blocking")]
        asked += [("struck_first", (c,))]
        asked += [("has", (c, k)) for k in PLAIN]
        asked += [(m, (c, q)) for m in ("has_quality", "bands_with_other") for q in QUALITIES]
        asked += [("protection_from", (c, q)) for q in (*combat.protections, "creatures")]
        asked += [("has_type", (c, t)) for t in (*TYPES, "creatures", "artifact")]
        asked += [("attacks", (c, t)) for t in everything]
        if permanent.is_creature:
            asked += [(m, (c,)) for m in ("power", "toughness", "marked")]
            asked += [(m, (c,)) for m in ("toxic", "regeneration_shields")]
        if permanent.is_planeswalker or permanent.is_battle:
            asked += [("loyalty", (c,))]
        if permanent.attacking is not None:
            asked += [("defends", (p, c)) for p in combat.players]
    return asked


def rule_questions(scenario: Scenario) -> list[tuple[str, Callable, tuple]]:
    """What the rules themselves decide from a view, for every creature and recipient."""
    creatures = [p.id for p in scenario.permanents if p.is_creature]
    recipients = [p.id for p in scenario.players] + [p.id for p in scenario.permanents]
    asked = []
    for s in creatures:
        asked += [
            ("assigns_this_step", steps.assigns_this_step, (s,)),
            ("assigns_combat_damage", division.assigns_combat_damage, (s,)),
            ("tramples", trample.tramples, (s,)),
            ("defending_player_divides", banding.defending_player_divides, (s,)),
            ("active_player_divides", banding.active_player_divides, (s,)),
            ("bound by its order", order.bound, (s,)),
        ]
        given = scenario.permanent(s).order or ()
        asked += [("precedes", _precedes, (s, x, y)) for x in given for y in given if x != y]
        for r in recipients:
            asked += [
                ("may_receive", division.may_receive, (s, r)),
                ("past_blockers", trample.past_blockers, (s, r)),
                ("over_planeswalker", trample.over_planeswalker, (s, r)),
                ("prevents", protection.prevents, (s, r)),
            ]
            # 120.3: what damage dealt does, for no damage and for some.
            asked += [("result", _result, (s, r, n)) for n in (0, 2)]
    for r in recipients:
        asked += [("orders_effects", orders_effects, (p.id, r)) for p in scenario.players]
    for c in creatures:  # 704.5f-h, 701.19a, for a few counters, damage and deathtouch
        asked += [
            ("destroyed", results.destroyed, (c, counters, marked, touched))
            for counters, marked, touched in DESTRUCTIONS
        ]
        asked += [("regenerates", results.regenerates, (c, True))]
    return asked


def _result(view, s: str, r: str, n: int) -> tuple:
    """The results of one damage event (120.3), field by field."""
    found = results.result(view, s, r, n)
    return tuple((f, getattr(found, f)) for f in results.Result.__dataclass_fields__)


# (-1/-1 counters, damage marked, dealt damage by deathtouch) for `results.destroyed`.
DESTRUCTIONS = ((0, 0, False), (0, 0, True), (1, 2, False), (0, 5, False), (5, 0, True))


def _precedes(view, s: str, x: str, y: str):
    return view.order(s)(x, y)


class Agreement:
    """Symbolic combats, one per edition, their formulas built once, compared with many
    scenarios."""

    def __init__(self, bounds: Bounds):
        self.bounds = bounds
        self._by_edition: dict = {}

    def judged(self, edition: Edition) -> Judged:
        if edition.since not in self._by_edition:
            self._by_edition[edition.since] = Judged(self.bounds, edition)
        return self._by_edition[edition.since]

    def disagreements(self, scenario: Scenario, entries: Iterable[Entry] = ()) -> list[str]:
        """Where the symbolic combat pinned to the scenario (whose ids must be its slots)
        answers otherwise than the concrete view and `lethal check`: one line each."""
        entries = tuple(entries)
        judged = self.judged(scenario.edition)
        pinned, view = judged.pinned(scenario, entries), ScenarioView(scenario)
        found = [f"not well formed: {f}" for f in judged.well_formed if pinned.value(f) is not True]
        for method, args in view_questions(judged.combat, scenario):
            mine, theirs = pinned.value(judged.asked(method, args)), getattr(view, method)(*args)
            if mine != theirs:
                found.append(f"{method}{args}: symbolic {mine}, concrete {theirs}")
        for name, rule, args in rule_questions(scenario):
            mine, theirs = pinned.value(judged.asked(rule, args)), rule(view, *args)
            if mine != theirs:
                found.append(f"{name}{args}: symbolic {mine}, concrete {theirs}")
        found += _effects_disagree(judged.combat, scenario, pinned, entries)
        amounts = Amounts({(e.source, e.to): e.amount for e in entries})
        failing = sorted(
            (c.rules[0], c.source) for c in judged.constraints if not pinned.value(c.holds)
        )
        expected = sorted(
            (c.rules[0], c.source) for c in rules.constraints(view, amounts) if not c.holds
        )
        if failing != expected:
            found.append(f"failed constraints: symbolic {failing}, concrete {expected}")
        legal = check(scenario, entries).legal
        if pinned.value(judged.legal) != legal:
            found.append(f"legal: symbolic {pinned.value(judged.legal)}, lethal check {legal}")
        return found


class Judged:
    """One symbolic combat under one edition, with its formulas."""

    def __init__(self, bounds: Bounds, edition: Edition):
        self.combat = SymbolicCombat(bounds, z3.Context(), editions=(edition,))
        self.x = self.combat.assignment()
        self.legal = self.combat.legal(self.x)
        self.constraints = list(rules.constraints(self.combat, self.x.amounts))
        self.well_formed = self.combat.well_formed()
        self._asked: dict = {}

    def asked(self, question, args: tuple):
        """The symbolic combat's answer to a question: a method's name or a rule function."""
        key = (question, args)
        if key not in self._asked:
            if isinstance(question, str):
                self._asked[key] = getattr(self.combat, question)(*args)
            else:
                self._asked[key] = question(self.combat, *args)
        return self._asked[key]

    def pinned(self, scenario: Scenario, entries: Iterable[Entry] = ()) -> Pinned:
        amounts = {(e.source, e.to): e.amount for e in entries}
        return Pinned(self.combat, self.x, scenario, amounts)


def _effects_disagree(
    combat: SymbolicCombat, scenario: Scenario, pinned: Pinned, entries: tuple[Entry, ...]
) -> list[str]:
    """The doublers, shields, preventions of all the damage and protection (from a quality,
    from creatures, from everything; of a permanent or a player) the symbolic combat says
    apply to each event are those dealing applies, damage that can't be prevented meeting
    none of the preventions; and the damage the symbolic combat says each entry deals,
    dealt alone, is one that dealing can give."""
    found = []
    view = ScenarioView(scenario)
    recipients = [p.id for p in scenario.players] + [p.id for p in scenario.permanents]
    for s in (p.id for p in scenario.permanents if p.is_creature):
        mine = pinned.value(combat.cant_be_prevented(s))
        theirs = ScenarioView(scenario).cant_be_prevented(s)
        if mine != theirs:
            found.append(f"cant_be_prevented({s!r}): symbolic {mine}, concrete {theirs}")
        for r in recipients:
            applied = sorted({_kind(c) for c in changes(view, s, r)})
            said = sorted(
                {_kind(c) for c, applies in combat.effects_on(s, r) if pinned.value(applies)}
            )
            if said != applied:
                found.append(f"effects on {s}->{r}: symbolic {said}; dealing applies {applied}")
    for r in recipients:
        shields = sum(e.amount for e in scenario.effects if e.is_shield and e.to == r)
        if pinned.value(combat.shield(r)) != shields:
            found.append(
                f"shield on {r}: symbolic {pinned.value(combat.shield(r))}, file {shields}"
            )
    for e in entries:
        mine = pinned.value(combat.dealt(e.source, e.to, e.amount))
        theirs = {sum(d.amount for d in o.dealt) for o in deal(scenario, [e])}
        if mine not in theirs:
            found.append(f"dealt {e}: symbolic {mine}, dealing gives {sorted(theirs)}")
    return found


def _kind(change) -> str:
    """An effect's kind, a prevention of all the damage told from a shield."""
    if change.kind == PREVENT:
        return "shield" if change.is_shield else "prevent all"
    return change.kind
