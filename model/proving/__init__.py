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

The package holds all that proves things of the rules: this API; the symbolic combat
(`symbolic`); the prover, each property in a process of its own, and the property
library's finder (`prover`, `processes`, `library`); what a proof rests on and is checked
by (`agreement`, `replay`, `counterexample`, `certify`, `unbounded`); editions compared
(`diff`); and the checks of the checks (`teeth`, `mutation` with its `mutants`).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..editions import CURRENT_NAME, in_force
from ..errors import LethalError
from ..ops import all_of, any_of, implies, ite, negate, total

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


# Each bound's allowed range, the same as `lethal diff` allows. The symbolic combat's
# unknowns grow with the cube of its slots (ten of each take seconds to build), and a
# counterexample's re-check tries every division of the damage; there are only so many
# defending players' names.
RANGES = {
    "players": (2, 6),
    "attackers": (1, 10),
    "blockers": (0, 10),
    "permanents": (0, 10),
    "power": (0, 1000),
    "toughness": (1, 1000),
    "loyalty": (1, 1000),
}
# A rule of the Comprehensive Rules: 615, 616.1, 702.19b. Subrules skip l and o, which read
# as 1 and 0.
RULE_NUMBER = re.compile(r"\d{3}(\.\d+[a-km-np-z]?)?")


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

    def problem(self) -> str:
        """What makes these bounds unusable, or "": checked before anything is built."""
        for name, (least, most) in RANGES.items():
            value = getattr(self, name)
            if type(value) is not int or not least <= value <= most:
                return (
                    f"bounds: {name}: expected a whole number from {least} to {most}, "
                    f"found {value!r}"
                )
        return ""


@dataclass(frozen=True)
class Claim:
    """`conclude` must hold in every combat where `assume` holds. If `assume` can never
    hold, the property is vacuous, which is a failure.

    With `apart`, each conjunct of `conclude` (an `all_of`) is proved on its own, then the
    whole asked only if one is not: the same claim, which Z3 may decide faster in pieces
    when they share little (the damage each of 88 events deals: 0.73 s at once, 0.21 s
    apart; a legal assignment's existence, 0.06 s at once, 0.36 s apart)."""

    assume: object
    conclude: object
    apart: bool = False


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
    line: int = 0  # where it is declared in its file
    # Why it cannot be proved at all, found when it was declared or its file read: it gets
    # an error of its own, and the other properties are still proved.
    problem: str = ""

    @property
    def combats(self) -> int:
        return len(inspect.signature(self.function).parameters)


def _declare(expected: str, cites, bounds: Bounds | None, editions):
    def declare(function: Callable) -> Property:
        doc = inspect.getdoc(function) or ""
        cited = (cites,) if isinstance(cites, str) else cites
        wrong_cites, wrong_editions = _cites_problem(cited), _editions_problem(editions)
        problems = [wrong_cites, wrong_editions]
        if not doc:
            problems.append("it needs a docstring: its statement")
        if bounds is not None and not isinstance(bounds, Bounds):
            problems.append(f"bounds: expected a Bounds, found {bounds!r}")
        if not inspect.signature(function).parameters:
            problems.append("it takes no combat: a property takes one, or two to relate them")
        code = getattr(function, "__code__", None)
        return Property(
            name=function.__name__,
            statement=" ".join(doc.split("\n\n")[0].split()),
            cites=() if wrong_cites else tuple(cited),
            expected=expected,
            bounds=bounds if isinstance(bounds, Bounds) else Bounds(),
            function=function,
            source=inspect.getsourcefile(function) or "",
            editions=(CURRENT_NAME,) if wrong_editions else tuple(editions),
            line=code.co_firstlineno if code else 0,
            problem="; ".join(p for p in problems if p),
        )

    return declare


def _cites_problem(cites) -> str:
    """What is wrong with a property's citations, or "": each must be a rule number."""
    if not isinstance(cites, (list, tuple)):
        return f"cites: expected a list of rule numbers such as '702.19b', found {cites!r}"
    for rule in cites:
        if not isinstance(rule, str) or not RULE_NUMBER.fullmatch(rule):
            return (
                f"cites: {rule!r} is not a rule number of the Comprehensive Rules (such as "
                "'615', '510.1' or '702.19b')"
            )
    return ""


def _editions_problem(editions) -> str:
    """An edition lethal does not model is the property's mistake, said before any proving."""
    if isinstance(editions, str) or not isinstance(editions, (list, tuple)) or not editions:
        return f"editions: expected a list of 'current' or dates, found {editions!r}"
    for rules in editions:
        try:
            in_force(rules)
        except (LethalError, TypeError) as error:
            return f"editions: {error}"
    return ""


def holds(cites, bounds: Bounds | None = None, editions=(CURRENT_NAME,)):
    """Declares a property the rules are expected to satisfy within the bounds. `cites` are
    the rule numbers it rests on (a list, or one alone); citations, bounds or editions that
    mean nothing are the property's error when it is proved, and the others still run."""
    return _declare("holds", cites, bounds, editions)


def fails(cites, bounds: Bounds | None = None, editions=(CURRENT_NAME,)):
    """Declares a claim expected to be false: the prover must find a counterexample."""
    return _declare("fails", cites, bounds, editions)
