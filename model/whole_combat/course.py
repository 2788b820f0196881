"""One course of the combat damage phase, step by step: CR 510.4 with 702.4 and 702.7, 510.2,
704.5g-h, 702.19d.

With first or double strike, the first-strike step assigns, its damage is dealt, the
state-based actions remove what died, and the second step assigns on what is left: damage
marked, blockers gone (the creatures they blocked stay blocked, 509.1h), planeswalkers gone.
Here are the steps' legal assignments, the second step's combat after the first (`after`),
every course of a combat tried one by one, and what a course deals over the phase, dealt
again step by step to re-check what the queries found.
"""

from __future__ import annotations

from dataclasses import replace

from .. import progress
from ..amounts import Amounts
from ..answers import Impossible
from ..combat import CANT_BE_PREVENTED, FIRST_STRIKE_STEP, ONLY, SECOND, Entry, Scenario
from ..errors import Problem, ScenarioError, TooManyAssignments
from ..keywords import PROTECTION_FROM_EVERYTHING
from ..limits import ASSIGNMENTS
from ..requirements import Pair, assigned
from ..rules.dealing import Outcome, changes, deal
from ..rules.results import game_ends
from ..rules.steps import assigns_this_step
from ..tally import Tally
from ..verdict import check
from ..view import ScenarioView


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


def start(scenario: Scenario) -> Scenario:
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
    from ..solver.counting import count

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


def second_steps_counted():
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


def first_steps(first: Scenario, tried: int = 0):
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


def every_course(first: Scenario):
    """(each step's assignment, damage dealt over the phase) for every legal assignment of
    each step and every order of effects the affected players may choose, from the first
    step: the slow, exact way, for files whose effects make dealing a choice."""
    second_steps = second_steps_counted()
    for one, dealt_one, second in branches_of(first):
        if second is None:
            yield by_step(first, one, ()), pairs_dealt(dealt_one)
            continue
        for two in second_steps(second):
            for dealt_two in deal(second, two):
                yield (
                    by_step(first, one, two),
                    summed((pairs_dealt(dealt_one), pairs_dealt(dealt_two))),
                )


def by_step(first: Scenario, one: tuple[Entry, ...], two: tuple[Entry, ...]) -> tuple:
    """Each step's assignment: the only step's, or the first-strike step's and the second's
    (none when the game ended before it)."""
    if first.step == ONLY:
        return ((ONLY, one),)
    return ((FIRST_STRIKE_STEP, one), (SECOND, two))


def as_the_only_step(answer):
    """A single step's answer, as the phase's: without first or double strike, one step."""
    if isinstance(answer, Impossible):
        return answer
    return replace(answer, steps=((ONLY, answer.assignment),))


def flat(steps) -> tuple[Entry, ...]:
    return tuple(e for _, entries in steps for e in entries)


def branches_of(first: Scenario, tried: int = 0):
    """(its assignment, an outcome of dealing it, the second step's scenario) for every legal
    assignment of the first step and every way its players may choose to deal it (one, where
    dealing leaves no choice); no second step (None) when the game is over, or the step is
    the only one. `tried`: first-step assignments already tried, in other parts of the
    combat."""
    for entries in first_steps(first, tried):
        for outcome in deal(first, entries):
            over = first.step == ONLY or game_over(first, outcome)
            yield entries, outcome, None if over else after(first, outcome)


def pairs_dealt(outcome: Outcome) -> dict:
    return {(e.source, e.to): e.amount for e in outcome.dealt}


def each_step(steps) -> tuple:
    """The first step's assignment and the second's (None where there is one step)."""
    return steps[0][1], steps[1][1] if len(steps) > 1 else None


def summed(totals) -> dict:
    """The damage dealt, pair by pair, of several dealings (each a dict) together."""
    summed: dict = {}
    for dealt in totals:
        for pair, amount in dealt.items():
            summed[pair] = summed.get(pair, 0) + amount
    return summed


def values_dealt(part: Scenario, one, two, target: Pair) -> set[int]:
    """What the course may deal to the target (`totals_dealt`)."""
    return {assigned(target, Amounts(totals)) for totals in totals_dealt(part, one, two)}


def totals_dealt(part: Scenario, one, two) -> list[dict]:
    """What the course (each step's assignment; no second step when `two` is None) may deal
    over the phase, pair by pair, over every way of dealing each legal step; nothing where a
    step is not legal."""
    found = []
    if not check(part, one).legal:
        return found
    for dealt_one in deal(part, one):
        if two is None or part.step == ONLY or game_over(part, dealt_one):
            found.append(pairs_dealt(dealt_one))
            continue
        second = after(part, dealt_one)
        # Another way of dealing the first step may have left another second step, one
        # without a creature this course's second step names.
        there = {x.id for x in (*second.players, *second.permanents)}
        if {i for e in two for i in (e.source, e.to)} <= there and check(second, two).legal:
            found += [summed((pairs_dealt(dealt_one), pairs_dealt(d))) for d in deal(second, two)]
    return found


def without_life(part: Scenario) -> Scenario:
    """The part with its players' life totals left out: none loses on the part's damage."""
    return replace(part, players=tuple(replace(p, life=None) for p in part.players))


def recheck_course(first: Scenario, target: Pair, value: int, one, two) -> None:
    """A course joined from parts is reported only once the whole combat, dealt its first
    step and then its second, is legal in each and gives the value; anything else is a bug
    in lethal, never an answer."""
    if dealt_over(first, target, one, two) != value:
        raise AssertionError(f"the joined course of the phase is not what its parts gave: {value}")


def dealt_over(first: Scenario, target: Pair, one, two) -> int:
    """What the course (each step's assignment) deals to the target over the phase (see
    `totals_over`)."""
    return assigned(target, Amounts(totals_over(first, one, two)))


def totals_over(first: Scenario, one, two) -> dict:
    """What the course (each step's assignment) deals over the phase, pair by pair, dealt
    step by step; an AssertionError, a bug in lethal, if either step is not legal."""
    (dealt_one,) = deal(first, one)
    totals = pairs_dealt(dealt_one)
    legal = check(first, one).legal
    if game_over(first, dealt_one):
        legal = legal and not two
    else:
        second = after(first, dealt_one)
        legal = legal and check(second, two).legal
        (dealt_two,) = deal(second, two)
        totals = summed((totals, pairs_dealt(dealt_two)))
    if not legal:
        raise AssertionError("a course of the phase found by lethal is not legal")
    return totals
