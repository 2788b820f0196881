"""The combat damage assignment rules, one module per keyword or rule family.

Each rule is written once, against a view of the combat and the amounts assigned, with the
operations of `ops`: plain values give a plain answer, solver terms give a formula.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..amounts import Amounts
from . import division, order, steps, trample
from .constraint import Constraint

FAMILIES = (steps, division, trample, order)

# Each kind of constraint, by the subrule it is filed under (its `rules[0]`).
KINDS = {
    "510.4": "who assigns in which step (510.4, 702.4, 702.7)",
    "510.1a": "a creature assigns exactly its power, or its toughness under Doran's effect "
    "(510.1a)",
    "510.1b": "whom a creature may assign to (510.1b-d, 702.19b-f)",
    "510.1b-c": "as though it weren't blocked: all of its damage to what it attacks, none to "
    "its blockers (510.1b-c; Thorn Elemental, Rhox ruling of 2018-04-27)",
    "702.19b": "lethal damage to every blocker before any goes past them (702.19b, 702.2c)",
    "702.19c": "damage up to a planeswalker's loyalty before its controller (702.19c)",
    "510.1c": "an attacker's damage assignment order: lethal damage to each creature before "
    "the next (510.1c, 509.2)",
    "510.1d": "a blocker's damage assignment order: lethal damage to each creature before "
    "the next (510.1d, 509.3)",
}

# Kinds left out, for `lethal teeth` only: which checks notice a rule gone missing.
_removed: ContextVar[frozenset[str]] = ContextVar("removed", default=frozenset())


def constraints(view, amounts: Amounts) -> Iterator[Constraint]:
    """Every constraint an assignment of the step must meet, each with its CR subrules.

    One that folds to True (plain amounts that meet it, or a premise that cannot hold) is
    left out: it constrains nothing, and a check builds thousands of them."""
    removed = _removed.get()
    for family in FAMILIES:
        found = family.constraints(view, amounts)
        yield from (c for c in found if c.rules[0] not in removed) if removed else found


@contextmanager
def without(kind: str):
    """The rules as if one kind of constraint did not exist."""
    if kind not in KINDS:
        raise ValueError(f"no kind of constraint {kind!r}; known: {', '.join(KINDS)}")
    token = _removed.set(_removed.get() | {kind})
    try:
        yield
    finally:
        _removed.reset(token)
