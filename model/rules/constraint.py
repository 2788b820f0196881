"""A constraint of the rules, carrying the CR subrules it encodes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..ops import Term


@dataclass(frozen=True)
class Constraint:
    rules: tuple[str, ...]  # the CR subrules it encodes, the main one first
    source: str  # the creature whose assignment it restricts
    holds: Term  # True, False, or a Z3 formula over the amounts
    summary: str  # what it requires, in the scenario's ids, whatever the amounts
    # For a failed constraint over plain amounts: the subrule broken and a one-line account
    # in the scenario's own ids and numbers.
    explain: Callable[[], tuple[str, str]]
