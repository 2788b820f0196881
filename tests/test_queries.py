"""The queries agree with the brute-force reference, and their witnesses are legal."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from math import prod

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from lethal import (
    Entry,
    Impossible,
    check,
    count,
    guarantee,
    maximum,
    minimum,
    possible,
)
from lethal.amounts import Amounts
from lethal.cli import main
from lethal.requirements import parse as requirement

from . import reference
from .build import attacker, blocker, planeswalker, scenario, scenario_file
from .strategies import combats

QUERIES = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def small_combats(draw):
    """Combats whose legal assignments the reference can list, sometimes with a partial
    assignment taken from one of them (or made up, so that it may not complete)."""
    combat = draw(combats(max_power=3))
    space = prod(len(reference.divisions(combat, p)) for p in combat.permanents if p.is_creature)
    assume(space <= 3000)
    kind = draw(st.sampled_from(["none", "none", "from a legal one", "made up"]))
    if kind == "from a legal one":
        legal = list(reference.legal_assignments(combat))
        chosen = draw(st.sampled_from(legal)) if legal else []
        kept = [e for e in chosen if draw(st.booleans())]
        combat = replace(combat, assignment=tuple(kept))
    elif kind == "made up":
        creatures = [p.id for p in combat.permanents if p.is_creature]
        recipients = ["D"] + [p.id for p in combat.permanents]
        entry = Entry(
            draw(st.sampled_from(creatures)),
            draw(st.sampled_from(recipients)),
            draw(st.integers(1, 3)),
        )
        combat = replace(combat, assignment=(entry,))
    return combat


def recipients_of(combat):
    return ["D", "A"] + [p.id for p in combat.permanents]


def assert_witness(combat, assignment):
    assert check(combat, assignment).legal
    given = {(e.source, e.to): e.amount for e in combat.assignment or ()}
    amounts = Amounts({(e.source, e.to): e.amount for e in assignment})
    assert all(amounts.get(*pair) == amount for pair, amount in given.items())


@QUERIES
@given(small_combats())
def test_count_equals_the_reference(combat):
    expected = sum(1 for _ in reference.completions(combat))
    event("none" if expected == 0 else "some")
    answer = count(combat, list_limit=50)
    assert answer.count == expected
    assert len(answer.assignments) == min(expected, 50)
    assert len(set(answer.assignments)) == len(answer.assignments)
    for listed in answer.assignments:
        assert_witness(combat, listed)


@QUERIES
@given(st.data())
def test_max_and_min_equal_the_reference(data):
    combat = data.draw(small_combats())
    to = data.draw(st.sampled_from(recipients_of(combat)))
    creatures = [p.id for p in combat.permanents if p.is_creature]
    source = data.draw(st.one_of(st.none(), st.sampled_from(creatures)))
    values = [reference.damage_to(e, to, source) for e in reference.completions(combat)]
    for find, pick in ((maximum, max), (minimum, min)):
        answer = find(combat, to, source)
        if not values:
            assert isinstance(answer, Impossible) and answer.obstacles
            continue
        assert answer.value == pick(values)
        assert_witness(combat, answer.assignment)
        assert reference.damage_to(list(answer.assignment), to, source) == answer.value


@QUERIES
@given(st.data())
def test_possible_equals_the_reference(data):
    combat = data.draw(small_combats())
    creatures = [p.id for p in combat.permanents if p.is_creature]
    source = data.draw(st.sampled_from(creatures + ["*"]))
    to = data.draw(st.sampled_from(recipients_of(combat) + ["*"]))
    comparison = data.draw(st.sampled_from([">=", "<=", "==", ">", "<"]))
    wanted = requirement(f"{source}->{to} {comparison} {data.draw(st.integers(0, 6))}")
    expected = any(
        wanted.holds(Amounts({(e.source, e.to): e.amount for e in entries}))
        for entries in reference.completions(combat)
    )
    event("possible" if expected else "impossible")
    answer = possible(combat, [wanted])
    assert answer.possible == expected
    if expected:
        assert_witness(combat, answer.assignment)
        assert wanted.holds(Amounts({(e.source, e.to): e.amount for e in answer.assignment}))
    else:
        assert answer.obstacles


@QUERIES
@given(st.data())
def test_guarantee_equals_the_reference(data):
    combat = data.draw(small_combats())
    assume(any(True for _ in reference.completions(combat)))
    to = data.draw(st.sampled_from(recipients_of(combat)))
    answer = guarantee(combat, to)
    assert answer.value == reference.guarantee(combat, to)
    assert_witness(combat, answer.assignment)


TRAMPLER_AND_BANDING = [
    attacker("rhino", 5, 5, "trample"),
    blocker("pegasus", 1, 1, "banding", blocking=["rhino"]),
]
TRAMPLER_AND_PLAIN = [attacker("rhino", 5, 5, "trample"), blocker("ox", 1, 1, blocking=["rhino"])]
TOPW_EXAMPLE = [
    attacker("grunt", 1, 1, attacking="jace"),
    attacker("thrasta", 7, 7, "trample over planeswalkers", attacking="jace"),
    planeswalker("jace", 3),
]


def test_guarantee_banding_blocker_keeps_a_trampler_off_the_player():
    """702.22j: the defending player divides the trampler's damage, so A is sure of 0."""
    answer = guarantee(scenario(*TRAMPLER_AND_BANDING), "D")
    assert (answer.player, answer.value) == ("A", 0)


def test_guarantee_without_banding_the_trampler_is_sure_of_4():
    answer = guarantee(scenario(*TRAMPLER_AND_PLAIN), "D")
    assert (answer.player, answer.value) == ("A", 4)


def test_max_702_19c_example_reaches_5_to_the_controller():
    """702.19c example: 1 + 2 on the 3-loyalty planeswalker, then 5 to its controller."""
    assert maximum(scenario(*TOPW_EXAMPLE), "D").value == 5
    assert maximum(scenario(*TOPW_EXAMPLE), "D", "grunt").value == 0


def test_impossible_names_the_rules_in_the_way():
    answer = possible(scenario(*TOPW_EXAMPLE), ["thrasta->D >= 6"])
    assert isinstance(answer, Impossible)
    assert "702.19c" in answer.rules


def test_count_of_the_510_1c_example_is_five_times_the_blockers_choices():
    """510.1c example: the 4/3 may divide 4 among two blockers in 5 ways."""
    combat = scenario(
        attacker("regrower", 4, 3),
        blocker("spawn", 2, 3, blocking=["regrower"]),
        blocker("hunter", 1, 1, blocking=["regrower"]),
    )
    assert count(combat).count == 5


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def topw_file(tmp_path):
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(scenario_file(*TOPW_EXAMPLE)))
    return path


def test_possible_witness_is_accepted_by_check_when_put_back(topw_file, tmp_path):
    code, out, _ = run("possible", str(topw_file), "--require", "thrasta->D >= 5", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["possible"] is True
    data = json.loads(topw_file.read_text())
    data["assignment"] = answer["assignment"]
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps(data))
    assert run("check", str(replay))[0] == 0


def test_possible_impossible_json_names_rules(topw_file):
    code, out, _ = run(
        "possible",
        str(topw_file),
        "--require",
        "thrasta->D >= 6",
        "--require",
        "grunt->jace == 1",
        "--json",
    )
    assert code == 1
    answer = json.loads(out)
    assert answer["possible"] is False and "702.19c" in answer["rules_in_the_way"]
    # The file's edition, as in every answer of a file: not overwritten by the list.
    assert answer["rules"] == "current" and answer["edition"].startswith("current rules")


def test_possible_says_when_the_files_own_pairs_are_what_stands_in_the_way(tmp_path):
    """A trampler fixed at 1 on its 1/3 blocker and 4 past it: a legal assignment exists,
    but none completes the file's, and the headline says which (the rule and the pairs it
    gives are the obstacles)."""
    data = scenario_file(
        *TRAMPLER_AND_PLAIN[:1],
        blocker("ox", 1, 3, blocking=["rhino"]),
        assignment=[("rhino", "ox", 1), ("rhino", "D", 4)],
    )
    path = tmp_path / "fixed.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("possible", str(path), "--require", "ox->rhino == 1")
    assert code == 1
    assert (
        "no legal assignment that completes the file's assignment and meets ox->rhino == 1" in out
    )
    assert "given: the file gives rhino->D = 4" in out
    del data["assignment"]
    path.write_text(json.dumps(data))
    assert (
        "possible: a legal assignment that meets ox->rhino == 1"
        in run("possible", str(path), "--require", "ox->rhino == 1")[1]
    )


def test_guarantee_cites_banding_by_the_number_of_the_files_edition(tmp_path):
    """Banding was 702.19 until 2011-06-16 (702.22 since 2021-04-22)."""
    data = scenario_file(*TRAMPLER_AND_BANDING, rules="2010-01-01")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("guarantee", str(path), "--to", "D")
    assert code == 0 and "(CR 510.1, 702.19j-k)" in out and "702.22" not in out


@pytest.mark.parametrize("command", ["max", "min"])
def test_max_and_min_json_shape(topw_file, command):
    code, out, _ = run(command, str(topw_file), "--to", "D", "--json")
    answer = json.loads(out)
    assert code == 0 and set(answer) == {"rules", "edition", "value", "assignment"}
    assert answer["rules"] == "current"
    assert answer["value"] == (5 if command == "max" else 0)


def test_count_json_shape(topw_file):
    code, out, _ = run("count", str(topw_file), "--json", "--list", "--limit", "2")
    answer = json.loads(out)
    assert code == 0 and set(answer) == {"rules", "edition", "count", "assignments"}
    assert len(answer["assignments"]) == 2


def test_guarantee_json_shape(topw_file):
    code, out, _ = run("guarantee", str(topw_file), "--to", "D", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["value"] == 5 and answer["player"] == "A"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["possible", "--require", "thrasta->D = 6"], "did you mean '=='?"),
        (["possible", "--require", "thrasa->D >= 6"], "did you mean 'thrasta'?"),
        (["max", "--to", "jcae"], "did you mean 'jace'?"),
        (["max", "--to", "D", "--from", "jace"], "unknown source creature 'jace'"),
        (["count", "--list", "--limit", "-1"], "--limit: expected a whole number from 0 to"),
    ],
)
def test_bad_queries_exit_2_with_a_message(topw_file, argv, message):
    code, out, err = run(argv[0], str(topw_file), *argv[1:])
    assert code == 2 and message in err and "Traceback" not in err
