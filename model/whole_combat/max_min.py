"""`max` and `min` over the whole combat damage phase: the most (least) damage dealt.

Each independent part of the combat is solved apart, both steps in one query where the
second step can be stated over the first step's unknowns (`solver/two_steps`); else each
legal first-strike assignment of the part is tried, the solver asked about the second step
after each. When the first step may end the game (104.2a), the parts share the players'
life and poison: each part's first-step assignments are tried apart and joined on those
(`game_end`). A part whose effects make dealing a choice is tried every way, alone. A max or
min cut short by the time limit answers with the bounds it proved.
"""

from __future__ import annotations

from dataclasses import replace

from ..amounts import Amounts
from ..answers import Bounds, Impossible, Optimum
from ..combat import FIRST_STRIKE_STEP, ONLY, SECOND, Entry, Scenario
from ..deadline import TimedOut
from ..errors import TooManyAssignments
from ..interchangeable import alike_parts, renaming
from ..keywords import DOUBLE_STRIKE
from ..ops import at_least_zero
from ..requirements import ANY, Pair, assigned
from ..rules import order
from ..rules.dealing import deal, leaves_no_choice
from ..rules.division import damage_to_assign
from ..tally import Tally
from ..view import ScenarioView
from .course import (
    after,
    as_the_only_step,
    branches_of,
    by_step,
    dealing,
    dealt_over,
    flat,
    game_over,
    pairs_dealt,
    recheck_course,
    second_steps_counted,
    start,
    without_life,
)
from .game_end import best_joined
from .parts import (
    at_worst,
    joined,
    like_earlier,
    may_end_the_game,
    part_options,
    recheck_parts,
    renamed_entries,
    valued,
    worst_of,
)
from .shields_as_life import as_life


def _best_of_every_phase(first: Scenario, target: Pair, *, maximize: bool):
    """(the most (least) dealt to `target` over the phase, each step's assignment), the
    slow, exact way of `every_course`, from its first step. Each step adds what it deals, so
    the second step's best is that of its combat alone: found once for each second step
    that the first step's assignments and its players' choices of dealing leave (a shield
    with the same left, the same creatures dead), and the first course to reach it kept, as
    `every_course` would have found it."""
    best_after = _best_dealt(target, maximize)
    pick = max if maximize else min

    def courses():
        for one, dealt_one, second in branches_of(first):
            here = assigned(target, Amounts(pairs_dealt(dealt_one)))
            if second is None:
                yield here, by_step(first, one, ())
                continue
            later, two = best_after(second)
            yield here + later, by_step(first, one, two)

    return pick(courses(), key=lambda found: found[0])


def _best_dealt(target: Pair, maximize: bool):
    """The most (least) a second step deals to `target` over every legal assignment and
    every way its players may choose to deal it, with the assignment: found once for each
    second step."""
    second_steps = second_steps_counted()
    pick = max if maximize else min
    found: dict[Scenario, tuple[int, tuple[Entry, ...]]] = {}

    def best(second: Scenario) -> tuple[int, tuple[Entry, ...]]:
        if second not in found:
            found[second] = pick(
                (
                    (assigned(target, Amounts(pairs_dealt(dealt))), two)
                    for two in second_steps(second)
                    for dealt in deal(second, two)
                ),
                key=lambda course: course[0],
            )
        return found[second]

    return best


def optimum(scenario: Scenario, to: str, source: str | None, *, maximize: bool):
    """The most (least) dealt over the phase, over every announcement of the orders the
    file leaves open, each binding in both steps."""
    from ..solver.guarantee import announcements, with_orders
    from ..solver.queries import Unfinished

    if not order.open_orders(ScenarioView(scenario)):
        return _optimum(scenario, to, source, maximize=maximize)
    try:
        found = [
            _optimum(with_orders(scenario, orders), to, source, maximize=maximize)
            for orders in announcements(scenario)
        ]
    except Unfinished as unfinished:
        # Bounds proved under one announcement do not hold the others': the phase's upper
        # bound of a max (lower of a min) is not proved, so the answer is undecided.
        raise TimedOut(str(unfinished)) from None
    return (max if maximize else min)(found, key=lambda answer: answer.value)


def _optimum(scenario: Scenario, to: str, source: str | None, *, maximize: bool):
    from ..solver import queries
    from ..solver.queries import Unfinished

    target = Pair(source or ANY, to)
    shielded = as_life(scenario, [target])
    if shielded is not None:
        try:
            answer = _optimum(shielded.scenario, to, source, maximize=maximize)
        except Unfinished as unfinished:
            bounds = unfinished.bounds
            lower, upper = (shielded.value(target, v) for v in (bounds.lower, bounds.upper))
            raise Unfinished(unfinished, replace(bounds, lower=lower, upper=upper)) from None
        return replace(answer, value=shielded.value(target, answer.value))
    from ..solver.combat_parts import independent_parts

    first = start(scenario)
    if not leaves_no_choice(first):
        return _optimum_with_choices(first, target, maximize)
    if first.step == ONLY:
        try:
            answer = queries.optimum(first, to, source, maximize=maximize, tally=dealing(first))
        except Unfinished as unfinished:  # the step's bounds are the phase's: it is the only
            raise Unfinished(unfinished, as_the_only_step(unfinished.bounds)) from None
        return as_the_only_step(answer)
    # A course of the phase, any, found first: what a max or min cut short still has.
    some = _some_course(first, target)
    try:
        courses, _ = _courses(first, independent_parts(first), target, maximize=maximize)
    except TimedOut as limit:
        if some is None:
            raise
        raise Unfinished(limit, _bounds(first, target, some, maximize, str(limit))) from None
    value, one, two = joined(courses)
    recheck_course(first, target, value, one, two)
    return Optimum(value, one + two, ((FIRST_STRIKE_STEP, one), (SECOND, two)))


def _optimum_with_choices(first: Scenario, target: Pair, maximize: bool) -> Optimum:
    """The most (least) dealt over the phase of a combat whose effects make dealing a
    choice, from its independent parts: each part whose effects leave a choice tried every
    way, alone (its shields and "next time" preventions are its own: `combat_parts`), the
    others solved as without effects. A course joined so is re-checked part by part
    (`recheck_parts`), since dealing the whole course would try every choice of every
    part at once."""
    from ..solver.combat_parts import independent_parts

    scenarios = independent_parts(first)
    if len(scenarios) == 1:
        value, steps = _best_of_every_phase(first, target, maximize=maximize)
        return Optimum(value, flat(steps), steps)
    courses, ended = _courses(first, scenarios, target, maximize=maximize)
    value, one, two = joined(courses)
    recheck_parts(first, scenarios, courses, ended, target)
    return Optimum(value, one + two, by_step(first, one, () if ended else two))


def _some_course(first: Scenario, target: Pair) -> tuple[int, tuple, tuple] | None:
    """A course of the phase (value, first step's assignment, second step's): a legal first
    step, then a legal second step unless the game has ended; re-checked as any course is.
    None when the file's partial assignment leaves none."""
    from ..solver import queries

    one = queries.possible(first)
    if isinstance(one, Impossible):
        return None
    (outcome,) = deal(first, one.assignment)  # no effects, so no choices
    ended = game_over(first, outcome)
    two = () if ended else queries.possible(after(first, outcome)).assignment
    return dealt_over(first, target, one.assignment, two), one.assignment, two


def _bounds(first: Scenario, target: Pair, some: tuple, maximize: bool, limit: str) -> Bounds:
    """A max or min of the phase cut short: the course found first on one side (it reaches
    that value), and on the other what no course can pass: none deals less than nothing; none
    deals more than each creature's damage in each step it may assign in (510.1a: its power,
    or its toughness under Doran's effect, which the first step's counters only lower; two
    steps with double strike, 702.4b; one without)."""
    value, one, two = some
    view = ScenarioView(first)
    most = {}
    for c in view.creatures:
        steps = 2 if view.has(c, DOUBLE_STRIKE) else 1
        amount = at_least_zero(damage_to_assign(view, c)) * steps
        for r in view.reachable(c):
            most[(c, r)] = amount
    lower, upper = (value, assigned(target, Amounts(most))) if maximize else (0, value)
    steps = ((FIRST_STRIKE_STEP, one), (SECOND, two))
    return Bounds(lower, upper, one + two, limit, steps)


def _courses(first: Scenario, scenarios: list, target: Pair, *, maximize: bool):
    """The best course (value, first step's assignment, second step's) of each independent
    part of the combat (`solver/combat_parts`): a part's second step depends on its own first step
    alone, so the best course of the whole is the best of each part, joined. Not when a
    player could lose in the first step: the game's end (104.2a) then hangs on every part's
    damage at once, so the parts are joined on it (`_ending_the_game`). A part with a first
    or double striker whose second step can be stated over its first step's unknowns
    (`two_steps.expressible`) is one query; any other tries each legal first-step
    assignment: the part without strikers has just one (nothing), and its second step is
    then a single step's query, which solves each of its own independent parts apart. A
    part whose effects make dealing a choice has each legal assignment of each step tried,
    each way its players may choose to deal it. Also whether the game ended after the first
    step."""
    from ..solver.two_steps import FirstStep

    if len(scenarios) == 1:
        return [_course(FirstStep(first, dealing(first)), target, maximize, 0)[0]], False
    # Whether a player loses is asked of the parts together. Alone, a part would end the
    # game on its own damage, blind to the life another part gains that player (120.3f):
    # each goes on with no life total (poison only grows, so no part alone reaches what the
    # parts together do not). Each part is solved and let go before the next is made: each
    # holds a Z3 context of its own, some 17 MB (300 parts kept at once took 5 GB).
    tally = dealing(first) if leaves_no_choice(first) else None  # else each part's own
    courses, worst, tried = [], [], 0
    # A part alike to an earlier one (the same tokens, each blocked by a token of its own)
    # takes that one's worst and course, renamed: the first of them is solved alone.
    like, alone = like_earlier(scenarios, {target.source, target.to}), {}
    for i, scenario in enumerate(scenarios):
        lifeless = without_life(scenario)
        if like.get(i) in alone:
            at, (value, one, two) = alone[like[i]]
            renamed = renaming(scenarios[like[i]], scenario)
            worst.append(at)
            courses.append((value, renamed_entries(one, renamed), renamed_entries(two, renamed)))
        elif not leaves_no_choice(scenario):
            branches = list(branches_of(lifeless, tried))
            tried += len(branches)
            worst.append(worst_of(first, branches))
            courses.append(_best_course(lifeless, branches, target, maximize=maximize))
        elif first.step == ONLY:  # no first step: the part's one step is a single query
            courses.append(_best_only_step(lifeless, target, maximize))
        else:
            part = FirstStep(lifeless, tally or dealing(scenario))
            worst.append(at_worst(first, part))
            course, tried = _course(part, target, maximize, tried)
            courses.append(course)
            alone[i] = (worst[-1], course)
    if first.step != ONLY and may_end_the_game(first, worst):
        return _ending_the_game(first, scenarios, like, tally, target, maximize)
    return courses, False


def _best_only_step(part: Scenario, target: Pair, maximize: bool) -> tuple:
    """The best course of a part of a combat with one step, whose dealing leaves no choice."""
    from ..solver import queries

    source = None if target.source == ANY else target.source
    answer = queries.optimum(part, target.to, source, maximize=maximize, tally=dealing(part))
    return answer.value, answer.assignment, ()


def _ending_the_game(
    first: Scenario, scenarios: list, like: dict, tally: Tally | None, target: Pair, maximize
):
    """The best course of a combat whose first step may end the game (104.2a), its parts
    (`scenarios`, `like` the earlier part each is alike to) no longer apart: each part's
    first-step assignments tried apart, then
    joined on what they do to the players together (`game_end`). When they are more than
    --assignment-limit, one query of the whole combat instead (unless its dealing is a
    choice, `tally` None), whose search skips the twins of each course that exchange alike
    parts (the same tokens, each blocked by a token of its own): which few of them keep a
    player alive would otherwise be tried every way. Each part's course, and whether the
    game ended after the first step (as `_courses`)."""
    from ..solver.two_steps import FirstStep

    parts = [without_life(scenario) for scenario in scenarios]
    try:
        options = part_options(parts, like, target, _best_second(target, maximize))
    except TooManyAssignments:
        if tally is None:  # dealing is a choice: no one query states the whole combat
            raise
        alike = alike_parts(scenarios, {target.to, target.source})
        course = _course(FirstStep(first, tally), target, maximize, 0, alike)[0]
        (outcome,) = deal(first, course[1])  # no choices
        return [course], game_over(first, outcome)
    _, chosen, ended = best_joined(first.players, options, maximize)
    if ended:
        return [(o.value_first, o.first, ()) for o in chosen], True
    return [(o.value, o.first, o.second) for o in chosen], False


def _course(part, target: Pair, maximize: bool, tried: int, alike=()) -> tuple[tuple, int]:
    """The best course of one part (a `two_steps.FirstStep`), and the first-step
    assignments tried so far, this part's added. `alike`: exchanges of alike parts of it."""
    from ..solver.two_steps import expressible

    if part.scenario.strikers() and expressible(part.scenario):
        course = part.best_course(target, maximize=maximize, exchanges=alike)
        return (course.value, course.first, course.second), tried
    branches = list(branches_of(part.scenario, tried))
    return _best_course(part.scenario, branches, target, maximize=maximize), tried + len(branches)


def _best_course(part: Scenario, branches, target: Pair, *, maximize: bool):
    """The best course of one part: (value, first step's assignment, second step's)."""
    pick = max if maximize else min
    options = valued(part, branches, target, _best_second(target, maximize))
    best = pick(options, key=lambda option: option.value)
    return best.value, best.first, best.second


def _best_second(target: Pair, maximize: bool):
    """The most (least) dealt to the target over the phase once the first step left the
    second step's combat, having dealt `before`, with that step's assignment. Where the
    second step's dealing is a choice, every assignment is tried, every way."""
    from ..solver import queries

    to, source = target.to, None if target.source == ANY else target.source
    every_way = _best_dealt(target, maximize)

    def best(second: Scenario, before: dict) -> tuple[int, tuple[Entry, ...]]:
        if not leaves_no_choice(second):
            value, assignment = every_way(second)
            return assigned(target, Amounts(before)) + value, assignment
        tally = replace(dealing(second), before=before)
        answer = queries.optimum(second, to, source, maximize=maximize, tally=tally)
        return answer.value, answer.assignment

    return best
