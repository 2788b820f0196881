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
    monkeypatch.setattr(cli, "check", _raise(RuntimeError("broken on purpose")))
    code, out, err = run("check", EXAMPLE)
    assert code == cli.INTERNAL == 4 and out == ""
    assert err == (
        "lethal: internal error: RuntimeError: broken on purpose (a bug in lethal, not a "
        "verdict; --debug shows where)\n"
    )


def test_debug_shows_the_traceback_of_an_internal_error(monkeypatch):
    monkeypatch.setattr(cli, "check", _raise(RuntimeError("broken on purpose")))
    code, _, err = run("--debug", "check", EXAMPLE)
    assert code == 4
    assert "Traceback (most recent call last)" in err and "broken on purpose" in err


def test_ctrl_c_ends_quietly_with_130(monkeypatch):
    monkeypatch.setattr(cli, "check", _raise(KeyboardInterrupt()))
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
