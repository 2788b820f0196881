"""Is some legal assignment possible, and how much damage can a legal assignment give?

Every query starts from the amounts the file's `assignment` gives (a partial assignment:
pairs it lists are fixed, the rest are free), and every witness is re-checked by the plain
check before it is returned. Each independent part of the combat (`parts`) is solved apart,
and a part of the same shape as one solved before is not solved again: a combat's time grows
with its largest part, not with the combat. Within a part, of the assignments that differ only
by exchanging interchangeable creatures (the same tokens, blocked alike) one is searched
(`symmetry`).
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from ..amounts import Amounts
from ..answers import Bounds, Impossible, Obstacle, Optimum, Possible
from ..combat import Entry, Scenario
from ..deadline import TimedOut
from ..interchangeable import interchangeable
from ..ops import at_least_zero, total
from ..requirements import ANY, Pair, Requirement, assigned, named_by
from ..rules.division import damage_to_assign
from ..tally import ASSIGNED, Tally
from ..verdict import check
from .encoding import Encoding, decide
from .galloping import best
from .parts import Part, Shape, parts, shape
from .symmetry import breaking
from .terms import assert_all


def _pairs_named(scenario: Scenario, requirements: Sequence[Requirement]) -> list[tuple[str, str]]:
    """The pairs requirements name (in the whole combat, a creature dead by the second step
    is no longer there, and its amounts there are 0)."""
    here = {p.id for p in scenario.players} | {p.id for p in scenario.permanents}
    return [
        (p.source, p.to)
        for r in requirements
        for p in r.pairs()
        if ANY not in (p.source, p.to) and {p.source, p.to} <= here
    ]


def _encoding(scenario: Scenario, requirements: Sequence[Requirement] = ()) -> Encoding:
    given = [(e.source, e.to) for e in scenario.assignment or ()]
    # Pairs a requirement names get unknowns even when no rule lets them receive damage,
    # so that the rule forbidding them is what an unsatisfiable core names.
    return Encoding(scenario, extra_pairs=given + _pairs_named(scenario, requirements))


def possible(
    scenario: Scenario, requirements: Sequence[Requirement] = (), tally: Tally = ASSIGNED
) -> Possible | Impossible:
    """Whether some legal assignment of the step meets every requirement and the file's
    partial assignment; requirements speak of what `tally` counts. Each independent part is
    solved apart; the first that cannot be met names what stands in its way."""
    encoding = _encoding(scenario, requirements)
    counted = tally.of(encoding.amounts)
    asked = encoding.given(scenario.assignment or ()) + [
        (
            encoding.formula(requirement.holds(counted)),
            Obstacle("requirement", None, None, str(requirement)),
        )
        for requirement in requirements
    ]
    classes = interchangeable(scenario, named_by(requirements), tally)
    solver = encoding.solver()
    values: dict[tuple[str, str], int] = {}
    solved: dict[Shape, Part] = {}  # a part of each shape solved, whose amounts its like take
    for part in parts(encoding, [formula for formula, _ in asked]):
        wanted = encoding.rule_formulas(part.constraints) + [asked[i] for i in part.formulas]
        alike = shape(encoding, part, [formula for formula, _ in wanted])
        if alike in solved:
            theirs = solved[alike].pairs
            values |= {p: values[q] for p, q in zip(part.pairs, theirs, strict=True)}
            continue
        solver.push()
        assert_all(solver, encoding.domain(part.pairs))
        assert_all(solver, [formula for formula, _ in wanted])
        assert_all(solver, breaking(_unknowns(encoding, part), classes))
        if not decide(solver):
            return _in_the_way(encoding, part, wanted)
        values |= _values(encoding, part, solver.model())
        solver.pop()
        solved[alike] = part
    witness = _entries(encoding, values)
    _recheck(scenario, witness, requirements, tally)
    return Possible(witness)


def _in_the_way(encoding: Encoding, part: Part, wanted) -> Impossible:
    """What stands in the way of a part that cannot be met: an unsatisfiable core over its
    rules, requirements and given amounts, which is one of the whole combat too."""
    solver, labels = encoding.tracked_solver(wanted)
    assert_all(solver, encoding.domain(part.pairs))
    if decide(solver):
        raise AssertionError("a part is unsatisfiable alone, but not once its core is tracked")
    core = [labels[label] for label in solver.unsat_core()]
    return Impossible(tuple(sorted(core, key=Obstacle.order)))


class Unfinished(TimedOut):
    """The time limit ran out before a max or min was proved: what was proved by then."""

    def __init__(self, limit: TimedOut, bounds: Bounds):
        super().__init__(str(limit))
        self.bounds = bounds


def optimum(
    scenario: Scenario,
    to: str,
    source: str | None = None,
    *,
    maximize: bool,
    tally: Tally = ASSIGNED,
) -> Optimum | Impossible:
    """The most (or least) combat damage a legal assignment gives to `to`, from `source` or
    from every source: the sum of each independent part's most (or least).

    First a witness for every part, with a bound proved beyond which no assignment of it
    goes; then each part's optimum, by galloping (`galloping`). When the time limit runs
    out before every part has its optimum, `Unfinished` carries the bounds proved by then."""
    target = Pair(source or ANY, to)
    encoding = _encoding(scenario)
    given = encoding.given(scenario.assignment or ())
    # What earlier steps dealt counts whatever this step's amounts: in no part.
    earlier = assigned(target, tally.of(Amounts({})))
    classes = interchangeable(scenario, {to, source} - {None}, tally)
    solver = encoding.solver()
    searches, solved = [], {}
    for part in parts(encoding, [formula for formula, _ in given]):
        twins = breaking(_unknowns(encoding, part), classes)
        search = _PartOptimum(encoding, part, [given[i] for i in part.formulas], twins, maximize)
        search.added = _added(encoding, part, target, tally, earlier)
        extreme = _extreme(encoding, part, target, tally, earlier, maximize)
        searches.append(search)
        alike = shape(encoding, part, [*search.formulas, search.added, extreme])
        if alike in solved:
            search.same_as = solved[alike]
        elif search.start(solver, extreme):
            solved[alike] = search
        else:
            impossible = possible(scenario)
            assert isinstance(impossible, Impossible), "a part and the whole disagree"
            return impossible
    try:
        for search in solved.values():
            search.finish()
    except TimedOut as limit:
        if any(s.result()[2] is None for s in searches):
            raise
        witness, reached = _witness(encoding, searches)
        _recheck(scenario, witness, [Requirement((target,), "==", (earlier + reached,))], tally)
        proved = earlier + sum(s.result()[2] for s in searches)
        lower, upper = sorted((earlier + reached, proved))
        raise Unfinished(limit, Bounds(lower, upper, witness, str(limit))) from None
    witness, reached = _witness(encoding, searches)
    _recheck(scenario, witness, [Requirement((target,), "==", (earlier + reached,))], tally)
    return Optimum(earlier + reached, witness)


class _PartOptimum:
    """One part's most (or least) `added`, what it adds to the damage counted: what a
    witness reaches (`found`, with the witness's amounts), and the bound proved beyond which
    no assignment of the part goes (`bound`, None until proved). Each is replaced whole, so
    that a time limit that interrupts the search leaves both true. A part of the same shape
    as one solved before (`same_as`) is not solved again."""

    def __init__(self, encoding: Encoding, part: Part, given, twins, maximize: bool):
        self.encoding, self.part, self.maximize = encoding, part, maximize
        # In a fixed order, on which the examples' witnesses hang; then one of each set of
        # twins (`symmetry`), given to the search for the witness and bound alone.
        self.rules = encoding.domain(part.pairs)
        self.rules += [f for f, _ in encoding.rule_formulas(part.constraints) + given]
        self.formulas = self.rules + twins
        self.added: z3.ArithRef | int = 0
        self.found: tuple[int, dict] = (0, {})
        self.bound: int | None = None
        self.same_as: _PartOptimum | None = None

    def result(self) -> tuple[int, dict, int | None]:
        """What its witness reaches, the witness's amounts, and the bound proved."""
        if self.same_as is None:
            return (*self.found, self.bound)
        reached, values, bound = self.same_as.result()
        theirs = self.same_as.part.pairs
        return reached, {p: values[q] for p, q in zip(self.part.pairs, theirs, strict=True)}, bound

    def start(self, solver: z3.Solver, extreme: int) -> bool:
        """A witness, and `extreme` proved a bound (or, if the witness reaches it, the value
        the witness reaches); False when the part cannot be met at all."""
        solver.push()
        assert_all(solver, self.formulas)
        if not decide(solver):
            return False
        self._keep(solver.model())
        if isinstance(self.added, int):
            self.bound = self.added
        else:
            # Past the extreme, or past what the witness reaches if it is even further.
            if self.maximize:
                limit = max(extreme, self.found[0])
                past = self.added > limit
            else:
                limit = min(extreme, self.found[0])
                past = self.added < limit
            solver.push()
            solver.add(past)
            if decide(solver):  # the extreme is no bound: galloping will tell
                self._keep(solver.model())
            else:
                self.bound = limit
            solver.pop()
        solver.pop()
        return True

    def finish(self) -> None:
        """The part's most (or least), by galloping from its witness and bound. Twins are
        not skipped here: the lex-leader constraints made values out of reach slower to show
        (the 10 tramplers each blocked by all of 20 tokens of benchmarks/matrix_speed.py)."""
        if isinstance(self.added, int):
            return
        solver = self.encoding.solver()
        assert_all(solver, self.rules)

        def reached(model: z3.ModelRef) -> int:
            self._keep(model)
            return self.found[0]

        def proved(bound: int) -> None:
            self.bound = bound

        best(solver, self.added, self.found[0], self.bound, self.maximize, reached, proved)
        self.bound = self.found[0]

    def _keep(self, model: z3.ModelRef) -> None:
        added = self.added
        if not isinstance(added, int):
            added = model.eval(added, model_completion=True).as_long()
        self.found = (added, _values(self.encoding, self.part, model))


def _added(encoding: Encoding, part: Part, target: Pair, tally: Tally, earlier: int):
    """What the part's amounts add to the damage counted."""
    amounts = Amounts({pair: encoding.variables[pair] for pair in part.pairs})
    return total((assigned(target, tally.of(amounts)), -earlier))


def _extreme(encoding, part: Part, target, tally: Tally, earlier: int, maximize: bool) -> int:
    """What the part adds at most, when every creature sends all the damage it assigns
    (510.1a) down each of its pairs; or at least, when none is assigned (damage is never
    negative). A bound still to be proved."""
    view = encoding.view
    most = {p: at_least_zero(damage_to_assign(view, p[0])) if maximize else 0 for p in part.pairs}
    return assigned(target, tally.of(Amounts(most))) - earlier


def _unknowns(encoding: Encoding, part: Part) -> dict[tuple[str, str], z3.ArithRef]:
    return {pair: encoding.variables[pair] for pair in part.pairs}


def _values(encoding: Encoding, part: Part, model: z3.ModelRef) -> dict[tuple[str, str], int]:
    variables = encoding.variables
    return {p: model.eval(variables[p], model_completion=True).as_long() for p in part.pairs}


def _entries(encoding: Encoding, values: dict[tuple[str, str], int]) -> tuple[Entry, ...]:
    """The assignment the parts' amounts give, in the scenario's order of creatures."""
    return tuple(Entry(s, r, values[(s, r)]) for s, r in encoding.variables if values[(s, r)])


def _witness(encoding: Encoding, searches: list[_PartOptimum]) -> tuple[tuple[Entry, ...], int]:
    """The assignment the parts' witnesses make together, and what it adds."""
    values: dict[tuple[str, str], int] = {}
    reached = 0
    for search in searches:
        part_reached, part_values, _ = search.result()
        values |= part_values
        reached += part_reached
    return _entries(encoding, values), reached


def _recheck(
    scenario: Scenario, witness: tuple[Entry, ...], requirements, tally: Tally = ASSIGNED
) -> None:
    """A witness is reported only once the plain check agrees it is legal and meets every
    requirement; anything else is a bug in lethal, never an answer."""
    verdict = check(scenario, witness)
    if not verdict.legal:
        raise AssertionError(f"the solver's witness is illegal: {verdict.violations}")
    amounts = Amounts({(e.source, e.to): e.amount for e in witness})
    for requirement in requirements:
        if requirement.holds(tally.of(amounts)) is not True:
            raise AssertionError(f"the solver's witness breaks {requirement}")
    given = {(e.source, e.to): e.amount for e in scenario.assignment or ()}
    if any(amounts.get(*pair) != amount for pair, amount in given.items()):
        raise AssertionError("the solver's witness changes the file's partial assignment")
