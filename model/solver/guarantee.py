"""What the player who wants damage on a recipient can be sure of, whatever the other side
chooses: CR 510.1 (who divides, and in what order), 702.22j-k (banding turns who divides).

The active player announces the divisions they choose first, then the defending players
(510.1). When the active player wants the damage, the answer is the best they can choose
against the worst reply; when the defending players want it, the worst the active player can
choose against their best reply. Either is an exists-forall question over the amounts.

Unknowns that share no constraint and no term of the damage are solved apart, as parts whose
guarantees add up (`_parts` says why); parts that are the same but for their creatures' names
(a board of tokens) are solved once. Each part is solved by counterexample-guided search:
propose a choice for the first side that beats every reply found so far, find the second
side's best reply to it, and repeat until no choice remains.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations, product
from math import factorial, prod

import z3

from ..answers import Guarantee, Impossible
from ..combat import Entry, Scenario
from ..errors import TooManyOrders
from ..interchangeable import interchangeable
from ..limits import ORDERS
from ..rules import banding, division, order
from ..tally import ASSIGNED, Tally
from ..view import ScenarioView
from .encoding import Encoding, decide
from .galloping import best
from .parts import Part, parts, shape
from .queries import _recheck, possible
from .symmetry import breaking
from .terms import assert_all


def guarantee(scenario: Scenario, to: str, tally: Tally = ASSIGNED) -> Guarantee | Impossible:
    return announced(scenario, to, lambda fixed: _divisions(fixed, to, tally))


def announced(scenario: Scenario, to: str, solve) -> Guarantee | Impossible:
    """The guarantee when orders the file leaves open are announced before any damage is
    assigned: the active player's for attackers (509.2), then the defending players' for
    blockers (509.3), each side choosing for its own ends; `solve` plays out the rest on the
    scenario with those orders given."""
    view = ScenarioView(scenario)
    attackers = [c for c in order.open_orders(view) if view.is_attacking(c)]
    blockers = [c for c in order.open_orders(view) if not view.is_attacking(c)]
    if not attackers + blockers:
        return solve(scenario)
    active_wants = who_is_hurt(scenario, to) != view.active_player
    best = None
    for first in announcements(scenario, attackers):
        reply = None
        for second in announcements(scenario, blockers):
            answer = solve(with_orders(scenario, {**first, **second}))
            if isinstance(answer, Impossible):
                continue  # orders under which the file's partial assignment can't be made
            # The defending players announce against the active player's wish, or for theirs.
            if reply is None or (answer.value < reply.value) == active_wants:
                reply = replace(answer, orders=_named(first, second))
        if reply is not None and (best is None or (reply.value > best.value) == active_wants):
            best = reply
    return best if best is not None else possible(scenario)


def announcements(scenario: Scenario, creatures: list[str] | None = None):
    """Every way to announce the open orders of these creatures (all of them, by default),
    each as {creature: order}; more ways than the order limit is refused, not tried."""
    view = ScenarioView(scenario)
    creatures = order.open_orders(view) if creatures is None else creatures
    ways = prod(factorial(len(order.candidates(view, c))) for c in creatures)
    limit = ORDERS.value()
    if ways > limit:
        raise TooManyOrders(
            f"the damage assignment orders the file leaves open ({', '.join(creatures)}) can "
            f"be announced in {ways} ways, more than the limit of {limit}; give the orders in "
            "the file, or raise --order-limit"
        )
    return (
        dict(zip(creatures, chosen, strict=True))
        for chosen in product(*(permutations(order.candidates(view, c)) for c in creatures))
    )


def with_orders(scenario: Scenario, orders: dict) -> Scenario:
    permanents = tuple(
        replace(p, order=orders[p.id]) if p.id in orders else p for p in scenario.permanents
    )
    return replace(scenario, permanents=permanents)


def _named(*announced: dict) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((c, tuple(o)) for orders in announced for c, o in orders.items())


def _divisions(scenario: Scenario, to: str, tally: Tally) -> Guarantee | Impossible:
    """The guarantee, part by part (`parts`): the legal assignments are every combination of
    each part's legal assignments and the damage is a sum of each part's terms, so the first
    side's best choice is its best in each part, and the second side's best reply to it is
    its best reply in each part. Who chooses first is the same in every part, since each side
    announces all of its divisions at once (510.1). A term of the damage that spans two parts
    (a shield shared by two sources) joins them."""
    encoding = Encoding(scenario, extra_pairs=[(e.source, e.to) for e in scenario.assignment or ()])
    # The active player, who chooses first, wants the damage.
    wanting_first = who_is_hurt(scenario, to) != scenario.active_player
    first = {v.get_id() for v in chosen_first(encoding)}
    # The first side's choices, one of each set of twins: exchanging interchangeable creatures
    # (`symmetry`) keeps both sides' choices theirs and the damage as it was, so a choice is
    # sure of what its twin is. The replies stay free: each must be the best against its choice.
    classes = interchangeable(scenario, [to], tally)
    given = [f for f, _ in encoding.given(scenario.assignment or ())]
    received = [amount for _, amount in tally.of(encoding.amounts).into(to)]
    damage = [a for a in received if not isinstance(a, int)]
    # Maximise what the first side is sure of: for the defenders' wish, the negated damage.
    sign = 1 if wanting_first else -1
    best = sign * sum(a for a in received if isinstance(a, int))
    values: dict[tuple[str, str], int] = {}
    solved: dict[tuple, tuple] = {}  # by key, each problem and its answer: identical parts once
    for part in parts(encoding, [*given, *damage]):
        legal = encoding.domain(part.pairs) + [
            f for f, _ in encoding.rule_formulas(part.constraints)
        ]
        legal += [given[i] for i in part.formulas if i < len(given)]
        terms = [damage[i - len(given)] for i in part.formulas if i >= len(given)]
        problem = _Problem(encoding, part, legal, terms, first, sign, classes)
        if problem.key not in solved:
            solved[problem.key] = (problem, problem.solve())
        answer = solved[problem.key][1]
        if answer is None:
            return _impossible(scenario)
        best += answer[0]
        values.update(zip(part.pairs, answer[1], strict=True))
    witness = tuple(Entry(s, r, values[s, r]) for s, r in encoding.variables if values.get((s, r)))
    _recheck(scenario, witness, [])
    return Guarantee(to, who_wants(scenario, to), sign * best, witness)


def chosen_first(encoding: Encoding) -> list[z3.ArithRef]:
    """The unknowns the active player chooses: the divisions announced first (510.1), which
    are their own creatures' unless banding gives them to the defending players (702.22j-k)."""
    view = encoding.view
    return [
        variable
        for (creature, _), variable in encoding.variables.items()
        # A creature that assigns no combat damage has only zeros; either side will do.
        if division.assigns_combat_damage(view, creature) is not True
        or banding.who_divides(view, creature)[0] == view.active_player
    ]


def _impossible(scenario: Scenario) -> Impossible:
    impossible = possible(scenario)
    assert isinstance(impossible, Impossible)
    return impossible


class _Problem:
    """A part's exists-forall question over unknowns renamed in order, so that identical
    parts (the same tokens, the same blocks) are the same problem, with the same key."""

    def __init__(self, encoding: Encoding, part: Part, legal, damage, first, sign, classes):
        self.encoding = encoding
        context = encoding.context
        self.variables = [z3.Int(f"#{i}", context) for i in range(len(part.pairs))]
        alike = shape(encoding, part, [*legal, *damage])  # renamed as `variables`
        self.legal, *terms = alike.terms
        score = z3.Sum(terms) if terms else None
        self.score = None if score is None else score if sign > 0 else -score
        sides = tuple(encoding.variables[pair].get_id() in first for pair in part.pairs)
        self.pairs, self.sides, self.classes = part.pairs, sides, classes
        self.first = [n for n, side in zip(self.variables, sides, strict=True) if side]
        self.second = [n for n, side in zip(self.variables, sides, strict=True) if not side]
        # Parts of one shape are one problem only if the same side chooses each unknown.
        self.key = (sides, alike)

    def solve(self) -> tuple[int, list[int]] | None:
        """The most the first side is sure of here, with the unknowns' values when both sides
        choose best; None when the part has no legal assignment.

        By counterexample-guided search: propose a choice for the first side that beats every
        reply found so far, find the second side's best reply to it, and repeat until no
        choice remains. The proposer is kept from round to round, each reply added once, and
        the bar to beat given as the value of one more unknown."""
        encoding = self.encoding
        if self.score is None or not self.first or not self.second:
            solver = encoding.solver()
            solver.add(self.legal)
            if not decide(solver):
                return None
            if self.score is None:  # no damage here: any legal assignment is as good
                return 0, self._values(solver.model())
            return self._optimum(solver)
        bar = z3.Int("bar", encoding.context)
        proposer = encoding.solver()
        proposer.add(self.legal)  # the choice can be completed legally
        # The first side's choices, one of each set of twins. Not part of the key: what a
        # part's best choice is sure of, any of its twins is.
        unknowns = dict(zip(self.pairs, self.variables, strict=True))
        chosen = [pair for pair, side in zip(self.pairs, self.sides, strict=True) if side]
        assert_all(proposer, breaking(unknowns, self.classes, among=set(chosen)))
        best = None
        while True:
            proposer.push()
            if best is not None:
                proposer.add(bar == best[0])
            if not decide(proposer):
                return best
            chosen = [(v, proposer.model().eval(v, model_completion=True)) for v in self.first]
            proposer.pop()
            responder = encoding.optimizer()
            responder.add(self.legal, *[v == x for v, x in chosen])
            responder.minimize(self.score)
            if not decide(responder):
                raise AssertionError("a completable choice has no legal reply")
            model = responder.model()
            value = model.eval(self.score, model_completion=True).as_long()
            reply = [(v, model.eval(v, model_completion=True)) for v in self.second]
            proposer.add(
                z3.Implies(
                    z3.substitute(self.legal, *reply), z3.substitute(self.score, *reply) > bar
                )
            )
            if best is None or value > best[0]:
                best = (value, self._values(model))

    def _optimum(self, solver: z3.Solver) -> tuple[int, list[int]]:
        """Where one side chooses every unknown of the part, what it is sure of is its best
        outright, the most (or, the second side's, the least) of the score, found by
        galloping (`galloping`). Climbing by 1 a proposal took 119 proposals and 2.2 s where
        10 tramplers are each blocked by all of 20 tokens (now 0.06 s). Twins are not
        skipped: with the lex-leader constraints of `symmetry`, showing a value out of reach
        took longer, not shorter (80 guarantees on drawn boards of benchmarks/
        matrix_speed.py's shape: 10.0 s with them, 1.6 s without)."""
        models = [solver.model()]  # the solver holds the part's rules, and has a model

        def reached(model: z3.ModelRef) -> int:
            models.append(model)
            return model.eval(self.score, model_completion=True).as_long()

        found = reached(models[0])
        value = best(solver, self.score, found, None, bool(self.first), reached, lambda _: None)
        return value, self._values(models[-1])

    def _values(self, model: z3.ModelRef) -> list[int]:
        return [model.eval(v, model_completion=True).as_long() for v in self.variables]


def who_wants(scenario: Scenario, to: str) -> str:
    """Who wants damage on `to`: the active player, or else the defending players."""
    active = scenario.active_player
    if who_is_hurt(scenario, to) != active:
        return active
    return ", ".join(p.id for p in scenario.players if p.id != active)


def who_is_hurt(scenario: Scenario, to: str) -> str:
    """The player who loses by damage to `to`: a player themself, a battle's protector, a
    permanent's controller."""
    if any(p.id == to for p in scenario.players):
        return to
    permanent = scenario.permanent(to)
    return permanent.protector if permanent.is_battle else permanent.controller
