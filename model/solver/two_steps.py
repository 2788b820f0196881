"""Both combat damage steps of a combat (or of one independent part of it) as one query: CR
510.4, 510.2, 120.3, 704.5, 701.19a.

The first-strike step's amounts are unknowns. The damage they deal (protection prevents
some, 702.16e; the file's effects change some, 615, 701.10g), its results (120.3) and the
state-based actions that follow (704.5a, c, f-i, v, with regeneration, 701.19a) are terms
over them, from the rules of `rules/results`; the second step is judged by every rule of
`rules/` over a view whose marked damage, counters, loyalty, and who died or left combat are
those terms (`SecondStepView`), with its own amounts as more unknowns. The most (least)
damage dealt over both steps is then one optimization, instead of one second-step query for
each first-step assignment: a part with 74,088 legal first-step assignments is one query.

Only combats whose effects leave dealing no choice come here (`whole_combat` deals the others
by every order their players may choose, 616.1), and only when `expressible` says the view
can state the second step exactly; the rest keep the enumeration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import z3

from .. import rules
from ..amounts import Amounts
from ..answers import Impossible, Obstacle, Possible
from ..combat import FIRST_STRIKE_STEP, SECOND, Entry, Scenario
from ..interchangeable import interchangeable
from ..ops import Term, all_of, any_of, at_least_zero, implies, ite, negate, total
from ..requirements import Pair, Requirement, assigned, named_by
from ..rules import division, order, results
from ..rules.dealing import leaves_no_choice
from ..tally import Tally
from ..view import ScenarioView
from . import terms
from .encoding import Encoding, decide
from .symmetry import breaking

# The most rules and requirements whose clash is pared down to the fewest: Z3 does it for 200
# in 0.2 s and 400 in 1 s, and took 34 s for the 1,000 of 200 tokens (each fight's rules in
# both steps), where the core as found comes at once.
MINIMIZED = 400


def expressible(first: Scenario) -> bool:
    """The second step can be stated over the first step's unknowns: no effects that leave
    dealing a choice (`rules.dealing.leaves_no_choice`), no damage assignment order left open
    (an order binds across both steps, 509.2-509.3: the file's, or one announced before
    the first step, is the same order in the second, where a creature that left combat
    is no longer one it ranks), and no permanent both a creature and a planeswalker or
    battle (one that died stays, out of combat, as `whole_combat.after` keeps it, which
    this view does not model)."""
    if not leaves_no_choice(first) or any(
        p.is_creature and (p.is_planeswalker or p.is_battle) for p in first.permanents
    ):
        return False
    return not order.open_orders(ScenarioView(first))


@dataclass(frozen=True)
class AfterFirstStep:
    """What the first step's damage leaves, as terms over its amounts (`_results` of
    `rules.dealing`, term by term): for each creature, -1/-1 counters put on it, damage marked
    then, whether it regenerated and whether it left the battlefield; for each planeswalker
    or battle, the counters it lost and whether it left; and whether the game is over."""

    counters: dict[str, Term]
    marked: dict[str, Term]
    regenerated: dict[str, Term]
    gone: dict[str, Term]
    lost_counters: dict[str, Term]  # loyalty (120.3c) or defense (120.3h) removed
    net_loss: dict[str, Term]  # player -> life lost less life gained (120.3a, 120.3f)
    poison: dict[str, Term]  # player -> poison counters after (120.3b, 120.3g)
    game_over: Term


def after_first_step(view: ScenarioView, dealt: Amounts) -> AfterFirstStep:
    """120.3: the results of every event dealt at once (510.2, 120.4); then 704.5a, c, f, g,
    h, i, v, and regeneration shields replacing destruction (701.19a). Each result and each
    state-based action is `rules.results`'; how they follow one another is `_results` of
    `rules.dealing` again, over terms (that one branches on plain values):
    tests/test_two_steps.py holds the two to the same answers."""
    scenario = view.scenario
    took: dict[str, list[results.Result]] = {}
    gained: dict[str, list[Term]] = {p: [] for p in view.players}
    for s, r in dealt.pairs():
        result = results.result(view, s, r, dealt.get(s, r))
        took.setdefault(r, []).append(result)
        gained[view.controller(s)].append(result.gained)

    def summed(x: str, field: str) -> Term:
        return total(getattr(r, field) for r in took.get(x, ()))

    loses, net_loss, poison = [], {}, {}
    for p in scenario.players:
        poison[p.id] = p.poison + summed(p.id, "poison")
        net_loss[p.id] = total((summed(p.id, "life_lost"), -total(gained[p.id])))
        life = None if p.life is None else p.life - net_loss[p.id]
        loses.append(results.loses(life, poison[p.id]))
    counters, marked, regenerated, gone, lost_counters = {}, {}, {}, {}, {}
    for p in scenario.permanents:
        if p.is_creature:
            counters[p.id] = summed(p.id, "counters")
            damage = p.damage + summed(p.id, "marked")
            touched = any_of(r.deathtouch for r in took.get(p.id, ()))
            destroyed = results.destroyed(view, p.id, counters[p.id], damage, touched)
            regenerated[p.id] = results.regenerates(view, p.id, destroyed)
            marked[p.id] = ite(regenerated[p.id], 0, damage)
            gone[p.id] = any_of(
                (
                    results.toughness_gone(p.toughness, counters[p.id]),
                    all_of((destroyed, negate(regenerated[p.id]))),
                )
            )
        if p.is_planeswalker or p.is_battle:
            lost_counters[p.id] = summed(p.id, "defense" if p.is_battle else "loyalty")
            start = p.defense if p.is_battle else p.loyalty
            gone[p.id] = start - lost_counters[p.id] <= 0  # 704.5i, 704.5v
    # 104.2a, 104.4a: all players but one losing, or all, end the game before the second step.
    game_over = results.game_ends(total(ite(lost, 1, 0) for lost in loses), len(scenario.players))
    return AfterFirstStep(
        counters, marked, regenerated, gone, lost_counters, net_loss, poison, game_over
    )


class SecondStepView(ScenarioView):
    """The second step's combat as `whole_combat.after` makes it from a first step's
    outcome, with that outcome as terms: a creature that died is no longer a creature in
    combat; one that regenerated is out of combat (701.19a, 506.4); the creatures they
    blocked stay blocked (509.1h); an attacked planeswalker or battle that left is removed
    from combat (506.4c); power and toughness are less the -1/-1 counters (122.1a). Whom the
    rules range over is the first step's: a view may list more than the answer (view.py)."""

    def __init__(self, first: Scenario, state: AfterFirstStep):
        super().__init__(replace(first, step=SECOND, assignment=None))
        self.state = state
        self._in_combat = {
            c: all_of((negate(state.gone[c]), negate(state.regenerated[c]))) for c in self.creatures
        }

    def is_creature(self, x: str) -> Term:
        return all_of((super().is_creature(x), negate(self.state.gone.get(x, False))))

    def power(self, c: str) -> Term:
        return super().power(c) - self.state.counters[c]

    def toughness(self, c: str) -> Term:
        return super().toughness(c) - self.state.counters[c]

    def marked(self, c: str) -> Term:
        return self.state.marked[c]

    def loyalty(self, p: str) -> Term:
        # The counters it has left: none once damage removed them all (120.3c, 120.3h).
        return at_least_zero(super().loyalty(p) - self.state.lost_counters[p])

    def regeneration_shields(self, c: str) -> Term:
        return super().regeneration_shields(c) - ite(self.state.regenerated[c], 1, 0)

    def removed(self, target: str) -> Term:
        left = self.state.gone.get(target, False) if target in self.state.lost_counters else False
        return any_of((super().removed(target), left))

    def attacks(self, a: str, target: str) -> Term:
        return all_of((super().attacks(a, target), self._in_combat.get(a, True)))

    def is_attacking(self, c: str) -> Term:
        return all_of((super().is_attacking(c), self._in_combat.get(c, True)))

    def is_blocked(self, a: str) -> Term:
        return all_of((super().is_blocked(a), self._in_combat.get(a, True)))

    def blocks(self, b: str, a: str) -> Term:
        return all_of(
            (super().blocks(b, a), self._in_combat.get(b, True), self._in_combat.get(a, True))
        )

    def is_blocking(self, c: str) -> Term:
        return all_of((super().is_blocking(c), self._in_combat.get(c, True)))


@dataclass(frozen=True)
class Share:
    """What one independent part of a combat (its permanents, `members`) deals of one pair
    of the requirements, bounded in each step (least, most; None where not asked), as
    found of the part alone (`FirstStep.share_bounds`). Of every course of the whole
    combat: the first step's share within `first`; the second's within `second`'s most
    always (nothing is dealt once the game is over), within its least while the game goes
    on."""

    members: tuple[str, ...]
    pair: Pair
    first: tuple[int | None, int | None]
    second: tuple[int | None, int | None]

    def __str__(self) -> str:
        def said(step: str, bounds) -> str:
            least, most = bounds
            if least is None:
                return f"at most {most} in the {step} step"
            if most is None:
                return f"at least {least} in the {step} step"
            return f"{least} to {most} in the {step} step"

        steps = (FIRST_STRIKE_STEP, self.first), (SECOND, self.second)
        said_of = ", ".join(said(step, b) for step, b in steps if b != (None, None))
        return (
            f"what {', '.join(self.members)} deal of {self.pair}: {said_of} (found of them alone)"
        )

    @property
    def key(self) -> tuple:
        """The part's ids, then the pair: how the query's symmetry reads what the part deals
        of the pair (`symmetry.breaking`'s `leading`), and how an exchange of alike parts
        renames it (`symmetry.moved_key`)."""
        return frozenset(self.members), self.pair

    @property
    def obstacle(self) -> Obstacle:
        """The bounds as they stand in the way of a query, until the rules of the part that
        keep them (`FirstStep.rules_keeping`) are named in their place."""
        return Obstacle("rule", None, None, str(self))


@dataclass(frozen=True)
class Course:
    """A part's best course over the phase: the value, and each step's assignment."""

    value: int
    first: tuple[Entry, ...]
    second: tuple[Entry, ...]


class FirstStep:
    """The first-strike step of a combat (or of one part of it) as unknowns, with what its
    damage leaves (`after`) as terms over them. `dealing`: what is dealt of each pair's
    damage (`whole_combat.dealing`), in either step."""

    def __init__(self, first: Scenario, dealing: Tally):
        self.scenario, self.dealing = first, dealing
        self.encoding = Encoding(first)
        self.dealt = dealing.of(Amounts(self.encoding.variables))
        self.after = after_first_step(self.encoding.view, self.dealt)
        self.domain = self.encoding.domain()
        self.rules = self.encoding.rule_formulas()  # each with its obstacle
        self.formulas = [*self.domain, *(f for f, _ in self.rules)]

    def most(self, measure: Term) -> int:
        """The most a measure of what the step leaves comes to, over its legal assignments."""
        return self._extreme(measure, self.formulas, maximize=True)

    def best_course(self, target: Pair, *, maximize: bool, exchanges=()) -> Course:
        """The most (least) damage dealt to `target` over both steps (the combat must be
        `expressible`), with a course that gives it. The caller deals the course again,
        concretely, before reporting it. `exchanges`: of alike parts of the combat
        (`interchangeable.alike_parts`), whose twin courses the search skips too."""
        both, two, second = self._both_steps({target.source, target.to}, exchanges)
        value = total((assigned(target, self.dealt), assigned(target, second)))
        optimizer = self.encoding.optimizer()
        terms.assert_all(optimizer, [formula for formula, _ in both])
        if not isinstance(value, int):
            (optimizer.maximize if maximize else optimizer.minimize)(value)
        if not decide(optimizer):
            raise AssertionError("the first-strike step of a combat has no legal assignment")
        model = optimizer.model()
        reached = value if isinstance(value, int) else model.eval(value, True).as_long()
        return Course(reached, self.encoding.entries(model), _entries(model, two))

    def share_bounds(self, pair: Pair, *, most: bool, least: bool) -> tuple[tuple, tuple]:
        """The least and the most (each only if asked, else None) of `pair` dealt by this
        combat in its first step, then in its second (the combat must be `expressible`):
        each one optimization over its legal courses."""
        both, _, second = self._both_steps({pair.source, pair.to}, ())
        steps = (
            (assigned(pair, self.dealt), self.formulas),
            (assigned(pair, second), [f for f, _ in both]),
        )
        return tuple(
            (
                self._extreme(value, formulas, maximize=False) if least else None,
                self._extreme(value, formulas, maximize=True) if most else None,
            )
            for value, formulas in steps
        )

    def _extreme(self, value: Term, formulas: list, *, maximize: bool) -> int:
        """The most (least) `value` comes to where every formula holds."""
        if not isinstance(value, int):
            value = z3.simplify(value)  # poison from no source with infect or toxic: 0
        if isinstance(value, int) or z3.is_int_value(value):
            return value if isinstance(value, int) else value.as_long()
        optimizer = self.encoding.optimizer()
        terms.assert_all(optimizer, formulas)
        (optimizer.maximize if maximize else optimizer.minimize)(value)
        if not decide(optimizer):
            raise AssertionError("the first-strike step of a combat has no legal assignment")
        return optimizer.model().eval(value, model_completion=True).as_long()

    def course_meeting(
        self,
        requirements: Sequence[Requirement],
        exchanges=(),
        ended: bool | None = None,
        shares: Sequence[Share] = (),
        explained: bool = True,
    ):
        """A course of both steps (the combat must be `expressible`) whose damage dealt over
        the phase meets every requirement, as a `Possible`; or an `Impossible` naming what
        stands in the way of all of them: an unsatisfiable core of the requirements and
        both steps' rules. With `ended`, only a course whose first step ends the game
        (True) or does not (False). `shares`: bounds on what independent parts of the
        combat deal (`Share`), which every course keeps, so that they change no answer;
        Z3 alone may not find the bound of their sum that a requirement meets (not in 60 s,
        of 100 parts). Not `explained`, an `Impossible` names nothing: finding what stands in
        the way is a second query, slower than the first, which a caller that drops the
        answer need not wait for. The caller deals a course again, concretely, before
        reporting it."""
        both, two, second = self._both_steps(named_by(requirements), exchanges, shares)
        if ended is not None:
            ends = self.after.game_over
            said = f"the game {'ends' if ended else 'goes on'} after the first-strike step"
            holds = self.encoding.formula(ends if ended else negate(ends))
            both.append((holds, Obstacle("requirement", None, None, said)))
        pairs = dict.fromkeys((*self.dealt.pairs(), *second.pairs()))
        over = Amounts({p: total((self.dealt.get(*p), second.get(*p))) for p in pairs})
        both += [
            (self.encoding.formula(r.holds(over)), Obstacle("requirement", None, None, str(r)))
            for r in requirements
        ]
        both += [(self._kept(share, second), share.obstacle) for share in shares]
        solver = self.encoding.solver()
        terms.assert_all(solver, [formula for formula, _ in both])
        if decide(solver):
            model = solver.model()
            one, two = self.encoding.entries(model), _entries(model, two)
            return Possible(one + two, ((FIRST_STRIKE_STEP, one), (SECOND, two)))
        if not explained:
            return Impossible(())
        # Asked again with each rule and requirement under a label, only now: labels slow
        # the search that finds a course.
        solver, labels = self._tracked(both)
        note = (
            "over both steps: no legal first-strike assignment, then a legal second step, meets "
            "them all"
        )
        if len(labels) > MINIMIZED:
            note += (
                f"; of the {len(labels):,} rules and requirements, those above clash, though "
                "fewer of them may"
            )
        if decide(solver):
            raise AssertionError("both steps are unsatisfiable, but not once their core is tracked")
        core = sorted((labels[label] for label in solver.unsat_core()), key=Obstacle.order)
        return Impossible((*core, Obstacle("note", None, None, note)))

    def rules_keeping(self, shares: Sequence[Share]) -> list[Obstacle]:
        """The rules of both steps that keep parts' shares within their bounds, this being
        those parts alone, with no life totals, whose every course keeps them as the
        whole's does (`Share`): an unsatisfiable core of these rules and some share outside
        its bounds, found in one query for every part."""
        named = {id for share in shares for id in (share.pair.source, share.pair.to)}
        both, _, second = self._both_steps(named, ())
        outside = any_of(negate(self._kept(share, second)) for share in shares)
        solver, labels = self._tracked(both)
        solver.add(self.encoding.formula(outside))
        if decide(solver):
            raise AssertionError("a part's share is outside the bounds found of the part alone")
        return [labels[label] for label in solver.unsat_core()]

    def _tracked(self, both: list) -> tuple[z3.Solver, dict]:
        """A solver of `both`, each formula that may stand in the way (one with an obstacle)
        under a label, to find their unsatisfiable core: pared down to the fewest only up to
        MINIMIZED of them."""
        solver, labels = self.encoding.tracked_solver((f, o) for f, o in both if o is not None)
        terms.assert_all(solver, [f for f, o in both if o is None])
        if len(labels) > MINIMIZED:
            solver.set("core.minimize", False)
        return solver, labels

    def _kept(self, share: Share, second: Amounts) -> z3.BoolRef:
        """A part's bounds (`share`) as one formula over both steps."""
        one, two = self._dealt_by(share, second)
        (low, high), (least, most) = share.first, share.second
        kept = all_of(
            (
                low is None or one >= low,
                high is None or one <= high,
                most is None or two <= most,  # nothing is dealt once the game is over
                implies(negate(self.after.game_over), least is None or two >= least),
            )
        )
        return self.encoding.formula(kept)

    def _dealt_by(self, share: Share, second: Amounts) -> tuple[Term, Term]:
        """What the part of `share` deals of its pair in the first step, then in the second
        (`second`: that step's damage dealt)."""
        members = set(share.members)

        def dealt_of(amounts: Amounts) -> Term:
            return assigned(
                share.pair, Amounts({p: v for p, v in amounts.items() if p[0] in members})
            )

        return dealt_of(self.dealt), dealt_of(second)

    def _both_steps(self, named: set[str], exchanges, shares=()) -> tuple[list, dict, Amounts]:
        """Both steps legal, as formulas, each with the obstacle it is when it stands in the
        way (a rule's, named by its step; None for the domain and the symmetry, which never
        do), the second step's only while the game goes on; the second step's unknowns; and
        what the second step deals (`dealing`).
        Of the courses that differ by exchanging interchangeable creatures (none `named`) or
        alike parts (`exchanges`), one (`symmetry`): of alike parts with `shares`, the one
        that orders them by what they deal of the shares' pairs, most first."""
        one, state = self.encoding, self.after
        view = SecondStepView(self.scenario, state)
        integer = z3.IntSort(one.context)
        two = {
            (s, r): terms.constant(f"second {s}->{r}", integer)
            for s in view.creatures
            for r in view.reachable(s)
            if division.may_receive(view, s, r) is not False
        }
        both = [(f, None) for f in self.domain]
        both += [(f, _in_step(o, FIRST_STRIKE_STEP)) for f, o in self.rules]
        both += [(v >= 0, None) for v in two.values()]
        legal = one.rule_formulas(
            [c for c in rules.constraints(view, Amounts(two)) if c.holds is not True]
        )
        if state.game_over is False:
            both += [(f, _in_step(o, SECOND)) for f, o in legal]
        else:  # after the game's end there is no second step: nothing is assigned in it
            over = one.formula(state.game_over)
            going_on = negate(over)
            both += [(one.formula(implies(over, v == 0)), None) for v in two.values()]
            both += [(one.formula(implies(going_on, f)), _in_step(o, SECOND)) for f, o in legal]
        # Both steps' unknowns read in one order, as the twins of a course are over both.
        # Alike parts with shares are ordered by what each deals of each pair over both
        # steps, most first, and no further (`symmetry`): so ordered, a course meeting an
        # exact total of their shares is found at once.
        classes = interchangeable(self.scenario, named, self.dealing)
        second = self.dealing.of(Amounts(two))
        shared = {share.key: one.integer(total(self._dealt_by(share, second))) for share in shares}
        steps = {(s, r, "first"): v for (s, r), v in one.variables.items()}
        steps |= {(s, r, "second"): v for (s, r), v in two.items()}
        symmetry = breaking(steps, classes, exchanges=exchanges, leading=shared)
        return both + [(f, None) for f in symmetry], two, second


def _in_step(obstacle: Obstacle, step: str) -> Obstacle:
    """A rule's obstacle, said of one of the two steps."""
    return replace(obstacle, text=f"in the {step} step: {obstacle.text}")


def _entries(model: z3.ModelRef, variables: dict) -> tuple[Entry, ...]:
    found = (
        (pair, model.eval(v, model_completion=True).as_long()) for pair, v in variables.items()
    )
    return tuple(Entry(s, r, amount) for (s, r), amount in found if amount)
