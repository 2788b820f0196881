"""A constraint's formula taken apart for counting: a skeleton of and, or and not over atoms,
each atom a test of a few unknowns.

Almost every atom the rules make is linear (a sum of unknowns times constants, compared with
a constant: 510.1a's "exactly its power", 702.19b's lethal damage, `x > 0`), so what a
partial assignment contributes to it is one number, and partial assignments that differ only
inside that sum are alike to it. Any other atom is kept whole and tested once all of its
unknowns have values, so that no formula the rules may make is beyond counting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3

# A skeleton: True, False, ("atom", i), ("not", s), ("and", (s, ...)) or ("or", (s, ...)).
Skeleton = object


@dataclass(frozen=True)
class Linear:
    """sum(coefficient * unknown) + constant >= 0, or == 0 when `equal`."""

    terms: tuple[tuple[int, int], ...]  # (unknown, coefficient), unknowns by their index
    constant: int
    equal: bool

    @property
    def unknowns(self) -> tuple[int, ...]:
        return tuple(u for u, _ in self.terms)


@dataclass(frozen=True)
class Whole:
    """Any other test: a Python function of its unknowns' values, in `unknowns` order."""

    unknowns: tuple[int, ...]
    test: Callable[..., bool]


Atom = Linear | Whole


def taken_apart(formula: z3.BoolRef, index: dict[int, int]) -> tuple[Skeleton, list[Atom]]:
    """The formula's skeleton and atoms; `index` numbers the unknowns, by their Z3 id."""
    atoms: list[Atom] = []
    seen: dict[int, Skeleton] = {}  # Z3 shares subterms: take each apart once

    def skeleton(expr) -> Skeleton:
        if expr.get_id() not in seen:
            seen[expr.get_id()] = _skeleton(expr)
        return seen[expr.get_id()]

    def _skeleton(expr) -> Skeleton:
        kind = expr.decl().kind()
        children = expr.children()
        if kind == z3.Z3_OP_TRUE:
            return True
        if kind == z3.Z3_OP_FALSE:
            return False
        if kind == z3.Z3_OP_NOT:
            return ("not", skeleton(children[0]))
        if kind == z3.Z3_OP_AND:
            return ("and", tuple(skeleton(c) for c in children))
        if kind == z3.Z3_OP_OR:
            return ("or", tuple(skeleton(c) for c in children))
        if kind == z3.Z3_OP_IMPLIES:
            return ("or", (("not", skeleton(children[0])), skeleton(children[1])))
        if kind == z3.Z3_OP_ITE and z3.is_bool(children[1]):
            test, then, otherwise = (skeleton(c) for c in children)
            return ("or", (("and", (test, then)), ("and", (("not", test), otherwise))))
        atoms.append(_linear_atom(expr, index) or _whole_atom(expr, index))
        return ("atom", len(atoms) - 1)

    return skeleton(formula), atoms


def _linear_atom(expr, index: dict[int, int]) -> Linear | None:
    kind = expr.decl().kind()
    if kind not in _SIDES or (kind == z3.Z3_OP_EQ and not z3.is_int(expr.children()[0])):
        return None
    left, right = (_linear(c, index) for c in expr.children())
    if left is None or right is None:
        return None
    # The atom as (big - small + shift) >= 0, or big - small == 0, over the integers.
    big, small, shift, equal = _SIDES[kind](left, right)
    terms = dict(big[0])
    for u, c in small[0].items():
        terms[u] = terms.get(u, 0) - c
    constant = big[1] - small[1] + shift
    return Linear(tuple((u, c) for u, c in sorted(terms.items()) if c), constant, equal)


# Each comparison as (the side that must be larger, the other, a shift, whether an equality).
_SIDES = {
    z3.Z3_OP_GE: lambda a, b: (a, b, 0, False),
    z3.Z3_OP_GT: lambda a, b: (a, b, -1, False),
    z3.Z3_OP_LE: lambda a, b: (b, a, 0, False),
    z3.Z3_OP_LT: lambda a, b: (b, a, -1, False),
    z3.Z3_OP_EQ: lambda a, b: (a, b, 0, True),
}


def _linear(expr, index: dict[int, int]) -> tuple[dict[int, int], int] | None:
    """An integer term as its coefficients by unknown and its constant; None if it is not a
    sum of unknowns times constants."""
    kind = expr.decl().kind()
    children = expr.children()
    if kind == z3.Z3_OP_ANUM:
        return {}, expr.as_long()
    if kind == z3.Z3_OP_UNINTERPRETED and not children:
        return {index[expr.get_id()]: 1}, 0
    parts = [_linear(c, index) for c in children]
    if any(p is None for p in parts):
        return None
    if kind == z3.Z3_OP_ADD:
        return _combined(parts, [1] * len(parts))
    if kind == z3.Z3_OP_SUB:
        return _combined(parts, [1] + [-1] * (len(parts) - 1))
    if kind == z3.Z3_OP_UMINUS:
        return _combined(parts, [-1])
    if kind == z3.Z3_OP_MUL and sum(bool(terms) for terms, _ in parts) <= 1:
        factor = 1
        for terms, constant in parts:
            factor *= 1 if terms else constant
        return _combined([p for p in parts if p[0]] or [({}, 1)], [factor])
    return None


def _combined(parts, signs) -> tuple[dict[int, int], int]:
    terms: dict[int, int] = {}
    constant = 0
    for (part, c), sign in zip(parts, signs, strict=True):
        constant += sign * c
        for u, k in part.items():
            terms[u] = terms.get(u, 0) + sign * k
    return terms, constant


def _whole_atom(expr, index: dict[int, int]) -> Whole:
    unknowns = sorted({index[v.get_id()] for v in variables(expr)})
    names = {v.get_id(): f"x{index[v.get_id()]}" for v in variables(expr)}
    parameters = ", ".join(f"x{u}" for u in unknowns)
    test = eval(f"lambda {parameters}: {python_code(expr, names)}")  # noqa: S307 - built from Z3
    return Whole(tuple(unknowns), test)


def variables(formula) -> list:
    """The unknowns a formula mentions."""
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


def python_code(expr, names: dict[int, str]) -> str:
    """A Python expression equal to the Z3 term; `names` gives each unknown's, by Z3 id."""
    kind = expr.decl().kind()
    args = [python_code(a, names) for a in expr.children()]
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
