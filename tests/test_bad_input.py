"""Malformed scenarios get a clear error: the place, the value found, what was expected."""

from __future__ import annotations

import copy
import io
import json
import os
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

from lethal import ScenarioError, ScenarioWarning, check, load, loads, parse
from lethal.cli import main

from .build import attacker, battle, blocker, creature_planeswalker, planeswalker, scenario_file

GOOD = scenario_file(
    attacker("rhino", 3, 3, "trample"),
    blocker("wall", 2, 2, blocking=["rhino"]),
    assignment=[("rhino", "wall", 2), ("rhino", "D", 1), ("wall", "rhino", 2)],
)


def edited(change) -> dict:
    data = copy.deepcopy(GOOD)
    change(data)
    return data


def set_in(path, value):
    def change(data):
        *parents, last = path
        target = data
        for key in parents:
            target = target[key]
        target[last] = value

    return change


def with_permanents(*permanents, **top):
    return lambda data: data.update(permanents=list(permanents), **top)


def three_players(data):
    data["players"].append({"id": "E"})


ROWS = [
    (
        "the file is a list, not an object",
        [1, 2],
        "",
        "expected the scenario to be one JSON object",
    ),
    (
        "an unknown top-level field",
        edited(lambda d: d.update(permanent=[])),
        "permanent",
        "did you mean 'permanents'?",
    ),
    ("a missing required field", edited(lambda d: d.pop("players")), "players", "missing"),
    (
        "an unknown permanent field",
        edited(set_in(["permanents", 0, "tougness"], 3)),
        "permanents[0].tougness",
        "did you mean 'toughness'?",
    ),
    (
        "a string for an integer",
        edited(set_in(["permanents", 1, "toughness"], "2")),
        "permanents[1].toughness",
        "expected an integer, found a string '2'",
    ),
    (
        "a boolean for an integer",
        edited(set_in(["permanents", 0, "power"], True)),
        "permanents[0].power",
        "expected an integer, found a boolean true",
    ),
    (
        "a fraction for an integer",
        edited(set_in(["permanents", 0, "power"], 2.5)),
        "permanents[0].power",
        "expected an integer, found a number 2.5",
    ),
    (
        "an unknown format",
        edited(set_in(["format"], "lethal/2")),
        "format",
        "expected 'lethal/1', found 'lethal/2'",
    ),
    (
        "a rules edition that is neither current nor a date says what it takes",
        edited(set_in(["rules"], "2023")),
        "rules",
        "neither 'current' nor a date written YYYY-MM-DD",
    ),
    (
        "a misspelled current rules edition gets a suggestion",
        edited(set_in(["rules"], "curent")),
        "rules",
        "did you mean 'current'?",
    ),
    (
        "the current rules in capitals get a suggestion, case aside",
        edited(set_in(["rules"], "CURRENT")),
        "rules",
        "did you mean 'current'?",
    ),
    (
        "a date written in digits of another script",
        edited(set_in(["rules"], "\uff12\uff10\uff12\uff14-01-01")),
        "rules",
        "neither 'current' nor a date written YYYY-MM-DD",
    ),
    (
        "a date that is not on the calendar",
        edited(set_in(["rules"], "2023-02-30")),
        "rules",
        "'2023-02-30' is not a calendar date",
    ),
    (
        "a date before the M10 rewrite says which rules are modelled",
        edited(set_in(["rules"], "2009-07-10")),
        "rules",
        "lethal models the rules from 2009-07-11 on",
    ),
    (
        "a misspelled step",
        edited(set_in(["step"], "first strike")),
        "step",
        "did you mean 'first-strike'?",
    ),
    (
        "a misspelled keyword",
        edited(set_in(["permanents", 0, "keywords"], ["trampel"])),
        "permanents[0].keywords[0]",
        "unknown keyword 'trampel' (did you mean 'trample'?)",
    ),
    (
        "a misspelled quality keyword",
        edited(set_in(["permanents", 0, "keywords"], ["protection from: red"])),
        "permanents[0].keywords[0]",
        "did you mean 'protection from red'?",
    ),
    (
        "a misspelled type",
        edited(set_in(["permanents", 0, "types"], ["creture"])),
        "permanents[0].types[0]",
        "did you mean 'creature'?",
    ),
    (
        "no types",
        edited(set_in(["permanents", 0, "types"], [])),
        "permanents[0].types",
        "expected one or more of creature, planeswalker, battle",
    ),
    (
        "an unknown id, near a known one",
        edited(set_in(["permanents", 1, "blocking"], ["rhyno"])),
        "permanents[1].blocking[0]",
        "unknown id 'rhyno' (did you mean 'rhino'?)",
    ),
    (
        "an unknown attack target",
        edited(set_in(["permanents", 0, "attacking"], "DD")),
        "permanents[0].attacking",
        "did you mean 'D'?",
    ),
    (
        "an unknown active player",
        edited(set_in(["active_player"], "a")),
        "active_player",
        "unknown id 'a'",
    ),
    (
        "duplicate ids",
        edited(set_in(["permanents", 1, "id"], "rhino")),
        "permanents[1].id",
        "duplicate id 'rhino' (already used at permanents[0].id)",
    ),
    (
        "an id shared by a player and a permanent",
        edited(set_in(["permanents", 1, "id"], "D")),
        "permanents[1].id",
        "duplicate id 'D'",
    ),
    (
        "one player",
        edited(set_in(["players"], [{"id": "A"}])),
        "players",
        "expected at least two players, found 1",
    ),
    (
        "toughness 0",
        edited(set_in(["permanents", 1, "toughness"], 0)),
        "permanents[1].toughness",
        "expected 1 or more, found 0",
    ),
    (
        "lethal damage marked on a creature that is not indestructible",
        edited(set_in(["permanents", 1, "damage"], 2)),
        "permanents[1].damage",
        "2 damage marked is lethal for toughness 2",
    ),
    (
        "negative damage marked",
        edited(set_in(["permanents", 1, "damage"], -1)),
        "permanents[1].damage",
        "expected an integer 0 or more, found -1",
    ),
    (
        "a planeswalker with loyalty 0",
        edited(
            with_permanents(
                attacker("bear", 2, 2, attacking="jace"), planeswalker("jace", 0), assignment=[]
            )
        ),
        "permanents[1].loyalty",
        "expected 1 or more, found 0",
    ),
    (
        "power on a planeswalker",
        edited(
            with_permanents(planeswalker("jace", 3, power=2), attacker("bear", 2, 2), assignment=[])
        ),
        "permanents[0].power",
        "only a creature has power",
    ),
    (
        "blocking a creature that is not attacking",
        edited(
            with_permanents(
                attacker("bear", 2, 2),
                {"id": "elf", "controller": "A", "types": ["creature"], "power": 1, "toughness": 1},
                blocker("wall", 0, 4, blocking=["elf"]),
                assignment=[],
            )
        ),
        "permanents[2].blocking[0]",
        "'elf' is not attacking, so it can't be blocked",
    ),
    (
        "a blocker whose controller is not the defending player",
        edited(lambda d: (three_players(d), d["permanents"][1].update(controller="E"))),
        "permanents[1].blocking[0]",
        "only creatures of its defending player 'D' can block it",
    ),
    (
        "a creature of the battle's controller blocking for it (310.8c)",
        edited(
            with_permanents(
                attacker("bear", 2, 2, attacking="siege"),
                battle("siege", 4, controller="E", protector="D"),
                {
                    "id": "guard",
                    "controller": "E",
                    "types": ["creature"],
                    "power": 1,
                    "toughness": 1,
                    "blocking": ["bear"],
                },
                assignment=[],
                players=[{"id": "A"}, {"id": "D"}, {"id": "E"}],
            )
        ),
        "permanents[2].blocking[0]",
        "defending player 'D'",
    ),
    (
        "attacking the active player",
        edited(set_in(["permanents", 0, "attacking"], "A")),
        "permanents[0].attacking",
        "'A' is the active player",
    ),
    (
        "attacking a creature",
        edited(set_in(["permanents", 0, "attacking"], "wall")),
        "permanents[0].attacking",
        "a creature attacks a player, a planeswalker or a battle",
    ),
    (
        "a band whose members attack different things (702.22d)",
        edited(
            with_permanents(
                attacker("hero", 1, 1, "banding"),
                attacker("angel", 4, 4, attacking="jace"),
                planeswalker("jace", 3),
                bands=[["hero", "angel"]],
                assignment=[],
            )
        ),
        "bands[0]",
        "attack different things",
    ),
    (
        "a planeswalker removed from combat that nothing attacks (506.4c)",
        edited(
            with_permanents(
                attacker("bear", 2, 2),
                planeswalker("jace", 3, removed_from_combat=True),
                assignment=[],
            )
        ),
        "permanents[1].removed_from_combat",
        "no creature attacks it, so it was never in combat to be removed from (CR 506.4c); "
        "leave the field out",
    ),
    (
        "a planeswalker removed from combat that still blocks (506.4)",
        edited(
            with_permanents(
                attacker("bear", 2, 2, attacking="gideon"),
                creature_planeswalker(
                    "gideon", 2, 2, 3, blocking=["bear"], removed_from_combat=True
                ),
                assignment=[],
            )
        ),
        "permanents[1].blocking",
        "no longer blocking",
    ),
    (
        "a band banding does not allow (702.22c)",
        edited(
            with_permanents(
                attacker("x", 1, 1), attacker("y", 1, 1), bands=[["x", "y"]], assignment=[]
            )
        ),
        "bands[0]",
        "banding does not allow this band",
    ),
    (
        "a band with two creatures without banding (702.22c)",
        edited(
            with_permanents(
                attacker("x", 1, 1, "banding"),
                attacker("y", 1, 1),
                attacker("z", 1, 1),
                bands=[["x", "y", "z"]],
                assignment=[],
            )
        ),
        "bands[0]",
        "banding does not allow this band",
    ),
    (
        "a 'bands with other' band with a member lacking the quality (702.22c)",
        edited(
            with_permanents(
                attacker(
                    "x",
                    1,
                    1,
                    "bands with other Wolves of the Hunt",
                    qualities=["Wolves of the Hunt"],
                ),
                attacker("y", 1, 1),
                bands=[["x", "y"]],
                assignment=[],
            )
        ),
        "bands[0]",
        "banding does not allow this band",
    ),
    (
        "a band only partly blocked (702.22h)",
        edited(
            with_permanents(
                attacker("hero", 1, 1, "banding"),
                attacker("angel", 4, 4),
                blocker("horde", 5, 5, blocking=["hero"]),
                bands=[["hero", "angel"]],
                assignment=[],
            )
        ),
        "bands[0]",
        "'horde' blocks hero but not angel",
    ),
    (
        "a creature in two bands",
        edited(
            with_permanents(
                attacker("x", 1, 1, "banding"),
                attacker("y", 1, 1, "banding"),
                attacker("z", 1, 1),
                bands=[["x", "y"], ["y", "z"]],
                assignment=[],
            )
        ),
        "bands[1][0]",
        "already in bands[0]",
    ),
    (
        "a first striker with no step given",
        edited(set_in(["permanents", 0, "keywords"], ["first strike"])),
        "step",
        "rhino has first strike or double strike",
    ),
    (
        "a first-strike step with no first striker",
        edited(set_in(["step"], "first-strike")),
        "step",
        "no attacking or blocking creature has first strike",
    ),
    (
        "struck_first outside the second step",
        edited(set_in(["permanents", 0, "struck_first"], True)),
        "permanents[0].struck_first",
        "only for step 'second'",
    ),
    (
        "blocked false while a creature blocks it",
        edited(set_in(["permanents", 0, "blocked"], False)),
        "permanents[0].blocked",
        "false, but wall blocks it",
    ),
    (
        "an amount of 0",
        edited(set_in(["assignment", 0, "amount"], 0)),
        "assignment[0].amount",
        "expected an integer 1 or more",
    ),
    (
        "the same pair twice",
        edited(lambda d: d["assignment"].append({"source": "rhino", "to": "wall", "amount": 1})),
        "assignment[3]",
        "already given at assignment[0]",
    ),
    (
        "a source that is a player",
        edited(set_in(["assignment", 0, "source"], "D")),
        "assignment[0].source",
        "'D' is not a creature",
    ),
    (
        "a recipient that does not exist",
        edited(set_in(["assignment", 1, "to"], "DD")),
        "assignment[1].to",
        "did you mean 'D'?",
    ),
    # What damage does (issue 11): the place, the value found, and what to write instead.
    (
        "toxic without its number (702.164a)",
        edited(set_in(["permanents", 0, "keywords"], ["toxic"])),
        "permanents[0].keywords[0]",
        "'toxic': toxic needs a whole number from 1 to 1,000,000 after it, the N of 'toxic N' "
        "on the card (CR 702.164a), and found none; write 'toxic 1', 'toxic 2', ...",
    ),
    (
        "toxic 0 (702.164a)",
        edited(set_in(["permanents", 0, "keywords"], ["trample", "toxic 0"])),
        "permanents[0].keywords[1]",
        "'toxic 0': toxic needs a whole number from 1 to 1,000,000 after it, the N of 'toxic N' "
        "on the card (CR 702.164a), and found '0'; write 'toxic 1', 'toxic 2', ...",
    ),
    (
        "poison counters below 0",
        edited(set_in(["players", 1, "poison"], -1)),
        "players[1].poison",
        "expected an integer 0 or more (the poison counters the player has now), found -1",
    ),
    (
        "regeneration shields on a player (701.19a)",
        edited(set_in(["players", 1, "regeneration_shields"], 1)),
        "players[1].regeneration_shields",
        "found 1 on a player, but a player is never destroyed, so it can't be regenerated "
        "(CR 701.19a); give regeneration_shields to the creature it should save",
    ),
    (
        "an effect whose sources name a player (510.1)",
        edited(set_in(["effects"], [{"id": "fog", "kind": "prevent", "sources": ["D"]}])),
        "effects[0].sources[0]",
        "'D' is not a creature, and only creatures deal combat damage (CR 510.1); name "
        "creatures (rhino, wall)",
    ),
    (
        "an effect whose sources name a planeswalker (510.1)",
        edited(
            with_permanents(
                attacker("bear", 2, 2, attacking="jace"),
                planeswalker("jace", 3),
                assignment=[],
                effects=[{"id": "skullcrack", "kind": "cant-be-prevented", "sources": ["jace"]}],
            )
        ),
        "effects[0].sources[0]",
        "'jace' is not a creature, and only creatures deal combat damage (CR 510.1); name "
        "creatures (bear)",
    ),
    (
        "an effect whose sources name nothing",
        edited(set_in(["effects"], [{"id": "beast", "kind": "cant-be-prevented", "sources": []}])),
        "effects[0].sources",
        "found an empty list, which names no creature, so the effect would apply to nothing; "
        "leave out 'sources' for every source, or name the creatures",
    ),
    (
        "an effect whose recipients name nothing",
        edited(set_in(["effects"], [{"id": "dictate", "kind": "double", "recipients": []}])),
        "effects[0].recipients",
        "found an empty list, which names no player or permanent, so the effect would apply "
        "to nothing; leave out 'recipients' for every recipient, or name them",
    ),
    (
        "an effect of kind null",
        edited(set_in(["effects"], [{"id": "fog", "kind": None}])),
        "effects[0].kind",
        "unknown effect null; expected one of double, prevent, add, cant-be-prevented",
    ),
    (
        "a prevention of the next N damage with no recipient (615.7)",
        edited(set_in(["effects"], [{"id": "shield", "kind": "prevent", "amount": 3}])),
        "effects[0].to",
        "missing: a prevention of the next N damage is a shield on one player or permanent, "
        "whose player chooses which damage it prevents (CR 615.7); give 'to', or leave out "
        "'amount' to prevent all the damage",
    ),
    (
        "an unknown card type gets a suggestion",
        edited(set_in(["permanents", 0, "types"], ["artefact", "creature"])),
        "permanents[0].types[0]",
        "unknown card type 'artefact' (did you mean 'artifact'?); expected the card types of a "
        "permanent: artifact, battle, creature, enchantment, kindred, land, planeswalker",
    ),
    (
        "a supertype among the card types is sent to the qualities",
        edited(set_in(["permanents", 0, "types"], ["creature", "legendary"])),
        "permanents[0].types[1]",
        "unknown card type 'legendary'; expected the card types of a permanent: artifact, "
        "battle, creature, enchantment, kindred, land, planeswalker (supertypes, subtypes and "
        "colours, such as 'legendary' or 'Elf', go in 'qualities')",
    ),
    (
        "a player keyword that is not protection (702.16b)",
        edited(set_in(["players", 1, "keywords"], ["lifelink"])),
        "players[1].keywords[0]",
        "'lifelink' is a creature's keyword; a player has only protection ('protection from "
        "everything', 'protection from <quality>', CR 702.16b), or hexproof and shroud",
    ),
    (
        "a keyword lethal ignores on creatures, which no player has",
        edited(set_in(["players", 1, "keywords"], ["flying"])),
        "players[1].keywords[0]",
        "'flying' is a creature's keyword; a player has only protection",
    ),
    (
        "ward, with its cost, on a player",
        edited(set_in(["players", 1, "keywords"], ["ward {2}"])),
        "players[1].keywords[0]",
        "'ward {2}' is a creature's keyword",
    ),
]


@pytest.mark.parametrize("data, place, fragment", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_bad_scenario_names_the_place_and_what_was_expected(data, place, fragment):
    with pytest.raises(ScenarioError) as caught:
        parse(data, "combat.json")
    matching = [p for p in caught.value.problems if p.place == place]
    assert matching, f"no problem at {place!r}: {caught.value}"
    assert any(fragment in p.message for p in matching), str(caught.value)


@pytest.mark.parametrize("keyword", ["hexproof", "shroud"])
def test_a_player_may_have_hexproof_or_shroud_which_change_nothing(keyword):
    data = edited(set_in(["players", 1, "keywords"], [keyword]))
    assert check(parse(data, "combat.json")) == check(parse(GOOD, "combat.json"))


UNMATCHED = (
    "permanents[1].keywords[0]: 'protection from red' matches no permanent of the file: none "
    "has 'red' among its qualities or types, so it prevents nothing (CR 702.16a); add it to the "
    "qualities of the sources it should match"
)


def test_a_protection_quality_nothing_has_is_a_warning_not_an_error():
    """702.16a: "protection from red" where no permanent is red prevents nothing; the file
    reads, with a ScenarioWarning naming the place, the keyword and what to do."""
    data = edited(set_in(["permanents", 1, "keywords"], ["protection from red"]))
    with pytest.warns(ScenarioWarning) as caught:
        combat = parse(data, "combat.json")
    assert [str(w.message) for w in caught] == [f"combat.json: {UNMATCHED}"]
    assert "red" in combat.permanent("wall").keywords.protection_from
    data["permanents"][0]["qualities"] = ["Red"]  # a red source: nothing to warn of
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScenarioWarning)
        parse(data, "combat.json")


def test_the_command_prints_the_warning_on_stderr_and_keeps_its_exit_code(tmp_path):
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(GOOD))
    quiet_out, quiet_err = io.StringIO(), io.StringIO()
    quiet = main(["check", str(path)], stdout=quiet_out, stderr=quiet_err)
    path.write_text(
        json.dumps(edited(set_in(["permanents", 1, "keywords"], ["protection from red"])))
    )
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", str(path)], stdout=out, stderr=err) == quiet == 0
    assert err.getvalue() == f"{path}: warning: {UNMATCHED}\n"
    assert quiet_err.getvalue() == ""
    assert out.getvalue() == quiet_out.getvalue()


def test_a_whole_combat_of_three_players_with_a_first_strike_step_warns_of_leaving_the_game(
    tmp_path,
):
    """With more than two players the game goes on when one loses in the first-strike step,
    and lethal does not model leaving the game (800.4a; docs/readings.md): a 3/3 double
    striker at D, on 2 life, reaches 6 here; the answer says so on standard error. Two
    players (the game ends), or no first-strike step, or a single step: no warning."""
    striker = attacker("striker", 3, 3, "double strike")
    three = [{"id": "A"}, {"id": "D", "life": 2}, {"id": "E"}]
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(scenario_file(striker, players=three)))
    out, err = io.StringIO(), io.StringIO()
    assert main(["max", "--combat", str(path), "--to", "D"], stdout=out, stderr=err) == 0
    assert "at most 6 combat damage to D" in out.getvalue()
    assert err.getvalue() == (
        f"{path}: warning: players: 3 players and a first-strike step: a player who loses in "
        "it stays in the game for the second step here, its permanents and the creatures "
        "attacking it as they were (what leaving the game does, CR 800.4a, is not modelled), "
        "unless all but one player have lost, which ends the game (CR 104.2a)\n"
    )
    quiet = [
        (["max", "--combat"], scenario_file(striker, players=three[:2])),
        (["max", "--combat"], scenario_file(attacker("bear", 2, 2), players=three)),
        (["max"], scenario_file(striker, players=three, step="first-strike")),
    ]
    for command, data in quiet:
        path.write_text(json.dumps(data))
        err = io.StringIO()
        main([*command, str(path), "--to", "D"], stdout=io.StringIO(), stderr=err)
        assert err.getvalue() == "", (command, data)


def test_every_problem_is_reported_at_once():
    data = edited(lambda d: (d["permanents"][0].update(power="3"), d.update(step="firs")))
    with pytest.raises(ScenarioError) as caught:
        parse(data)
    assert {p.place for p in caught.value.problems} == {"permanents[0].power", "step"}


def test_lethal_damage_marked_on_an_indestructible_creature_is_fine():
    data = edited(set_in(["permanents", 1, "damage"], 2))
    data["permanents"][1]["keywords"] = ["indestructible"]
    assert parse(data).permanent("wall").damage == 2


def test_a_key_given_twice_in_the_json_is_an_error():
    text = json.dumps(GOOD).replace(
        '"active_player": "A"', '"active_player": "A", "active_player": "D"'
    )
    with pytest.raises(ScenarioError, match="active_player: given twice"):
        loads(text)


def test_text_that_is_not_json_names_line_and_column():
    with pytest.raises(ScenarioError, match=r"combat.json: line 2, column 1: not valid JSON"):
        loads('{"players": [\n}', "combat.json")


@pytest.mark.parametrize("rules", [[], {}, 3])
def test_rules_that_are_not_a_name_are_an_error_not_a_crash(rules):
    with pytest.raises(ScenarioError, match=r"rules: expected 'current' or a date YYYY-MM-DD"):
        parse(edited(set_in(["rules"], rules)))


def test_json_nested_too_deep_for_the_decoder_is_an_error_not_a_crash(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["check", str(path)]) == 2
    assert "nested deeper than" in capsys.readouterr().err


def test_a_missing_file_is_an_error(tmp_path):
    with pytest.raises(ScenarioError, match="no such file"):
        load(tmp_path / "nothing.json")


@pytest.mark.parametrize("as_json", [False, True])
def test_the_command_exits_2_without_a_traceback(tmp_path, capsys, as_json):
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(edited(set_in(["permanents", 1, "toughness"], 0))))
    code = main(["check", str(path)] + (["--json"] if as_json else []))
    out, err = capsys.readouterr()
    assert code == 2
    assert (
        err == f"{path}: permanents[1].toughness: expected 1 or more, found 0: a creature "
        "with toughness 0 or less is already in the graveyard (CR 704.5f)\n"
    )
    if as_json:
        report = json.loads(out)
        assert report["errors"] == [
            {"place": "permanents[1].toughness", "message": err.split("toughness: ", 1)[1].strip()}
        ]


def test_a_file_without_an_assignment_has_nothing_to_check(tmp_path, capsys):
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(edited(lambda d: d.pop("assignment"))))
    assert main(["check", str(path)]) == 2
    assert "assignment: missing" in capsys.readouterr().err


@pytest.mark.parametrize(
    "data, said",
    [
        (
            b'{"format": "lethal/1", "players": [{"id": "A\xe9"}]}',
            "line 1, column 45: not UTF-8 "
            "text: the byte 0xe9 (invalid continuation byte), where UTF-8 was expected",
        ),
        (
            b'{\n  "format": "lethal/\xc3\xa91\xff"}',
            "line 2, column 23: not UTF-8 text: the byte 0xff (invalid start byte)",
        ),
    ],
)
def test_text_that_is_not_utf8_is_located_by_line_and_column(tmp_path, capsys, data, said):
    path = tmp_path / "latin.json"
    path.write_bytes(data)
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}: {said}")


def test_bad_usage_exits_2(capsys):
    assert main(["chek", "x.json"]) == 2
    assert "invalid choice: 'chek'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, said",
    [
        (["chek", "x.json"], "(did you mean 'check'?)"),
        (["check", "x.json", "--jsno"], "unrecognized arguments: --jsno (did you mean '--json'?)"),
        (["max", "x.json", "--to", "D", "--combt"], "--combt (did you mean '--combat'?)"),
        (["prove", "--jbs=2"], "--jbs=2 (did you mean '--jobs'?)"),
        (["deal", "x.json", "--zzzzzz"], "unrecognized arguments: --zzzzzz\n"),
        (
            ["check", "x.json", "--debug"],
            "(--debug is lethal's own option: give it before the command)",
        ),
        (["check", "x.json", "--js\x1b[2Jon"], "--js\\x1b[2Jon (did you mean '--json'?)"),
    ],
)
def test_a_mistyped_command_or_option_says_which_was_meant(argv, said, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(said if said.endswith("\n") else said + "\n")


def test_a_usage_message_quoting_a_huge_word_is_cut(capsys):
    assert main(["check", "x.json", "--" + "a" * 100_000]) == 2
    assert len(capsys.readouterr().err) < 1000


# Never a traceback, never a hang (issue 10): whatever the file holds, a located message.

WRONG_KINDS = [[], {}, None, True, 1.5, "x", 7]
FIELD_KINDS = [
    (["rules"], str),
    (["step"], str),
    (["players"], list),
    (["active_player"], str),
    (["permanents"], list),
    (["bands"], list),
    (["assignment"], list),
    (["effects"], list),
    (["players", 0], dict),
    (["players", 0, "id"], str),
    (["players", 0, "life"], int),
    (["permanents", 0], dict),
    (["permanents", 0, "id"], str),
    (["permanents", 0, "types"], list),
    (["permanents", 0, "power"], int),
    (["permanents", 0, "keywords"], list),
    (["permanents", 0, "keywords", 0], str),
    (["permanents", 0, "blocked"], bool),
    (["permanents", 1, "blocking"], list),
    (["permanents", 1, "blocking", 0], str),
    (["assignment", 0], dict),
    (["assignment", 0, "amount"], int),
]


def _place(path) -> str:
    place = ""
    for key in path:
        place += f"[{key}]" if isinstance(key, int) else (f".{key}" if place else key)
    return place


@pytest.mark.parametrize(
    "path, value",
    [
        pytest.param(path, value, id=f"{_place(path)}={json.dumps(value)}")
        for path, right in FIELD_KINDS
        for value in WRONG_KINDS
        if type(value) is not right
    ],
)
def test_a_value_of_the_wrong_kind_anywhere_is_a_located_error(path, value):
    with pytest.raises(ScenarioError) as caught:
        parse(edited(set_in(path, value)), "combat.json")
    at_place = [p for p in caught.value.problems if p.place == _place(path)]
    assert at_place, str(caught.value)
    written = "'x'" if value == "x" else json.dumps(value)
    assert any(written in p.message for p in at_place), str(caught.value)


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, out, err)
    return code, out.getvalue(), err.getvalue()


def file_with(tmp_path, text: str | bytes) -> str:
    path = tmp_path / "combat.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def with_literal(path, literal: str) -> str:
    """GOOD as JSON text with `literal` written as it is at path, as json.dumps can't."""
    return json.dumps(edited(set_in(path, "@@"))).replace('"@@"', literal)


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a": ', "}")])
def test_json_nested_100000_deep_exits_2_through_the_command(tmp_path, opening, closing):
    path = file_with(tmp_path, opening * 100_000 + "1" + closing * 100_000)
    code, out, err = run(["check", path])
    assert (code, out) == (2, "")
    assert err == f"{path}: not a scenario: JSON nested deeper than Python's decoder can read\n"


def test_a_deep_value_the_decoder_reads_is_shown_cut(tmp_path):
    path = file_with(tmp_path, with_literal(["rules"], "[" * 900 + "]" * 900))
    code, _, err = run(["check", path])
    assert code == 2
    assert err == (
        f"{path}: rules: expected 'current' or a date YYYY-MM-DD, found a list " + "[" * 60 + "…\n"
    )


@pytest.mark.parametrize(
    "literal, found",
    [
        ("9" * 5000, "9" * 60 + "… (an integer of 5,000 digits)"),
        ("-" + "9" * 4400, "-" + "9" * 59 + "… (an integer of 4,400 digits)"),
        ("NaN", "NaN (not a JSON number"),
        ("Infinity", "Infinity (not a JSON number"),
        ("-Infinity", "-Infinity (not a JSON number"),
        ("1e400", "1e400 (too large for a number)"),
    ],
)
def test_numbers_python_cannot_hold_are_errors_at_their_place(tmp_path, literal, found):
    path = file_with(tmp_path, with_literal(["permanents", 0, "power"], literal))
    code, _, err = run(["check", path])
    assert code == 2
    assert err.startswith(f"{path}: permanents[0].power: expected an integer, found {found}")


@pytest.mark.parametrize("number", [2**53, -(2**53), 10**4000])
def test_integers_beyond_what_json_readers_agree_on_are_errors(number):
    with pytest.raises(ScenarioError, match=r"permanents\[0\].power: expected an integer from "):
        parse(edited(set_in(["permanents", 0, "power"], number)))


def test_the_largest_integer_json_readers_agree_on_is_read():
    data = edited(set_in(["players", 1, "life"], 2**53 - 1))
    assert parse(data).players[1].life == 2**53 - 1


def test_an_integer_of_thousands_of_digits_in_a_requirement_is_an_error(tmp_path):
    path = file_with(tmp_path, json.dumps(edited(lambda d: d.pop("assignment"))))
    code, _, err = run(["possible", path, "--require", "rhino->D >= " + "9" * 5000])
    assert code == 2
    assert "found an integer of 5,000 digits" in err
    assert len(err) < 400


def test_a_byte_order_mark_before_the_json_is_read(tmp_path):
    path = file_with(tmp_path, "\ufeff".encode() + json.dumps(GOOD).encode())
    assert run(["check", path])[0] == 0


def test_a_byte_order_mark_alone_is_still_not_a_scenario(tmp_path):
    code, _, err = run(["check", file_with(tmp_path, "\ufeff".encode())])
    assert code == 2
    assert "not valid JSON: Expecting value" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_with_no_writer_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    answer: list = []
    reader = threading.Thread(target=lambda: answer.append(run(["check", str(fifo)])))
    reader.start()
    reader.join(10)
    if reader.is_alive():  # blocked in open(): give it a writer, so the test can end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join()
    assert answer and answer[0][0] == 2, "reading a named pipe blocked"
    assert f"{fifo}: not a regular file but a pipe, a device or a socket" in answer[0][2]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_device_is_refused_not_read():
    code, _, err = run(["check", "/dev/zero"])
    assert code == 2
    assert err.startswith("/dev/zero: not a regular file")


def test_a_file_over_the_size_cap_is_refused_unread(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(10 * 1024 * 1024 + 1)
    code, _, err = run(["check", str(path)])
    assert code == 2
    assert err == (
        f"{path}: larger than 10 MB, the most a scenario file may hold (10,485,761 bytes)\n"
    )


@pytest.mark.parametrize(
    "change, place, said",
    [
        (set_in(["permanents", 1, "id"], "x" * 1_000_000), "", "(1,000,000 characters)"),
        (set_in(["permanents", 0, "keywords"], ["k" * 100_000]), "keywords[0]", "(100,000"),
        (set_in(["permanents", 1, "blocking"], ["r" * 100_000]), "blocking[0]", "(100,000"),
        (set_in(["step"], "s" * 100_000), "step", "(100,000 characters)"),
        (lambda d: d.update({"f" * 100_000: 1}), "'fff", "(100,000 characters): unknown field"),
        (set_in(["rules"], "r" * 100_000), "rules", "(100,000 characters)"),
    ],
)
def test_a_huge_string_is_cut_in_the_message_with_its_length(tmp_path, change, place, said):
    code, _, err = run(["check", file_with(tmp_path, json.dumps(edited(change)))])
    assert code == 2
    assert place in err and said in err
    assert len(err) < 2000, err[:3000]


def test_a_huge_id_is_compared_for_suggestions_in_linear_time(tmp_path):
    # difflib is quadratic: on a 10 MB id this would take hours, not a moment
    path = file_with(tmp_path, json.dumps(edited(set_in(["active_player"], "A" * 5_000_000))))
    code, _, err = run(["check", path])
    assert code == 2
    assert "active_player: unknown id 'AAAA" in err


CONTROL_IDS = json.loads(
    json.dumps(GOOD).replace('"rhino"', json.dumps("\u001b[2J")).replace('"D"', '"a\\nlegal"')
)


@pytest.mark.parametrize(
    "command", [["check"], ["deal"], ["max", "--to", "a\nlegal"], ["count", "--list"]]
)
def test_ids_with_control_characters_are_escaped_in_text_output(tmp_path, command):
    plain = file_with(tmp_path, json.dumps(GOOD))
    plain_out = run([command[0], plain, *["D" if a == "a\nlegal" else a for a in command[1:]]])
    path = str(tmp_path / "control.json")
    Path(path).write_text(json.dumps(CONTROL_IDS))
    code, out, err = run([command[0], path, *command[1:]])
    assert code == plain_out[0]
    assert "\u001b" not in out + err
    assert "\\x1b[2J" in out or '"\\u001b[2J"' in out  # escaped as a string, or as JSON
    assert out.count("\n") == plain_out[1].count("\n")  # no line forged by an id


def test_ids_with_control_characters_stay_exact_in_json_output(tmp_path):
    path = file_with(tmp_path, json.dumps(CONTROL_IDS))
    code, out, _ = run(["check", path, "--json"])
    assert code == 0
    assert {c["source"] for c in json.loads(out)["choosers"]} == {"\u001b[2J", "wall"}


def test_an_unknown_id_with_control_characters_is_escaped_in_the_error(tmp_path):
    data = edited(set_in(["permanents", 1, "blocking"], ["rhi\nno\u001b[2J"]))
    code, _, err = run(["check", file_with(tmp_path, json.dumps(data))])
    assert code == 2
    assert "unknown id 'rhi\\nno\\x1b[2J'" in err
    assert all(line.startswith(str(tmp_path)) for line in err.splitlines())


def test_half_a_surrogate_pair_in_an_id_is_an_error_not_a_crash(tmp_path):
    path = file_with(tmp_path, json.dumps(GOOD).replace('"wall"', '"wall\\ud800"'))
    code, _, err = run(["count", path])
    assert code == 2
    assert "permanents[1].id: expected text, found 'wall\\ud800', which holds half" in err


def test_a_dash_reads_the_scenario_from_standard_input(monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO("\ufeff".encode() + json.dumps(GOOD).encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, _ = run(["check", "-"])
    assert code == 0
    assert out.startswith("<stdin>: legal")  # as its errors name it


def test_bad_input_on_standard_input_is_located_there(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"players": 3}'))
    code, _, err = run(["check", "-"])
    assert code == 2
    assert "<stdin>: players: expected a list, found an integer 3\n" in err
    assert all(line.startswith("<stdin>: ") for line in err.splitlines())


def test_thousands_of_unknown_ids_among_thousands_of_ids_are_read_in_moments(tmp_path):
    # Each unknown id was once compared with every id, for a suggestion: hours for a big file.
    permanents = [attacker(f"a{i}", 1, 1) for i in range(3000)] + [
        blocker(f"b{i}", 1, 1, blocking=[f"z{i}"]) for i in range(3000)
    ]
    path = file_with(tmp_path, json.dumps(edited(with_permanents(*permanents, assignment=[]))))
    started = time.monotonic()
    code, _, err = run(["check", path])
    assert code == 2
    assert time.monotonic() - started < 30
    lines = err.splitlines()
    assert len(lines) == 3000 and max(map(len, lines)) < 500
