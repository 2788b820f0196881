"""The editions of the Comprehensive Rules whose combat damage assignment lethal models."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruleset:
    name: str
    since: str  # the first CR edition (effective date) it describes
    checked_against: str  # the CR edition whose text every constraint was checked against


# Every edition since damage assignment order was removed (Foundations, 2024-11-08).
CURRENT = Ruleset("current", since="2024-11-08", checked_against="2026-09-25")

KNOWN = {CURRENT.name: CURRENT}


def names() -> tuple[str, ...]:
    return tuple(KNOWN)
