"""What both reading passes share: collecting problems, and saying what was found."""

from __future__ import annotations

import difflib
import json

from ..errors import Problem


class Problems:
    """Collects every problem of a file, so that all of them can be reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, place: str, message: str) -> None:
        self.problems.append(Problem(place, message))

    def known(
        self,
        value: str,
        candidates: list[str],
        place: str,
        what: str,
        fitting: list[str] | None = None,
    ) -> bool:
        """Whether value is one of candidates; if not, says so, suggesting from `fitting`
        (the candidates that would make sense here), when given."""
        if value in candidates:
            return True
        fitting = candidates if fitting is None else fitting
        self.problem(
            place,
            f"unknown id {show(value)}{did_you_mean(value, fitting)}; expected {what}"
            + (f" ({', '.join(fitting)})" if 0 < len(fitting) <= 8 else ""),
        )
        return False


def did_you_mean(value: object, candidates: list[str] | tuple[str, ...]) -> str:
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def show(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else repr(value)


def kind(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return names.get(type(value), type(value).__name__)


def join(place: str, field: str) -> str:
    return f"{place}.{field}" if place else field
