"""The conformance corpus: for each kind of rule constraint, each keyword and each pair of
keywords, the smallest combat where it decides whether an assignment is legal, found by the
solver, re-checked on the concrete path and written as a scenario file with its expected
answers, so that an engine that gets any one of them wrong fails at least one file.

A target is caught in one of three ways:
- a kind of constraint (each of `rules.KINDS`, alone and with each keyword on the creature
  whose assignment it rejects): an assignment illegal by that kind alone, which an engine
  without the rule would accept;
- a keyword: an assignment whose verdict changes when the keyword is ignored everywhere,
  once each way if both exist (the keyword allows it; the keyword forbids it);
- a pair of keywords: an assignment whose verdict changes when either of the two is ignored,
  so that both decide it.

What cannot be caught within the bounds is proved so (the solver finds no such combat) and
listed with the reason; so is what the corpus does not try.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import z3

from .. import __version__, progress, rules
from ..amounts import Amounts
from ..combat import CANT_BE_PREVENTED, DOUBLE, PREVENT, Scenario
from ..conformance.judging import reported
from ..deadline import TimedOut, deadline
from ..editions import CURRENT_NAME, in_force
from ..errors import LethalError, ScenarioError
from ..keywords import (
    AS_THOUGH_UNBLOCKED,
    ASSIGNS_TOUGHNESS,
    BANDING,
    DEATHTOUCH,
    DOUBLE_STRIKE,
    FIRST_STRIKE,
    TRAMPLE,
    TRAMPLE_OVER_PLANESWALKERS,
    plain_keyword,
)
from ..ops import Term, all_of, any_of, implies, ite, negate, total
from ..reading import parse
from ..rules import banding, division, results
from ..rules.dealing import deal
from ..solver.encoding import SEED
from ..verdict import check, choosers
from ..view import ScenarioView
from . import Bounds, counterexample
from .prover import smallest
from .symbolic import PROTECTIONS, QUALITIES, SymbolicCombat, as_formula

FORMAT = "lethal-corpus/1"
UNDECIDED = "undecided"  # the start of why a target has no file, when the solver gave up
DEALT = "deal: "  # what the coverage calls each thing that changes the damage dealt
MANIFEST = "manifest.json"
BANDS_WITH_OTHER = "bands with other"  # for either quality the symbolic combat has
# The keywords that can change what may be assigned. Indestructible changes only what damage
# does once dealt, with lifelink and the others of DEALING (120.4b): `deal` files catch those.
KEYWORDS = (
    TRAMPLE,
    TRAMPLE_OVER_PLANESWALKERS,
    DEATHTOUCH,
    BANDING,
    BANDS_WITH_OTHER,
    FIRST_STRIKE,
    DOUBLE_STRIKE,
    ASSIGNS_TOUGHNESS,
    AS_THOUGH_UNBLOCKED,
)
# Damage already marked on a creature, which an engine may forget as it forgets a keyword:
# it counts toward lethal damage (702.19b, and 510.1c-d with orders), so that it can only
# allow an assignment; and dealt damage is added to it (120.6, 704.5g).
MARKED = "damage already marked"
# What changes what damage does once dealt, never what may be assigned (120.4b): each caught
# by a file whose `deal` outcomes change without it. By the symbolic combat's unknowns each
# sets to false or 0 when ignored (a slot's name, a dot, then these).
DEALING = {
    "lifelink": ("lifelink",),
    "infect": ("infect",),
    "wither": ("wither",),
    "toxic": ("toxic",),
    "deathtouch (dealt)": ("deathtouch",),
    f"{MARKED} (dealt)": ("damage",),
    "indestructible": ("indestructible",),
    "protection from everything": ("protection from everything",),
    "protection from a quality or creatures": tuple(f"protection from {q}" for q in PROTECTIONS),
    "regeneration shields": ("regeneration shields",),
    "prevention of all damage (Fog)": ("prevent all",),
    "prevention shield": ("shield",),
    "damage doubling": ("doubled",),
    "damage that can't be prevented": ("cant be prevented",),
}
# The rules each keyword and each thing of DEALING is written in (today's numbers), which a
# file about it names beside the rules its assignment breaks.
RULES = {
    TRAMPLE: ("702.19b",),
    TRAMPLE_OVER_PLANESWALKERS: ("702.19c", "702.19e"),
    DEATHTOUCH: ("702.2c",),
    BANDING: ("702.22j", "702.22k"),
    BANDS_WITH_OTHER: ("702.22c", "702.22j", "702.22k"),
    FIRST_STRIKE: ("510.4", "702.7b"),
    DOUBLE_STRIKE: ("510.4", "702.4b"),
    ASSIGNS_TOUGHNESS: ("510.1a",),
    AS_THOUGH_UNBLOCKED: ("510.1b", "510.1c"),
    "lifelink": ("702.15b",),
    "infect": ("702.90b", "702.90c"),
    "wither": ("702.80a",),
    "toxic": ("702.164c",),
    MARKED: ("120.6", "702.19b"),
    "deathtouch (dealt)": ("702.2b", "704.5h"),
    f"{MARKED} (dealt)": ("120.6", "704.5g"),
    "indestructible": ("702.12b",),
    "protection from everything": ("702.16e", "702.16j"),
    "protection from a quality or creatures": ("702.16a", "702.16e"),
    "regeneration shields": ("701.19a",),
    "prevention of all damage (Fog)": ("615.1",),
    "prevention shield": ("615.7",),
    "damage doubling": ("701.10g",),
    "damage that can't be prevented": ("615.12",),
}
# Pairs of DEALING that meet in a rule, with the rule (today's numbers).
DEALING_PAIRS = {
    ("deathtouch (dealt)", "wither"): "704.5h",
    ("deathtouch (dealt)", "infect"): "704.5h",
    ("deathtouch (dealt)", "indestructible"): "702.12b",
    ("deathtouch (dealt)", "regeneration shields"): "701.19a",
    ("wither", "indestructible"): "704.5f",
    ("lifelink", "infect"): "702.15b",
    ("lifelink", "prevention shield"): "615.6",
    ("lifelink", "damage doubling"): "701.10g",
    ("infect", "toxic"): "702.164c",
    ("protection from everything", "damage that can't be prevented"): "615.12",
    ("prevention shield", "damage doubling"): "616.1",
}
NOT_TRIED = {
    "pairs of what changes the damage dealt that meet in no rule": (
        "only the pairs of DEALING_PAIRS are tried, each where a rule names both"
    ),
    "the whole combat damage phase (--combat)": "each file is one step of combat damage",
    "starting poison counters, prevention limited to sources or once, damage added": (
        "not unknowns of the symbolic combat"
    ),
}
# Small enough to search fast, large enough for a trampler blocked by two creatures, a band
# of two and a planeswalker.
BOUNDS = Bounds(players=2, attackers=2, blockers=2, permanents=1, power=4, toughness=4, loyalty=4)
TIMEOUT = 60  # seconds for each target's search
LIFE = 20  # each player's life total in a file about dealing


@dataclass(frozen=True)
class Target:
    """One thing the corpus must catch."""

    name: str  # the file's stem, stable across runs
    catches: str  # what an engine that gets it wrong does, in words
    kind: str = ""  # the kind of constraint that alone rejects the assignment
    keywords: tuple[str, ...] = ()  # ignored one at a time, each must change the verdict
    on_source: str = ""  # with `kind`: a keyword the rejected creature has
    allows: bool | None = None  # for one keyword: it makes the assignment legal, or illegal
    chooser: bool = False  # for one keyword: it changes who divides a creature's damage
    # What changes the outcome of dealing the (legal) assignment: one thing, or two that
    # meet in a rule, each of which changes it.
    dealing: tuple[str, ...] = ()
    # With `kind`: the rejected creature gives some damage to each creature in its fight.
    near: bool = False
    blocker: bool = False  # with `kind`: the rejected creature is a blocker
    # A legal assignment that some creature's constraints reject when only its own damage
    # is counted (702.19b, 510.1c-d: damage other creatures assign counts toward lethal).
    own_damage: bool = False

    def none_found(self) -> str:
        """Why there is no file, when the solver finds no combat within the bounds."""
        if self.own_damage:
            what = f"a legal assignment that {self.kind} rejects counting only own damage"
            if self.on_source:
                what += f", for a creature with {self.on_source}"
        elif self.kind:
            what = f"an assignment that only {self.kind} rejects"
            if self.on_source:
                what += f", from a creature with {self.on_source}"
            if self.near:
                what += ", from a creature that gives damage to each creature in its fight"
            if self.blocker:
                what += ", from a blocking creature"
        elif self.dealing:
            what = f"a legal assignment whose dealing {' and '.join(self.dealing)} each change"
        elif self.chooser:
            what = f"a creature whose damage another player divides because of {self.keywords[0]}"
        elif len(self.keywords) == 2:
            what = "an assignment whose verdict changes when either keyword is ignored"
        else:
            way = "legal" if self.allows else "illegal"
            what = f"an assignment {way} only because of {self.keywords[0]}"
        return f"proved none: no combat within the bounds has {what}"


@dataclass(frozen=True)
class Entry:
    target: Target
    file: str = ""  # written, or
    why_not: str = ""  # why there is none
    scenario: dict = field(default_factory=dict, compare=False)


def targets(rules_date: str = CURRENT_NAME) -> list[Target]:
    """Every target of an edition, in the order the corpus lists them."""
    found = []
    known = keywords(rules_date)
    for kind in kinds(rules_date):
        what = rules.KINDS[kind]
        found.append(Target(kind, f"misses {what}: it accepts what only that rejects", kind=kind))
        found += [
            Target(
                f"{kind}-others-damage-counts" + (f"-{_slug(k)}" if k else ""),
                f"judges {what} counting only each creature's own damage"
                + (f", for a creature with {k}" if k else "")
                + ", where damage other creatures assign in the step counts too: it rejects "
                "what that allows",
                kind=kind,
                own_damage=True,
                on_source=k,
            )
            for k in ("", *known)
        ]
        found.append(
            Target(
                f"{kind}-blocker",
                f"misses {what} for a blocking creature: it accepts what only that rejects",
                kind=kind,
                blocker=True,
            )
        )
        found.append(
            Target(
                f"{kind}-near",
                f"misses {what} when the creature gives some damage to each creature in its "
                "fight (a check against the total alone): it accepts what only that rejects",
                kind=kind,
                near=True,
            )
        )
        found += [
            Target(
                f"{kind}-{_slug(k)}",
                f"misses {what} for a creature with {k}: it accepts what only that rejects",
                kind=kind,
                on_source=k,
            )
            for k in known
        ]
    for k in known:
        for allows in (True, False):
            way = "allows" if allows else "forbids"
            found.append(
                Target(
                    f"{_slug(k)}-{way}",
                    f"ignores {k}, which {way} the assignment",
                    keywords=(k,),
                    allows=allows,
                )
            )
    found.append(
        Target(
            f"{_slug(MARKED)}-allows",
            f"ignores {MARKED} on a creature, which counts toward lethal damage and so allows "
            "the assignment",
            keywords=(MARKED,),
            allows=True,
        )
    )
    for k in (BANDING, BANDS_WITH_OTHER):
        found.append(
            Target(
                f"{_slug(k)}-chooses",
                f"ignores {k}, which changes who divides a creature's damage (702.22j-k)",
                keywords=(k,),
                chooser=True,
            )
        )
    for what in DEALING:
        found.append(
            Target(
                f"deal-{_dealing_slug(what)}",
                f"ignores {what} when dealing the damage",
                dealing=(what,),
            )
        )
    for pair, rule in DEALING_PAIRS.items():
        found.append(
            Target(
                f"deal-{'+'.join(map(_dealing_slug, pair))}",
                f"ignores {pair[0]} or {pair[1]}, which meet in {rule}, when dealing the damage",
                dealing=pair,
            )
        )
    for pair in combinations(known, 2):
        found.append(
            Target(
                f"{_slug(pair[0])}+{_slug(pair[1])}",
                f"ignores {pair[0]} or {pair[1]}, which both decide the assignment",
                keywords=pair,
            )
        )
    return found


def _dealing_slug(what: str) -> str:
    return _slug(what.split(" (")[0])


def _slug(keyword: str) -> str:
    return keyword.replace("'", "").replace(" ", "-")


def build(
    rules_date: str = CURRENT_NAME, bounds: Bounds = BOUNDS, timeout: float = TIMEOUT
) -> Iterator[Entry]:
    """Each target's smallest combat, or why there is none, in the order of `targets`."""
    chosen = targets(rules_date)
    for n, target in enumerate(chosen, 1):
        limit = f"{target.name}: did not finish within --timeout {timeout:g} s"
        try:
            with deadline(timeout, limit):
                entry = _plainest(target, rules_date, bounds, timeout)
        except TimedOut as error:
            if str(error) != limit:  # the whole command's limit
                raise
            entry = Entry(target, why_not=f"{UNDECIDED}: {error}")
        # Given out once the target's limit is no longer armed: whatever the caller does
        # with it is not this target's time.
        yield entry
        progress.say(f"corpus: {n} of {len(chosen)} targets, {target.name}")


def _plainest(target: Target, rules_date: str, bounds: Bounds, timeout: float) -> Entry:
    """The target's smallest combat with no planeswalker or battle if it has one, else with
    them: a combat an engine's author recognizes first, and that more engines can set up."""
    plain = _search(target, rules_date, dataclasses.replace(bounds, permanents=0), timeout)
    return plain if plain.file else _search(target, rules_date, bounds, timeout)


def _search(target: Target, rules_date: str, bounds: Bounds, timeout: float) -> Entry:
    context = z3.Context()
    editions = (in_force(rules_date),)
    combat = SymbolicCombat(bounds, context, "", editions)
    x = combat.assignment()
    found = list(rules.constraints(combat, x.amounts))
    combats = [combat]
    if target.dealing:
        goal = combat.legal(x)
        dealt = _dealt(combat, x)
        for n, what in enumerate(target.dealing, 1):
            other = SymbolicCombat(bounds, context, f"c{n}.", editions)
            ignored = _unknowns(other, DEALING[what])
            goal = all_of(
                (
                    goal,
                    other.agrees_with(combat, but=tuple(ignored)),
                    *(negate(v) if z3.is_bool(v) else v == 0 for v in ignored.values()),
                    *other.well_formed(),  # the file without it reads too
                    any_of(a != b for a, b in zip(dealt, _dealt(other, x), strict=True)),
                )
            )
    elif target.own_damage:
        rejects = own_damage_rejects(combat, x.amounts, target.kind, target.on_source)
        goal = all_of((combat.legal(x), rejects))
    elif target.kind:
        goal = _only_kind_rejects(combat, x.amounts, found, target)
    else:
        verdict = all_of([*x.domain(), *(c.holds for c in found)])
        goal = True
        for n, k in enumerate(target.keywords, 1):
            other = SymbolicCombat(bounds, context, f"c{n}.", editions)
            combats.append(other)
            ignored = _unknowns(other, _unknown_names(k))
            goal = all_of(
                (
                    goal,
                    other.agrees_with(combat, but=tuple(ignored)),
                    *(negate(v) if z3.is_bool(v) else v == 0 for v in ignored.values()),
                )
            )
            if not target.chooser:
                goal = all_of((goal, verdict != as_formula(other.legal(x), context)))
        if target.allows is not None:
            goal = all_of((goal, verdict if target.allows else negate(verdict)))
        if target.chooser:
            goal = all_of((goal, verdict, _another_divides(combat, combats[1])))
    solver = z3.Solver(ctx=context)
    solver.set("random_seed", SEED)
    solver.set("timeout", max(1, round(timeout * 1000)))
    solver.add([as_formula(f, context) for f in combat.well_formed()])
    solver.add([f for f in x.domain()])
    solver.add([as_formula(f, context) for f in _written(combat, x.amounts)])
    solver.add(as_formula(goal, context))
    answer = solver.check()
    if answer == z3.unsat:
        return Entry(target, why_not=target.none_found())
    if answer != z3.sat:
        return Entry(target, why_not=f"{UNDECIDED}: Z3 {solver.reason_unknown()}")
    model, caveat = smallest(solver, [combat], solver.model())
    data = counterexample.public(counterexample.scenario(combat, model))
    if target.dealing:  # life totals, so that an engine can say what they become
        data["players"] = [{**p, "life": LIFE} for p in data["players"]]
    problem = _recheck(target, data)
    if problem and target.dealing:
        # The symbolic combat takes a shield whole for each source's damage (symbolic.dealt);
        # the concrete deal splits it: no file, and the reason said.
        return Entry(target, why_not=f"the combat found does not re-check: {problem}")
    if problem:  # the two sides of lethal disagree: a bug, never a corpus file
        raise AssertionError(f"corpus target {target.name}: {problem}")
    return Entry(target, file=f"{target.name}.json", why_not=caveat, scenario=data)


def _written(combat: SymbolicCombat, amounts: Amounts) -> list:
    """The assignment names only creatures as sources, and recipients the file has: a file
    can say no more."""
    there = {x: combat.present.get(x, True) for x in combat.recipients}
    return [
        implies(v > 0, all_of((combat.is_creature(s), there[r]))) for (s, r), v in amounts.items()
    ]


def _only_kind_rejects(combat, amounts: Amounts, found: list, target: Target) -> Term:
    """Every constraint holds but one of the target's kind, from a creature with the
    target's keyword if it names one, and near the rule if the target asks."""
    others = [c.holds for c in found if c.rules[0] != target.kind]
    broken = [
        all_of(
            (
                negate(c.holds),
                _has(combat, c.source, target.on_source),
                near(combat, amounts, c.source) if target.near else True,
                combat.is_blocking(c.source) if target.blocker else True,
            )
        )
        for c in found
        if c.rules[0] == target.kind
    ]
    return all_of((*others, any_of(broken)))


def near(view, amounts: Amounts, s: str) -> Term:
    """s gives at least 1 damage to each creature in its fight: each creature blocking it
    and each creature it blocks. An engine that checks an assignment against its total
    alone takes such a one for legal."""
    return all_of(
        implies(any_of((view.blocks(b, s), view.blocks(s, b))), amounts.get(s, b) >= 1)
        for b in view.creatures
        if b != s
    )


def own_damage_rejects(view, amounts: Amounts, kind: str, keyword: str = "") -> Term:
    """Some creature's constraint of that kind fails when only its own damage is counted (of
    a creature with the keyword, if one is named): as an engine that ignores the damage
    other creatures assign to the same blocker judges it."""
    return any_of(
        all_of((negate(c.holds), _has(view, s, keyword)))
        for s in view.creatures
        for c in rules.constraints(view, _own(amounts, s))
        if c.source == s and c.rules[0] == kind
    )


def _own(amounts: Amounts, s: str) -> Amounts:
    return Amounts({(t, r): v for (t, r), v in amounts.items() if t == s})


def _unknowns(combat: SymbolicCombat, names: tuple[str, ...]) -> dict[str, z3.ExprRef]:
    """The combat's unknowns, by name, whose name after the slot's and a dot is one of
    `names`: what a keyword or a thing of DEALING sets."""
    return {name: v for name, v in combat.unknowns.items() if name.split(".", 1)[1] in names}


def _dealt(combat: SymbolicCombat, x) -> list[Term]:
    """What an engine reports of dealing x (judging.reported), as numbers and truths: each
    player's life, as the change to it, and poison counters given, and whether each
    permanent then leaves the battlefield (704.5f-i, 704.5v, 701.19a). A shield is taken
    whole by each source's damage (symbolic.dealt)."""
    events = [
        (s, r, results.result(combat, s, r, combat.dealt(s, r, x.amounts.get(s, r))))
        for s in combat.creatures
        for r in combat.recipients
    ]
    found: list[Term] = []
    for p in combat.players:
        gained = total(ite(combat.controls(p, s), e.gained, 0) for s, _, e in events)
        found.append(gained - total(e.life_lost for _, r, e in events if r == p))
        found.append(total(e.poison for _, r, e in events if r == p))
    for c in combat.creatures:
        mine = [e for _, r, e in events if r == c]
        counters = total(e.counters for e in mine)
        marked = combat.marked(c) + total(e.marked for e in mine)
        destroyed = results.destroyed(
            combat, c, counters, marked, any_of(e.deathtouch for e in mine)
        )
        dies = any_of(
            (
                results.toughness_gone(combat.toughness(c), counters),
                all_of((destroyed, negate(results.regenerates(combat, c, destroyed)))),
            )
        )
        gone = all_of((combat.is_creature(c), dies))
        if c in combat.planeswalkers:  # 704.5i, 704.5v: no loyalty or defense left
            removed = total(e.loyalty + e.defense for e in mine)
            counted = any_of((combat.is_planeswalker(c), combat.is_battle(c)))
            gone = any_of((gone, all_of((counted, combat.loyalty(c) - removed <= 0))))
        found.append(gone)
    return found


def _another_divides(combat: SymbolicCombat, ignoring: SymbolicCombat) -> Term:
    """Some creature that assigns combat damage has it divided by another player than it
    would if the keyword were ignored (702.22j-k)."""
    return any_of(
        all_of(
            (
                division.assigns_combat_damage(combat, c),
                divides(combat, c) != divides(ignoring, c),
            )
        )
        for c in combat.creatures
    )


def divides(view, c: str) -> Term:
    """c's damage is divided by the other side: 702.22j for an attacker, 702.22k for a
    blocker."""
    return any_of(
        (banding.defending_player_divides(view, c), banding.active_player_divides(view, c))
    )


def _has(combat, c: str, keyword: str) -> Term:
    if not keyword:
        return True
    if keyword == BANDS_WITH_OTHER:
        return any_of(combat.bands_with_other(c, q) for q in QUALITIES)
    return combat.has(c, keyword)


def _unknown_names(keyword: str) -> tuple[str, ...]:
    """The names of the unknowns that say a creature has the keyword, after its slot's."""
    if keyword == BANDS_WITH_OTHER:
        return tuple(f"{BANDS_WITH_OTHER} {q}" for q in QUALITIES)
    if keyword == MARKED:
        return ("damage",)
    return (keyword,)


class Ignoring(ScenarioView):
    """A scenario's view that ignores some keywords, or damage already marked: as an engine
    that forgets them sees it."""

    def __init__(self, scenario: Scenario, keywords: tuple[str, ...]):
        super().__init__(scenario)
        self.ignored = frozenset(keywords)

    def has(self, x: str, keyword: str) -> bool:
        return plain_keyword(keyword) not in self.ignored and super().has(x, keyword)

    def bands_with_other(self, c: str, quality: str) -> bool:
        return BANDS_WITH_OTHER not in self.ignored and super().bands_with_other(c, quality)

    def marked(self, c: str) -> int:
        return 0 if MARKED in self.ignored else super().marked(c)


def legal(scenario: Scenario, ignoring: tuple[str, ...] = ()) -> bool:
    """The scenario's assignment is legal, as an engine that ignores `ignoring` judges it."""
    view = Ignoring(scenario, ignoring)
    amounts = Amounts({(e.source, e.to): e.amount for e in scenario.assignment})
    return all(c.holds for c in rules.constraints(view, amounts))


def _recheck(target: Target, data: dict) -> str:
    """What is wrong with the file found for `target` on the concrete path, or ""."""
    scenario = parse(data, target.name, warn=False)
    verdict = check(scenario)
    if target.dealing:
        if not verdict.legal:
            return "its assignment is illegal"
        for what in target.dealing:
            if not _caught(_outcomes(scenario), _dealt_without(data, what)):
                return f"ignoring {what} does not change what dealing it does"
        return ""
    amounts = Amounts({(e.source, e.to): e.amount for e in scenario.assignment})
    if target.own_damage:
        view = ScenarioView(scenario)
        if not verdict.legal or not own_damage_rejects(
            view, amounts, target.kind, target.on_source
        ):
            return "counting only each creature's own damage does not reject it"
        return ""
    if target.kind:
        with rules.without(target.kind):
            if verdict.legal or not check(scenario).legal:
                return "its assignment is not illegal by that kind alone"
        view = ScenarioView(scenario)
        if target.near and not any(near(view, amounts, v.source) for v in verdict.violations):
            return "no creature it rejects gives damage to each creature in its fight"
        if target.blocker and not any(view.is_blocking(v.source) for v in verdict.violations):
            return "no creature it rejects is blocking"
        return ""
    if target.allows is not None and verdict.legal != target.allows:
        return "its verdict is not the one searched for"
    if target.chooser:
        ignoring = choosers(Ignoring(scenario, target.keywords))
        if not verdict.legal or verdict.choosers == ignoring:
            return f"ignoring {target.keywords[0]} does not change who divides"
        return ""
    for k in target.keywords:
        if legal(scenario, (k,)) == verdict.legal:
            return f"ignoring {k} does not change its verdict"
    return ""


def _without(data: dict, what: str) -> dict:
    """The file with `what` taken out: the keywords, the counts or the effects it names."""
    names = DEALING[what]

    def kept(keyword: str) -> bool:
        singular = keyword.removesuffix("s") if keyword.endswith("creatures") else keyword
        return singular not in names and keyword.split(" ")[0] not in names  # "toxic 2"

    def plain(x: dict) -> dict:
        x = {k: v for k, v in x.items() if k not in names and k.replace("_", " ") not in names}
        if "keywords" in x:
            x["keywords"] = [k for k in x["keywords"] if kept(k)]
        return x

    effects = [e for e in data.get("effects", ()) if _effect_unknown(e) not in names]
    changed = {**data, "players": list(map(plain, data["players"]))}
    changed["permanents"] = list(map(plain, data["permanents"]))
    if "effects" in data:
        changed["effects"] = effects
    return changed


def _effect_unknown(effect: dict) -> str:
    """The symbolic combat's unknown an effect of a file stands for (symbolic.effects_on):
    a prevention of all damage (a Fog), a prevention shield, a doubler, or damage that can't
    be prevented."""
    if effect["kind"] == PREVENT:
        return "prevent all" if effect.get("amount") is None else "shield"
    return {DOUBLE: "doubled", CANT_BE_PREVENTED: "cant be prevented"}.get(effect["kind"], "")


def _dealt_without(data: dict, what: str) -> set | None:
    """The outcomes of the file with `what` taken out, or None when it then does not read."""
    try:
        return _outcomes(parse(_without(data, what), "corpus", warn=False))
    except ScenarioError:
        return None


def _caught(outcomes: set, without: set | None) -> bool:
    """An engine that ignores something, and so deals as the file without it does, gives an
    outcome none of `outcomes`, whatever its players choose."""
    return without is not None and outcomes.isdisjoint(without)


def _outcomes(scenario: Scenario) -> set:
    """What dealing the assignment can do, each outcome as an engine reports it (life,
    poison counters, graveyard): what `conform` compares."""
    return {reported(scenario, o) for o in deal(scenario)}


def expected(data: dict) -> dict:
    """The answers lethal gives for the file: its verdict, who divides each creature's
    damage, and the most and least damage each player, planeswalker and battle can be
    assigned in the step."""
    from ..queries import maximum, minimum
    from ..report import outcome_json

    scenario = parse(data, "corpus", warn=False)
    verdict = check(scenario)
    free = parse({k: v for k, v in data.items() if k != "assignment"}, "corpus", warn=False)
    recipients = [p.id for p in free.players]
    recipients += [p.id for p in free.permanents if p.is_planeswalker or p.is_battle]
    damage = {}
    for r in recipients:
        most, least = maximum(free, r), minimum(free, r)
        damage[r] = {"most": getattr(most, "value", None), "least": getattr(least, "value", None)}
    return {
        "legal": verdict.legal,
        "violations": [
            {"rule": v.rule, "source": v.source, "message": v.message} for v in verdict.violations
        ],
        "choosers": [
            {"source": c.source, "player": c.player, "rule": c.rule} for c in verdict.choosers
        ],
        "damage": damage,
        "deal": [outcome_json(o, scenario) for o in deal(scenario)]
        if _about_dealing(data)
        else None,
    }


def _about_dealing(data: dict) -> bool:
    return any("life" in p for p in data["players"])


def kinds(rules_date: str) -> list[str]:
    """The kinds of constraint an edition has: the orders' only before Foundations."""
    edition = in_force(rules_date)
    absent = () if edition.has_order else ("510.1c", "510.1d")
    absent += () if edition.has_trample_over_planeswalkers else ("702.19c",)
    return [k for k in rules.KINDS if k not in absent]


def keywords(rules_date: str) -> list[str]:
    """The keywords an edition has: trample over planeswalkers only since 2021-06-18."""
    edition = in_force(rules_date)
    return [
        k
        for k in KEYWORDS
        if k != TRAMPLE_OVER_PLANESWALKERS or edition.has_trample_over_planeswalkers
    ]


def caught_by(entries: list[Entry], rules_date: str) -> dict[str, list[str]]:
    """For each kind of constraint and each keyword, the files whose verdict or chooser
    changes without it, and for each thing of DEALING, the legal files whose outcomes of
    dealing, as an engine reports them, all change without it: the proof, as `lethal teeth`
    gives for the library, that the corpus catches it."""
    filed = [e for e in entries if e.file]
    scenarios = [(e.file, parse(e.scenario, e.file, warn=False)) for e in filed]
    verdicts = {name: check(s) for name, s in scenarios}
    found: dict[str, list[str]] = {}
    for kind in kinds(rules_date):
        with rules.without(kind):
            found[kind] = [n for n, s in scenarios if check(s).legal != verdicts[n].legal]
    for k in (*keywords(rules_date), MARKED):
        found[k] = [
            n
            for n, s in scenarios
            if legal(s, (k,)) != verdicts[n].legal
            or choosers(Ignoring(s, (k,))) != verdicts[n].choosers
        ]
    # What dealing each legal file's assignment does, found once for every thing of DEALING.
    dealt = {
        e.file: (e.scenario, _outcomes(s))
        for e, (_, s) in zip(filed, scenarios, strict=True)
        if verdicts[e.file].legal
    }
    for what in DEALING:
        found[DEALT + what] = [
            n
            for n, (data, outcomes) in dealt.items()
            if _caught(outcomes, _dealt_without(data, what))
        ]
    return found


def write(
    out: Path, rules_date: str = CURRENT_NAME, bounds: Bounds = BOUNDS, timeout: float = TIMEOUT
) -> dict:
    """Writes the corpus to `out` (its files and manifest, replacing an earlier corpus's
    files) and returns the manifest."""
    entries = list(build(rules_date, bounds, timeout))
    _clear(out)
    files = []
    for e in entries:
        if not e.file:
            continue
        (out / e.file).write_text(counterexample.file_text(e.scenario))
        answers = expected(e.scenario)
        row = {
            "file": e.file,
            "catches": f"an engine that {e.target.catches}",
            "target": _target_json(e.target),
            "decides": _decides(e.target, answers, rules_date),
            "expected": answers,
        }
        if e.why_not:
            row["caveat"] = e.why_not
        files.append(row)
    caught = caught_by(entries, rules_date)
    manifest = {
        "format": FORMAT,
        "lethal": __version__,
        "rules": rules_date,
        "bounds": bounds.as_json(),
        "files": files,
        "coverage": {
            "targets": len(entries),
            "covered": [e.target.name for e in entries if e.file],
            "not_covered": {e.target.name: e.why_not for e in entries if not e.file},
            "caught_by": caught,
            # Every rule some file is decided by, its assignment's broken rules included, and
            # the rules the model files its constraints under that none is.
            "rules": _in_order({r for row in files for r in row["decides"]}),
            "rules_no_file_decides": _in_order(
                _filed_under(rules_date, bounds) - {r for row in files for r in row["decides"]}
            ),
            "not_caught": {
                what: "no file of the corpus changes its verdict or chooser without it (see "
                "not_covered)"
                for what, names in caught.items()
                if not names
            },
            "not_tried": NOT_TRIED,
        },
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


class CorpusError(LethalError, ValueError):
    """A folder that cannot take the corpus."""


def _clear(out: Path) -> None:
    """Makes `out` ready for a corpus: new, empty, or an earlier corpus, whose files go."""
    if out.exists() and not out.is_dir():
        raise CorpusError(f"{out}: a file, not a folder; name a folder for the corpus")
    listed = out / MANIFEST
    if out.is_dir() and any(out.iterdir()) and not listed.is_file():
        raise CorpusError(
            f"{out}: a folder with other files and no {MANIFEST}; name a new or empty folder, "
            "or an earlier corpus to replace"
        )
    out.mkdir(parents=True, exist_ok=True)
    if listed.is_file():
        try:
            earlier = [row["file"] for row in json.loads(listed.read_text())["files"]]
        except (ValueError, KeyError, TypeError) as error:
            raise CorpusError(f"{listed}: not a corpus manifest ({error})") from None
        for name in earlier:
            (out / Path(name).name).unlink(missing_ok=True)


def text(manifest: dict, out: Path, seconds: float) -> str:
    """The corpus written, and its coverage, for a person."""
    coverage = manifest["coverage"]
    lines = [
        f"{len(manifest['files'])} files for {coverage['targets']} targets in {out}, rules "
        f"{manifest['rules']}, {Bounds(**manifest['bounds'])} ({seconds:.1f} s)",
        "each kind of constraint, each keyword and each thing that changes the damage dealt, "
        "with the files whose verdict, chooser or outcome changes without it:",
    ]
    for what, names in coverage["caught_by"].items():
        shown = f"{len(names)} file{'s' if len(names) > 1 else ''}" if names else "NOT CAUGHT"
        lines.append(f"  {what:<56} {shown}")
    lines.append(f"the files are decided by {len(coverage['rules'])} rules")
    if coverage["rules_no_file_decides"]:
        lines.append(
            "rules the constraints are filed under that no file is decided by: "
            + ", ".join(coverage["rules_no_file_decides"])
        )
    lines.append(f"targets with no file ({len(coverage['not_covered'])}):")
    lines += [f"  {name}: {why}" for name, why in coverage["not_covered"].items()]
    lines.append("not tried:")
    lines += [f"  {what}: {why}" for what, why in coverage["not_tried"].items()]
    return "\n".join(lines) + "\n"


def _decides(target: Target, answers: dict, rules_date: str) -> list[str]:
    """The rules that decide the file's answers, as the edition numbers them: those its
    assignment breaks, and those of its target."""
    edition = in_force(rules_date)
    named = [target.kind] if target.kind else []
    for what in (*target.keywords, target.on_source, *target.dealing):
        named += RULES.get(what, ())
    if target.dealing in DEALING_PAIRS:
        named.append(DEALING_PAIRS[target.dealing])
    # A rule the edition does not have yet (indestructible's before 2013) decides nothing.
    cited = {edition.cite(r) for r in named} - {None}
    found = {v["rule"] for v in answers["violations"]} | cited
    return _in_order(found)


def _filed_under(rules_date: str, bounds: Bounds) -> set[str]:
    """Every rule a constraint of the edition is filed under, as the edition numbers it."""
    edition = in_force(rules_date)
    combat = SymbolicCombat(bounds, z3.Context(), "", (edition,))
    filed = {r for c in rules.constraints(combat, combat.assignment().amounts) for r in c.rules}
    return {edition.cite(r) or r for r in filed}


def _in_order(found: set[str]) -> list[str]:
    """Rules in the order of the Comprehensive Rules."""
    return sorted(found, key=lambda rule: re.sub(r"\d+", lambda n: n.group().zfill(4), rule))


def _target_json(target: Target) -> dict:
    found: dict = {}
    if target.kind:
        found["kind"] = target.kind
    if target.on_source:
        found["on_source"] = target.on_source
    if target.near:
        found["near"] = True
    if target.blocker:
        found["blocker"] = True
    if target.dealing:
        found["dealing"] = list(target.dealing)
    if target.own_damage:
        found["own_damage"] = True
    if target.keywords:
        found["keywords"] = list(target.keywords)
    if target.allows is not None:
        found["allows"] = target.allows
    return found
