"""The independent parts of a combat (`solver/combat_parts`), joined again: what each part's
first step can do to the players' life and poison, whether the parts together may end the
game (104.2a), each part's first-step options with what follows them, and the re-check of a
course joined from parts whose dealing is a choice.
"""

from __future__ import annotations

from dataclasses import replace

from ..amounts import Amounts
from ..combat import ONLY, Entry, Scenario
from ..interchangeable import alike_groups, renaming
from ..requirements import Pair, assigned
from ..rules.dealing import leaves_no_choice
from ..rules.results import game_ends, loses
from ..verdict import check
from .course import branches_of, dealing, pairs_dealt, values_dealt, without_life
from .game_end import Option


def apart_from_choices(first: Scenario) -> tuple[list[Scenario], Scenario | None, bool] | None:
    """The combat's independent parts whose dealing is a choice, each without life totals;
    the rest of it as one (None if there is none); and whether the first step may end the
    game, which then hangs on every part at once. None when the combat is one part."""
    from ..solver.combat_parts import independent_parts, together

    scenarios = independent_parts(first)
    if len(scenarios) == 1:
        return None
    worst = [worst_of_part(first, s) for s in scenarios]
    ending = first.step != ONLY and may_end_the_game(first, worst)
    choosing = [without_life(s) for s in scenarios if not leaves_no_choice(s)]
    others = [s for s in scenarios if leaves_no_choice(s)]
    return choosing, together(first, others) if others else None, ending


def joined(courses: list[tuple]) -> tuple[int, tuple[Entry, ...], tuple[Entry, ...]]:
    """The parts' courses (value, first step's assignment, second step's) as one."""
    value = sum(value for value, _, _ in courses)
    one = tuple(e for _, entries, _ in courses for e in entries)
    return value, one, tuple(e for _, _, entries in courses for e in entries)


def recheck_parts(first: Scenario, scenarios: list, courses: list, ended: bool, target: Pair):
    """A course joined from parts whose dealing is a choice is reported only once the whole
    first step is legal, and each part, dealt its share of the course step by step, can
    come to its share of the value, as its players may choose (`deal`); anything else is a
    bug in lethal, never an answer."""
    if not check(first, tuple(e for _, one, _ in courses for e in one)).legal:
        raise AssertionError("a course of the phase found by lethal is not legal")
    for scenario, (part_value, one, two) in zip(scenarios, courses, strict=True):
        part = without_life(scenario)
        if part_value not in values_dealt(part, one, None if ended else two, target):
            raise AssertionError(f"a part's course of the phase is not what it gave: {part_value}")


def worst_of(first: Scenario, branches) -> dict[str, tuple[int, int]]:
    """`at_worst` of a part whose first step's courses are tried one by one (`branches`)."""
    worst = {}
    for p in first.players:
        lost = (o.lost[p.id] - o.gained[p.id] for _, o, _ in branches)
        net = 0 if p.life is None else max(lost, default=0)
        worst[p.id] = (net, max((o.poison[p.id] - p.poison for _, o, _ in branches), default=0))
    return worst


def at_worst(first: Scenario, part) -> dict[str, tuple[int, int]]:
    """For each player, the most life they can lose, net, and the most poison counters they
    can get in the first step of one part (`two_steps.FirstStep`): each one query over the
    part's first-step unknowns, not a try of each assignment."""
    worst = {}
    for p in first.players:
        net = 0 if p.life is None else part.most(part.after.net_loss[p.id])
        worst[p.id] = (net, part.most(part.after.poison[p.id] - p.poison))
    return worst


def may_end_the_game(first: Scenario, worst: list[dict[str, tuple[int, int]]]) -> bool:
    """Whether the first step of the parts together could end the game (`game_over`): so
    many players could each lose (704.5a, 704.5c) that all but one would have. Each player
    is taken at their worst from each part (`at_worst`), added up, since the life a player
    loses and gains and the poison counters they get are sums over the damage dealt
    (120.3a-b, 120.3f); several players at their worst at once may not be one course, so a
    yes may be too many, never a no."""
    could_lose = 0
    for p in first.players:
        net = sum(w[p.id][0] for w in worst)
        poison = p.poison + sum(w[p.id][1] for w in worst)
        could_lose += loses(None if p.life is None else p.life - net, poison)
    return game_ends(could_lose, len(first.players))


def valued(part: Scenario, branches, target: Pair, second_step) -> list[Option]:
    """Each first-step assignment of one part (`branches`, of the part's first step) with
    the second step after it, as `second_step` answers for the second step's combat (and
    the first step's damage dealt): its value over the phase, and that step's
    assignment; and what the first step does to each player's life and poison. It is
    asked once for each second step the first can lead to, not once for each first
    assignment: many leave the same combat behind (they differ only in what players were
    dealt, say), and the second step depends on nothing else."""
    asked: dict = {}  # second step -> (the first step's damage dealt it was asked with, answer)
    found = []
    for entries, outcome, second in branches:
        here = assigned(target, Amounts(pairs_dealt(outcome)))
        value, after_it = here, ()
        if second is not None:
            if second not in asked:
                asked[second] = (here, second_step(second, pairs_dealt(outcome)))
            there, (answer, after_it) = asked[second]
            value += answer - there  # the answer counted its own first step's damage
        lost = {p: outcome.lost[p] - outcome.gained[p] for p in outcome.lost}
        poison = {p.id: outcome.poison[p.id] - p.poison for p in part.players}
        found.append(Option(entries, after_it, here, value, lost, poison))
    return found


def like_earlier(parts: list[Scenario], named: set[str]) -> dict[int, int]:
    """For each part alike to an earlier one (`interchangeable.alike_groups`: the same
    tokens, each blocked by a token of its own), the place of the first of them."""
    return {i: group[0] for group in alike_groups(parts, named) for i in group[1:]}


def part_options(parts: list[Scenario], like: dict[int, int], target: Pair, second_step):
    """For each part, each of its first-step assignments with the second step after it
    (`valued`, with `second_step`); a part alike to an earlier one (`like`) takes that
    one's, renamed."""
    options: list[list[Option]] = []
    tried = 0
    for i, part in enumerate(parts):
        if i in like:
            renamed = renaming(parts[like[i]], part)
            options.append([_renamed(option, renamed) for option in options[like[i]]])
            continue
        branches = list(branches_of(part, tried))
        tried += len(branches)
        options.append(valued(part, branches, target, second_step))
    return options


def _renamed(option: Option, renamed: dict[str, str]) -> Option:
    first, second = (renamed_entries(e, renamed) for e in (option.first, option.second))
    return replace(option, first=first, second=second)


def renamed_entries(given: tuple[Entry, ...], renamed: dict[str, str]) -> tuple[Entry, ...]:
    """An assignment of one part as its like in an alike part (`renamed`: `renaming`)."""
    return tuple(
        Entry(renamed.get(e.source, e.source), renamed.get(e.to, e.to), e.amount) for e in given
    )


def worst_of_part(first: Scenario, part: Scenario) -> dict[str, tuple[int, int]]:
    """`at_worst` of one independent part of the first step, whether or not its dealing is
    a choice."""
    from ..solver.two_steps import FirstStep

    lifeless = without_life(part)
    if not leaves_no_choice(part):
        return worst_of(first, list(branches_of(lifeless)))
    return at_worst(first, FirstStep(lifeless, dealing(part)))
