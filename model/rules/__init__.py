"""The combat damage assignment rules, one module per keyword or rule family.

Each rule is written once, against a view of the combat and the amounts assigned, with the
operations of `ops`: plain values give a plain answer, solver terms give a formula.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..amounts import Amounts
from . import division, steps, trample
from .constraint import Constraint

FAMILIES = (steps, division, trample)


def constraints(view, amounts: Amounts) -> Iterator[Constraint]:
    """Every constraint an assignment of the step must meet, each with its CR subrules."""
    for family in FAMILIES:
        yield from family.constraints(view, amounts)
