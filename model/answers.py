"""The answers of lethal's queries, as plain values (no solver objects)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .combat import Entry


@dataclass(frozen=True)
class Obstacle:
    """One thing that stands in the way of a query: a rule, a requirement, or an amount the
    file already gives."""

    kind: str  # "rule", "requirement", "given", or "note" (what the others are about)
    rule: str | None  # the CR subrule, for a rule
    source: str | None  # the creature it concerns, when there is one
    text: str  # one line that says what it is

    def order(self) -> tuple:
        """Rules in CR order, then requirements, then given amounts: the same every run."""
        kinds = {"rule": 0, "requirement": 1, "given": 2, "note": 3}
        return (kinds[self.kind], _rule_order(self.rule or ""), self.source or "", self.text)

    def as_json(self) -> dict:
        return {"kind": self.kind, "rule": self.rule, "source": self.source, "text": self.text}


Steps = tuple[tuple[str, tuple[Entry, ...]], ...]  # (step, its assignment), for --combat


@dataclass(frozen=True)
class Possible:
    """Some legal assignment meets every requirement; here is one."""

    assignment: tuple[Entry, ...]
    steps: Steps = ()  # for the whole combat: each step's assignment
    possible = True


@dataclass(frozen=True)
class Impossible:
    """No legal assignment meets every requirement; these stand in the way together."""

    obstacles: tuple[Obstacle, ...]
    possible = False

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(sorted({o.rule for o in self.obstacles if o.rule}, key=_rule_order))


@dataclass(frozen=True)
class Optimum:
    """The most (or least) damage to a recipient over the legal assignments, with one that
    reaches it."""

    value: int
    assignment: tuple[Entry, ...]
    steps: Steps = ()


@dataclass(frozen=True)
class Bounds:
    """A max or min that a stated limit cut short: the value lies between `lower` and
    `upper`, both proved (one by `assignment`, which reaches it; the other by the solver, or
    for a whole phase by the creatures' damage, `whole_combat.max_min._bounds`), and `limit` says
    which limit was reached and how to raise it."""

    lower: int
    upper: int
    assignment: tuple[Entry, ...]  # reaches `lower` for a max, `upper` for a min
    limit: str
    steps: Steps = ()  # as an Optimum's: each step's, for the whole phase


@dataclass(frozen=True)
class Count:
    count: int
    assignments: tuple[tuple[Entry, ...], ...] | None = None  # when listed


@dataclass(frozen=True)
class Guarantee:
    """The damage to `to` that `player` can be sure of, whatever the other side chooses, with
    the assignment that results when both sides choose best."""

    to: str
    player: str  # who wants the damage
    value: int
    assignment: tuple[Entry, ...]
    steps: Steps = ()
    # The damage assignment orders the file left open, as each side announces them (509.2-3).
    orders: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _rule_order(rule: str) -> list[tuple[int, int | str]]:
    """CR numbers in the order of the rules: 510.1 before 510.1a before 510.4."""
    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|[a-z]+", rule)]
