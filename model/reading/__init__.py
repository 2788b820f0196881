"""Reading scenario files (format lethal/1): JSON in, a validated `Scenario` out.

Every problem found is reported at once, each with its place in the file, the value found
and what was expected. Reading happens in two passes: the shape of each value (`shape`),
then what the values say together (`meaning`), so that a file with a typo does not also
bury the user in follow-on complaints.
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
import warnings
from typing import TYPE_CHECKING, Any

from ..combat import Scenario
from ..errors import Problem, ScenarioError, ScenarioWarning
from .meaning import Meaning
from .problems import Unreadable
from .shape import Shape

if TYPE_CHECKING:  # a path is read with os, not pathlib: importing pathlib costs a check 5 ms
    from pathlib import Path

MAX_BYTES = 10 * 1024 * 1024  # a scenario is a few kilobytes; this keeps a runaway file out
STDIN = "-"  # the file name that reads the scenario from standard input


def load(path: str | Path, whole_combat: bool = False, *, warn: bool = True) -> Scenario:
    """Reads a scenario file, or standard input when path is '-'; raises ScenarioError
    naming every problem. With `whole_combat`, a file with first or double strike may name
    no step: it is the start of the combat damage phase (`--combat`). With `warn` false, no
    `ScenarioWarning` is issued: for files lethal wrote itself, such as counterexamples."""
    return loads(read(path), origin_of(path), whole_combat, warn=warn)


def origin_of(path: str | Path) -> str:
    """How lines and JSON name the file at path."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read(path: str | Path) -> str:
    """The text of a scenario file, or of standard input when path is '-'; ScenarioError
    when it cannot be read, or is not UTF-8."""
    origin = origin_of(path)
    try:
        data = _stdin() if str(path) == STDIN else _read(path)
    except FileNotFoundError:
        raise ScenarioError(origin, [Problem("", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError(origin, [Problem("", "is a folder, not a scenario file")]) from None
    except OSError as error:
        raise ScenarioError(origin, [Problem("", error.strerror or str(error))]) from None
    except _Refused as refused:
        raise ScenarioError(origin, [Problem("", str(refused))]) from None
    if isinstance(data, str):  # a text stream put in for standard input
        return data
    try:
        return data.decode("utf-8-sig")  # a byte order mark first is read, as JSON tools do
    except UnicodeDecodeError as error:
        raise ScenarioError(origin, [_not_utf8(data, error)]) from None


def _not_utf8(data: bytes, error: UnicodeDecodeError) -> Problem:
    """Where the first byte that is no UTF-8 stands, by line and column as a JSON error's
    place is given, and what it is."""
    before = data[: error.start]
    line = before.count(b"\n") + 1
    column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
    byte = data[error.start]
    return Problem(
        f"line {line}, column {column}",
        f"not UTF-8 text: the byte 0x{byte:02x} ({error.reason}), where UTF-8 was expected; "
        "save the file as UTF-8",
    )


def loads(
    text: str, origin: str = "<scenario>", whole_combat: bool = False, *, warn: bool = True
) -> Scenario:
    try:
        data = json.loads(
            text,
            object_pairs_hook=_JsonObject,
            parse_int=_integer,
            parse_float=_number,
            parse_constant=_not_a_number,
        )
    except json.JSONDecodeError as error:
        place = f"line {error.lineno}, column {error.colno}"
        raise ScenarioError(origin, [Problem(place, f"not valid JSON: {error.msg}")]) from None
    except RecursionError:  # Python's decoder recurses once per level of nesting
        problem = Problem("", "not a scenario: JSON nested deeper than Python's decoder can read")
        raise ScenarioError(origin, [problem]) from None
    return parse(data, origin, whole_combat, warn=warn)


class _Refused(Exception):
    """A file lethal will not read: not a regular file, or too large."""


_TOO_LARGE = f"larger than {MAX_BYTES // 2**20} MB, the most a scenario file may hold"


def _read(path: str | Path) -> bytes:
    # Opened without blocking and judged by what was opened, so that a named pipe with no
    # writer, a terminal or a device is refused at once instead of read for ever.
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as file:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(info.st_mode):
            raise _Refused(
                "not a regular file but a pipe, a device or a socket, which lethal does not "
                f"read; give a file, or '{STDIN}' to read standard input"
            )
        data = file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _Refused(f"{_TOO_LARGE} ({info.st_size:,} bytes)")
    return data


def _stdin() -> bytes | str:
    # A text stream put in place of standard input (by a test, or a program that embeds
    # lethal) has no bytes underneath: its text is read as it is.
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise _Refused("standard input is closed")
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _Refused(_TOO_LARGE)
    return data


def bundled_examples() -> list[Path]:
    """The scenario files shipped in lethal/examples, one per rule modelled, by name."""
    from importlib import resources  # only for a bundled example: it costs a command's start

    folder = resources.files("lethal") / "examples"
    return sorted((p for p in folder.iterdir() if p.name.endswith(".json")), key=lambda p: p.name)


def parse(
    data: Any, origin: str = "<scenario>", whole_combat: bool = False, *, warn: bool = True
) -> Scenario:
    """Validates decoded JSON (or an equivalent dict) and builds the scenario; each warning
    found is issued as a `ScenarioWarning` unless `warn` is false."""
    shape = Shape()
    shaped = shape.check(data)
    if shape.problems:
        raise ScenarioError(origin, shape.problems)
    meaning = Meaning(whole_combat)
    scenario = meaning.build(shaped)
    if meaning.problems:
        raise ScenarioError(origin, meaning.problems)
    for problem in meaning.warnings if warn else ():
        warnings.warn(ScenarioWarning(origin, problem), stacklevel=2)
    return scenario


class _JsonObject(dict):
    """A decoded JSON object that remembers keys given twice (plain dicts keep the last)."""

    def __init__(self, pairs: list[tuple[str, Any]]):
        super().__init__(pairs)
        seen: set[str] = set()
        self.repeated = [k for k, _ in pairs if k in seen or seen.add(k)]


# Numbers the file holds that Python cannot read as such stay as written (Unreadable), to be
# reported at their place like any value of the wrong kind.


def _integer(digits: str) -> int | Unreadable:
    try:
        return int(digits)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        return Unreadable(digits, f"an integer of {len(digits.lstrip('-')):,} digits")


def _number(text: str) -> float | Unreadable:
    number = float(text)
    return number if math.isfinite(number) else Unreadable(text, "too large for a number")


def _not_a_number(name: str) -> Unreadable:
    return Unreadable(name, "not a JSON number, though Python's decoder reads it")
