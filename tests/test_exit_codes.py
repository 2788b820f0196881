"""Exit codes are a contract: a crash is never read as a verdict, and Ctrl-C ends quietly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from lethal import cli

EXAMPLE = str(Path(__file__).parent.parent / "model" / "examples" / "trample-short-of-lethal.json")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _raise(error: BaseException):
    def raising(*args, **kwargs):
        raise error

    return raising


def test_an_internal_error_is_exit_4_in_one_line_without_a_traceback(monkeypatch):
    monkeypatch.setattr("lethal.verdict.check", _raise(RuntimeError("broken on purpose")))
    code, out, err = run("check", EXAMPLE)
    assert code == cli.INTERNAL == 4 and out == ""
    assert err == (
        "lethal: internal error: RuntimeError: broken on purpose (a bug in lethal, not a "
        "verdict; --debug shows where)\n"
    )


def test_debug_shows_the_traceback_of_an_internal_error(monkeypatch):
    monkeypatch.setattr("lethal.verdict.check", _raise(RuntimeError("broken on purpose")))
    code, _, err = run("--debug", "check", EXAMPLE)
    assert code == 4
    assert "Traceback (most recent call last)" in err and "broken on purpose" in err


def test_ctrl_c_ends_quietly_with_130(monkeypatch):
    monkeypatch.setattr("lethal.verdict.check", _raise(KeyboardInterrupt()))
    code, out, err = run("check", EXAMPLE)
    assert (code, out, err) == (130, "", "lethal: interrupted\n")


@pytest.mark.parametrize("code", [0, 1])
def test_verdicts_keep_their_codes(code):
    if code == 0:
        assert (
            run(
                "check", str(Path(EXAMPLE).with_name("trample-counts-other-attackers-damage.json"))
            )[0]
            == 0
        )
    else:
        assert run("check", EXAMPLE)[0] == 1


def _spin(*args, **kwargs):
    while True:
        pass


def test_the_timeout_covers_lethals_own_work_and_is_a_stated_limit(monkeypatch):
    monkeypatch.setattr("lethal.verdict.check", _spin)
    code, out, err = run("check", EXAMPLE, "--timeout", "0.05")
    assert (code, out) == (3, "")
    assert err == (
        f"{EXAMPLE}: undecided: the time limit of 0.05 s was reached (--timeout SECONDS "
        "raises it)\n"
    )


@pytest.mark.parametrize("command", [["check"], ["max", "--to", "D"], ["count"]])
def test_an_undecided_answer_with_json_says_why_on_standard_output(monkeypatch, command):
    # Bad input gave its JSON; an undecided answer gave nothing for a pipeline to read.
    import json

    monkeypatch.setattr("lethal.verdict.check", _spin)
    monkeypatch.setattr("lethal.queries.maximum", _spin)
    monkeypatch.setattr("lethal.queries.count", _spin)
    code, out, err = run(*command, EXAMPLE, "--json", "--timeout", "0.05")
    limit = "the time limit of 0.05 s was reached (--timeout SECONDS raises it)"
    assert code == 3 and err == f"{EXAMPLE}: undecided: {limit}\n"
    assert json.loads(out) == {"file": EXAMPLE, "undecided": limit}


def test_the_time_limit_covers_every_file_of_a_check_not_only_the_first(monkeypatch):
    # Once the limit ran out on the first file, the others were judged with no limit at all.
    from lethal import verdict

    judged, real = [], verdict.check

    def slow_first(*args, **kwargs):
        judged.append(1)
        if len(judged) == 1:
            _spin()
        return real(*args, **kwargs)

    monkeypatch.setattr("lethal.verdict.check", slow_first)
    code, out, _ = run("check", EXAMPLE, EXAMPLE, EXAMPLE, "--timeout", "0.05")
    assert code == 3 and len(judged) == 1
    assert out.endswith("3 files: 3 undecided\n")


def test_the_time_running_out_between_files_keeps_the_files_judged(monkeypatch):
    # An alarm landing between two files, outside either's judging, gave one object for the
    # whole run and dropped the files already judged; they stay, the rest are undecided.
    import json

    from lethal.cli import scenario
    from lethal.errors import LimitReached

    real, calls = scenario._check_one, []

    def second_interrupted(*args):
        calls.append(1)
        if len(calls) == 2:
            raise LimitReached("out of time")
        return real(*args)

    monkeypatch.setattr(scenario, "_check_one", second_interrupted)
    code, out, _ = run("check", EXAMPLE, EXAMPLE, EXAMPLE, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 3 and lines[0]["legal"] is False
    assert lines[1:3] == [{"file": EXAMPLE, "undecided": "out of time"}] * 2
    assert lines[3] == {"files": 3, "legal": 0, "illegal": 1, "undecided": 2, "bad_input": 0}


def test_a_folder_with_no_file_is_bad_input_even_once_the_time_is_up(monkeypatch, tmp_path):
    monkeypatch.setattr("lethal.verdict.check", _spin)
    code, out, _ = run("check", EXAMPLE, str(tmp_path), "--timeout", "0.05")
    assert code == 2 and "1 undecided, 1 bad input" in out


@pytest.mark.parametrize(
    "files, named", [([EXAMPLE], EXAMPLE), ([EXAMPLE, EXAMPLE], "lethal"), (["-"], "<stdin>")]
)
def test_a_limit_reached_before_check_looks_at_its_files_names_the_file_not_a_list(
    monkeypatch, files, named
):
    # The time may run out before check has taken its one file out of the list of files it
    # was given; it said "['file.json']: undecided" then, and "-" for standard input.
    # Several files are no one file's.
    from lethal.errors import LimitReached

    monkeypatch.setattr("lethal.cli.scenario.check_files", _raise(LimitReached("out of time")))
    code, out, err = run("check", *files)
    assert (code, out, err) == (3, "", f"{named}: undecided: out of time\n")


def test_a_solver_query_is_given_only_the_time_the_command_has_left():
    import z3

    from lethal.deadline import deadline
    from lethal.solver.encoding import decide

    class Query:
        def __init__(self):
            self.params = {}

        def set(self, key, value):
            self.params[key] = value

        def check(self):
            return z3.sat

    unlimited, limited = Query(), Query()
    assert decide(unlimited) and unlimited.params == {}
    with deadline(2.5, "the command"):
        assert decide(limited)
    assert 2000 < limited.params["timeout"] <= 2500


def test_check_loads_nothing_of_z3():
    import subprocess
    import sys

    program = (
        "import io, sys\nfrom lethal.cli import main\n"
        f"main(['check', {EXAMPLE!r}], io.StringIO(), io.StringIO())\n"
        "print('z3' in sys.modules)"
    )
    ran = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert ran.stdout == "False\n", ran.stderr


@pytest.mark.parametrize("command", [["check", EXAMPLE], ["max", EXAMPLE, "--to", "D"]])
def test_a_scenario_command_has_a_default_limit_that_it_names(command):
    code, out, _ = run(*command, "--help")
    assert code == 0 and "--timeout SECONDS" in out and f"default {cli.COMMAND_TIMEOUT}" in out


@pytest.mark.parametrize(
    "command",
    [
        ["check", EXAMPLE],
        ["count", EXAMPLE],
        ["prove", "-k", "nothing"],
        ["diff", "--from", "current", "--to", "2020-01-01"],
        ["teeth"],
        ["mutants", "-k", "nothing"],
        ["conform", "--engine", "python3 adapter.py"],
    ],
)
@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "0", "1e-9", "-3", "1e400", "soon"])
def test_a_time_limit_that_means_nothing_is_bad_usage(command, seconds):
    code, out, err = run(*command, f"--timeout={seconds}")
    assert code == 2 and out == ""
    assert f"--timeout: expected a number of seconds from 0.001 to 604800, found '{seconds}'" in err


@pytest.mark.parametrize(
    "option, value, says",
    [
        ("--order-limit", "0", "expected a whole number from 1 to 1000000000, found 0"),
        ("--order-limit", "9" * 5000, "expected a whole number from 1 to 1000000000, found 999"),
        ("--order-limit", "2.5", "expected a whole number, found '2.5'"),
        ("--order-limit", "٣", "expected a whole number, found '٣'"),
    ],
)
def test_a_count_out_of_range_is_bad_usage_in_one_line(option, value, says):
    code, out, err = run("check", EXAMPLE, option, value)
    assert code == 2 and out == "" and says in err and len(err.splitlines()[-1]) < 200


def test_a_closed_pipe_ends_quietly_with_141(tmp_path):
    import json
    import subprocess
    import sys

    # More output than a pipe holds, so that writing it must meet the closed end.
    trampler = {
        "id": "r",
        "controller": "A",
        "types": ["creature"],
        "power": 80,
        "toughness": 3,
        "keywords": ["trample"],
        "attacking": "D",
    }
    walls = [
        {
            "id": f"w{i}",
            "controller": "D",
            "types": ["creature"],
            "power": 0,
            "toughness": 2,
            "blocking": ["r"],
        }
        for i in (1, 2)
    ]
    scenario = {
        "format": "lethal/1",
        "rules": "current",
        "active_player": "A",
        "players": [{"id": "A"}, {"id": "D"}],
        "permanents": [trampler, *walls],
    }
    path = tmp_path / "many.json"
    path.write_text(json.dumps(scenario))
    argv = [sys.executable, "-m", "lethal", "count", "--list", "--limit", "5000", str(path)]
    for first in (0, 100):  # the reader goes before a line is written, or after a few
        reading = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert len(reading.stdout.read(first)) == first
        reading.stdout.close()  # what is left is more than the pipe holds: a cut answer
        assert reading.wait(timeout=60) == cli.CLOSED_PIPE == 141
        assert reading.stderr.read() == b""
