"""`possible` over the whole combat damage phase: some course meets every requirement.

The requirements may join any parts of the combat (the damage to a player from all of
them), so the combat is asked as one query (`solver/two_steps`), its search skipping the
twin courses of alike parts, and given the least and most each independent part deals of
the requirements' pairs, found of the part alone: Z3 does not find the bound of their sum.
Parts whose dealing is a choice are dealt every way alone and what they can deal given to
the query of the rest; when the first step may end the game (104.2a), with what their first
step does to the players' life and poison too.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache, partial

from ..amounts import Amounts
from ..answers import Impossible, Obstacle, Possible
from ..combat import FIRST_STRIKE_STEP, ONLY, SECOND, Scenario
from ..interchangeable import alike_parts
from ..requirements import ANY, Pair, named_by
from ..rules import order
from ..rules.dealing import deal, leaves_no_choice
from ..verdict import check
from ..view import ScenarioView
from .course import (
    as_the_only_step,
    branches_of,
    by_step,
    dealing,
    each_step,
    every_course,
    flat,
    game_over,
    pairs_dealt,
    second_steps_counted,
    start,
    summed,
    totals_dealt,
    totals_over,
    without_life,
)
from .parts import apart_from_choices, like_earlier, may_end_the_game
from .shields_as_life import as_life


def possible(scenario: Scenario, requirements) -> Possible | Impossible:
    """Some course of the phase meets every requirement. An order the file leaves open is
    announced once, before the first step, and binds in both (509.2-509.3)."""
    from ..solver.guarantee import announcements, with_orders

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
    first = start(scenario)
    if not leaves_no_choice(first):
        return _possible_with_choices(first, requirements)
    return _possible_from(first, requirements)


def _possible_from(
    first: Scenario, requirements, ended: bool | None = None, aids=None, explained=True
) -> Possible | Impossible:
    """`possible` of a combat whose dealing leaves no choice, from its first step; with
    `ended`, only by a course whose first step ends the game (True) or does not (False).
    `aids`: what its one query is given beside the rules (`_one_query_aids`), if found
    already; not `explained`, an `Impossible` may name nothing in the way."""
    from ..solver import queries
    from ..solver.two_steps import expressible

    if first.step == ONLY:
        answer = queries.possible(first, requirements, dealing(first))
        return as_the_only_step(answer)
    if expressible(first):
        return _possible_in_one_query(first, requirements, ended, aids, explained)
    obstacles = ()
    for entries, outcome, second in branches_of(first):
        if ended is not None and ended != (second is None):
            continue
        if second is None:
            if all(r.holds(Amounts(pairs_dealt(outcome))) is True for r in requirements):
                return Possible(entries, ((FIRST_STRIKE_STEP, entries), (SECOND, ())))
            continue
        tally = replace(dealing(second), before=pairs_dealt(outcome))
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
    the requirements given those numbers. When the first step may end the game (104.2a),
    which hangs on every part at once, a course is kept also for what its first step does
    to each player's life and poison, and for what that step alone deals (the game ended):
    the rest of the combat is asked with its players' life and poison moved by as much, once
    with the game ended after the first step and once going on."""
    apart = apart_from_choices(first)
    if apart is None:
        return _possible_every_way(first, requirements)
    choosing, rest, ending = apart
    if rest is not None and not ending:
        rest = without_life(rest)
    # For each sum of the parts' keys (`_kept`): a course of each that gives it.
    sides = 2 * len(requirements)
    width = 2 * len(first.players) + 2 * sides if ending else sides
    reached: dict[tuple, tuple] = {(0,) * width: ()}
    for part in choosing:
        kept = _kept(first, part, requirements, ending)
        reached = {
            tuple(map(sum, zip(sum_, key, strict=True))): (*courses, course)
            for sum_, courses in reached.items()
            for key, course in kept.items()
        }
    # The rest is asked once for each key, its requirements given new numbers and its
    # players new life totals: neither changes what its one query is given beside its rules.
    aids = None if rest is None else cache(partial(_one_query_aids, rest, requirements))
    for key, courses in reached.items():
        for ended in (False, True) if ending else (None,):
            found = _with_the_rest(first, choosing, courses, rest, requirements, key, ended, aids)
            if found is not None:
                return found
    said = " and ".join(str(r) for r in requirements)
    note = (
        f"{said}: no course of the parts whose dealing is a choice, each tried every way, "
        "with any course of the rest of the combat, meets it"
    )
    return Impossible((Obstacle("requirement", None, None, note),))


def _kept(first: Scenario, part: Scenario, requirements, ending: bool) -> dict[tuple, tuple]:
    """One course of a part whose dealing is a choice (each step's assignment, and what it
    deals over the phase) for each thing the rest of the combat may hang on: what it deals
    on each side of each requirement. When the first step may end the game, also what that
    step does to each player's life and poison and deals on each side of each requirement,
    with the course cut short after it (the game over); the part has no life totals, so it
    ends the game alone only by poison."""
    kept: dict[tuple, tuple] = {}
    if not ending:
        for steps, totals in every_course(part):
            kept.setdefault(_sides(requirements, totals), ((steps, totals),))
        return kept
    second_steps = second_steps_counted()
    for one, outcome, second in branches_of(part):
        before = pairs_dealt(outcome)
        cut_short = (((FIRST_STRIKE_STEP, one),), before)
        head = (*_life_and_poison(first, outcome), *_sides(requirements, before))
        if second is None:  # the part's poison alone ends the game (704.5c): it never goes on
            kept.setdefault((*head, *_sides(requirements, before)), (cut_short, cut_short))
            continue
        for two in second_steps(second):
            for dealt in deal(second, two):
                totals = summed((before, pairs_dealt(dealt)))
                course = (by_step(first, one, two), totals)
                kept.setdefault((*head, *_sides(requirements, totals)), (course, cut_short))
    return kept


def _life_and_poison(first: Scenario, outcome) -> tuple[int, ...]:
    """The life each player lost, net (none for a player without a life total), then the
    poison counters each got, in the first step of one part."""
    lost = (
        0 if p.life is None else outcome.lost[p.id] - outcome.gained[p.id] for p in first.players
    )
    return (*lost, *(outcome.poison[p.id] - p.poison for p in first.players))


def _lost(first: Scenario, key: tuple) -> dict[str, tuple[int, int]]:
    """By player, the life lost (net) and the poison counters got that the key's head says:
    the first step of the parts whose dealing is a choice, summed (`_life_and_poison`)."""
    n = len(first.players)
    return {p.id: (key[i], key[n + i]) for i, p in enumerate(first.players)}


def _moved(scenario: Scenario, first: Scenario, key: tuple) -> Scenario:
    """The scenario with each player's life and poison as that first step leaves them."""
    lost = _lost(first, key)

    def moved(p):
        life, poison = lost[p.id]
        return replace(p, life=None if p.life is None else p.life - life, poison=p.poison + poison)

    return replace(scenario, players=tuple(map(moved, scenario.players)))


def _ends(first: Scenario, key: tuple) -> bool:
    """Whether that first step ends the game (104.2a): `may_end_the_game` of it alone."""
    return may_end_the_game(first, [_lost(first, key)])


def _with_the_rest(
    first, choosing, courses, rest, requirements, key, ended, aids
) -> Possible | None:
    """The courses of the parts whose dealing is a choice, joined with a course of the rest
    of the combat that meets every requirement with them, if there is one: with the game
    over after the first step (`ended`), or going on, or either (None: it cannot end).
    `aids`: of the rest's one query (`_possible_from`)."""
    pieces = [
        (part, *course[1 if ended else 0]) for part, course in zip(choosing, courses, strict=True)
    ]
    dealt = Amounts(summed(totals for _, _, totals in pieces))
    if rest is not None:
        moved = rest if ended is None else _moved(rest, first, key)
        given = [r.given(dealt) for r in requirements]
        answer = _possible_from(moved, given, ended, aids, explained=False)  # only whether
        if isinstance(answer, Impossible):
            return None
        (totals,) = totals_dealt(moved, *each_step(answer.steps))  # no choices
        pieces.append((moved, answer.steps, totals))
        if ended is not None:
            (outcome,) = deal(moved, answer.steps[0][1])
            if game_over(moved, outcome) != ended:
                raise AssertionError("the rest of the combat ended the game as it was not asked")
    elif ended is not None and _ends(first, key) != ended:
        return None
    elif not all(r.holds(dealt) is True for r in requirements):
        return None
    one = tuple(e for _, steps, _ in pieces for e in steps[0][1])
    two = tuple(e for _, steps, _ in pieces if len(steps) > 1 for e in steps[1][1])
    _recheck_possible(first, pieces, requirements)
    return Possible(one + two, by_step(first, one, two))


def _possible_every_way(first: Scenario, requirements) -> Possible | Impossible:
    """`possible` the slow, exact way: every course of the whole combat, every way."""
    for steps, totals in every_course(first):
        if all(r.holds(Amounts(totals)) is True for r in requirements):
            return Possible(flat(steps), steps)
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
    if any(totals not in totals_dealt(part, *each_step(steps)) for part, steps, totals in pieces):
        raise AssertionError("a part's course of the phase does not deal what it was found to")
    dealt = Amounts(summed(totals for _, _, totals in pieces))
    if not all(r.holds(dealt) is True for r in requirements):
        raise AssertionError("a course of the phase found by lethal misses a requirement")


def _sides(requirements, totals: dict) -> tuple[int, ...]:
    """What the damage dealt (`totals`) comes to on each side of each requirement."""
    dealt = Amounts(totals)
    return tuple(side for r in requirements for side in r.sides(dealt))


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


def _possible_in_one_query(
    first: Scenario, requirements, ended: bool | None = None, aids=None, explained=True
) -> Possible | Impossible:
    """Both steps of the whole combat as one query (`two_steps`), its search skipping the
    twins of each course that exchange interchangeable creatures or alike parts (the same
    tokens, each blocked by a token of its own). The requirements may join any parts (the
    damage to a player from all of them), so the combat is not split. A course found is
    dealt again, step by step, and must meet every requirement."""
    from ..solver.two_steps import FirstStep

    alike, shares = aids() if aids else _one_query_aids(first, requirements)
    one_query = FirstStep(first, dealing(first))
    answer = one_query.course_meeting(requirements, alike, ended, shares, explained)
    if isinstance(answer, Impossible):
        return _with_the_rules_keeping(first, shares, alike, answer) if explained else answer
    (_, one), (_, two) = answer.steps
    totals = Amounts(totals_over(first, one, two))
    if not all(r.holds(totals) is True for r in requirements):
        raise AssertionError("a course of the phase found by lethal misses a requirement")
    return answer


def _with_the_rules_keeping(
    first: Scenario, shares: list, alike: list, answer: Impossible
) -> Impossible:
    """What stands in the way of the one query, with the parts' bounds (`_shares`) among it
    said as the rules of those parts that keep them, in both steps: the rules, not what
    lethal found of them, are what a requirement meets. The query kept only the twin whose
    alike parts (`alike`) are ordered by their shares, so its core may hold the bounds of
    some of them, that order standing for the rest: theirs are added, so that what is named
    stands in the way with no order."""
    from ..solver.combat_parts import part_of
    from ..solver.two_steps import FirstStep

    bounds = {share.obstacle: share for share in shares}
    obstacles = [o for o in answer.obstacles if o not in bounds]
    kept = _with_alike(alike, shares, [bounds[o] for o in answer.obstacles if o in bounds])
    if kept:
        members = {id for share in kept for id in share.members}
        alone = FirstStep(without_life(part_of(first, members)), dealing(first))
        obstacles += [o for o in alone.rules_keeping(kept) if o not in obstacles]
    return Impossible(tuple(sorted(obstacles, key=Obstacle.order)))


def _with_alike(alike: list, shares: list, kept: list) -> list:
    """The shares `kept`, and those of the same pair of every part alike to one of theirs
    (`alike`: the exchanges of each two neighbours of a set of alike parts)."""
    from ..solver.symmetry import moved_key

    of = {share.key: share for share in shares}
    found = {share.key: share for share in kept}
    more = list(found)
    while more:
        at = more.pop()
        for exchange in alike:
            key = moved_key(at, exchange)
            if key in of and key not in found:
                found[key] = of[key]
                more.append(key)
    return list(found.values())


def _one_query_aids(first: Scenario, requirements) -> tuple[list, list]:
    """What the one query of a combat is given beside its rules: the exchanges of its alike
    parts, and each part's bounds (`_shares`). Neither hangs on the players' life totals or
    poison (more poison only ends sooner the courses they bound), nor on the numbers in the
    requirements: only on their pairs and comparisons."""
    from ..solver.combat_parts import independent_parts

    parts = independent_parts(first)
    alike = alike_parts(parts, named_by(requirements))
    return alike, _shares(first, parts, requirements) if len(parts) > 1 else []


def _shares(first: Scenario, parts: list[Scenario], requirements) -> list:
    """Of each independent part of the combat, what it deals of each pair the requirements
    compare, in each step, at most where more could break a requirement and at least where
    less could (`Requirement.bounded`): found of the part alone, with no life totals, and
    once for alike parts. Every course of the whole keeps them (`two_steps.Share`): the
    part's first step is legal alone, and deals what it deals alone; while the game goes
    on, the part's second step is one of its own alone (which goes on too: no part alone
    reaches the poison that the parts together do not); once the game is over, it deals
    nothing more."""
    from ..solver.two_steps import FirstStep, Share

    bounded = [r.bounded() for r in requirements]
    most = set().union(*(greater for greater, _ in bounded))
    least = set().union(*(smaller for _, smaller in bounded))
    like = like_earlier(parts, named_by(requirements))
    found: dict[tuple[int, Pair], tuple] = {}
    shares = []
    for i, part in enumerate(parts):
        members = tuple(p.id for p in part.permanents)
        pairs = [p for p in sorted(most | least, key=str) if p.source in (ANY, *members)]
        if any((like.get(i, i), pair) not in found for pair in pairs):
            alone = FirstStep(without_life(part), dealing(first))
            for pair in pairs:
                bounds = alone.share_bounds(pair, most=pair in most, least=pair in least)
                found[(i, pair)] = bounds
        shares += [Share(members, pair, *found[(like.get(i, i), pair)]) for pair in pairs]
    return shares
