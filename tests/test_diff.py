"""`lethal diff`: what a change of the rules changed, synthesized and re-checked, and one
file judged by two editions side by side."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from lethal import check, load
from lethal.answers import Bounds as Between
from lethal.answers import Optimum
from lethal.cli import main
from lethal.cli.codes import NO, UNDECIDED
from lethal.proving import diff

from .build import attacker, blocker, scenario_file

EXAMPLES = Path(__file__).parent.parent / "model" / "examples"
GORGER = str(EXAMPLES / "order-vastwood-gorger.json")
THRASTA = str(EXAMPLES / "trample-over-planeswalkers-needs-loyalty.json")
SMALL = ["--attackers", "1", "--blockers", "2", "--values", "2"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def synthesized(before: str, after: str, out: Path) -> tuple[int, list[dict], list[dict]]:
    """`lethal diff` within small bounds: its exit code, every question, the legality ones."""
    code, text, _ = run("--from", before, "--to", after, *SMALL, "--out", str(out), "--json")
    questions = json.loads(text)["questions"]
    return code, questions, [q for q in questions if q["kind"] == "legal"]


def test_one_file_under_two_editions_side_by_side():
    code, out, _ = run(GORGER, "--from", "2011-09-30", "--to", "current", "--json")
    data = json.loads(out)
    before, after = data["editions"]
    assert code == 1  # the verdict differs
    assert (before["rules"], after["rules"]) == ("2011-09-30", "current")
    assert before["legal"] is False and [v["rule"] for v in before["violations"]] == ["510.1c"]
    assert after["legal"] is True and after["orders_dropped"] is True
    assert before["most_damage"] == after["most_damage"] == {"D": 0}


def test_one_file_under_the_same_edition_twice_differs_in_nothing():
    code, out, _ = run(GORGER, "--from", "2011-09-30", "--to", "2012-01-01")
    assert code == 0
    assert out.count("illegal: gorger sends 3 to elves") == 2


def test_a_keyword_that_does_not_exist_yet_is_a_located_error():
    code, out, err = run(THRASTA, "--from", "2015-01-01", "--to", "current")
    assert code == 2 and out == ""
    assert f"{THRASTA}: permanents[0].keywords" in err and "2021-06-18" in err
    assert "in the rules in force on 2015-01-01" in err and "Traceback" not in err
    code, out, _ = run(THRASTA, "--from", "2015-01-01", "--to", "current", "--json")
    assert code == 2 and json.loads(out)["file"] == str(THRASTA)


@pytest.mark.parametrize("date", ["2009-07-10", "2015-13-01", "yesterday"])
def test_a_date_lethal_does_not_model_is_exit_2(date, tmp_path):
    code, _, err = run("--from", date, "--to", "current", "--out", str(tmp_path))
    assert code == 2 and date in err and "Traceback" not in err
    # An option's error, with the command's usage, even with a file: not the file's.
    code, _, err = run(GORGER, "--from", "current", "--to", date)
    assert code == 2 and "lethal diff: error: argument --to: " in err and date in err
    assert GORGER not in err


def test_foundations_only_relaxes_and_the_smallest_assignment_it_allows_replays(tmp_path):
    code, questions, legal = synthesized("2024-07-30", "current", tmp_path)
    assert code == 1
    assert [q["verdict"] for q in legal] == ["proved", "refuted"]
    found = legal[1]
    assert (found["more"], found["less"]) == ("current", "2024-07-30")
    # Each file replays under its own edition: legal today, illegal under the order.
    by_rules = {r["rules"]: r for r in found["replay"]}
    assert by_rules["current"]["legal"] is True
    assert {v["rule"] for v in by_rules["2024-07-30"]["violations"]} == {"510.1c"}
    for replay in found["replay"]:
        scenario = load(replay["file"])
        assert check(scenario).legal == replay["legal"]
    # The smallest: one attacker and the two blockers an order needs.
    assert len(load(by_rules["current"]["file"]).permanents) == 3
    assert all(q["verdict"] in ("proved", "refuted") for q in questions)


def test_m10_and_m11_differ_both_ways(tmp_path):
    code, _, legal = synthesized("2010-01-01", "2010-07-16", tmp_path)
    assert code == 1
    assert [q["verdict"] for q in legal] == ["refuted", "refuted"]
    for q in legal:
        by_rules = {r["rules"]: r for r in q["replay"]}
        assert by_rules[q["more"]]["legal"] is True
        assert by_rules[q["less"]]["legal"] is False


def test_two_dates_of_the_same_rules_differ_in_nothing_and_say_so(tmp_path):
    code, out, _ = run("--from", "2012-01-01", "--to", "2020-01-01", "--out", str(tmp_path))
    assert code == 0
    assert out.count("none:") == 4 and "proved" in out


def test_what_only_one_edition_has_is_said_to_be_left_out(tmp_path):
    """Trample over planeswalkers comes on 2021-06-18: no combat with it is compared, and
    "none" says so. What neither edition has (battles, toxic) is not named."""
    code, out, _ = run("--from", "2021-06-17", "--to", "2021-06-18", *SMALL, "--out", str(tmp_path))
    assert code == 0
    heading, said = out.splitlines()[:2]
    assert heading.startswith("2021-06-17 against 2021-06-18, every combat within")
    assert (
        said
        == "  left out, as only one of them has it: trample over planeswalkers (from 2021-06-18)"
    )
    code, out, _ = run(
        "--from", "2010-01-01", "--to", "current", *SMALL, "--out", str(tmp_path), "--json"
    )
    assert json.loads(out)["left_out"] == [
        {"what": "infect", "since": "2010-10-01"},
        {"what": "trample over planeswalkers", "since": "2021-06-18"},
        {"what": "toxic", "since": "2023-02-03"},
        {"what": "battle", "since": "2023-04-14"},
    ]
    code, out, _ = run("--from", "2012-01-01", "--to", "2020-01-01", *SMALL, "--out", str(tmp_path))
    assert "left out" not in out


def test_the_same_date_twice_asks_each_question_once(tmp_path):
    code, out, _ = run("--from", "2012-01-01", "--to", "2012-01-01", *SMALL, "--out", str(tmp_path))
    assert code == 0
    assert out.count("none: an assignment legal under 2012-01-01 and illegal under") == 1
    assert out.count("none: more combat damage") == 1


def chump_wall(tmp_path: Path) -> str:
    """A trampler blocked by four chump blockers, under rules with an order it leaves open:
    24 orders to try."""
    data = scenario_file(
        attacker("a", 9, 9, "trample"),
        *[blocker(f"b{i}", 1, 2, blocking=["a"]) for i in range(4)],
        rules="2022-01-01",
    )
    path = tmp_path / "wall.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_a_file_s_open_orders_are_limited_by_diff_s_own_order_limit(tmp_path):
    wall = chump_wall(tmp_path)
    code, out, err = run(wall, "--from", "2022-01-01", "--to", "current", "--order-limit", "23")
    assert (code, out) == (3, "")
    assert err.endswith("(a alone has 24); give the orders in the file, or raise --order-limit\n")
    code, out, _ = run(wall, "--from", "2022-01-01", "--to", "current", "--order-limit", "24")
    assert code == 0 and out.count("most damage: D 1") == 2


def test_each_question_of_a_file_stops_at_the_time_limit(tmp_path, monkeypatch):
    def forever(scenario, to):
        while True:
            pass

    monkeypatch.setattr(diff, "maximum", forever)
    code, out, err = run(
        chump_wall(tmp_path), "--from", "2022-01-01", "--to", "current", "--timeout", "0.2"
    )
    assert (code, out) == (3, "")
    assert err.endswith(
        "undecided: the time limit of 0.2 s was reached (--timeout SECONDS raises it)\n"
    )


@pytest.mark.parametrize("other, code", [(1, NO), (5, UNDECIDED), (41, NO)])
def test_a_maximum_cut_short_gives_its_bounds_and_decides_only_what_they_decide(
    tmp_path, monkeypatch, other, code
):
    """Under the first edition the most is proved to lie in 2..40; under the second it is
    `other`: the file differs where that lies outside, and is undecided where inside."""
    cut = Between(2, 40, (), "the time limit of 9 s was reached")
    maxima = iter([cut, Optimum(other, ())])
    monkeypatch.setattr(diff, "maximum", lambda scenario, to: next(maxima))
    wall = chump_wall(tmp_path)
    found, text, _ = run(wall, "--from", "2022-01-01", "--to", "current", "--order-limit", "24")
    assert found == code
    assert (
        "most damage: D at least 2 and at most 40 (undecided: the time limit of 9 s was reached)"
        in text
    )
    maxima = iter([cut, Optimum(other, ())])
    _, data, _ = run(
        wall, "--from", "2022-01-01", "--to", "current", "--order-limit", "24", "--json"
    )
    before, after = json.loads(data)["editions"]
    assert before["most_damage"] == {
        "D": {"lower": 2, "upper": 40, "undecided": "the time limit of 9 s was reached"}
    }
    assert after["most_damage"] == {"D": other}


def test_a_question_past_its_time_limit_is_undecided_and_names_it(tmp_path):
    code, text, err = run(
        "--from",
        "2024-07-30",
        "--to",
        "current",
        *SMALL,
        "--timeout",
        "0.001",
        "--out",
        str(tmp_path),
    )
    assert code == 3 and "Traceback" not in err
    assert text.count("UNKNOWN: more combat damage") == 2
    assert "the question took longer than --timeout 0.001 s" in text


@pytest.mark.parametrize(
    "flags, stray",
    [
        ((GORGER, "--attackers", "3"), "--attackers"),
        ((GORGER, "--values", "3", "--out", "elsewhere"), "--values and --out"),
        (("--creature-limit", "5"), "--creature-limit"),
        (("--order-limit", "5", "--creature-limit", "4"), "--order-limit and --creature-limit"),
    ],
)
def test_a_flag_of_the_way_not_taken_is_refused_not_ignored(flags, stray, tmp_path):
    # The bounds and --out serve the search without FILE; the limits, the judging of FILE.
    code, out, err = run(*flags, "--from", "2011-09-30", "--to", "current")
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"{stray}: used only by diff's" in err
    assert ("or FILE" if GORGER in flags else "give FILE") in err
    assert not (tmp_path / "elsewhere").exists() and not Path("elsewhere").exists()


def test_each_flag_of_the_way_taken_still_has_its_default():
    # --creature-limit not given: its default, not None, limits the judging of the file.
    code, out, _ = run(GORGER, "--from", "2011-09-30", "--to", "current", "--order-limit", "5")
    assert code == 1 and out.count("illegal: gorger sends 3 to elves") == 1
