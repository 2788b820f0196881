"""Interchangeable creatures (the same tokens, blocked alike) are searched once: the creatures
found interchangeable are, by the brute-force reference, and the queries answer as the
reference does, and as Z3 does when asked of the whole combat with no symmetry broken."""

from __future__ import annotations

import copy
import itertools
from math import prod

import pytest
import z3
from hypothesis import assume, event, given
from hypothesis import strategies as st

from lethal import Entry, Impossible, guarantee, maximum, minimum, parse, possible
from lethal.amounts import Amounts
from lethal.errors import LethalError
from lethal.interchangeable import interchangeable
from lethal.limits import CREATURES
from lethal.requirements import parse as requirement
from lethal.solver.symmetry import breaking

from . import reference
from .build import attacker, blocker, scenario, scenario_file
from .strategies import scenarios
from .test_guarantee_parts import assert_the_whole_agrees
from .test_queries import QUERIES, assert_witness, recipients_of
from .test_query_parts import _whole_optimum


def wall_and_chumps(n: int, strikers: bool = False, told_apart: bool = False, **top) -> dict:
    """n 2/2 trample tokens blocked by one 5/5 wall; a 6/6 trampler blocked by n 1/1
    tokens; an unblocked 3/3. With `strikers`, the wall has first strike and the trampler
    double strike; `told_apart`, each token has a quality of its own, which changes no answer
    (no protection, no banding) but makes no two interchangeable."""

    def own(i: int) -> dict:
        return {"qualities": [f"token {i}"]} if told_apart else {}

    first, double = (("first strike",), ("double strike",)) if strikers else ((), ())
    tokens = [attacker(f"t{i}", 2, 2, "trample", **own(i)) for i in range(n)]
    wall = blocker("wall", 5, 5, *first, blocking=[f"t{i}" for i in range(n)])
    giant = attacker("giant", 6, 6, "trample", *double)
    chumps = [blocker(f"c{i}", 1, 1, blocking=["giant"], **own(n + i)) for i in range(n)]
    return scenario_file(*tokens, wall, giant, *chumps, attacker("bear", 3, 3), **top)


# The interchangeable test, worked cases.


def test_tokens_blocked_alike_are_interchangeable_and_the_rest_are_not():
    found = interchangeable(parse(wall_and_chumps(3)))
    assert sorted(found) == [("c0", "c1", "c2"), ("t0", "t1", "t2")]


def test_a_creature_the_question_names_is_kept_apart():
    assert sorted(interchangeable(parse(wall_and_chumps(3)), named=["t1", "D"])) == [
        ("c0", "c1", "c2"),
        ("t0", "t2"),
    ]


def test_a_quality_damage_marked_or_an_amount_given_tells_a_token_apart():
    data = wall_and_chumps(3)
    data["permanents"][0]["qualities"] = ["wolves"]
    data["permanents"][1]["damage"] = 1
    data["assignment"] = [{"source": "c2", "to": "giant", "amount": 1}]
    assert interchangeable(parse(data)) == [("c0", "c1")]


def test_tokens_blocked_by_different_blockers_are_not_interchangeable():
    """t0 and t1 can swap only together with their blockers: that is two parts alike
    (`parts.shape`), not two creatures alike."""
    combat = scenario(
        attacker("t0", 2, 2),
        attacker("t1", 2, 2),
        blocker("b0", 1, 1, blocking=["t0"]),
        blocker("b1", 1, 1, blocking=["t1"]),
    )
    assert interchangeable(combat) == []


def test_a_blocker_of_two_attackers_is_not_one_of_one():
    combat = scenario(
        attacker("a0", 4, 4, "trample"),
        attacker("a1", 4, 4, "trample"),
        blocker("both", 1, 1, blocking=["a0", "a1"]),
        blocker("one", 1, 1, blocking=["a0"]),
        blocker("other", 1, 1, blocking=["a0"]),
    )
    assert interchangeable(combat) == [("one", "other")]


def test_band_members_and_creatures_an_order_may_rank_are_kept_apart():
    banded = scenario_file(
        attacker("w0", 1, 1, "banding"), attacker("w1", 1, 1, "banding"), attacker("w2", 1, 1)
    )
    banded["bands"] = [["w0", "w1"]]
    assert interchangeable(parse(banded)) == []
    ordered = wall_and_chumps(2, rules="2020-01-01")
    for p in ordered["permanents"]:
        if p["id"] in ("wall", "giant"):
            p["order"] = ["t0", "t1"] if p["id"] == "wall" else ["c0", "c1"]
    assert interchangeable(parse(ordered)) == []


# The queries on boards of tokens, against Z3 asked of the whole combat with no symmetry broken.


@pytest.mark.parametrize("n", [2, 5])
@pytest.mark.parametrize("to", ["D", "wall", "giant", "t0", "c1"])
def test_max_and_min_on_tokens_equal_the_whole_solved_at_once(n, to):
    combat = parse(wall_and_chumps(n))
    for source in (None, "t1", "giant"):
        for find, maximize in ((maximum, True), (minimum, False)):
            answer = find(combat, to, source)
            assert answer.value == _whole_optimum(combat, to, source, maximize)
            assert_witness(combat, answer.assignment)


@pytest.mark.parametrize("to", ["D", "wall", "c0"])
def test_guarantee_on_tokens_equals_the_whole_asked_at_once(to):
    with CREATURES.set_to(40):
        assert_the_whole_agrees(parse(wall_and_chumps(4)), to)


@pytest.mark.parametrize("to", ["D", "wall", "giant", "t1", "c0"])
def test_the_whole_combat_on_tokens_answers_as_on_tokens_told_apart(to):
    """Both combat damage steps at once (`two_steps`); and step by step (`guarantee`, on
    fewer tokens, as it tries every first step)."""
    for n, queries in ((3, (maximum, minimum)), (2, (guarantee,))):
        alike = parse(wall_and_chumps(n, strikers=True), whole_combat=True)
        apart = parse(wall_and_chumps(n, strikers=True, told_apart=True), whole_combat=True)
        assert len(interchangeable(alike)) == 2 and interchangeable(apart) == []
        for find in queries:
            answer = find(alike, to, whole_combat=True)
            assert answer.value == find(apart, to, whole_combat=True).value


def test_a_requirement_on_the_last_token_is_met_though_the_first_comes_first():
    """Were t3 ordered after t0..t2, it could not trample over alone; it is named, so it
    is not."""
    combat = parse(wall_and_chumps(4))
    wanted = [requirement("t3->D == 2"), requirement("*->D == 5"), requirement("c3->giant == 1")]
    answer = possible(combat, wanted)
    assert answer.possible
    amounts = Amounts({(e.source, e.to): e.amount for e in answer.assignment})
    assert all(r.holds(amounts) for r in wanted)
    assert_witness(combat, answer.assignment)


def test_a_token_given_an_amount_keeps_it():
    """t2's 2 to D and the bear's 3: the amount given tells t2 apart, else the tokens'
    order would ask as much of t0 and t1."""
    data = wall_and_chumps(4)
    data["assignment"] = [{"source": "t2", "to": "D", "amount": 2}]
    combat = parse(data)
    answer = minimum(combat, "D")
    assert answer.value == 5
    assert Entry("t2", "D", 2) in answer.assignment


# Identical tramplers each blocked by all of the same identical tokens: a matrix of twins.


def tramplers_blocked_by_every_token(
    m: int, n: int, *keywords: str, told_apart: bool = False
) -> dict:
    """m 4/2 tramplers (with `keywords` too), each blocked by all of n 1/2 tokens;
    `told_apart`, each with a quality of its own, which changes no answer."""

    def own(i: int) -> dict:
        return {"qualities": [f"token {i}"]} if told_apart else {}

    tramplers = [attacker(f"t{i}", 4, 2, "trample", *keywords, **own(i)) for i in range(m)]
    blocking = [f"t{i}" for i in range(m)]
    tokens = [blocker(f"b{j}", 1, 2, blocking=blocking, **own(m + j)) for j in range(n)]
    return scenario_file(*tramplers, *tokens)


def test_of_dividers_and_the_twins_they_divide_among_only_the_dividers_are_ordered():
    """What t0 and t1 assign to b0, b1 and b2 is a matrix: its rows (each trampler's
    division) are ordered, its columns (what each token is dealt) are not, even where the
    tokens divide among the tramplers too; a class that no kept class assigns to is."""
    matrix = {(t, r): z3.Int(f"{t}->{r}") for t in ("t0", "t1") for r in ("b0", "b1", "b2", "D")}
    classes = [("t0", "t1"), ("b0", "b1", "b2")]
    assert len(breaking(matrix, classes)) == 1
    replies = {(b, t): z3.Int(f"{b}->{t}") for b in ("b0", "b1", "b2") for t in ("t0", "t1")}
    assert len(breaking({**matrix, **replies}, classes)) == 1
    assert len(breaking(replies, classes)) == 1 + 2
    assert len(breaking(replies, classes[::-1])) == 2


@pytest.mark.parametrize("to", ["D", "t0", "b1"])
def test_the_whole_combat_on_a_matrix_of_twins_answers_as_told_apart(to):
    """Double-striking tramplers each blocked by all of the same tokens, which strike back
    in the second step: both steps at once (`two_steps`), the tokens' exchanges left out."""
    alike, apart = (
        parse(
            tramplers_blocked_by_every_token(2, 3, "double strike", told_apart=t), whole_combat=True
        )
        for t in (False, True)
    )
    assert len(interchangeable(alike)) == 2 and interchangeable(apart) == []
    for find in (maximum, minimum):
        assert find(alike, to, whole_combat=True).value == find(apart, to, whole_combat=True).value


@pytest.mark.parametrize("keywords", [(), ("deathtouch",)])
@pytest.mark.parametrize("to", ["D", "t0", "b1"])
def test_queries_on_a_matrix_of_twins_equal_the_whole_asked_at_once(keywords, to):
    combat = parse(tramplers_blocked_by_every_token(3, 4, *keywords))
    assert sorted(interchangeable(combat)) == [("b0", "b1", "b2", "b3"), ("t0", "t1", "t2")]
    for find, maximize in ((maximum, True), (minimum, False)):
        answer = find(combat, to)
        assert answer.value == _whole_optimum(combat, to, None, maximize)
        assert_witness(combat, answer.assignment)
    most = maximum(combat, to).value
    assert possible(combat, [requirement(f"*->{to} == {most}")]).possible
    assert not possible(combat, [requirement(f"*->{to} > {most}")]).possible
    assert_the_whole_agrees(combat, to)


# Random small combats with twins, against the brute-force reference.


@st.composite
def combats_with_twins(draw):
    """A drawn combat with one or two copies of one of its creatures: the same in every
    way, blocking what it blocks and blocked by what blocks it. Creatures an order or a band
    names are not copied (a copy would need a place in them)."""
    data = draw(scenarios(max_power=3))
    named = {x for p in data["permanents"] for x in p.get("order", ())}
    named |= {m for band in data.get("bands", ()) for m in band}
    creatures = [
        p for p in data["permanents"] if p["types"] == ["creature"] and p["id"] not in named
    ]
    assume(creatures)
    original = draw(st.sampled_from(creatures))
    for i in range(draw(st.integers(1, 2))):
        twin = copy.deepcopy(original)
        twin["id"] = f"{original['id']}x{i}"
        data["permanents"].append(twin)
        for p in data["permanents"]:
            if original["id"] in p.get("blocking", ()):
                p["blocking"].append(twin["id"])
    try:
        combat = parse(data)
    except LethalError:
        assume(False)
    space = prod(len(reference.divisions(combat, p)) for p in combat.permanents if p.is_creature)
    assume(space <= 3000)
    found = interchangeable(combat)
    assume(found)
    for members in found:
        twin = combat.permanent(members[0])
        event("twins blocking" if twin.blocking else "twins blocked" if twin.blocked else "twins")
    return combat


def _exchanged(entries, x: str, y: str) -> list[Entry]:
    swap = {x: y, y: x}
    return [Entry(swap.get(e.source, e.source), swap.get(e.to, e.to), e.amount) for e in entries]


@QUERIES
@given(combats_with_twins())
def test_exchanging_interchangeable_creatures_keeps_every_legal_assignment_legal(combat):
    """The domain's test, held to the reference: a legal assignment with two interchangeable
    creatures' amounts exchanged is legal too."""
    legal = list(reference.legal_assignments(combat))
    for members in interchangeable(combat):
        for x, y in zip(members, members[1:], strict=False):
            for entries in legal:
                assert reference.is_legal(combat, _exchanged(entries, x, y))


@QUERIES
@given(st.data())
def test_max_and_min_with_twins_equal_the_reference(data):
    combat = data.draw(combats_with_twins())
    to = data.draw(st.sampled_from(recipients_of(combat)))
    creatures = [p.id for p in combat.permanents if p.is_creature]
    source = data.draw(st.one_of(st.none(), st.sampled_from(creatures)))
    values = [reference.damage_to(e, to, source) for e in reference.completions(combat)]
    for find, pick in ((maximum, max), (minimum, min)):
        answer = find(combat, to, source)
        if not values:
            assert isinstance(answer, Impossible)
            continue
        assert answer.value == pick(values)
        assert_witness(combat, answer.assignment)


@QUERIES
@given(st.data())
def test_possible_with_twins_equals_the_reference(data):
    combat = data.draw(combats_with_twins())
    creatures = [p.id for p in combat.permanents if p.is_creature]
    wanted = [
        requirement(
            f"{data.draw(st.sampled_from(creatures + ['*']))}->"
            f"{data.draw(st.sampled_from(recipients_of(combat) + ['*']))} "
            f"{data.draw(st.sampled_from(['>=', '<=', '==']))} {data.draw(st.integers(0, 4))}"
        )
        for _ in range(data.draw(st.integers(1, 2)))
    ]
    expected = any(
        all(r.holds(Amounts({(e.source, e.to): e.amount for e in entries})) for r in wanted)
        for entries in reference.completions(combat)
    )
    answer = possible(combat, wanted)
    assert answer.possible == expected
    if expected:
        assert_witness(combat, answer.assignment)


@QUERIES
@given(st.data())
def test_guarantee_with_twins_equals_the_reference(data):
    combat = data.draw(combats_with_twins())
    assume(any(True for _ in reference.completions(combat)))
    to = data.draw(st.sampled_from(recipients_of(combat)))
    answer = guarantee(combat, to)
    assert answer.value == reference.guarantee(combat, to)
    assert_witness(combat, answer.assignment)


# Terms over whole parts read first (`symmetry.breaking`'s `leading`).


def _holds(constraints: list, unknowns: dict, given: dict) -> bool:
    values = [(unknowns[pair], z3.IntVal(v)) for pair, v in given.items()]
    return z3.is_true(z3.simplify(z3.substitute(z3.And(constraints), *values)))


def _every_assignment_keeps_a_twin(unknowns: dict, constraints: list, swap: dict) -> bool:
    """Every assignment of 0 to 2 to each unknown, or its twin with `swap`'s ids exchanged,
    meets every constraint: no answer is lost."""
    for values in itertools.product(range(3), repeat=len(unknowns)):
        given = dict(zip(unknowns, values, strict=True))
        twin = {(swap.get(s, s), r): v for (s, r), v in given.items()}
        if not (_holds(constraints, unknowns, given) or _holds(constraints, unknowns, twin)):
            return False
    return True


def test_parts_ordered_by_a_term_over_them_keep_a_twin_of_every_assignment():
    """Two parts of one creature each, x and y, alike and interchangeable: both the exchange
    of the parts and their class order them. Unless the class too reads the term over each
    part (what it sends to q) first, x = (0 to p, 2 to q) and y = (1, 1) have no twin left:
    the term puts x first, the unknowns y."""
    unknowns = {(s, r): z3.Int(f"{s}->{r}") for s in "xy" for r in "pq"}
    leading = {(frozenset(s), "to q"): unknowns[(s, "q")] for s in "xy"}
    swap = {"x": "y", "y": "x"}
    constraints = breaking(unknowns, [("x", "y")], exchanges=[swap], leading=leading)
    assert len(constraints) == 2
    assert _every_assignment_keeps_a_twin(unknowns, constraints, swap)
    assert not _holds(constraints, unknowns, {("x", "p"): 0, ("x", "q"): 1, **_ys(2, 2)})


def _ys(p: int, q: int) -> dict:
    return {("y", "p"): p, ("y", "q"): q}


def test_a_term_over_a_part_stays_when_two_of_its_creatures_are_exchanged():
    """x and y of one part (with b), interchangeable: their exchange leaves the term over the
    part as it is, so their order is still made, over their unknowns."""
    unknowns = {(s, r): z3.Int(f"{s}->{r}") for s in "xy" for r in "bq"}
    leading = {(frozenset("xyb"), "to q"): unknowns[("x", "q")] + unknowns[("y", "q")]}
    swap = {"x": "y", "y": "x"}
    (constraint,) = breaking(unknowns, [("x", "y")], leading=leading)
    assert _every_assignment_keeps_a_twin(unknowns, [constraint], swap)
    neither = {("x", "b"): 0, ("x", "q"): 2, ("y", "b"): 1, ("y", "q"): 0}
    assert not _holds([constraint], unknowns, neither)  # y sends more to b than x: not first
