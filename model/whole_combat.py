"""The whole combat damage phase: CR 510.4 with 702.4 and 702.7, 510.2, 704.5g-h, 702.19d.

With first or double strike, the first-strike step assigns, its damage is dealt, the
state-based actions remove what died, and the second step assigns on what is left: damage
marked, blockers gone (the creatures they blocked stay blocked, 509.1h), planeswalkers gone.
The queries here count the combat damage *dealt* over the phase. `max` and `min` solve each
independent part of the combat (`solver/combat_parts`) apart, both steps in one query
(`solver/two_steps`: the second step's combat as terms over the first step's amounts);
`possible` asks that query of the whole combat (its requirements may join any parts). The
damage assignment orders of the editions before 2024-11-08 bind both steps: an order the
file leaves open is announced first (509.2-509.3), each announcement one such query. A
combat that query cannot state exactly (a creature that is also a planeswalker or battle)
has every legal assignment of each part's first-strike step tried (only the creatures that
assign in it are divided), the solver asked about the second step after each; so has
`guarantee`, a game played out part by part and added up. When the first step may end the
game (104.2a), the parts share the players' life and poison: `max`, `min` and `guarantee`
then try each part's first-step assignments apart and join them on those (`game_end`);
`guarantee` only when one side alone divides in that step. Parts alike but for their names
are solved once where they are tried apart, and their twin courses skipped where they are
one query. A file whose effects make dealing a choice is answered by trying every assignment
of each step and every order of effects: only in the parts whose dealing is a choice, each
alone (by `possible` and `guarantee` only when the first step cannot end the game). Without
first or double strike, the whole combat is the one step.
"""

from __future__ import annotations

from dataclasses import replace

from . import progress
from .amounts import Amounts
from .answers import Bounds, Guarantee, Impossible, Obstacle, Optimum, Possible
from .combat import CANT_BE_PREVENTED, FIRST_STRIKE_STEP, ONLY, SECOND, Entry, Scenario
from .deadline import TimedOut
from .errors import Problem, ScenarioError, TooManyAssignments
from .game_end import Option, best_joined
from .interchangeable import alike_groups, alike_parts, renaming
from .keywords import DOUBLE_STRIKE, PROTECTION_FROM_EVERYTHING
from .limits import ASSIGNMENTS
from .ops import at_least_zero
from .requirements import ANY, Pair, assigned, named_by
from .rules import banding, order
from .rules.dealing import Outcome, changes, deal, leaves_no_choice
from .rules.division import damage_to_assign
from .rules.results import game_ends, loses
from .rules.steps import assigns_this_step
from .shields_as_life import as_life
from .tally import Tally
from .verdict import check
from .view import ScenarioView


def starts_the_phase(scenario: Scenario, origin: str = "<scenario>") -> None:
    """The file can be the start of a combat damage phase: it names no step and gives no
    assignment; a `ScenarioError` naming each thing in the way, if not."""
    start = "--combat asks about the whole combat damage phase from its start, so the file"
    problems = []
    if scenario.step != ONLY:
        problems.append(Problem("step", f"{start} must name no 'step'"))
    if scenario.assignment is not None:
        problems.append(Problem("assignment", f"{start} must give no 'assignment'"))
    if problems:
        raise ScenarioError(origin, problems)


def _start(scenario: Scenario) -> Scenario:
    starts_the_phase(scenario)
    return replace(scenario, step=FIRST_STRIKE_STEP) if scenario.strikers() else scenario


def dealing(scenario: Scenario) -> Tally:
    """What is dealt of each pair's damage, in a combat whose dealing leaves no choice
    (`rules.dealing.leaves_no_choice`): the amount as protection (702.16e, j) and the file's
    effects change it. Only the pairs whose recipient has protection, and those an effect
    may apply to, are asked about, so a large combat is not asked about every pair."""
    view = ScenarioView(scenario)
    protected = [
        x.id
        for x in (*scenario.players, *scenario.permanents)
        if x.keywords.protection_from or PROTECTION_FROM_EVERYTHING in x.keywords
    ]
    pairs = {(s, r): None for r in protected for s in view.creatures}
    effects = [e for e in scenario.effects if e.kind != CANT_BE_PREVENTED]
    for s in view.creatures if effects else ():
        pairs |= {(s, r): None for r in view.reachable(s) if any(e.applies(s, r) for e in effects)}
    found = {(s, r): tuple(changes(view, s, r)) for s, r in pairs}
    return Tally(changed={pair: cs for pair, cs in found.items() if cs})


def game_over(scenario: Scenario, outcome: Outcome) -> bool:
    """The game ends when all but one of its players, or all, have lost (104.2a: the one
    left wins; 104.4a: a draw): there is no second step. In a two-player game, one losing
    is enough (104.3d)."""
    return game_ends(len(outcome.loses), len(scenario.players))


def legal_assignments(step: Scenario, tried: int = 0) -> list[tuple[Entry, ...]]:
    """Every legal assignment of the step; refused past the assignment limit, less the
    `tried` already (in other parts of the combat)."""
    from .solver.counting import count

    most = ASSIGNMENTS.value() - tried
    found = count(silent_given(step), list_limit=most, all_or_none=True)
    if found.count > most:
        more = f", after {tried:,} in its other independent parts" if tried else ""
        raise TooManyAssignments(
            f"the {step.step} step has {found.count:,} legal assignments{more}, more than the "
            f"assignment limit of {ASSIGNMENTS.value():,} to try one by one; raise "
            f"{ASSIGNMENTS.flag}"
        )
    return list(found.assignments)


def _second_steps_counted():
    """`legal_assignments` of a second step, counted once for every second step that differs
    from one already counted only in what assignment never looks at: life totals, poison
    counters, and the effects on damage dealt (120.4b, 702.19b: they change what is dealt,
    never what may be assigned; the property
    legal_assignments_do_not_depend_on_what_changes_damage_dealt proves it). The first
    step's choices of dealing, and its divisions that kill the same creatures, mostly leave
    such second steps."""
    counted: dict[Scenario, list[tuple[Entry, ...]]] = {}

    def legal(second: Scenario) -> list[tuple[Entry, ...]]:
        players = tuple(replace(p, life=None, poison=0) for p in second.players)
        seen = replace(second, players=players, effects=())
        if seen not in counted:
            counted[seen] = legal_assignments(seen)
        return counted[seen]

    return legal


def silent_given(step: Scenario) -> Scenario:
    """The step with 0 given from each creature that assigns no combat damage in it (510.4)
    to all it could reach: counting then tries that creature's one division, not every
    division of its power that its constraints rule out. Its legal assignments are the
    same."""
    view = ScenarioView(step)
    silent = tuple(
        Entry(c, r, 0)
        for c in view.creatures
        if assigns_this_step(view, c) is False
        for r in view.reachable(c)
    )
    return replace(step, assignment=(*(step.assignment or ()), *silent)) if silent else step


def _first_steps(first: Scenario, tried: int = 0):
    """The first step's legal assignments, each followed by all that comes after it: where
    the time of a whole combat goes, so how far it has got is said on a terminal."""
    return progress.counted(
        legal_assignments(first, tried), "--combat: first-step assignments tried"
    )


def after(first: Scenario, outcome: Outcome) -> Scenario:
    """The second step's combat: what the first step dealt, marked or put as counters; what
    died, gone; what regenerated, tapped and out of combat (701.19a, 506.4)."""
    gone = {r.id for r in outcome.removed}
    left_combat = gone | set(outcome.regenerated)
    permanents = []
    for p in first.permanents:
        if p.id in gone and not (p.is_planeswalker or p.is_battle):
            continue  # a dead creature leaves combat (506.4)
        changed = p
        if p.is_creature:  # a -1/-1 counter is -1/-1: power too (122.1a), so it assigns less
            changed = replace(
                changed,
                damage=outcome.damage[p.id],
                power=p.power - outcome.counters[p.id],
                toughness=outcome.toughness[p.id],
            )
        if p.is_planeswalker:
            changed = replace(changed, loyalty=outcome.loyalty[p.id])
        if p.is_battle:
            changed = replace(changed, defense=outcome.defense[p.id])
        if p.id in gone:  # an attacked planeswalker or battle that left: out of combat
            changed = replace(changed, removed_from_combat=True, blocking=None)
        if p.id in outcome.regenerated:
            changed = replace(
                changed,
                regeneration_shields=p.regeneration_shields - 1,
                attacking=None,
                blocked=False,
                blocking=None,
                order=None,
            )
        if changed.blocking is not None:
            kept = tuple(a for a in p.blocking if a not in left_combat)
            changed = replace(changed, blocking=kept)
        permanents.append(changed)
    bands = tuple(
        b
        for b in (tuple(m for m in band if m not in left_combat) for band in first.bands)
        if len(b) > 1
    )
    players = tuple(
        replace(p, life=outcome.life[p.id], poison=outcome.poison[p.id]) for p in first.players
    )
    # A shield prevents "the next N damage" this turn: what it did not prevent, it still can.
    # A "next time" prevention that applied is over.
    effects = tuple(
        replace(e, amount=outcome.shields[e.id]) if e.is_shield else e
        for e in first.effects
        if not (e.is_shield and outcome.shields[e.id] == 0) and e.id not in outcome.ended
    )
    return replace(
        first,
        players=players,
        permanents=tuple(permanents),
        bands=bands,
        step=SECOND,
        assignment=None,
        effects=effects,
    )


def _every_phase(first: Scenario):
    """(each step's assignment, damage dealt over the phase) for every legal assignment of
    each step and every order of effects the affected players may choose, from the first
    step: the slow, exact way, for files whose effects make dealing a choice."""
    second_steps = _second_steps_counted()
    for one, dealt_one, second in _branches(first):
        if second is None:
            yield _steps(first, one, ()), _dealt(dealt_one)
            continue
        for two in second_steps(second):
            for dealt_two in deal(second, two):
                yield _steps(first, one, two), _summed((_dealt(dealt_one), _dealt(dealt_two)))


def _best_of_every_phase(first: Scenario, target: Pair, *, maximize: bool):
    """(the most (least) dealt to `target` over the phase, each step's assignment), the
    slow, exact way of `_every_phase`, from its first step. Each step adds what it deals, so
    the second step's best is that of its combat alone: found once for each second step
    that the first step's assignments and its players' choices of dealing leave (a shield
    with the same left, the same creatures dead), and the first course to reach it kept, as
    `_every_phase` would have found it."""
    best_after = _best_dealt(target, maximize)
    pick = max if maximize else min

    def courses():
        for one, dealt_one, second in _branches(first):
            here = assigned(target, Amounts(_dealt(dealt_one)))
            if second is None:
                yield here, _steps(first, one, ())
                continue
            later, two = best_after(second)
            yield here + later, _steps(first, one, two)

    return pick(courses(), key=lambda found: found[0])


def _best_dealt(target: Pair, maximize: bool):
    """The most (least) a second step deals to `target` over every legal assignment and
    every way its players may choose to deal it, with the assignment: found once for each
    second step."""
    second_steps = _second_steps_counted()
    pick = max if maximize else min
    found: dict[Scenario, tuple[int, tuple[Entry, ...]]] = {}

    def best(second: Scenario) -> tuple[int, tuple[Entry, ...]]:
        if second not in found:
            found[second] = pick(
                (
                    (assigned(target, Amounts(_dealt(dealt))), two)
                    for two in second_steps(second)
                    for dealt in deal(second, two)
                ),
                key=lambda course: course[0],
            )
        return found[second]

    return best


def _steps(first: Scenario, one: tuple[Entry, ...], two: tuple[Entry, ...]) -> tuple:
    """Each step's assignment: the only step's, or the first-strike step's and the second's
    (none when the game ended before it)."""
    if first.step == ONLY:
        return ((ONLY, one),)
    return ((FIRST_STRIKE_STEP, one), (SECOND, two))


def _as_the_only_step(answer):
    """A single step's answer, as the phase's: without first or double strike, one step."""
    if isinstance(answer, Impossible):
        return answer
    return replace(answer, steps=((ONLY, answer.assignment),))


def _flat(steps) -> tuple[Entry, ...]:
    return tuple(e for _, entries in steps for e in entries)


def _branches(first: Scenario, tried: int = 0):
    """(its assignment, an outcome of dealing it, the second step's scenario) for every legal
    assignment of the first step and every way its players may choose to deal it (one, where
    dealing leaves no choice); no second step (None) when the game is over, or the step is
    the only one. `tried`: first-step assignments already tried, in other parts of the
    combat."""
    for entries in _first_steps(first, tried):
        for outcome in deal(first, entries):
            over = first.step == ONLY or game_over(first, outcome)
            yield entries, outcome, None if over else after(first, outcome)


def _dealt(outcome: Outcome) -> dict:
    return {(e.source, e.to): e.amount for e in outcome.dealt}


def possible(scenario: Scenario, requirements) -> Possible | Impossible:
    """Some course of the phase meets every requirement. An order the file leaves open is
    announced once, before the first step, and binds in both (509.2-509.3)."""
    from .solver.guarantee import announcements, with_orders

    if not order.open_orders(ScenarioView(scenario)):
        return _possible(scenario, requirements)
    answer = None
    for orders in announcements(scenario):
        answer = _possible(with_orders(scenario, orders), requirements)
        if isinstance(answer, Possible):
            return answer
    return answer


def _possible(scenario: Scenario, requirements) -> Possible | Impossible:
    shielded = as_life(scenario, [p for r in requirements for p in r.pairs()])
    asked = [shielded.requirement(r) for r in requirements] if shielded else None
    if asked is not None and None not in asked:
        return _possible_as_life(shielded, requirements, asked)
    first = _start(scenario)
    if not leaves_no_choice(first):
        return _possible_with_choices(first, requirements)
    return _possible_from(first, requirements)


def _possible_from(first: Scenario, requirements) -> Possible | Impossible:
    """`possible` of a combat whose dealing leaves no choice, from its first step."""
    from .solver import queries
    from .solver.two_steps import expressible

    if first.step == ONLY:
        answer = queries.possible(first, requirements, dealing(first))
        return _as_the_only_step(answer)
    if expressible(first):
        return _possible_in_one_query(first, requirements)
    obstacles = ()
    for entries, outcome, second in _branches(first):
        if second is None:
            if all(r.holds(Amounts(_dealt(outcome))) is True for r in requirements):
                return Possible(entries, ((FIRST_STRIKE_STEP, entries), (SECOND, ())))
            continue
        tally = replace(dealing(second), before=_dealt(outcome))
        answer = queries.possible(second, requirements, tally)
        if not isinstance(answer, Impossible):
            return Possible(
                entries + answer.assignment,
                ((FIRST_STRIKE_STEP, entries), (SECOND, answer.assignment)),
            )
        if not obstacles:  # the second step's core, after the first assignment tried
            shown = ", ".join(f"{e.source}->{e.to} {e.amount}" for e in entries) or "nothing"
            note = (
                f"in the second step after the first-strike assignment {shown}; every "
                "legal first-strike assignment was tried"
            )
            obstacles = (*answer.obstacles, Obstacle("note", None, None, note))
    return Impossible(obstacles)


def _possible_with_choices(first: Scenario, requirements) -> Possible | Impossible:
    """`possible` of a combat whose effects make dealing a choice, from its first step.
    Each part whose dealing is a choice is dealt every way alone, and what its courses deal
    on each side of each requirement kept, one course for each; every sum of one of them
    from each such part is then asked of the rest of the combat, as without such effects,
    the requirements given those numbers. Not when the first step may end the game, which
    hangs on every part at once: the whole combat is then dealt every way."""
    apart = _apart_from_choices(first)
    if apart is None:
        return _possible_every_way(first, requirements)
    choosing, rest = apart
    # For each sum, on each side of each requirement, of the damage the parts whose dealing
    # is a choice can deal: a course of each that deals it, with its damage.
    reached: dict[tuple, tuple] = {(0,) * 2 * len(requirements): ()}
    for part in choosing:
        sides = {}
        for steps, totals in _every_phase(part):
            sides.setdefault(_sides(requirements, totals), (steps, totals))
        reached = {
            tuple(map(sum, zip(sum_, side, strict=True))): (*courses, course)
            for sum_, courses in reached.items()
            for side, course in sides.items()
        }
    for courses in reached.values():
        dealt = Amounts(_summed(totals for _, totals in courses))
        pieces = [(part, *course) for part, course in zip(choosing, courses, strict=True)]
        if rest is not None:
            answer = _possible_from(rest, [r.given(dealt) for r in requirements])
            if isinstance(answer, Impossible):
                continue
            (totals,) = _totals_dealt(rest, *_each_step(answer.steps))  # no choices
            pieces.append((rest, answer.steps, totals))
        elif not all(r.holds(dealt) is True for r in requirements):
            continue
        one = tuple(e for _, steps, _ in pieces for e in steps[0][1])
        two = tuple(e for _, steps, _ in pieces if len(steps) > 1 for e in steps[1][1])
        _recheck_possible(first, pieces, requirements)
        return Possible(one + two, _steps(first, one, two))
    said = " and ".join(str(r) for r in requirements)
    note = (
        f"{said}: no course of the parts whose dealing is a choice, each tried every way, "
        "with any course of the rest of the combat, meets it"
    )
    return Impossible((Obstacle("requirement", None, None, note),))


def _apart_from_choices(first: Scenario) -> tuple[list[Scenario], Scenario | None] | None:
    """The combat's independent parts whose dealing is a choice, and the rest of it as one
    (None if there is none), each without life totals; None when the combat is one part, or
    its first step may end the game, which hangs on every part at once."""
    from .solver.combat_parts import independent_parts, together

    scenarios = independent_parts(first)
    if len(scenarios) == 1 or _may_end_the_game(first, [_worst(first, s) for s in scenarios]):
        return None
    choosing = [_without_life(s) for s in scenarios if not leaves_no_choice(s)]
    others = [s for s in scenarios if leaves_no_choice(s)]
    return choosing, _without_life(together(first, others)) if others else None


def _possible_every_way(first: Scenario, requirements) -> Possible | Impossible:
    """`possible` the slow, exact way: every course of the whole combat, every way."""
    for steps, totals in _every_phase(first):
        if all(r.holds(Amounts(totals)) is True for r in requirements):
            return Possible(_flat(steps), steps)
    said = " and ".join(str(r) for r in requirements)
    note = f"{said}: no legal assignment of either step, and no order of effects, meets it"
    return Impossible((Obstacle("requirement", None, None, note),))


def _recheck_possible(first: Scenario, pieces: list, requirements) -> None:
    """A course joined from parts (`pieces`: each part, or the rest of the combat, with its
    steps and what they deal) is reported only once the whole first step is legal, each
    part's steps, dealt every way, can deal what was found of them, and all of it together
    meets every requirement; anything else is a bug in lethal, never an answer."""
    if not check(first, tuple(e for _, steps, _ in pieces for e in steps[0][1])).legal:
        raise AssertionError("a course of the phase found by lethal is not legal")
    if any(totals not in _totals_dealt(part, *_each_step(steps)) for part, steps, totals in pieces):
        raise AssertionError("a part's course of the phase does not deal what it was found to")
    dealt = Amounts(_summed(totals for _, _, totals in pieces))
    if not all(r.holds(dealt) is True for r in requirements):
        raise AssertionError("a course of the phase found by lethal misses a requirement")


def _each_step(steps) -> tuple:
    """The first step's assignment and the second's (None where there is one step)."""
    return steps[0][1], steps[1][1] if len(steps) > 1 else None


def _sides(requirements, totals: dict) -> tuple[int, ...]:
    """What the damage dealt (`totals`) comes to on each side of each requirement."""
    dealt = Amounts(totals)
    return tuple(side for r in requirements for side in r.sides(dealt))


def _summed(totals) -> dict:
    """The damage dealt, pair by pair, of several dealings (each a dict) together."""
    summed: dict = {}
    for dealt in totals:
        for pair, amount in dealt.items():
            summed[pair] = summed.get(pair, 0) + amount
    return summed


def _possible_as_life(shielded, requirements, asked) -> Possible | Impossible:
    """`possible` of a combat whose shields on players are only so much more life
    (`shields_as_life`): each requirement asked of the combat without them (`asked`, True
    or False where it always or never holds), and what stands in the way said of the
    requirements as given."""
    if False in asked:
        never = " and ".join(str(r) for r, a in zip(requirements, asked, strict=True) if a is False)
        note = f"{never}: the damage dealt is never less than 0"
        return Impossible((Obstacle("requirement", None, None, note),))
    kept = {str(a): r for r, a in zip(requirements, asked, strict=True) if a is not True}
    answer = _possible(shielded.scenario, [a for a in asked if a is not True])
    if isinstance(answer, Possible):
        return answer
    shields = "; ".join(
        f"{to}'s shields prevent {n} of the damage to {to}" for to, n in shielded.prevented.items()
    )
    note = f"{shields}: asked of the damage assigned, with as much more life (615.7)"
    told = tuple(
        replace(o, text=str(kept[o.text])) if o.kind == "requirement" and o.text in kept else o
        for o in answer.obstacles
    )
    return Impossible((*told, Obstacle("note", None, None, note)))


def _possible_in_one_query(first: Scenario, requirements) -> Possible | Impossible:
    """Both steps of the whole combat as one query (`two_steps`), its search skipping the
    twins of each course that exchange interchangeable creatures or alike parts (the same
    tokens, each blocked by a token of its own). The requirements may join any parts (the
    damage to a player from all of them), so the combat is not split. A course found is
    dealt again, step by step, and must meet every requirement."""
    from .solver.combat_parts import independent_parts
    from .solver.two_steps import FirstStep

    alike = alike_parts(independent_parts(first), named_by(requirements))
    answer = FirstStep(first, dealing(first)).course_meeting(requirements, exchanges=alike)
    if isinstance(answer, Possible):
        (_, one), (_, two) = answer.steps
        totals = Amounts(_totals_over(first, one, two))
        if not all(r.holds(totals) is True for r in requirements):
            raise AssertionError("a course of the phase found by lethal misses a requirement")
    return answer


def optimum(scenario: Scenario, to: str, source: str | None, *, maximize: bool):
    """The most (least) dealt over the phase, over every announcement of the orders the
    file leaves open, each binding in both steps."""
    from .solver.guarantee import announcements, with_orders
    from .solver.queries import Unfinished

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
    from .solver import queries
    from .solver.queries import Unfinished

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
    from .solver.combat_parts import independent_parts

    first = _start(scenario)
    if not leaves_no_choice(first):
        return _optimum_with_choices(first, target, maximize)
    if first.step == ONLY:
        try:
            answer = queries.optimum(first, to, source, maximize=maximize, tally=dealing(first))
        except Unfinished as unfinished:  # the step's bounds are the phase's: it is the only
            raise Unfinished(unfinished, _as_the_only_step(unfinished.bounds)) from None
        return _as_the_only_step(answer)
    # A course of the phase, any, found first: what a max or min cut short still has.
    some = _some_course(first, target)
    try:
        courses, _ = _courses(first, independent_parts(first), target, maximize=maximize)
    except TimedOut as limit:
        if some is None:
            raise
        raise Unfinished(limit, _bounds(first, target, some, maximize, str(limit))) from None
    value, one, two = _joined(courses)
    _recheck(first, target, value, one, two)
    return Optimum(value, one + two, ((FIRST_STRIKE_STEP, one), (SECOND, two)))


def _joined(courses: list[tuple]) -> tuple[int, tuple[Entry, ...], tuple[Entry, ...]]:
    """The parts' courses (value, first step's assignment, second step's) as one."""
    value = sum(value for value, _, _ in courses)
    one = tuple(e for _, entries, _ in courses for e in entries)
    return value, one, tuple(e for _, _, entries in courses for e in entries)


def _optimum_with_choices(first: Scenario, target: Pair, maximize: bool) -> Optimum:
    """The most (least) dealt over the phase of a combat whose effects make dealing a
    choice, from its independent parts: each part whose effects leave a choice tried every
    way, alone (its shields and "next time" preventions are its own: `combat_parts`), the
    others solved as without effects. A course joined so is re-checked part by part
    (`_recheck_parts`), since dealing the whole course would try every choice of every
    part at once."""
    from .solver.combat_parts import independent_parts

    scenarios = independent_parts(first)
    if len(scenarios) == 1:
        value, steps = _best_of_every_phase(first, target, maximize=maximize)
        return Optimum(value, _flat(steps), steps)
    courses, ended = _courses(first, scenarios, target, maximize=maximize)
    value, one, two = _joined(courses)
    _recheck_parts(first, scenarios, courses, ended, target)
    return Optimum(value, one + two, _steps(first, one, () if ended else two))


def _recheck_parts(first: Scenario, scenarios: list, courses: list, ended: bool, target: Pair):
    """A course joined from parts whose dealing is a choice is reported only once the whole
    first step is legal, and each part, dealt its share of the course step by step, can
    come to its share of the value, as its players may choose (`deal`); anything else is a
    bug in lethal, never an answer."""
    if not check(first, tuple(e for _, one, _ in courses for e in one)).legal:
        raise AssertionError("a course of the phase found by lethal is not legal")
    for scenario, (part_value, one, two) in zip(scenarios, courses, strict=True):
        part = _without_life(scenario)
        if part_value not in _values_dealt(part, one, None if ended else two, target):
            raise AssertionError(f"a part's course of the phase is not what it gave: {part_value}")


def _values_dealt(part: Scenario, one, two, target: Pair) -> set[int]:
    """What the course may deal to the target (`_totals_dealt`)."""
    return {assigned(target, Amounts(totals)) for totals in _totals_dealt(part, one, two)}


def _totals_dealt(part: Scenario, one, two) -> list[dict]:
    """What the course (each step's assignment; no second step when `two` is None) may deal
    over the phase, pair by pair, over every way of dealing each legal step; nothing where a
    step is not legal."""
    found = []
    if not check(part, one).legal:
        return found
    for dealt_one in deal(part, one):
        if two is None or part.step == ONLY or game_over(part, dealt_one):
            found.append(_dealt(dealt_one))
            continue
        second = after(part, dealt_one)
        # Another way of dealing the first step may have left another second step, one
        # without a creature this course's second step names.
        there = {x.id for x in (*second.players, *second.permanents)}
        if {i for e in two for i in (e.source, e.to)} <= there and check(second, two).legal:
            found += [_summed((_dealt(dealt_one), _dealt(d))) for d in deal(second, two)]
    return found


def _some_course(first: Scenario, target: Pair) -> tuple[int, tuple, tuple] | None:
    """A course of the phase (value, first step's assignment, second step's): a legal first
    step, then a legal second step unless the game has ended; re-checked as any course is.
    None when the file's partial assignment leaves none."""
    from .solver import queries

    one = queries.possible(first)
    if isinstance(one, Impossible):
        return None
    (outcome,) = deal(first, one.assignment)  # no effects, so no choices
    ended = game_over(first, outcome)
    two = () if ended else queries.possible(after(first, outcome)).assignment
    return _dealt_over(first, target, one.assignment, two), one.assignment, two


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
    from .solver.two_steps import FirstStep

    if len(scenarios) == 1:
        return [_course(FirstStep(first, dealing(first)), target, maximize, 0)[0]], False
    # Whether a player loses is asked of the parts together. Alone, a part would end the
    # game on its own damage, blind to the life another part gains that player (120.3f):
    # each goes on with no life total (poison only grows, so no part alone reaches what the
    # parts together do not). Each part is solved and let go before the next is made: each
    # holds a Z3 context of its own, some 17 MB (300 parts kept at once took 5 GB).
    tally = dealing(first) if leaves_no_choice(first) else None  # else each part's own
    courses, worst, tried = [], [], 0
    for scenario in scenarios:
        lifeless = _without_life(scenario)
        if not leaves_no_choice(scenario):
            branches = list(_branches(lifeless, tried))
            tried += len(branches)
            worst.append(_worst_of(first, branches))
            courses.append(_best_course(lifeless, branches, target, maximize=maximize))
        elif first.step == ONLY:  # no first step: the part's one step is a single query
            courses.append(_best_only_step(lifeless, target, maximize))
        else:
            part = FirstStep(lifeless, tally or dealing(scenario))
            worst.append(_at_worst(first, part))
            course, tried = _course(part, target, maximize, tried)
            courses.append(course)
    if first.step != ONLY and _may_end_the_game(first, worst):
        return _ending_the_game(first, scenarios, tally, target, maximize)
    return courses, False


def _best_only_step(part: Scenario, target: Pair, maximize: bool) -> tuple:
    """The best course of a part of a combat with one step, whose dealing leaves no choice."""
    from .solver import queries

    source = None if target.source == ANY else target.source
    answer = queries.optimum(part, target.to, source, maximize=maximize, tally=dealing(part))
    return answer.value, answer.assignment, ()


def _worst_of(first: Scenario, branches) -> dict[str, tuple[int, int]]:
    """`_at_worst` of a part whose first step's courses are tried one by one (`branches`)."""
    worst = {}
    for p in first.players:
        lost = (o.lost[p.id] - o.gained[p.id] for _, o, _ in branches)
        net = 0 if p.life is None else max(lost, default=0)
        worst[p.id] = (net, max((o.poison[p.id] - p.poison for _, o, _ in branches), default=0))
    return worst


def _ending_the_game(first: Scenario, scenarios: list, tally: Tally | None, target: Pair, maximize):
    """The best course of a combat whose first step may end the game (104.2a), its parts
    (`scenarios`) no longer apart: each part's first-step assignments tried apart, then
    joined on what they do to the players together (`game_end`). When they are more than
    --assignment-limit, one query of the whole combat instead (unless its dealing is a
    choice, `tally` None), whose search skips the twins of each course that exchange alike
    parts (the same tokens, each blocked by a token of its own): which few of them keep a
    player alive would otherwise be tried every way. Each part's course, and whether the
    game ended after the first step (as `_courses`)."""
    from .solver.two_steps import FirstStep

    parts = [_without_life(scenario) for scenario in scenarios]
    like = _alike(parts, {target.to, target.source})
    try:
        options = _part_options(parts, like, target, _best_second(target, maximize))
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
    from .solver.two_steps import expressible

    if part.scenario.strikers() and expressible(part.scenario):
        course = part.best_course(target, maximize=maximize, exchanges=alike)
        return (course.value, course.first, course.second), tried
    branches = list(_branches(part.scenario, tried))
    return _best_course(part.scenario, branches, target, maximize=maximize), tried + len(branches)


def _without_life(part: Scenario) -> Scenario:
    """The part with its players' life totals left out: none loses on the part's damage."""
    return replace(part, players=tuple(replace(p, life=None) for p in part.players))


def _at_worst(first: Scenario, part) -> dict[str, tuple[int, int]]:
    """For each player, the most life they can lose, net, and the most poison counters they
    can get in the first step of one part (`two_steps.FirstStep`): each one query over the
    part's first-step unknowns, not a try of each assignment."""
    worst = {}
    for p in first.players:
        net = 0 if p.life is None else part.most(part.after.net_loss[p.id])
        worst[p.id] = (net, part.most(part.after.poison[p.id] - p.poison))
    return worst


def _may_end_the_game(first: Scenario, worst: list[dict[str, tuple[int, int]]]) -> bool:
    """Whether the first step of the parts together could end the game (`game_over`): so
    many players could each lose (704.5a, 704.5c) that all but one would have. Each player
    is taken at their worst from each part (`_at_worst`), added up, since the life a player
    loses and gains and the poison counters they get are sums over the damage dealt
    (120.3a-b, 120.3f); several players at their worst at once may not be one course, so a
    yes may be too many, never a no."""
    could_lose = 0
    for p in first.players:
        net = sum(w[p.id][0] for w in worst)
        poison = p.poison + sum(w[p.id][1] for w in worst)
        could_lose += loses(None if p.life is None else p.life - net, poison)
    return game_ends(could_lose, len(first.players))


def _best_course(part: Scenario, branches, target: Pair, *, maximize: bool):
    """The best course of one part: (value, first step's assignment, second step's)."""
    pick = max if maximize else min
    options = _valued(part, branches, target, _best_second(target, maximize))
    best = pick(options, key=lambda option: option.value)
    return best.value, best.first, best.second


def _best_second(target: Pair, maximize: bool):
    """The most (least) dealt to the target over the phase once the first step left the
    second step's combat, having dealt `before`, with that step's assignment. Where the
    second step's dealing is a choice, every assignment is tried, every way."""
    from .solver import queries

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


def _valued(part: Scenario, branches, target: Pair, second_step) -> list[Option]:
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
        here = assigned(target, Amounts(_dealt(outcome)))
        value, after_it = here, ()
        if second is not None:
            if second not in asked:
                asked[second] = (here, second_step(second, _dealt(outcome)))
            there, (answer, after_it) = asked[second]
            value += answer - there  # the answer counted its own first step's damage
        lost = {p: outcome.lost[p] - outcome.gained[p] for p in outcome.lost}
        poison = {p.id: outcome.poison[p.id] - p.poison for p in part.players}
        found.append(Option(entries, after_it, here, value, lost, poison))
    return found


def _recheck(first: Scenario, target: Pair, value: int, one, two) -> None:
    """A course joined from parts is reported only once the whole combat, dealt its first
    step and then its second, is legal in each and gives the value; anything else is a bug
    in lethal, never an answer."""
    if _dealt_over(first, target, one, two) != value:
        raise AssertionError(f"the joined course of the phase is not what its parts gave: {value}")


def _dealt_over(first: Scenario, target: Pair, one, two) -> int:
    """What the course (each step's assignment) deals to the target over the phase (see
    `_totals_over`)."""
    return assigned(target, Amounts(_totals_over(first, one, two)))


def _totals_over(first: Scenario, one, two) -> dict:
    """What the course (each step's assignment) deals over the phase, pair by pair, dealt
    step by step; an AssertionError, a bug in lethal, if either step is not legal."""
    (dealt_one,) = deal(first, one)
    totals = _dealt(dealt_one)
    legal = check(first, one).legal
    if game_over(first, dealt_one):
        legal = legal and not two
    else:
        second = after(first, dealt_one)
        legal = legal and check(second, two).legal
        (dealt_two,) = deal(second, two)
        totals = _summed((totals, _dealt(dealt_two)))
    if not legal:
        raise AssertionError("a course of the phase found by lethal is not legal")
    return totals


def guarantee(scenario: Scenario, to: str) -> Guarantee:
    """What the wanting player is sure of over the phase: the orders the file leaves open
    announced first, once for both steps (509.2-509.3); then in the first step the active
    player's divisions, then the defending players'; then the second step's guarantee."""
    from .solver.guarantee import announced

    return announced(scenario, to, lambda fixed: _guarantee(fixed, to))


def _guarantee(scenario: Scenario, to: str) -> Guarantee:
    from .solver import guarantee as one_step

    shielded = as_life(scenario, [Pair(ANY, to)])
    if shielded is not None:
        answer = _guarantee(shielded.scenario, to)
        return replace(answer, value=shielded.value(Pair(ANY, to), answer.value))
    first = _start(scenario)
    if not leaves_no_choice(first):
        return _guarantee_with_choices(first, to)
    if first.step == ONLY:
        answer = one_step.guarantee(first, to, dealing(first))
        return _as_the_only_step(answer)
    wanting_first = one_step.who_is_hurt(first, to) != first.active_player
    value, one, two = _guarantee_of_parts(first, to, wanting_first)
    _recheck(first, Pair(ANY, to), value, one, two)
    steps = ((FIRST_STRIKE_STEP, one), (SECOND, two))
    return Guarantee(to, one_step.who_wants(first, to), value, one + two, steps)


def _guarantee_of_parts(first: Scenario, to: str, wanting_first: bool) -> tuple[int, tuple, tuple]:
    """The phase's guarantee (value, first step's assignment, second step's), from its
    independent parts (`solver/combat_parts`). In each step the active player divides
    first, then the defending players reply (510.1), and a part's divisions change no other
    part's damage: the best of all the parts' choices at once is the best of each, and the
    guarantee their sum. When a player could lose in the first step (104.2a), the game's
    end hangs on every part's damage at once: the parts are then joined on it (`game_end`)
    if only one side divides in that step, and are one part otherwise."""
    view = ScenarioView(first)
    parts, like, ending = _parts_for(first, to)
    options = _part_options(parts, like, Pair(ANY, to), _guaranteed_second(to))
    active_divides = {
        _active_divides(view, e) for choices in options for option in choices for e in option.first
    }
    if ending and len(active_divides) > 1:
        options, ending = _part_options([first], {}, Pair(ANY, to), _guaranteed_second(to)), False
    if not ending:
        chosen = [_played(view, choices, wanting_first) for choices in options]
        return sum(o.value for o in chosen), *_course_of(chosen)
    maximize = (active_divides != {False}) == wanting_first  # the side dividing, for its ends
    value, chosen, ended = best_joined(first.players, options, maximize)
    one, two = _course_of(chosen)
    return value, one, () if ended else two


def _parts_for(first: Scenario, to: str) -> tuple[list[Scenario], dict[int, int], bool]:
    """The combat's independent parts, without life totals (none loses on its own part's
    damage); for each part alike to an earlier one (`interchangeable.alike_groups`: the same
    tokens, each blocked by a token of its own), the place of the first of them; and whether
    the first step of all the parts together may end the game."""
    from .solver.combat_parts import independent_parts
    from .solver.two_steps import FirstStep

    scenarios = independent_parts(first)
    if len(scenarios) == 1:
        return [first], {}, False
    parts = [_without_life(part) for part in scenarios]
    like = _alike(parts, {to})
    tally, worst = dealing(first), {}
    for i, part in enumerate(parts):  # each part let go before the next (see _courses)
        if i not in like:
            worst[i] = _at_worst(first, FirstStep(part, tally))
    return parts, like, _may_end_the_game(first, [worst[like.get(i, i)] for i in range(len(parts))])


def _alike(parts: list[Scenario], named: set[str]) -> dict[int, int]:
    """For each part alike to an earlier one (`interchangeable.alike_groups`: the same
    tokens, each blocked by a token of its own), the place of the first of them."""
    return {i: group[0] for group in alike_groups(parts, named) for i in group[1:]}


def _part_options(parts: list[Scenario], like: dict[int, int], target: Pair, second_step):
    """For each part, each of its first-step assignments with the second step after it
    (`_valued`, with `second_step`); a part alike to an earlier one (`like`) takes that
    one's, renamed."""
    options: list[list[Option]] = []
    tried = 0
    for i, part in enumerate(parts):
        if i in like:
            renamed = renaming(parts[like[i]], part)
            options.append([_renamed(option, renamed) for option in options[like[i]]])
            continue
        branches = list(_branches(part, tried))
        tried += len(branches)
        options.append(_valued(part, branches, target, second_step))
    return options


def _guaranteed_second(to: str):
    """What the wanting player can be sure of dealing to `to` over the phase once the first
    step left the second step's combat, having dealt `before`, with that step's
    assignment as both sides choose best. When `to` is not there (it died in the first
    step, or is in another part of the combat), what the first step dealt it, and any legal
    second step."""
    from .solver import guarantee as one_step
    from .solver import queries

    def guaranteed(second: Scenario, before: dict) -> tuple[int, tuple[Entry, ...]]:
        tally = replace(dealing(second), before=before)
        if to in {p.id for p in (*second.permanents, *second.players)}:
            answer = one_step.guarantee(second, to, tally)
            return answer.value, answer.assignment
        return assigned(Pair(ANY, to), Amounts(tally.before)), queries.possible(second).assignment

    return guaranteed


def _played(view: ScenarioView, options: list[Option], wanting_first: bool) -> Option:
    """One part's first step played out: the active player's divisions first, then the
    defending players' reply to them, each side for its own ends (each option's value is
    what its wanting player can be sure of after it)."""
    by_choice: dict[frozenset, list[Option]] = {}
    for option in options:
        mine = frozenset(e for e in option.first if _active_divides(view, e))
        by_choice.setdefault(mine, []).append(option)
    if wanting_first:  # the active player's choice first, against the worst reply
        return max((min(replies, key=_value) for replies in by_choice.values()), key=_value)
    return min((max(replies, key=_value) for replies in by_choice.values()), key=_value)


def _active_divides(view: ScenarioView, entry: Entry) -> bool:
    """The active player divides the damage of the entry's source (510.1c-d, 702.22j-k)."""
    return banding.who_divides(view, entry.source)[0] == view.active_player


def _value(option: Option) -> int:
    return option.value


def _renamed(option: Option, renamed: dict[str, str]) -> Option:
    def entries(given: tuple[Entry, ...]) -> tuple[Entry, ...]:
        return tuple(
            Entry(renamed.get(e.source, e.source), renamed.get(e.to, e.to), e.amount) for e in given
        )

    return replace(option, first=entries(option.first), second=entries(option.second))


def _course_of(chosen: list[Option]) -> tuple[tuple[Entry, ...], tuple[Entry, ...]]:
    """Each step's assignment of the parts' options joined."""
    one = tuple(e for option in chosen for e in option.first)
    return one, tuple(e for option in chosen for e in option.second)


def _guarantee_with_choices(first: Scenario, to: str) -> Guarantee:
    """The guarantee of a combat whose effects make dealing a choice, from its first step.
    Each part whose dealing is a choice is played out every way alone, the rest of the
    combat as without such effects, and their guarantees added up: each side's choices in
    one part change no other part's damage. Not when the first step may end the game,
    which hangs on every part at once: the whole combat is then played out every way. A
    course joined from parts is re-checked part by part (`_recheck_parts`)."""
    from .solver.guarantee import who_is_hurt, who_wants

    wanting_first = who_is_hurt(first, to) != first.active_player
    apart = _apart_from_choices(first)
    if apart is None:
        value, steps = _guarantee_by_every_choice(first, to, wanting_first)
        return Guarantee(to, who_wants(first, to), value, _flat(steps), steps)
    choosing, rest = apart
    courses = []
    for part in choosing:
        value, steps = _guarantee_by_every_choice(part, to, wanting_first)
        courses.append((value, steps[0][1], steps[1][1] if len(steps) > 1 else ()))
    if rest is not None:
        courses.append(_guarantee_without_choices(rest, to, wanting_first))
    pieces = [*choosing, rest] if rest is not None else choosing
    _recheck_parts(first, pieces, courses, False, Pair(ANY, to))
    value, one, two = _joined(courses)
    return Guarantee(to, who_wants(first, to), value, one + two, _steps(first, one, two))


def _worst(first: Scenario, part: Scenario) -> dict[str, tuple[int, int]]:
    """`_at_worst` of one independent part of the first step, whether or not its dealing is
    a choice."""
    from .solver.two_steps import FirstStep

    lifeless = _without_life(part)
    if not leaves_no_choice(part):
        return _worst_of(first, list(_branches(lifeless)))
    return _at_worst(first, FirstStep(lifeless, dealing(part)))


def _guarantee_without_choices(part: Scenario, to: str, wanting_first: bool) -> tuple:
    """The guarantee (value, first step's assignment, second step's) of a part of a combat
    whose dealing leaves no choice, the first step unable to end the game; `to` may be in
    another part, and is then dealt nothing here."""
    from .solver import guarantee as one_step
    from .solver import queries

    if part.step != ONLY:
        return _guarantee_of_parts(part, to, wanting_first)
    if to not in {x.id for x in (*part.players, *part.permanents)}:
        return 0, queries.possible(part).assignment, ()
    answer = one_step.guarantee(part, to, dealing(part))
    return answer.value, answer.assignment, ()


def _guarantee_by_every_choice(first: Scenario, to: str, wanting_first: bool) -> tuple:
    """The guarantee the slow, exact way, for files whose effects make dealing a choice:
    (its value, each step's assignment), from the first step. Each step is four choices in
    turn: the active player's divisions, the defending players' (510.1), then, as damage is
    dealt, the active player's order of effects on damage to what they control, and the
    defending players' (616.1, in APNAP order). Each is made by the wanting side for the
    most damage and by the other for the least (`wanting_first`: the active player wants
    it)."""
    active = first.active_player
    second_steps = _second_steps_counted()
    played: dict[Scenario, tuple] = {}  # second step -> its value and steps, played out

    def best(node, level: int, player_is_active: bool):
        """Folds a tree of choices: (value, steps) chosen at each level by its player."""
        if level == 4:
            return node
        mine = player_is_active == wanting_first
        folded = [best(child, level + 1, not player_is_active) for child in node.values()]
        return (max if mine else min)(folded, key=lambda found: found[0])

    def step_value(step: Scenario, done, earlier: int):
        tree: dict = {}
        view = ScenarioView(step)
        tried = second_steps(step) if step.step == SECOND else _first_steps(step)
        for entries in tried:
            ours = frozenset(e for e in entries if banding.who_divides(view, e.source)[0] == active)
            for outcome in deal(step, entries):
                here = earlier + sum(e.amount for e in outcome.dealt if e.to == to)
                steps = (*done, (step.step, entries))
                if step.step == FIRST_STRIKE_STEP and game_over(step, outcome):
                    value, steps = here, (*steps, (SECOND, ()))
                elif step.step == FIRST_STRIKE_STEP:
                    # The second step adds what it deals: its play is that of its combat
                    # alone, played out once for each second step the first leaves.
                    second = after(step, outcome)
                    if second not in played:
                        played[second] = step_value(second, (), 0)
                    later, rest = played[second]
                    value, steps = here + later, (*steps, *rest)
                else:
                    value = here
                # Each player's choices as damage is dealt, told apart by what they chose,
                # not by the damage alone: two orders that deal the same may leave a shield
                # more or less for the second step.
                theirs_dealt = frozenset(p for p in outcome.picks if p[0] == active)
                rest = frozenset(outcome.picks) - theirs_dealt
                (
                    tree.setdefault(ours, {})
                    .setdefault(frozenset(entries) - ours, {})
                    .setdefault(theirs_dealt, {})[rest]
                ) = (value, steps)
        return best(tree, 0, True)

    return step_value(first, (), 0)
