"""Is some legal assignment possible, and how much damage can a legal assignment give?

Every query starts from the amounts the file's `assignment` gives (a partial assignment:
pairs it lists are fixed, the rest are free), and every witness is re-checked by the plain
check before it is returned.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..amounts import Amounts
from ..answers import Impossible, Obstacle, Optimum, Possible
from ..combat import Entry, Scenario
from ..requirements import ANY, Pair, Requirement, assigned
from ..tally import ASSIGNED, Tally
from ..verdict import check
from .encoding import Encoding, decide


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
    partial assignment; requirements speak of what `tally` counts."""
    encoding = _encoding(scenario, requirements)
    counted = tally.of(encoding.amounts)
    parts = encoding.rule_formulas() + encoding.given(scenario.assignment or ())
    parts += [
        (
            encoding.formula(requirement.holds(counted)),
            Obstacle("requirement", None, None, str(requirement)),
        )
        for requirement in requirements
    ]
    solver, labels = encoding.tracked_solver(parts)
    solver.add(encoding.domain())
    if not decide(solver):
        core = [labels[label] for label in solver.unsat_core()]
        return Impossible(tuple(sorted(core, key=Obstacle.order)))
    witness = encoding.entries(solver.model())
    _recheck(scenario, witness, requirements, tally)
    return Possible(witness)


def optimum(
    scenario: Scenario,
    to: str,
    source: str | None = None,
    *,
    maximize: bool,
    tally: Tally = ASSIGNED,
) -> Optimum | Impossible:
    """The most (or least) combat damage a legal assignment gives to `to`, from `source` or
    from every source."""
    target = Pair(source or ANY, to)
    encoding = _encoding(scenario)
    optimizer = encoding.optimizer()
    optimizer.add(encoding.domain())
    optimizer.add([formula for formula, _ in encoding.rule_formulas()])
    optimizer.add([formula for formula, _ in encoding.given(scenario.assignment or ())])
    # A constant when nothing can reach it.
    objective = encoding.integer(assigned(target, tally.of(encoding.amounts)))
    (optimizer.maximize if maximize else optimizer.minimize)(objective)
    if not decide(optimizer):
        impossible = possible(scenario)
        assert isinstance(impossible, Impossible), "Optimize and Solver disagree"
        return impossible
    model = optimizer.model()
    witness = encoding.entries(model)
    value = model.eval(objective, model_completion=True).as_long()
    _recheck(scenario, witness, [Requirement((target,), "==", (value,))], tally)
    return Optimum(value, witness)


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
