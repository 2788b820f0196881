"""`lethal check` starts fast (issue 12): the plainest check line is read without argparse,
exactly as argparse reads it, and checking a file loads nothing it does not need."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lethal.cli import parser

FOUR_BY_FOUR = str(Path(__file__).parent.parent / "benchmarks" / "four-by-four.json")

# Words that make up a command line: files (standard input, an empty path, a name like an
# option), the check options with and without values, top-level options, other commands.
WORDS = [
    "check",
    "a.json",
    "b.json",
    "-",
    "",
    "@file",
    "-x.json",
    "--json",
    "--js",
    "--debug",
    "--",
    "-h",
    "--version",
    "--timeout",
    "5",
    "--timeout=5",
    "--order-limit",
    "7",
    "deal",
    "possible",
]


def argparse_reading(argv: list[str]) -> dict | None:
    """What argparse makes of the line, or None when it refuses it (or prints help)."""
    try:
        return vars(parser.build(argv).parse_args(argv))
    except SystemExit:
        return None


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "a.json"],
        ["check", "-"],
        ["check", ""],
        ["check", "a.json", "b.json", "--json"],
        ["--debug", "check", "--json", "a.json"],
        ["--debug", "--debug", "check", "--json", "a.json", "b.json", "--json"],
    ],
)
def test_the_plainest_check_lines_are_read_without_argparse(argv):
    plain = parser.plain_check(argv)
    assert plain is not None and vars(plain) == argparse_reading(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["check"],
        ["check", "--json"],
        ["check", "a.json", "--json", "b.json"],
        ["check", "--", "a.json"],
        ["check", "a.json", "--timeout", "5"],
        ["check", "--js", "a.json"],
        ["check", "a.json", "--debug"],
        ["--version", "check", "a.json"],
        ["deal", "a.json"],
    ],
)
def test_any_other_line_is_left_to_argparse(argv):
    assert parser.plain_check(argv) is None


@given(st.lists(st.sampled_from(WORDS), max_size=6))
def test_plain_check_reads_a_line_as_argparse_does_or_leaves_it(argv):
    plain = parser.plain_check(argv)
    if plain is not None:
        assert vars(plain) == argparse_reading(argv)


# What checking a file does without: Z3 is for the queries and proofs, argparse for the lines
# plain_check leaves, datetime for a file that names a date, threading for threads started,
# difflib for a suggestion of what a mistaken name meant.
NOT_FOR_CHECK = ["z3", "argparse", "datetime", "threading", "difflib"]


def test_checking_a_file_loads_none_of_what_it_does_not_need():
    program = (
        "import io, sys\nfrom lethal.cli import main\n"
        f"code = main(['check', {FOUR_BY_FOUR!r}], io.StringIO(), io.StringIO())\n"
        f"print(code, sorted(set({NOT_FOR_CHECK!r}) & set(sys.modules)))"
    )
    ran = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert ran.stdout == "0 []\n", ran.stderr
