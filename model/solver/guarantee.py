"""What the player who wants damage on a recipient can be sure of, whatever the other side
chooses: CR 510.1 (who divides, and in what order), 702.22j-k (banding turns who divides).

The active player announces the divisions they choose first, then the defending players
(510.1). When the active player wants the damage, the answer is the best they can choose
against the worst reply; when the defending players want it, the worst the active player can
choose against their best reply. Either is an exists-forall question over the amounts, solved
by counterexample-guided search: propose a choice for the first side that beats every reply
found so far, find the second side's best reply to it, and repeat until no choice remains.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations, product
from math import factorial, prod

import z3

from ..answers import Guarantee, Impossible
from ..combat import Scenario
from ..errors import TooManyOrders
from ..limits import ORDERS
from ..requirements import ANY, Pair, assigned
from ..rules import banding, division, order
from ..tally import ASSIGNED, Tally
from ..view import ScenarioView
from .encoding import Encoding, decide
from .queries import _recheck, possible


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
    encoding = Encoding(scenario, extra_pairs=[(e.source, e.to) for e in scenario.assignment or ()])
    view = encoding.view
    hurt = who_is_hurt(scenario, to)
    wanting_first = hurt != view.active_player  # the active player wants it, and moves first
    first, second = [], []
    for pair, variable in encoding.variables.items():
        creature = pair[0]
        if division.assigns_combat_damage(view, creature) is not True:
            first.append(variable)  # never nonzero in a legal assignment; either side will do
            continue
        player, _ = banding.who_divides(view, creature)
        (first if player == view.active_player else second).append(variable)

    legal = z3.And(
        [encoding.formula(True)]  # so that an empty conjunction still has the right context
        + encoding.domain()
        + [f for f, _ in encoding.rule_formulas()]
        + [f for f, _ in encoding.given(scenario.assignment or ())]
    )
    damage = assigned(Pair(ANY, to), tally.of(encoding.amounts))
    damage = encoding.integer(damage)
    # Maximise what the first side is sure of: for the defenders' wish, the negated damage.
    score = damage if wanting_first else -damage

    best, witness, replies = None, None, []
    while True:
        proposer = encoding.solver()
        proposer.add(legal)  # the choice can be completed legally
        for reply in replies:
            substituted = [(v, encoding.integer(reply[i])) for i, v in enumerate(second)]
            if best is not None:
                proposer.add(
                    z3.Implies(
                        z3.substitute(legal, *substituted),
                        z3.substitute(score, *substituted) > best,
                    )
                )
        if not decide(proposer):
            break
        chosen = [(v, proposer.model().eval(v, model_completion=True)) for v in first]
        responder = encoding.optimizer()
        responder.add(z3.substitute(legal, *chosen))
        responder.minimize(z3.substitute(score, *chosen))
        if not decide(responder):
            raise AssertionError("a completable choice has no legal reply")
        model = responder.model()
        value = model.eval(z3.substitute(score, *chosen), model_completion=True).as_long()
        replies.append([model.eval(v, model_completion=True).as_long() for v in second])
        if best is None or value > best:
            best = value
            full = encoding.solver()
            full.add(
                legal,
                *[v == x for v, x in chosen],
                *[v == replies[-1][i] for i, v in enumerate(second)],
            )
            decide(full)
            witness = encoding.entries(full.model())
    if best is None:
        impossible = possible(scenario)
        assert isinstance(impossible, Impossible)
        return impossible
    _recheck(scenario, witness, [])
    return Guarantee(to, who_wants(scenario, to), best if wanting_first else -best, witness)


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
