"""`guarantee` over the whole combat damage phase: what the player who wants the damage is
sure of, as both sides choose in turn (510.1: the active player divides first, then the
defending players reply), a game played out part by part and added up.

When the first step may end the game (104.2a) the parts are joined on the players' life
and poison (`game_end`), the active player's divisions first and the defending players'
replies after, across every part. Parts whose dealing is a choice are played out every way
alone; when the first step may end the game, their first steps are joined so too, if only
one side chooses in that step, each followed by its second step played out every way.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from ..amounts import Amounts
from ..answers import Guarantee
from ..combat import FIRST_STRIKE_STEP, ONLY, SECOND, Entry, Scenario
from ..requirements import ANY, Pair, assigned
from ..rules import banding
from ..rules.dealing import deal, leaves_no_choice
from ..view import ScenarioView
from .course import (
    after,
    as_the_only_step,
    branches_of,
    by_step,
    dealing,
    first_steps,
    flat,
    game_over,
    recheck_course,
    second_steps_counted,
    start,
    without_life,
)
from .game_end import Option, best_in_turn, best_joined
from .parts import (
    apart_from_choices,
    at_worst,
    joined,
    like_earlier,
    may_end_the_game,
    part_options,
    recheck_parts,
    valued,
)
from .shields_as_life import as_life


def guarantee(scenario: Scenario, to: str) -> Guarantee:
    """What the wanting player is sure of over the phase: the orders the file leaves open
    announced first, once for both steps (509.2-509.3); then in the first step the active
    player's divisions, then the defending players'; then the second step's guarantee."""
    from ..solver.guarantee import announced

    return announced(scenario, to, lambda fixed: _guarantee(fixed, to))


def _guarantee(scenario: Scenario, to: str) -> Guarantee:
    from ..solver import guarantee as one_step

    shielded = as_life(scenario, [Pair(ANY, to)])
    if shielded is not None:
        answer = _guarantee(shielded.scenario, to)
        return replace(answer, value=shielded.value(Pair(ANY, to), answer.value))
    first = start(scenario)
    if not leaves_no_choice(first):
        return _guarantee_with_choices(first, to)
    if first.step == ONLY:
        answer = one_step.guarantee(first, to, dealing(first))
        return as_the_only_step(answer)
    wanting_first = one_step.who_is_hurt(first, to) != first.active_player
    value, one, two = _guarantee_of_parts(first, to, wanting_first)
    recheck_course(first, Pair(ANY, to), value, one, two)
    steps = ((FIRST_STRIKE_STEP, one), (SECOND, two))
    return Guarantee(to, one_step.who_wants(first, to), value, one + two, steps)


def _guarantee_of_parts(first: Scenario, to: str, wanting_first: bool) -> tuple[int, tuple, tuple]:
    """The phase's guarantee (value, first step's assignment, second step's), from its
    independent parts (`solver/combat_parts`). In each step the active player divides
    first, then the defending players reply (510.1), and a part's divisions change no other
    part's damage: the best of all the parts' choices at once is the best of each, and the
    guarantee their sum. When a player could lose in the first step (104.2a), the game's
    end hangs on every part's damage at once: the parts are then joined on it, in turn
    (`game_end.best_in_turn`)."""
    view = ScenarioView(first)
    parts, like, ending = _parts_for(first, to)
    options = part_options(parts, like, Pair(ANY, to), _guaranteed_second(to))
    if not ending:
        chosen = [_played(view, choices, wanting_first) for choices in options]
        return sum(o.value for o in chosen), *_course_of(chosen)
    value, chosen, ended = best_in_turn(first.players, options, partial(_mine, view), wanting_first)
    one, two = _course_of(chosen)
    return value, one, () if ended else two


def _joined_as_chosen(first: Scenario, options, choosers: set[bool], wanting_first: bool):
    """The parts' first-step options joined on the game's end (`game_end.best_joined`) as
    the one side that chooses in that step (`choosers`: True for the active player) would
    have them, for its own ends: the value, the options chosen, and whether the game
    ended."""
    maximize = (choosers != {False}) == wanting_first
    return best_joined(first.players, options, maximize)


def _parts_for(first: Scenario, to: str) -> tuple[list[Scenario], dict[int, int], bool]:
    """The combat's independent parts, without life totals (none loses on its own part's
    damage); for each part alike to an earlier one (`interchangeable.alike_groups`: the same
    tokens, each blocked by a token of its own), the place of the first of them; and whether
    the first step of all the parts together may end the game."""
    from ..solver.combat_parts import independent_parts
    from ..solver.two_steps import FirstStep

    scenarios = independent_parts(first)
    if len(scenarios) == 1:
        return [first], {}, False
    parts = [without_life(part) for part in scenarios]
    like = like_earlier(parts, {to})
    tally, worst = dealing(first), {}
    for i, part in enumerate(parts):  # each part let go before the next (see `max_min._courses`)
        if i not in like:
            worst[i] = at_worst(first, FirstStep(part, tally))
    return parts, like, may_end_the_game(first, [worst[like.get(i, i)] for i in range(len(parts))])


def _guaranteed_second(to: str):
    """What the wanting player can be sure of dealing to `to` over the phase once the first
    step left the second step's combat, having dealt `before`, with that step's
    assignment as both sides choose best. When `to` is not there (it died in the first
    step, or is in another part of the combat), what the first step dealt it, and any legal
    second step."""
    from ..solver import guarantee as one_step
    from ..solver import queries

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
        by_choice.setdefault(_mine(view, option), []).append(option)
    if wanting_first:  # the active player's choice first, against the worst reply
        return max((min(replies, key=_value) for replies in by_choice.values()), key=_value)
    return min((max(replies, key=_value) for replies in by_choice.values()), key=_value)


def _mine(view: ScenarioView, option: Option) -> frozenset:
    """The active player's share of a first-step option: its creatures' entries."""
    return frozenset(e for e in option.first if _active_divides(view, e))


def _dividers(view: ScenarioView, assignments) -> set[bool]:
    """The sides with a choice of division among one part's first-step `assignments`: the
    active player (True) where they differ in the damage of the creatures the active player
    divides, the defending players (False) where they differ in the others' (510.1c-d,
    702.22j-k). A side whose division is forced, such as a blocker's all on the one
    creature it blocks, chooses nothing."""
    ways: dict[bool, set] = {True: set(), False: set()}
    for entries in assignments:
        for side, found in ways.items():
            found.add(frozenset(e for e in entries if _active_divides(view, e) == side))
    return {side for side, found in ways.items() if len(found) > 1}


def _active_divides(view: ScenarioView, entry: Entry) -> bool:
    """The active player divides the damage of the entry's source (510.1c-d, 702.22j-k)."""
    return banding.who_divides(view, entry.source)[0] == view.active_player


def _value(option: Option) -> int:
    return option.value


def _course_of(chosen: list[Option]) -> tuple[tuple[Entry, ...], tuple[Entry, ...]]:
    """Each step's assignment of the parts' options joined."""
    one = tuple(e for option in chosen for e in option.first)
    return one, tuple(e for option in chosen for e in option.second)


def _guarantee_with_choices(first: Scenario, to: str) -> Guarantee:
    """The guarantee of a combat whose effects make dealing a choice, from its first step,
    from its independent parts where it can (`_added_up`, `_joined_on_the_games_end`); else
    the whole combat played out every way. A course joined from parts is re-checked part by
    part (`recheck_parts`)."""
    from ..solver.guarantee import who_is_hurt, who_wants

    wanting_first = who_is_hurt(first, to) != first.active_player
    apart, course = apart_from_choices(first), None
    if apart is not None and apart[2]:  # a first step that may end the game
        course = _joined_on_the_games_end(first, to, wanting_first)
    elif apart is not None:
        course = _added_up(first, *apart[:2], to, wanting_first)
    if course is None:
        value, steps = _guarantee_by_every_choice(first, to, wanting_first)
        return Guarantee(to, who_wants(first, to), value, flat(steps), steps)
    value, one, two = course
    return Guarantee(to, who_wants(first, to), value, one + two, by_step(first, one, two))


def _added_up(first: Scenario, choosing, rest, to: str, wanting_first: bool) -> tuple:
    """The guarantee (value, first step's assignment, second step's) of a combat whose
    first step cannot end the game: each part whose dealing is a choice (`choosing`) played
    out every way alone, the rest of the combat as without such effects, and their
    guarantees added up, since each side's choices in one part change no other part's
    damage."""
    rest = None if rest is None else without_life(rest)
    courses = []
    for part in choosing:
        value, steps = _guarantee_by_every_choice(part, to, wanting_first)
        courses.append((value, steps[0][1], steps[1][1] if len(steps) > 1 else ()))
    if rest is not None:
        courses.append(_guarantee_without_choices(rest, to, wanting_first))
    pieces = [*choosing, rest] if rest is not None else choosing
    recheck_parts(first, pieces, courses, False, Pair(ANY, to))
    return joined(courses)


def _joined_on_the_games_end(first: Scenario, to: str, wanting_first: bool) -> tuple | None:
    """The guarantee (value, first step's assignment, second step's) of a combat whose
    effects make dealing a choice and whose first step may end the game (104.2a), which
    hangs on every part at once: the parts' first steps joined on the players' life and
    poison (`game_end`), each part's first-step courses valued with the second step after
    each played out by both sides, every way where dealing is a choice. Where no one orders
    effects as that step's damage is dealt, in turn (`best_in_turn`: the active player's
    divisions, then the replies); else as the one side that chooses anything in that step
    (its divisions, or that order) would have them, and None when both sides do. A course
    joined so is re-checked part by part (`recheck_parts`)."""
    from ..solver.combat_parts import independent_parts

    view, active = ScenarioView(first), first.active_player
    scenarios = independent_parts(first)
    parts = [without_life(s) for s in scenarios]
    options, dividers, dealers, tried = [], set(), set(), 0
    second_step = _played_second(to, wanting_first)
    for part in parts:
        branches = list(branches_of(part, tried))
        tried += len(branches)
        dividers |= _dividers(view, [entries for entries, _, _ in branches])
        dealers |= _dealing_choosers(branches, active)
        options.append(valued(part, branches, Pair(ANY, to), second_step))
    if not dealers:  # divisions alone: the active player's, then the replies
        mine = partial(_mine, view)
        value, chosen, ended = best_in_turn(first.players, options, mine, wanting_first)
    elif len(dividers | dealers) > 1:
        return None
    else:
        value, chosen, ended = _joined_as_chosen(first, options, dividers | dealers, wanting_first)
    courses = [(o.value_first if ended else o.value, o.first, o.second) for o in chosen]
    recheck_parts(first, scenarios, courses, ended, Pair(ANY, to))
    one, two = _course_of(chosen)
    return value, one, () if ended else two


def _dealing_choosers(branches, active: str) -> set[bool]:
    """Whether the active player (True), the other players (False) or both choose an order
    of effects as the first step's damage is dealt (616.1), in some assignment of it: where
    the ways of dealing one assignment differ in what one player picked for one recipient."""
    ways: dict[tuple, list] = {}
    for entries, outcome, _ in branches:
        ways.setdefault(entries, []).append(outcome.picks)
    return {
        picked[0][0] == active
        for picks in ways.values()
        for picked in zip(*picks, strict=True)
        if len(set(picked)) > 1
    }


def _played_second(to: str, wanting_first: bool):
    """What the wanting player can be sure of dealing to `to` over the phase once the first
    step left the second step's combat, having dealt `before`, with that step's assignment
    (`_guaranteed_second`); where the second step's dealing is a choice, played out every
    way (`_guarantee_by_every_choice`)."""
    without_choices = _guaranteed_second(to)

    def played(second: Scenario, before: dict) -> tuple[int, tuple[Entry, ...]]:
        if leaves_no_choice(second):
            return without_choices(second, before)
        value, steps = _guarantee_by_every_choice(second, to, wanting_first)
        return assigned(Pair(ANY, to), Amounts(before)) + value, steps[0][1]

    return played


def _guarantee_without_choices(part: Scenario, to: str, wanting_first: bool) -> tuple:
    """The guarantee (value, first step's assignment, second step's) of a part of a combat
    whose dealing leaves no choice, the first step unable to end the game; `to` may be in
    another part, and is then dealt nothing here."""
    from ..solver import guarantee as one_step
    from ..solver import queries

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
    second_steps = second_steps_counted()
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
        tried = second_steps(step) if step.step == SECOND else first_steps(step)
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
