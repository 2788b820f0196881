"""The requirement language of `lethal possible`: comparisons of assigned damage.

    rhino->D >= 3          combat damage assigned by rhino to D
    *->D >= 5              by every source to D
    rhino->*  == 3         by rhino to every recipient
    rhino->D + asp->D > 4  sums; either side may be an integer or a sum
    'my wolf'->D <= 2      quote ids that hold spaces or operator characters

Comparisons: >=, <=, ==, >, <. A requirement is evaluated with `ops` semantics, so it holds
or fails on plain amounts and becomes a formula on solver terms.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .amounts import Amounts
from .errors import LethalError, quoted
from .ops import Term, total

ANY = "*"
COMPARISONS = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    ">": operator.gt,
    "<": operator.lt,
}

_ID = r"""\*|'[^']+'|"[^"]+"|[^\s<>=!+*'"]+?"""
_TOKEN = re.compile(
    rf"""\s*(?:
        (?P<pair>(?P<source>{_ID})\s*->\s*(?P<to>\*|'[^']+'|"[^"]+"|[^\s<>=!+*'"]+))
      | (?P<number>-?\d+)
      | (?P<op>>=|<=|==|>|<)
      | (?P<plus>\+)
      | (?P<bad>=|!=|\S+)
    )""",
    re.VERBOSE,
)


class RequirementError(LethalError, ValueError):
    """A requirement that does not parse, or names ids the scenario does not have."""


@dataclass(frozen=True)
class Pair:
    """Damage assigned by `source` to `to`; either may be ANY."""

    source: str
    to: str

    def __str__(self) -> str:
        return f"{_quote(self.source)}->{_quote(self.to)}"


@dataclass(frozen=True)
class Requirement:
    left: tuple[Pair | int, ...]
    comparison: str
    right: tuple[Pair | int, ...]

    def __str__(self) -> str:
        def side(atoms):
            return " + ".join(str(a) for a in atoms)

        return f"{side(self.left)} {self.comparison} {side(self.right)}"

    def pairs(self) -> Iterable[Pair]:
        return (a for a in self.left + self.right if isinstance(a, Pair))

    def sides(self, amounts: Amounts) -> tuple[Term, Term]:
        """What the pairs of each side, left then right, come to in `amounts`."""
        return tuple(
            total(assigned(a, amounts) for a in side if isinstance(a, Pair))
            for side in (self.left, self.right)
        )

    def bounded(self) -> tuple[set[Pair], set[Pair]]:
        """The pairs whose most, then those whose least, could show that the requirement
        cannot hold: the side that must be the greater (or equal) is too small if its pairs'
        most is, the other too great if its pairs' least is; both sides of ==."""
        left, right = ({a for a in side if isinstance(a, Pair)} for side in (self.left, self.right))
        if self.comparison == "==":
            return left | right, left | right
        return (left, right) if self.comparison in (">=", ">") else (right, left)

    def given(self, dealt: Amounts) -> Requirement:
        """The requirement on the rest of the damage once `dealt` is dealt: what its pairs
        come to in `dealt` added to each side, as a number."""
        left, right = self.sides(dealt)
        return Requirement((*self.left, left), self.comparison, (*self.right, right))

    def holds(self, amounts: Amounts) -> Term:
        left = total(assigned(a, amounts) for a in self.left)
        right = total(assigned(a, amounts) for a in self.right)
        return COMPARISONS[self.comparison](left, right)


def named_by(requirements: Iterable[Requirement]) -> set[str]:
    """The ids the requirements speak of (ANY too, when one speaks of any)."""
    return {id for r in requirements for p in r.pairs() for id in (p.source, p.to)}


def assigned(atom: Pair | int, amounts: Amounts) -> Term:
    """What a pair (or an integer) of a requirement amounts to."""
    if isinstance(atom, int):
        return atom
    if atom.source == ANY and atom.to == ANY:
        return amounts.everything()
    if atom.source == ANY:
        return amounts.received_by(atom.to)
    if atom.to == ANY:
        return amounts.sent_by(atom.source)
    return amounts.get(atom.source, atom.to)


def _quote(id: str) -> str:
    plain = re.fullmatch(r"[^\s<>=!+*'\"]+", id) and "->" not in id and id.isprintable()
    return id if id == ANY or plain else repr(id)


def _unquote(id: str) -> str:
    return id[1:-1] if id[:1] in "'\"" else id


def parse(text: str) -> Requirement:
    sides: list[list[Pair | int]] = [[]]
    comparison = None
    expect_atom = True
    for match in _TOKEN.finditer(text):
        found = match.group(0).strip()
        if (
            match["bad"]
            or (expect_atom and (match["op"] or match["plus"]))
            or (not expect_atom and (match["pair"] or match["number"]))
        ):
            wanted = "a pair SOURCE->TO or an integer" if expect_atom else "+ or a comparison"
            hint = " (did you mean '=='?)" if found == "=" else ""
            raise RequirementError(
                f"requirement {quoted(text)}: found {quoted(found)} where {wanted} was "
                f"expected{hint}"
            )
        if match["pair"]:
            sides[-1].append(Pair(_unquote(match["source"]), _unquote(match["to"])))
            expect_atom = False
        elif match["number"]:
            sides[-1].append(_integer(match["number"], text))
            expect_atom = False
        elif match["plus"]:
            expect_atom = True
        elif comparison is not None:
            raise RequirementError(
                f"requirement {quoted(text)}: one comparison only, found a second {quoted(found)}"
            )
        else:
            comparison = match["op"]
            sides.append([])
            expect_atom = True
    if comparison is None:
        raise RequirementError(
            f"requirement {quoted(text)}: no comparison; expected one of {', '.join(COMPARISONS)}"
        )
    if expect_atom:
        raise RequirementError(
            f"requirement {quoted(text)}: ends where a pair or an integer was expected"
        )
    return Requirement(tuple(sides[0]), comparison, tuple(sides[1]))


def _integer(digits: str, text: str) -> int:
    try:
        return int(digits)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        raise RequirementError(
            f"requirement {quoted(text)}: found an integer of {len(digits.lstrip('-')):,} "
            "digits, more than lethal reads"
        ) from None
