"""What both reading passes share: collecting problems, and saying what was found."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from itertools import accumulate, islice

from ..errors import SHOWN, Problem, quoted, shown


class Problems:
    """Collects every problem of a file, so that all of them can be reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, place: str, message: str) -> None:
        self.problems.append(Problem(place, message))

    def known(
        self,
        value: str,
        candidates: Collection[str],
        place: str,
        what: str,
        fitting: Collection[str] | None = None,
    ) -> bool:
        """Whether value is one of candidates; if not, says so, suggesting from `fitting`
        (the candidates that would make sense here), when given."""
        if value in candidates:
            return True
        fitting = candidates if fitting is None else fitting
        # Each suggestion is a pass over every id: past SUGGESTED problems a file gets none,
        # so that thousands of unknown ids among thousands of ids take seconds, not hours.
        hint = did_you_mean(value, fitting) if len(self.problems) < SUGGESTED else ""
        self.problem(
            place,
            f"unknown id {show(value)}{hint}; expected {what}"
            + (f" ({names(fitting)})" if 0 < len(fitting) <= 8 else ""),
        )
        return False


SUGGESTED = 100


def did_you_mean(value: object, candidates: Collection[str]) -> str:
    # A value over twice as long as every candidate is never close (difflib's ratio is at
    # most 2*shorter/total); leaving it out keeps a huge value from costing quadratic time.
    longest = max((len(c) for c in candidates), default=0)
    if not isinstance(value, str) or len(value) > 2 * longest:
        return ""
    import difflib  # only for a file with a mistake: it costs a command's start 1 ms

    # Case aside: 'CURRENT' is 'current', 'd' is 'D', 'Trample' is 'trample'.
    lowered = {c.lower(): c for c in candidates}
    close = difflib.get_close_matches(value.lower(), list(lowered), n=1, cutoff=0.6)
    return f" (did you mean {quoted(lowered[close[0]])}?)" if close else ""


class Unreadable:
    """A number the file writes that Python cannot hold as one (NaN, Infinity, 1e400, an
    integer of more digits than Python converts): kept as written, so that it is reported
    at its place like any value of the wrong kind. (A plain class: making a dataclass costs
    a command's start a millisecond.)"""

    __slots__ = ("literal", "why")

    def __init__(self, literal: str, why: str):
        self.literal = literal
        self.why = why

    def __repr__(self) -> str:
        return f"Unreadable({self.literal!r}, {self.why!r})"


def show(value: object) -> str:
    """A value as the file wrote it (a string quoted and escaped), cut after SHOWN
    characters, so that no value, however long or deep, floods a message."""
    if isinstance(value, str):
        return quoted(value)
    text = ""
    for text in accumulate(_written(value)):
        if len(text) > SHOWN:
            break
    else:
        return text
    if isinstance(value, (list, dict)):
        return text[:SHOWN] + "…"
    return f"{text[:SHOWN]}… ({len(text):,} characters)"


def found(value: object) -> str:
    """What a message says was found: the kind of value, then the value."""
    if value is None:
        return "null"
    if isinstance(value, Unreadable):  # its `why` says how long it is
        cut = value.literal[:SHOWN] + ("…" if len(value.literal) > SHOWN else "")
        return f"{cut} ({value.why})"
    return f"{kind(value)} {show(value)}"


def name(id: str) -> str:
    """An id as a message names it among others: bare when it is short and printable."""
    return shown(id) if len(id) <= SHOWN else quoted(id)


NAMED = 10  # ids a message lists before it only counts the rest


def names(ids: Collection[str]) -> str:
    listed = ", ".join(map(name, islice(ids, NAMED)))
    return listed + (f" and {len(ids) - NAMED:,} more" if len(ids) > NAMED else "")


def _written(value: object) -> Iterator[str]:
    """The JSON text of value, piece by piece, so that a caller can stop early: a value
    nested 100,000 deep is never walked to its bottom."""
    if isinstance(value, Unreadable):
        yield value.literal
    elif isinstance(value, list):
        yield "["
        for i, item in enumerate(value):
            yield ", " if i else ""
            yield from _written(item)
        yield "]"
    elif isinstance(value, dict):
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            yield (", " if i else "") + json.dumps(key) + ": "
            yield from _written(item)
        yield "}"
    else:
        yield json.dumps(value, default=repr)  # parse() may be given any Python value


def kind(value: object) -> str:
    called = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return called.get(type(value), type(value).__name__)


def join(place: str, field: str) -> str:
    return f"{place}.{field}" if place else field
