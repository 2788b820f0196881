"""The exit-code contract holds whatever the streams are: closed, full or standard input,
and whatever the paths are: several, repeated, empty, or named with terminal escapes."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lethal import cli

EXAMPLES = Path(__file__).parent.parent / "model" / "examples"
LEGAL = str(EXAMPLES / "trample-counts-other-attackers-damage.json")
ILLEGAL = str(EXAMPLES / "trample-short-of-lethal.json")
CLOSED_STDOUT = "lethal: the answer could not be written: standard output is closed\n"
FULL_DISK = "lethal: the answer could not be written: No space left on device\n"
ESCAPED = "a\x1bb.json"  # a file name with a terminal escape in it


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def lethal(*argv: str, close: tuple[int, ...] = (), stdout=subprocess.PIPE, stdin=None):
    """lethal run as a program, with the standard streams numbered in `close` closed, as
    `lethal ... >&-` (1), `2>&-` (2) or `<&-` (0) leave them."""

    def closing() -> None:
        for fd in close:
            os.close(fd)

    return subprocess.run(
        [sys.executable, "-m", "lethal", *argv],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        preexec_fn=closing,
        text=True,
        timeout=300,
    )


def named(argv: tuple[str, ...]) -> str:
    return " ".join(Path(a).name if "/" in a else a for a in argv)


def scenario_text(name: str = LEGAL) -> str:
    return Path(name).read_text(encoding="utf-8")


# 1. Standard output closed, or full: exit 5 with one line; standard error closed: nowhere.


@pytest.mark.parametrize(
    "argv",
    [
        ("check", LEGAL),
        ("check", LEGAL, "--json"),
        ("check", LEGAL, ILLEGAL),
        ("schema",),
        ("examples",),
    ],
    ids=named,
)
def test_with_standard_output_closed_the_answer_cannot_be_written_exit_5(argv):
    done = lethal(*argv, close=(1,))
    assert (done.returncode, done.stderr) == (cli.OUTPUT_FAILED, CLOSED_STDOUT) == (5, done.stderr)


def test_with_standard_output_closed_bad_input_is_still_exit_2_on_standard_error():
    done = lethal("check", "no-such-file.json", close=(1,))
    assert (done.returncode, done.stderr) == (2, "no-such-file.json: no such file\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "argv",
    [
        ("schema",),
        ("check", LEGAL),
        ("check", LEGAL, "--json"),
        ("--version",),
        ("check", "--help"),
    ],
)
def test_a_full_disk_is_exit_5_in_one_line(argv):
    with open("/dev/full", "w") as full:
        done = lethal(*argv, stdout=full)
    assert (done.returncode, done.stderr) == (5, FULL_DISK)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("undecided", [True, False])
def test_a_full_disk_is_exit_5_for_an_undecided_or_bad_files_json_too(undecided, tmp_path):
    # The JSON of an undecided answer, and of a bad file, is an answer written like any other.
    if undecided:  # a combat whose most damage takes far longer than a millisecond
        from .test_query_parts import _ring

        ring = tmp_path / "ring.json"
        ring.write_text(json.dumps(_ring(150)))
        argv = ("max", str(ring), "--to", "D", "--json", "--timeout", "0.001")
    else:
        argv = ("check", "nothing.json", "--json")
    with open("/dev/full", "w") as full:
        done = lethal(*argv, stdout=full)
    assert done.returncode == 5 and done.stderr.endswith(FULL_DISK)


def test_with_standard_error_closed_a_bad_file_is_still_exit_2():
    done = lethal("check", "no-such-file.json", close=(2,))
    assert (done.returncode, done.stdout) == (2, "")


def test_with_standard_error_closed_the_answer_is_written_as_ever():
    done = lethal("check", LEGAL, close=(2,))
    assert (done.returncode, done.stdout) == (0, run("check", LEGAL)[1])


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "argv, code",
    [
        (("check", "nothing.json"), 2),
        (("check", "nothing.json", "--json"), 2),
        (("max", LEGAL, "--to", "Q"), 2),
        (("prove", "-k", "no such property"), 2),
    ],
    ids=lambda value: named(value) if isinstance(value, tuple) else str(value),
)
def test_with_standard_error_full_the_exit_code_is_as_ever(argv, code):
    """A message that cannot be written goes nowhere: it never turns bad input into 1."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "lethal", *argv],
            stdout=subprocess.DEVNULL,
            stderr=full,
            timeout=300,
        )
    assert done.returncode == code


def test_an_answer_its_encoding_cannot_hold_is_exit_5_and_messages_are_escaped(tmp_path):
    """Standard output in ASCII and an id that is not: the text answer cannot be written
    (exit 5, one line saying why and what to do); the JSON one, ASCII by escapes, can; a
    message on standard error is written with escapes, its exit code as ever."""
    path = tmp_path / "unicode.json"
    path.write_text(scenario_text().replace("rhino", "wölf☃"), encoding="utf-8")
    ascii_env = {**os.environ, "PYTHONIOENCODING": "ascii"}

    def done(*argv):
        return subprocess.run(
            [sys.executable, "-m", "lethal", *argv],
            capture_output=True,
            env=ascii_env,
            timeout=300,
        )

    text = done("check", str(path))
    assert text.returncode == 5 and b"Traceback" not in text.stderr
    assert text.stderr.decode().startswith("lethal: the answer could not be written: it has ")
    assert "PYTHONIOENCODING=utf-8" in text.stderr.decode()
    as_json = done("check", str(path), "--json")
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["legal"] is True
    bad = done("max", str(path), "--to", "wölf☃x")
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr
    assert b"w\\xf6lf\\u2603x" in bad.stderr


PROPERTY = '''
from lethal.proving import Bounds, all_of, holds

@holds(cites=["510.1a"], bounds=Bounds(attackers=1, blockers=1, permanents=1))
def toughness_is_at_least_one(combat):
    """Toughness is at least 1."""
    return all_of(combat.toughness(c) >= 1 for c in combat.creatures)
'''


def test_prove_with_standard_error_closed_still_proves(tmp_path):
    library = tmp_path / "mine.py"
    library.write_text(textwrap.dedent(PROPERTY))
    argv = ("prove", str(library), "--out", str(tmp_path / "cx"))
    done = lethal(*argv, close=(2,))
    assert done.returncode == 0
    assert "PROVED   toughness_is_at_least_one" in done.stdout


# 2. Standard input closed.


def test_reading_standard_input_when_it_is_closed_is_bad_input():
    done = lethal("check", "-", close=(0,))
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        "<stdin>: standard input is closed\n",
    )


# 3-5. diff: FILE '-', ids escaped, --out a file, a bad date named by its option.


def test_diff_reads_its_file_from_standard_input(monkeypatch):
    from_file = run("diff", "--from", "2015-01-01", "--to", "current", ILLEGAL, "--json")
    monkeypatch.setattr(sys, "stdin", io.StringIO(scenario_text(ILLEGAL)))
    code, out, err = run("diff", "--from", "2015-01-01", "--to", "current", "-", "--json")
    assert (code, err) == (from_file[0], "")
    expected = json.loads(from_file[1])
    expected["file"] = "<stdin>"
    for edition in expected["editions"]:
        edition["file"] = "<stdin>"
    assert json.loads(out) == expected


ESCAPING_IDS = {
    "format": "lethal/1",
    "players": [{"id": "A"}, {"id": "D\x1b[2J\nforged"}],
    "active_player": "A",
    "permanents": [
        {
            "id": "rhino\x1b]0;title\x07",
            "controller": "A",
            "types": ["creature"],
            "power": 5,
            "toughness": 5,
            "keywords": ["trample"],
            "attacking": "D\x1b[2J\nforged",
        },
        {
            "id": "squire",
            "controller": "D\x1b[2J\nforged",
            "types": ["creature"],
            "power": 1,
            "toughness": 1,
            "blocking": ["rhino\x1b]0;title\x07"],
        },
    ],
    "assignment": [{"source": "rhino\x1b]0;title\x07", "to": "D\x1b[2J\nforged", "amount": 5}],
}


def test_diff_escapes_ids_in_its_text_as_check_does(tmp_path):
    path = tmp_path / ESCAPED
    path.write_text(json.dumps(ESCAPING_IDS))
    code, out, err = run("diff", "--from", "2015-01-01", "--to", "current", str(path))
    assert err == ""
    assert "\x1b" not in out and "\x07" not in out
    lines = out.splitlines()
    assert lines[0] == f"{str(path)!r}:"
    assert "  most damage: 'D\\x1b[2J\\nforged' 4" in lines
    assert any(line.startswith("  illegal: rhino\\x1b]0;title\\x07 sends 5 to") for line in lines)
    assert not any(line.startswith("forged") for line in lines)


@pytest.mark.parametrize("out", ["afile", os.devnull])
def test_diff_refuses_an_out_that_is_a_file_before_any_work(tmp_path, out):
    if out == "afile":
        out = str(tmp_path / "afile")
        Path(out).write_text("mine")
    code, text, err = run("diff", "--from", "2015-01-01", "--to", "current", "--out", out)
    assert (code, text) == (2, "")
    assert err.startswith(f"lethal: --out: {out!r} is a file, not a folder")


@pytest.mark.parametrize("flag", ["--from", "--to"])
def test_a_date_that_is_no_calendar_date_is_named_by_its_option(flag):
    dates = {"--from": "2015-01-01", "--to": "current", flag: "2023-02-30"}
    code, _, err = run("diff", *(x for pair in dates.items() for x in pair))
    assert code == 2
    assert f"lethal diff: error: argument {flag}: '2023-02-30' is not a calendar date" in err


# 6. Several paths: every one gets its line; '-' once; no empty path.


def test_every_path_gets_its_line_even_an_empty_folder_and_a_missing_file(tmp_path):
    folder, empty = tmp_path / "scenarios", tmp_path / "empty"
    folder.mkdir()
    empty.mkdir()
    shutil.copy(LEGAL, folder / "a.json")
    missing = str(tmp_path / "missing.json")
    code, out, err = run("check", str(folder), missing, str(empty), ILLEGAL)
    assert (code, err) == (2, "")
    assert out.splitlines() == [
        run("check", str(folder / "a.json"))[1].splitlines()[0],
        f"{missing}: bad input: no such file",
        f"{empty}: bad input: a folder without scenario files (*.json)",
        run("check", ILLEGAL)[1].splitlines()[0],
        "4 files: 1 legal, 1 illegal, 2 bad input",
    ]


def test_an_unreadable_folder_gets_its_line(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    shutil.copy(LEGAL, locked / "a.json")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: p != str(locked) and real(p, mode))
    code, out, _ = run("check", LEGAL, str(locked), "--json")
    objects = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert objects[1]["file"] == str(locked)
    assert objects[1]["errors"][0]["message"].startswith("permission denied")
    assert objects[2]["bad_input"] == 1


def test_standard_input_can_be_read_only_once():
    assert run("check", "-", "-") == (
        2,
        "",
        "lethal: '-' given twice: standard input can be read only once\n",
    )
    assert run("check", LEGAL, "-", "-")[0] == 2


EMPTY = "lethal: empty path: give a scenario file, or '-' to read standard input\n"


@pytest.mark.parametrize(
    "argv",
    [
        ("check", ""),
        ("check", LEGAL, ""),
        ("deal", ""),
        ("max", "", "--to", "D"),
        ("count", ""),
        ("diff", "--from", "2015-01-01", "--to", "current", ""),
    ],
    ids=named,
)
def test_an_empty_path_is_bad_usage(argv):
    assert run(*argv) == (2, "", EMPTY)


# 7. JSON keeps the path exactly; text escapes it.


def test_json_keeps_the_exact_path_and_text_escapes_it(tmp_path):
    path = str(tmp_path / ESCAPED)
    shutil.copy(LEGAL, path)
    assert json.loads(run("check", path, "--json")[1])["file"] == path
    assert run("check", path)[1].startswith(f"{path!r}: legal (")
    several = run("check", path, ILLEGAL, "--json")[1].splitlines()
    assert json.loads(several[0])["file"] == path
    assert run("check", path, ILLEGAL)[1].startswith(f"{path!r}: legal (")


def test_a_bad_file_keeps_its_exact_path_in_json_too(tmp_path):
    path = str(tmp_path / ESCAPED)
    Path(path).write_text(json.dumps({**json.loads(scenario_text(LEGAL)), "assignment": None}))
    code, out, _ = run("check", path, "--json")
    assert code == 2 and json.loads(out)["file"] == path
    several = run("check", path, ILLEGAL, "--json")[1].splitlines()
    assert json.loads(several[0])["file"] == path
    assert run("check", path, ILLEGAL)[1].startswith(f"{path!r}: bad input: ")


def test_standard_input_is_named_stdin_in_text_and_json(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(scenario_text(LEGAL)))
    assert json.loads(run("check", "-", "--json")[1])["file"] == "<stdin>"
    monkeypatch.setattr(sys, "stdin", io.StringIO(scenario_text(LEGAL)))
    assert run("check", "-")[1].startswith("<stdin>: legal (")
    monkeypatch.setattr(sys, "stdin", io.StringIO(scenario_text(LEGAL)))
    several = run("check", "-", ILLEGAL, "--json")[1].splitlines()
    assert json.loads(several[0])["file"] == "<stdin>"
    monkeypatch.setattr(sys, "stdin", io.StringIO("not json"))
    several = run("check", "-", ILLEGAL, "--json")[1].splitlines()
    assert json.loads(several[0])["file"] == "<stdin>"
    monkeypatch.setattr(sys, "stdin", io.StringIO("not json"))
    assert run("check", "-", ILLEGAL)[1].startswith("<stdin>: bad input: line 1, column 1: ")


def test_a_folder_of_the_answer_that_cannot_be_made_is_refused_before_any_work(tmp_path):
    """corpus's DIR and diff's --out, inside a file: exit 2 at once, not an internal error
    after the work (a folder without write permission is refused the same way)."""
    plain = tmp_path / "plain.txt"
    plain.write_text("")
    corpus = run("corpus", str(plain / "corpus"))
    assert corpus[0] == 2 and "is a file, not a folder" in corpus[2]
    diff = run("diff", "--from", "2015-01-01", "--to", "current", "--out", str(plain / "x"))
    assert diff[0] == 2 and "is a file, not a folder" in diff[2]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_report_file_that_cannot_be_written_is_exit_5():
    code, _, err = run("prove", "-k", "trample_excess_is_at_most", "--junit", "/dev/full")
    assert code == 5
    assert err == "lethal: the answer could not be written: No space left on device\n"
