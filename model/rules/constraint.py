"""A constraint of the rules, carrying the CR subrules it encodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..ops import Term


class Constraint(NamedTuple):
    rules: tuple[str, ...]  # the CR subrules it encodes, the main one first
    source: str  # the creature whose assignment it restricts
    holds: Term  # True, False, or a Z3 formula over the amounts
    # What it requires, in the scenario's ids, whatever the amounts: written only when asked,
    # since a check asks it of none of the thousands of constraints that hold.
    describe: Callable[[], str]
    # For a failed constraint over plain amounts: the subrule broken and a one-line account
    # in the scenario's own ids and numbers.
    explain: Callable[[], tuple[str, str]]

    @property
    def summary(self) -> str:
        return self.describe()
