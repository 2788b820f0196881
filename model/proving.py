"""Writing properties of the rules: what a property declares, and the bounds it is proved in.

A property is a plain function that takes one combat (or two, to relate them) and returns
what must hold in it: a `Claim`, or a formula that must always hold. The combat may be
symbolic (every number, keyword, target and block an unknown within the bounds) or, when a
counterexample is re-checked, the concrete scenario it was read back as; a property written
with the operations below means the same in both.

    from lethal.proving import holds, implies

    @holds(cites=["702.19b"])
    def blocked_without_trample_never_reaches_player(combat):
        "A blocked creature without trample assigns no combat damage to the player."
        x = combat.assignment()
        return implies(combat.legal(x), ...)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

from .editions import CURRENT_NAME, in_force
from .ops import all_of, any_of, implies, ite, negate, total

__all__ = [
    "Bounds",
    "Claim",
    "Property",
    "all_of",
    "any_of",
    "fails",
    "holds",
    "implies",
    "ite",
    "negate",
    "total",
]


@dataclass(frozen=True)
class Bounds:
    """Every combat up to these sizes is considered."""

    players: int = 3  # the active player and defending players
    attackers: int = 3
    blockers: int = 3
    permanents: int = 2  # planeswalkers or battles, some of them creatures
    power: int = 5  # powers range over -1..power
    toughness: int = 5
    loyalty: int = 5  # loyalty or defense

    def __str__(self) -> str:
        values = max(self.power, self.toughness, self.loyalty)
        return (
            f"{self.players} players, <={self.attackers} attackers, <={self.blockers} blockers, "
            f"<={self.permanents} planeswalkers/battles, values <={values}"
        )

    def as_json(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Claim:
    """`conclude` must hold in every combat where `assume` holds. If `assume` can never
    hold, the property is vacuous, which is a failure."""

    assume: object
    conclude: object


@dataclass(frozen=True)
class Property:
    name: str
    statement: str  # the docstring's first paragraph
    cites: tuple[str, ...]
    expected: str  # "holds" or "fails"
    bounds: Bounds
    function: Callable = field(compare=False)
    source: str = ""  # the file it came from
    # The editions its combats may be judged by (`combat.under(date)`); the first is the
    # combats' own. Each is "current" or a date, the edition in force that day.
    editions: tuple[str, ...] = (CURRENT_NAME,)

    @property
    def combats(self) -> int:
        return len(inspect.signature(self.function).parameters)


def _declare(expected: str, cites, bounds: Bounds | None, editions):
    for rules in editions:
        in_force(rules)  # an edition lethal does not model is the property's mistake, now

    def declare(function: Callable) -> Property:
        doc = inspect.getdoc(function)
        if not doc:
            raise ValueError(f"property {function.__name__} needs a docstring: its statement")
        return Property(
            name=function.__name__,
            statement=" ".join(doc.split("\n\n")[0].split()),
            cites=tuple(cites),
            expected=expected,
            bounds=bounds or Bounds(),
            function=function,
            source=inspect.getsourcefile(function) or "",
            editions=tuple(editions),
        )

    return declare


def holds(cites, bounds: Bounds | None = None, editions=(CURRENT_NAME,)):
    """Declares a property the rules are expected to satisfy within the bounds."""
    return _declare("holds", cites, bounds, editions)


def fails(cites, bounds: Bounds | None = None, editions=(CURRENT_NAME,)):
    """Declares a claim expected to be false: the prover must find a counterexample."""
    return _declare("fails", cites, bounds, editions)
