"""Counting the legal assignments of a step exactly, and listing them.

Enumerating assignments with a solver and blocking clauses costs a solver call per
assignment. Instead the rules' constraints are split into independent groups: creatures
whose unknowns share a constraint are counted together, and the count is the product of the
groups' counts. Most creatures (every blocker, for one) are alone in their group. Each group
is counted by trying every row its creatures could have, against its constraints compiled
into one Python function; how many rows that is, is worked out first, by arithmetic, so a
group past the limit is refused before any row is made.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from math import comb, prod

import z3

from ..answers import Count
from ..combat import Entry, Scenario
from ..errors import TooManyToCount
from ..limits import COUNT_ROWS
from ..rules.division import damage_to_assign
from .encoding import Encoding


def count(scenario: Scenario, list_limit: int | None = None) -> Count:
    """How many legal assignments the step has (completing the file's partial assignment),
    and with `list_limit`, up to that many of them."""
    groups = _groups(scenario)
    counted = [(group, group.legal_rows()) for group in groups]
    total = prod(len(rows) for _, rows in counted)
    listed = None
    if list_limit is not None:
        combos = itertools.product(*(rows for _, rows in counted))
        listed = tuple(
            tuple(
                e
                for (group, _), rows in zip(counted, combo, strict=True)
                for e in group.entries(rows)
            )
            for combo in itertools.islice(combos, list_limit)
        )
    return Count(total, listed)


class _Group:
    """Creatures whose unknowns share constraints, with those constraints."""

    def __init__(self, creatures, pairs: dict, variables: dict, candidates: dict, formulas):
        self.creatures = creatures
        self.pairs = {c: pairs[c] for c in creatures}
        self.candidates = [candidates[c] for c in creatures]
        self.check = _compile(
            formulas,
            {
                variables[p].get_id(): f"r{i}[{j}]"
                for i, c in enumerate(creatures)
                for j, p in enumerate(pairs[c])
            },
            len(creatures),
        )

    def legal_rows(self) -> list[tuple[tuple[int, ...], ...]]:
        return [rows for rows in itertools.product(*self.candidates) if self.check(*rows)]

    def entries(self, rows) -> Iterator[Entry]:
        for creature, row in zip(self.creatures, rows, strict=True):
            for (source, to), amount in zip(self.pairs[creature], row, strict=True):
                if amount:
                    yield Entry(source, to, amount)


def _groups(scenario: Scenario) -> list[_Group]:
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
        formula = (
            constraint.holds
            if not isinstance(constraint.holds, bool)
            else encoding.formula(constraint.holds)
        )
        creatures = sorted({owner[v.get_id()] for v in _variables(formula)})
        for other in creatures[1:]:
            parent[root(other)] = root(creatures[0])
        formulas.append((formula, creatures[0] if creatures else None))

    # A constraint over no unknown at all holds or fails for every assignment alike.
    if any(c is None and z3.is_false(z3.simplify(f)) for f, c in formulas):
        return [_Group([], pairs, encoding.variables, {}, [encoding.formula(False)])]
    members: dict[str, list[str]] = {}
    for c in view.creatures:
        members.setdefault(root(c), []).append(c)
    for creatures in members.values():
        _refuse_past_the_limit(
            creatures, [_row_count(damage_to_assign(view, c), pairs[c], given) for c in creatures]
        )
    groups = []
    for creatures in members.values():
        mine = set(creatures)
        group_formulas = [f for f, c in formulas if c in mine]
        candidates = {c: _rows(damage_to_assign(view, c), pairs[c], given) for c in creatures}
        groups.append(_Group(creatures, pairs, encoding.variables, candidates, group_formulas))
    return groups


def _refuse_past_the_limit(creatures: list[str], row_counts: list[int]) -> None:
    size = prod(row_counts)
    if size > COUNT_ROWS.value():
        raise TooManyToCount(
            f"{_named(creatures)} {'together have' if len(creatures) > 1 else 'has'} "
            f"{size:,} possible divisions to try, more than the count limit of "
            f"{COUNT_ROWS.value():,}; raise {COUNT_ROWS.flag}"
        )


def _named(creatures: list[str]) -> str:
    shown = ", ".join(creatures[:10])
    return shown + (f" and {len(creatures) - 10} more" if len(creatures) > 10 else "")


def _rows(power: int, pairs: list, given: dict) -> list[tuple[int, ...]]:
    """Every row of amounts a creature could assign: a superset of its legal rows, since
    510.1a lets a creature assign in all either nothing or exactly its power (or toughness,
    `damage_to_assign`). The
    constraints decide which are legal. Only the free amounts are divided, so no row the
    given amounts rule out is made."""
    free = [i for i, p in enumerate(pairs) if p not in given]
    rows = []
    for left in _left_to_divide(power, pairs, given):
        for split in _compositions(left, len(free)):
            row = [given.get(p) for p in pairs]
            for i, amount in zip(free, split, strict=True):
                row[i] = amount
            rows.append(tuple(row))
    return rows


def _row_count(power: int, pairs: list, given: dict) -> int:
    """How many rows `_rows` makes, without making them (stars and bars)."""
    free = sum(p not in given for p in pairs)
    return sum(
        int(left == 0) if free == 0 else comb(left + free - 1, free - 1)
        for left in _left_to_divide(power, pairs, given)
    )


def _left_to_divide(power: int, pairs: list, given: dict) -> list[int]:
    """For each total the creature may assign (nothing, or its power), what the given
    amounts leave to divide among its free pairs."""
    taken = sum(given[p] for p in pairs if p in given)
    return [total - taken for total in sorted({0, max(0, power)}) if total >= taken]


def _compositions(total: int, width: int) -> Iterator[tuple[int, ...]]:
    if width == 0:
        if total == 0:
            yield ()
        return
    if width == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, width - 1):
            yield (first, *rest)


def _variables(formula) -> list:
    seen, found, todo = set(), [], [formula]
    while todo:
        expr = todo.pop()
        if expr.get_id() in seen:
            continue
        seen.add(expr.get_id())
        if z3.is_const(expr) and expr.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            found.append(expr)
        todo.extend(expr.children())
    return found


_INFIX = {
    z3.Z3_OP_EQ: "==",
    z3.Z3_OP_GE: ">=",
    z3.Z3_OP_GT: ">",
    z3.Z3_OP_LE: "<=",
    z3.Z3_OP_LT: "<",
    z3.Z3_OP_ADD: "+",
    z3.Z3_OP_SUB: "-",
    z3.Z3_OP_MUL: "*",
}


def _compile(formulas: list, names: dict[int, str], arity: int):
    """One Python function of the group's rows that is true exactly when every formula holds:
    far faster to call than asking Z3 about each candidate. `names` gives the Python
    expression of each unknown, by its Z3 id."""

    def code(expr) -> str:
        kind = expr.decl().kind()
        args = [code(a) for a in expr.children()]
        if kind == z3.Z3_OP_UNINTERPRETED and not args:
            return names[expr.get_id()]
        if kind == z3.Z3_OP_ANUM:
            return str(expr.as_long())
        if kind == z3.Z3_OP_TRUE:
            return "True"
        if kind == z3.Z3_OP_FALSE:
            return "False"
        if kind == z3.Z3_OP_AND:
            return "(" + " and ".join(args) + ")"
        if kind == z3.Z3_OP_OR:
            return "(" + " or ".join(args) + ")"
        if kind == z3.Z3_OP_NOT:
            return f"(not {args[0]})"
        if kind == z3.Z3_OP_IMPLIES:
            return f"(not {args[0]} or {args[1]})"
        if kind == z3.Z3_OP_ITE:
            return f"({args[1]} if {args[0]} else {args[2]})"
        if kind == z3.Z3_OP_UMINUS:
            return f"(-{args[0]})"
        if kind in _INFIX:
            return "(" + f" {_INFIX[kind]} ".join(args) + ")"
        raise NotImplementedError(f"cannot compile {expr.decl()} in {expr}")

    body = " and ".join(code(f) for f in formulas) or "True"
    parameters = ", ".join(f"r{i}" for i in range(arity))
    return eval(f"lambda {parameters}: {body}")  # noqa: S307 - code built above from Z3 terms
