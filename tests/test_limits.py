"""Every stated limit is checked before the work it bounds, and says which limit it is and
the flag that raises it (issue 10). Times are measured in benchmarks/size_limits.py; here
the work past a limit is made to fail if it is ever started."""

from __future__ import annotations

import io
import itertools
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lethal import ScenarioError, count, guarantee, maximum, minimum, parse, possible
from lethal.cli import main
from lethal.combat import Entry
from lethal.errors import (
    LimitReached,
    TooManyAssignments,
    TooManyCreatures,
    TooManyEffectOrders,
    TooManyToCount,
)
from lethal.limits import ASSIGNMENTS, COUNT_STANDINGS, CREATURES, EFFECT_ORDERS
from lethal.rules.dealing import _distinct_orders, _options, apply, changes, deal
from lethal.solver import counting
from lethal.solver.counting import dynamic
from lethal.view import ScenarioView

from .build import attacker, blocker, fights, scenario_file


def _trampler_and_three_blockers(power: int, **top) -> dict:
    return scenario_file(
        attacker("ghalta", power, 12, "trample"),
        *(blocker(f"b{i}", 1, 2, blocking=["ghalta"]) for i in range(3)),
        **top,
    )


def _never(*args, **kwargs):
    raise AssertionError("work past the limit was started")


def test_count_refuses_a_huge_division_before_trying_any(monkeypatch):
    """Power 2**53 - 1 into four recipients: as many values of its first amount to try, each
    followed with the five constraints it leaves open (six standings), counted by arithmetic
    and refused before the first is tried."""
    monkeypatch.setattr(dynamic, "_following", _never)
    with pytest.raises(TooManyToCount, match="--count-limit") as refused:
        count(parse(_trampler_and_three_blockers(2**53 - 1)))
    assert f"would follow {6 * 2**53:,} standings" in str(refused.value)


def test_count_stops_within_the_step_that_would_pass_its_limit():
    """Power 1,000 into four recipients, with a limit of 10,000: the first amount's 1,001
    values are tried (six standings each), and the second amount is refused once the running
    total passes the limit (the first of the first amount's values in, five standings for
    each of its values), not once all of its 501,501 are made."""
    with COUNT_STANDINGS.set_to(10_000), pytest.raises(TooManyToCount) as refused:
        count(parse(_trampler_and_three_blockers(1000)))
    work = int(re.search(r"would follow ([\d,]+)", str(refused.value)).group(1).replace(",", ""))
    assert 10_000 < work <= 1001 * 6 + 1001 * 5


@pytest.mark.parametrize("listing", [[], ["--list", "--limit", "5"]])
def test_count_past_its_limit_exits_3_naming_it(listing, tmp_path, monkeypatch):
    monkeypatch.setattr(dynamic, "_following", _never)
    path = tmp_path / "ghalta.json"
    path.write_text(json.dumps(_trampler_and_three_blockers(2**53 - 1)))
    err = io.StringIO()
    assert main(["count", str(path), *listing], io.StringIO(), err) == 3
    assert "count limit of 20,000,000; raise --count-limit" in err.getvalue()


def test_given_amounts_leave_only_the_free_pairs_to_divide():
    """With 6 of ghalta's 1000 given to its blockers, one row is left: the rest to D."""
    given = [("ghalta", f"b{i}", 2) for i in range(3)] + [(f"b{i}", "ghalta", 1) for i in range(3)]
    answer = count(parse(_trampler_and_three_blockers(1000, assignment=given)), list_limit=1)
    assert answer.count == 1
    assert Entry("ghalta", "D", 994) in answer.assignments[0]


def _shields(number: int, attackers: int, amount: int = 1) -> dict:
    return scenario_file(
        *(attacker(f"a{i}", 3, 3) for i in range(attackers)),
        effects=[
            {"id": f"s{i}", "kind": "prevent", "amount": amount, "to": "D"} for i in range(number)
        ],
        assignment=[(f"a{i}", "D", 3) for i in range(attackers)],
    )


def test_eight_alike_shields_on_one_event_are_tried_in_one_order():
    combat = parse(_shields(8, 1))
    steps = [(0, c) for c in changes(ScenarioView(combat), "a0", "D")]
    assert len(list(_distinct_orders(steps))) == 1
    (outcome,) = deal(combat)
    assert outcome.dealt == ()


def _steps(combat):
    events = [e for e in combat.assignment if e.to == "D"]
    view = ScenarioView(combat)
    return events, [(n, c) for n, e in enumerate(events) for c in changes(view, e.source, "D")]


@pytest.mark.parametrize(
    "effects",
    [
        [("prevent", 1), ("prevent", 1), ("prevent", 2)],
        [("prevent", 2), ("double", 0), ("double", 0), ("add", 1)],
        [("prevent", 1), ("prevent", 1), ("add", 1), ("add", 1)],
    ],
)
def test_distinct_orders_give_every_damage_every_order_gives(effects):
    """Up to which alike effect is which, nothing is lost: the damage dealt by every order
    (and every split of a shield among the events, 615.7) is the damage dealt by some
    distinct order, and the limit counts the distinct orders."""
    data = _shields(0, 2)
    data["effects"] = [
        {"id": f"e{i}", "kind": kind, **({"amount": n} if kind != "double" else {})}
        | ({"to": "D"} if kind == "prevent" else {})
        for i, (kind, n) in enumerate(effects)
    ]
    combat = parse(data)
    events, steps = _steps(combat)
    distinct = list(_distinct_orders(steps))
    assert len(distinct) == len(set(distinct))
    view = ScenarioView(combat)
    with EFFECT_ORDERS.set_to(len(distinct)):
        dealt = {key[0] for key in _options(view, "D", events)}
    with EFFECT_ORDERS.set_to(len(distinct) - 1), pytest.raises(TooManyEffectOrders):
        _options(view, "D", events)
    every = {d for order in itertools.permutations(steps) for d in _deal_in(combat, events, order)}
    assert dealt == every


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=4),
    st.integers(1, 7),
    st.sets(st.integers(0, 3)),
    st.sets(st.integers(0, 3)),
)
def test_a_lone_shield_is_split_every_way_its_orders_split_it(powers, amount, limited, beasts):
    """A shield that is the only effect on the damage to D is split among the events without
    trying their orders (9 attackers: 362,880 of them, refused before): the same damage
    dealt and the same shield left as every order gives, the slow, obvious way. Now and
    then the shield is limited to some sources, or some damage can't be prevented."""
    attackers = [attacker(f"a{i}", p, 3) for i, p in enumerate(powers)]
    limited = [f"a{i}" for i in sorted(limited) if i < len(powers)]
    sources = {"sources": limited} if limited else {}
    unpreventable = [f"a{i}" for i in sorted(beasts) if i < len(powers)]
    effects = [{"id": "salve", "kind": "prevent", "amount": amount, "to": "D", **sources}]
    if unpreventable:
        effects.append({"id": "beast", "kind": "cant-be-prevented", "sources": unpreventable})
    combat = parse(
        scenario_file(
            *attackers,
            effects=effects,
            assignment=[(f"a{i}", "D", p) for i, p in enumerate(powers)],
        )
    )
    events, steps = _steps(combat)
    options = _options(ScenarioView(combat), "D", events)
    every = {d for order in itertools.permutations(steps) for d in _deal_in(combat, events, order)}
    assert {dealt for dealt, _, _ in options} == every
    for dealt, kept, used in options:
        assert kept == (("salve", amount - sum(e.amount for e in events) + sum(dealt)),)
        assert used == frozenset()


def _deal_in(combat, events, order) -> set[tuple[int, ...]]:
    """The damage one order deals, the slow, obvious way: each time a shield meets an event
    it prevents any part of what is left of it, and a split counts only if the shield ends
    used up or prevented all it met (615.7)."""
    found = set()

    def go(i, dealt, shields, held_back):
        if i == len(order):
            if all(shields[name] == 0 for name in held_back):
                found.add(tuple(dealt))
            return
        n, change = order[i]
        if change.kind != "prevent":
            after = list(dealt)
            after[n], _ = apply(change, dealt[n], 0)
            go(i + 1, after, shields, held_back)
            return
        most = min(dealt[n], shields[change.name])
        for part in range(most + 1):
            after = list(dealt)
            after[n] -= part
            left = {**shields, change.name: shields[change.name] - part}
            go(i + 1, after, left, held_back | ({change.name} if part < most else set()))

    shields = {e.id: e.amount for e in combat.effects if e.kind == "prevent"}
    go(0, [e.amount for e in events], shields, frozenset())
    return found


def test_deal_past_the_effect_order_limit_exits_3_before_trying_any(tmp_path, monkeypatch):
    from lethal.rules import dealing

    monkeypatch.setattr(dealing, "_distinct_orders", _never)
    path = tmp_path / "shields.json"
    path.write_text(json.dumps(_shields(8, 3)))
    err = io.StringIO()
    assert main(["deal", str(path)], io.StringIO(), err) == 3
    assert "effect order limit of 100,000; raise --effect-order-limit" in err.getvalue()


def _army(creatures: int) -> dict:
    return scenario_file(*(attacker(f"a{i}", 1, 1) for i in range(creatures)))


QUERIES = [
    lambda c, combat: possible(c, whole_combat=combat),
    lambda c, combat: maximum(c, "D", whole_combat=combat),
    lambda c, combat: minimum(c, "D", whole_combat=combat),
    lambda c, combat: guarantee(c, "D", whole_combat=combat),
    lambda c, combat: count(c),
]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("whole_combat", [False, True])
def test_a_query_past_the_creature_limit_is_refused_before_any_work(
    query, whole_combat, monkeypatch
):
    from lethal.solver import encoding

    monkeypatch.setattr(encoding.Encoding, "__init__", _never)
    combat = parse(_army(CREATURES.default + 1), whole_combat=whole_combat)
    with pytest.raises(
        TooManyCreatures, match=f"{CREATURES.default + 1:,} creatures, more than the creature limit"
    ):
        query(combat, whole_combat)
    with CREATURES.set_to(CREATURES.default + 1), pytest.raises(AssertionError, match="past"):
        query(combat, whole_combat)


def test_the_creature_limit_is_exit_3_and_check_is_not_bound_by_it(tmp_path):
    data = _army(CREATURES.default + 1)
    path = tmp_path / "army.json"
    path.write_text(json.dumps(data))
    err = io.StringIO()
    assert main(["max", str(path), "--to", "D"], io.StringIO(), err) == 3
    assert "raise --creature-limit" in err.getvalue()
    data["assignment"] = [
        {"source": f"a{i}", "to": "D", "amount": 1} for i in range(CREATURES.default + 1)
    ]
    path.write_text(json.dumps(data))
    assert main(["check", str(path)], io.StringIO(), io.StringIO()) == 0


def test_the_whole_combat_tries_at_most_its_assignment_limit():
    combat = parse(
        scenario_file(
            attacker("knight", 2, 2, "first strike"),
            blocker("x", 1, 1, blocking=["knight"]),
            blocker("y", 1, 1, blocking=["knight"]),
        ),
        whole_combat=True,
    )
    with ASSIGNMENTS.set_to(1), pytest.raises(TooManyAssignments, match="--assignment-limit"):
        guarantee(combat, "D", whole_combat=True)
    assert maximum(combat, "x", whole_combat=True).value == 2


def test_a_file_that_does_not_start_the_phase_is_a_scenario_error():
    """--combat starts from the phase's beginning: a step or an assignment is the file's
    problem (exit 2), each named where it is."""
    data = scenario_file(
        attacker("knight", 2, 2, "first strike"),
        step="first-strike",
        assignment=[("knight", "D", 2)],
    )
    with pytest.raises(ScenarioError) as bad:
        possible(parse(data), whole_combat=True)
    assert [p.place for p in bad.value.problems] == ["step", "assignment"]


def test_every_stated_limit_is_a_limit_reached():
    for error in (TooManyToCount, TooManyEffectOrders, TooManyCreatures, TooManyAssignments):
        assert issubclass(error, LimitReached)


def test_an_open_order_of_thousands_of_blockers_is_refused_with_its_size_in_words(tmp_path):
    """1,600 blockers have 1,600! orders, more digits than Python writes out as text: the
    limit says how many digits, rather than failing on the number (exit 3, not 4)."""
    data = scenario_file(
        attacker("big", 2, 2),
        *(blocker(f"b{i}", 0, 1, blocking=["big"]) for i in range(1600)),
        rules="2015-01-01",
        assignment=[("big", "b0", 2)],
    )
    path = tmp_path / "gang.json"
    path.write_text(json.dumps(data))
    err = io.StringIO()
    assert main(["check", str(path)], io.StringIO(), err) == 3
    assert "(big alone has 1600!, a number of 4434 digits)" in err.getvalue()


def test_a_phase_past_the_assignment_limit_lists_none_of_its_assignments(monkeypatch):
    """Twelve fights, one trampler with toxic 1, and a shield on D: `possible` deals every
    split of it (whose damage is prevented decides D's poison), and the first-strike
    step's 3^12 assignments are refused having been counted, not listed (the first 20,000
    of a board's 2^100 took 8 s and 400 MB before the refusal)."""
    monkeypatch.setattr(counting._Group, "rows", _never)
    data = fights([3] * 12, [1] * 12)
    data["permanents"][0]["keywords"].append("toxic 1")
    data["effects"] = [{"id": "salve", "kind": "prevent", "amount": 3, "to": "D"}]
    combat = parse(data, whole_combat=True)
    with pytest.raises(TooManyAssignments, match="has 531,441 legal assignments"):
        possible(combat, ["*->D >= 1"], whole_combat=True)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=3),
    st.lists(st.sampled_from([("double", 0), ("add", 1), ("add", 2)]), min_size=1, max_size=2),
    st.booleans(),
)
def test_effects_with_no_state_are_ordered_event_by_event(powers, kinds, protected):
    """With no shield and no "next time" prevention, each event's effects are ordered apart
    (how the events' orders interleave changes nothing): the same damage dealt as every
    order of every step gives, the slow, obvious way. Now and then D has protection from
    the first attacker's quality."""
    data = scenario_file(
        *(attacker(f"a{i}", p, 3) for i, p in enumerate(powers)),
        effects=[
            {"id": f"e{i}", "kind": kind, **({"amount": n} if kind == "add" else {})}
            for i, (kind, n) in enumerate(kinds)
        ],
        assignment=[(f"a{i}", "D", p) for i, p in enumerate(powers)],
    )
    if protected:
        data["permanents"][0]["qualities"] = ["wolves"]
        data["players"][1]["keywords"] = ["protection from wolves"]
    combat = parse(data)
    events, steps = _steps(combat)
    every = {d for order in itertools.permutations(steps) for d in _deal_in(combat, events, order)}
    assert {dealt for dealt, _, _ in _options(ScenarioView(combat), "D", events)} == every


def test_nine_attackers_of_a_player_with_protection_from_them_deal_nothing():
    """One order of the nine events' protection, not 9! = 362,880 (refused before)."""
    wolves = [attacker(f"w{i}", 2, 2) for i in range(9)]
    for wolf in wolves:
        wolf["qualities"] = ["wolves"]
    data = scenario_file(*wolves, assignment=[(f"w{i}", "D", 2) for i in range(9)])
    data["players"][1]["keywords"] = ["protection from wolves"]
    (outcome,) = deal(parse(data))
    assert outcome.dealt == ()


def test_events_ordered_apart_are_refused_past_the_limit_on_their_outcomes_together():
    """Three attackers of D, each event met by a doubler and "plus 1": two outcomes each
    (616.1: doubled then plus 1, or plus 1 then doubled), eight together."""
    data = scenario_file(
        *(attacker(f"a{i}", 2, 2) for i in range(3)),
        effects=[
            {"id": "dictate", "kind": "double"},
            {"id": "torbran", "kind": "add", "amount": 1},
        ],
        assignment=[(f"a{i}", "D", 2) for i in range(3)],
    )
    combat = parse(data)
    with EFFECT_ORDERS.set_to(8):
        assert len(deal(combat)) == 8
    with EFFECT_ORDERS.set_to(7), pytest.raises(TooManyEffectOrders, match="8 outcomes together"):
        deal(combat)
