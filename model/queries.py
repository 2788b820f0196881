"""What is possible in a combat: the queries behind `lethal possible`, `max`, `min`, `count`
and `guarantee`, as functions that return values.

Each starts from the scenario's own `assignment`, read as a partial assignment: the pairs it
lists are fixed, every other pair is free. Ids are checked here, so the solver can trust them.
The solver package, and Z3 with it, is imported only when a query runs, so that `import
lethal` and `lethal check` stay quick.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import requirements as language
from .answers import Bounds, Count, Guarantee, Impossible, Optimum, Possible
from .combat import Scenario
from .errors import LethalError, TooManyCreatures, quoted
from .limits import CREATURES
from .reading.problems import did_you_mean, names
from .requirements import ANY, Requirement


class QueryError(LethalError, ValueError):
    """A query that names something the scenario does not have."""


def possible(
    scenario: Scenario, requirements: Iterable[str | Requirement] = (), whole_combat: bool = False
) -> Possible | Impossible:
    """Some legal assignment of the step that meets every requirement, or what stands in the
    way of all of them (an unsatisfiable core: rules, requirements and given amounts). With
    `whole_combat`, over the whole combat damage phase, counting damage dealt."""
    from . import whole_combat as phase
    from .solver import queries

    _within_the_creature_limit(scenario)
    parsed = [_requirement(r, scenario) for r in requirements]
    if whole_combat:
        return phase.possible(scenario, parsed)
    return queries.possible(scenario, parsed)


def maximum(
    scenario: Scenario, to: str, source: str | None = None, whole_combat: bool = False
) -> Optimum | Bounds | Impossible:
    """The most combat damage a legal assignment gives to `to` (from `source`, or from all);
    with `whole_combat`, the most dealt over the whole phase. `Bounds` when the time limit
    (`deadline`) ran out first: what was proved by then (with `whole_combat` and orders
    the file leaves open, announced each in turn, none: TimedOut)."""
    return _optimum(scenario, to, source, whole_combat, maximize=True)


def minimum(
    scenario: Scenario, to: str, source: str | None = None, whole_combat: bool = False
) -> Optimum | Bounds | Impossible:
    """The least combat damage a legal assignment gives to `to` (from `source`, or from all);
    with `whole_combat`, the least dealt over the whole phase. `Bounds` as for `maximum`."""
    return _optimum(scenario, to, source, whole_combat, maximize=False)


def _optimum(scenario, to, source, whole_combat: bool, *, maximize: bool):
    from . import whole_combat as phase
    from .solver import queries

    _within_the_creature_limit(scenario)
    _check_target(scenario, to, source)
    try:
        if whole_combat:
            return phase.optimum(scenario, to, source, maximize=maximize)
        return queries.optimum(scenario, to, source, maximize=maximize)
    except queries.Unfinished as unfinished:
        return unfinished.bounds


def count(scenario: Scenario, list_limit: int | None = None) -> Count:
    """The exact number of legal assignments of the step; with `list_limit`, up to that many
    of them, in a fixed order."""
    from .solver import counting

    _within_the_creature_limit(scenario)
    return counting.count(scenario, list_limit)


def guarantee(scenario: Scenario, to: str, whole_combat: bool = False) -> Guarantee | Impossible:
    """The combat damage to `to` that the player who wants it can be sure of, when every
    division the other side chooses is chosen against them (510.1, 702.22j-k); with
    `whole_combat`, dealt over the whole phase."""
    from . import whole_combat as phase
    from .solver import guarantee as solving

    _within_the_creature_limit(scenario)
    _check_target(scenario, to, None)
    if whole_combat:
        return phase.guarantee(scenario, to)
    return solving.guarantee(scenario, to)


def _within_the_creature_limit(scenario: Scenario) -> None:
    creatures = sum(p.is_creature for p in scenario.permanents)
    if creatures > CREATURES.value():
        raise TooManyCreatures(
            f"the combat has {creatures:,} creatures, more than the creature limit of "
            f"{CREATURES.value():,} a query takes; raise {CREATURES.flag}"
        )


def _ids(scenario: Scenario) -> list[str]:
    return [p.id for p in scenario.players] + [p.id for p in scenario.permanents]


def _creatures(scenario: Scenario) -> list[str]:
    return [p.id for p in scenario.permanents if p.is_creature]


def _known(id: str, candidates: list[str], what: str, context: str = "") -> None:
    if id not in candidates:
        raise QueryError(
            f"{context}unknown {what} {quoted(id)}{did_you_mean(id, candidates)}; expected "
            f"one of {names(candidates)}"
        )


def _check_target(scenario: Scenario, to: str, source: str | None) -> None:
    _known(to, _ids(scenario), "recipient")
    if source is not None:
        _known(source, _creatures(scenario), "source creature")


def _requirement(requirement: str | Requirement, scenario: Scenario) -> Requirement:
    parsed = language.parse(requirement) if isinstance(requirement, str) else requirement
    for pair in parsed.pairs():
        if pair.source != ANY:
            _known(
                pair.source, _creatures(scenario), "source creature", f"requirement '{parsed}': "
            )
        if pair.to != ANY:
            _known(pair.to, _ids(scenario), "recipient", f"requirement '{parsed}': ")
    return parsed
