"""Counting the legal assignments of a step exactly, and listing them.

Enumerating assignments with a solver and blocking clauses costs a solver call per
assignment, and even trying candidates one by one cannot reach counts with twenty digits.
Instead the rules' constraints are split into independent groups: creatures whose unknowns
share a constraint are counted together, and the count is the product of the groups' counts.
Most creatures (every blocker, for one) are alone in their group. Each group is counted by a
dynamic programme over its unknowns (`dynamic`), which counts alike the partial assignments
that stand alike before every constraint still open, so that nothing is enumerated that can
be counted.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from math import prod

import z3

from ...answers import Count
from ...combat import Entry, Scenario
from ...errors import TooManyToCount
from ...limits import COUNT_STANDINGS
from ...rules.division import damage_to_assign
from ..encoding import Encoding
from .atoms import Linear, taken_apart, unknowns
from .dynamic import Block, Programme


def count(scenario: Scenario, list_limit: int | None = None, all_or_none: bool = False) -> Count:
    """How many legal assignments the step has (completing the file's partial assignment),
    and with `list_limit`, up to that many of them; with `all_or_none` too, none when there
    are more (for a caller that tries all of them or refuses: listing 20,000 of a board's
    2^100 took 8 s and 400 MB)."""
    groups = independent_groups(scenario)
    total = prod(group.count() for group in groups)
    listed = None
    if list_limit is not None and not (all_or_none and total > list_limit):
        # The first `list_limit` combinations take at most that many rows of each group.
        firsts = [list(itertools.islice(g.rows(), list_limit)) for g in groups] if total else []
        combos = itertools.islice(itertools.product(*firsts), list_limit) if total else ()
        listed = tuple(
            tuple(e for group, rows in zip(groups, combo, strict=True) for e in group.entries(rows))
            for combo in combos
        )
    return Count(total, listed)


class _Group:
    """Creatures whose unknowns share constraints, with those constraints."""

    def __init__(
        self, creatures: list[str], order: list[str], pairs, variables, given, totals, formulas
    ):
        self.creatures = creatures  # in the scenario's order
        self.order = order  # in the order the programme counts them
        self.pairs, self.variables, self.given = pairs, variables, given
        self.totals, self.formulas = totals, formulas

    def count(self) -> int:
        programme, _ = self._programme(self.order)
        return programme.count(self._check_work)

    def rows(self) -> Iterator[tuple[int, ...]]:
        """The legal rows, each the amounts of the creatures' pairs in the scenario's order,
        in the order they have always been listed: the creatures in the scenario's order,
        each creature's candidates as 510.1a makes them (`Block`)."""
        programme, blocks = self._programme(self.creatures)
        return programme.rows(blocks, self._check_work)

    def entries(self, values: tuple[int, ...]) -> Iterator[Entry]:
        pairs = (p for c in self.creatures for p in self.pairs[c])
        for (source, to), amount in zip(pairs, values, strict=True):
            if amount:
                yield Entry(source, to, amount)

    def _programme(self, order: list[str]) -> tuple[Programme, list[Block]]:
        """The group's constraints as a programme over its unknowns, the creatures' in
        `order`, and the creatures' blocks of unknowns."""
        given, totals = self.given, self.totals
        unknowns = [p for c in order for p in self.pairs[c]]
        index = {self.variables[p].get_id(): u for u, p in enumerate(unknowns)}
        domains = [
            range(given[p], given[p] + 1)
            if p in given
            else range(max(totals[p[0]], default=-1) + 1)
            for p in unknowns
        ]
        constraints = [taken_apart(f, index) for f in self.formulas]
        blocks, start = [], 0
        for c in order:
            mine = range(start, start + len(self.pairs[c]))
            start = mine.stop
            free = tuple((u, 1) for u in mine if unknowns[u] not in given)
            # 510.1a's candidates: the free amounts divide one of the creature's totals.
            constraints.append(
                (
                    ("or", tuple(("atom", i) for i in range(len(totals[c])))),
                    [Linear(free, -t, True) for t in totals[c]],
                )
            )
            fixed = {u: given[unknowns[u]] for u in mine if unknowns[u] in given}
            blocks.append(Block(mine.start, len(mine), fixed, tuple(totals[c])))
        return Programme(domains, constraints), blocks

    def _check_work(self, work: int) -> None:
        if work > COUNT_STANDINGS.value():
            raise TooManyToCount(
                f"counting {_named(self.creatures)} would follow {work:,} standings of its "
                f"constraints (partial divisions tried, each once for itself and once for "
                f"each constraint it leaves open), more than the count limit of "
                f"{COUNT_STANDINGS.value():,}; raise {COUNT_STANDINGS.flag}"
            )


def independent_groups(scenario: Scenario) -> list[_Group]:
    """The step's creatures in groups that share no constraint, each listing its legal rows:
    the legal assignments are every choice of one row from each group."""
    given = {(e.source, e.to): e.amount for e in scenario.assignment or ()}
    encoding = Encoding(scenario, extra_pairs=given)
    view = encoding.view
    pairs = {c: [p for p in encoding.variables if p[0] == c] for c in view.creatures}
    owner = {encoding.variables[p].get_id(): p[0] for p in encoding.variables}

    # Union-find over creatures that share a constraint.
    parent = {c: c for c in view.creatures}

    def root(c):
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    formulas = []
    for constraint in encoding.constraints:
        formula = encoding.formula(constraint.holds)
        creatures = sorted({owner[i] for i in unknowns(formula)})
        for other in creatures[1:]:
            parent[root(other)] = root(creatures[0])
        formulas.append((formula, frozenset(creatures)))

    # A constraint over no unknown at all holds or fails for every assignment alike.
    if any(not c and z3.is_false(z3.simplify(f)) for f, c in formulas):
        return [_Group([], [], pairs, encoding.variables, given, {}, [encoding.formula(False)])]
    members: dict[str, list[str]] = {}
    for c in view.creatures:
        members.setdefault(root(c), []).append(c)
    totals = {c: _left_to_divide(damage_to_assign(view, c), pairs[c], given) for c in pairs}
    by_group: dict[str, list] = {}
    for f, c in formulas:
        if c:
            by_group.setdefault(root(next(iter(c))), []).append((f, c))
    groups = []
    for key, creatures in members.items():
        mine = by_group.get(key, [])
        order = _ordered(creatures, [c for _, c in mine])
        groups.append(
            _Group(creatures, order, pairs, encoding.variables, given, totals, [f for f, _ in mine])
        )
    return groups


def _ordered(creatures: list[str], touching: list[frozenset[str]]) -> list[str]:
    """The creatures in an order that keeps few constraints open at once (some of their
    creatures counted, some not yet): each next, the one that leaves the fewest open, the
    first in the scenario's order among equals. The programme's work grows with what is open."""
    unplaced = {i: len(t) for i, t in enumerate(touching)}  # of each constraint's creatures
    mine = {c: [i for i, t in enumerate(touching) if c in t] for c in creatures}
    left = list(creatures)
    order = []

    def change(c: str) -> int:
        """How many more constraints are open once c is counted."""
        opened = sum(1 for i in mine[c] if unplaced[i] == len(touching[i]) and unplaced[i] > 1)
        closed = sum(1 for i in mine[c] if unplaced[i] == 1 < len(touching[i]))
        return opened - closed

    while left:
        best = min(left, key=change)
        left.remove(best)
        order.append(best)
        for i in mine[best]:
            unplaced[i] -= 1
    return order


def _named(creatures: list[str]) -> str:
    shown = ", ".join(creatures[:10])
    return shown + (f" and {len(creatures) - 10} more" if len(creatures) > 10 else "")


def _left_to_divide(power: int, pairs: list, given: dict) -> list[int]:
    """For each total the creature may assign (nothing, or its power: 510.1a), what the given
    amounts leave to divide among its free pairs. A superset of its legal rows' totals: the
    constraints decide."""
    taken = sum(given[p] for p in pairs if p in given)
    return [total - taken for total in sorted({0, max(0, power)}) if total >= taken]
