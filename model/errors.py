"""The exceptions lethal raises: one base class, each also the matching builtin; and the
stated limits on its work, whose reaching is one of them (`LimitReached`)."""

from __future__ import annotations

from collections import namedtuple


class LethalError(Exception):
    """Base class of every error lethal raises on purpose."""


# A named tuple, not a frozen dataclass: making a dataclass (and importing typing for
# typing.NamedTuple) costs the start of every command about a millisecond.
class Problem(namedtuple("Problem", ["place", "message"])):
    """One thing wrong with a scenario: where it is and what is wrong there. `place` is a
    JSON path such as "permanents[2].toughness", or "" for the whole file."""

    __slots__ = ()

    place: str
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


class ScenarioError(LethalError, ValueError):
    """A file or value that is not a well-formed scenario; carries every problem found."""

    def __init__(self, origin: str, problems: list[Problem]):
        self.origin = origin
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{origin}: {p}" for p in problems))


class ScenarioWarning(UserWarning):
    """A file that reads, but likely does not say what was meant (a protection quality that
    no permanent has, say). Issued with Python's `warnings`; `-W error::lethal.ScenarioWarning`
    makes it an error."""

    def __init__(self, origin: str, problem: Problem):
        self.origin = origin
        self.problem = problem
        super().__init__(f"{origin}: {problem}")


class SolverUnknown(LethalError, RuntimeError):
    """Z3 answered `unknown`; never read as a pass or a fail."""


class LimitReached(LethalError, RuntimeError):
    """A stated limit was reached before an answer; the message names the limit and how to
    raise it. Never a verdict: the CLI exits 3."""


class TooManyToCount(LimitReached):
    """A group of creatures whose count would follow too many standings of its constraints."""


class TooManyOrders(LimitReached):
    """Trying every damage assignment order a file leaves open would exceed the limit."""


class TooManyEffectOrders(LimitReached):
    """Dealing would try more orders of effects (616.1), or give more outcomes, than the
    limit."""


class TooManyCreatures(LimitReached):
    """A solver query on more creatures than the limit."""


class TooManyAssignments(LimitReached):
    """A step of the whole combat with more legal assignments than the limit to try."""


SHOWN = 60  # characters of a long value a message shows; the rest is counted, not echoed


def shown(text: str) -> str:
    """User-given text (an id, a name) as it goes into a line of text output: as it is, or,
    when it holds a character that is not printable (a newline, a terminal escape), written
    as a Python string literal, so that no id can forge a line of output or clear a screen."""
    return text if text.isprintable() else repr(text)


def printable(line: str) -> str:
    """A line made elsewhere from user-given text (a rule's message naming ids) with every
    character that is not printable escaped where it stands."""
    if line.isprintable():
        return line
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)


def quoted(text: str) -> str:
    """User-given text for a message, in quotes and escaped as `repr` does; past SHOWN
    characters cut, with its length, so that a huge value cannot flood the message."""
    if len(text) <= SHOWN:
        return repr(text)
    literal = repr(text[:SHOWN])
    return f"{literal[:-1]}…{literal[-1]} ({len(text):,} characters)"
