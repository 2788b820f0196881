"""The exceptions lethal raises: one base class, each also the matching builtin."""

from __future__ import annotations

from dataclasses import dataclass


class LethalError(Exception):
    """Base class of every error lethal raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario: where it is and what is wrong there."""

    place: str  # a JSON path such as "permanents[2].toughness", or "" for the whole file
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


class ScenarioError(LethalError, ValueError):
    """A file or value that is not a well-formed scenario; carries every problem found."""

    def __init__(self, origin: str, problems: list[Problem]):
        self.origin = origin
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{origin}: {p}" for p in problems))


class SolverUnknown(LethalError, RuntimeError):
    """Z3 answered `unknown`; never read as a pass or a fail."""


class LimitReached(LethalError, RuntimeError):
    """A stated limit was reached before an answer; the message names the limit and how to
    raise it. Never a verdict: the CLI exits 3."""


class TooManyToCount(LimitReached):
    """A group of creatures with too many divisions to try one by one."""


class TooManyOrders(LimitReached):
    """Trying every damage assignment order a file leaves open would exceed the limit."""
