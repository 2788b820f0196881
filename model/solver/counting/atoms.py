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

from .. import terms

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
    """The formula's skeleton and atoms; `index` numbers the unknowns, by their Z3 id. The
    formula is read raw (`terms.inside`), with no z3py object made for each of its terms."""
    ref, root = terms.raw(formula)
    atoms: list[Atom] = []
    seen: dict[int, Skeleton] = {}  # Z3 shares subterms: take each apart once

    def skeleton(ast) -> Skeleton:
        key = terms.term_id(ref, ast)
        if key not in seen:
            seen[key] = _skeleton(ast)
        return seen[key]

    def _skeleton(ast) -> Skeleton:
        kind = terms.operator(ref, ast)
        children = terms.inside(ref, ast)
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
        if kind == z3.Z3_OP_ITE and terms.sort_kind(ref, children[1]) == z3.Z3_BOOL_SORT:
            test, then, otherwise = (skeleton(c) for c in children)
            return ("or", (("and", (test, then)), ("and", (("not", test), otherwise))))
        atoms.append(_linear_atom(ref, ast, index) or _whole_atom(ref, ast, index))
        return ("atom", len(atoms) - 1)

    return skeleton(root), atoms


def _linear_atom(ref, ast, index: dict[int, int]) -> Linear | None:
    kind = terms.operator(ref, ast)
    children = terms.inside(ref, ast)
    if kind not in _SIDES or (
        kind == z3.Z3_OP_EQ and terms.sort_kind(ref, children[0]) != z3.Z3_INT_SORT
    ):
        return None
    left, right = (_linear(ref, c, index) for c in children)
    if left is None or right is None:
        return None
    # The atom as (big - small + shift) >= 0, or big - small == 0, over the integers.
    big, small, shift, equal = _SIDES[kind](left, right)
    coefficients = dict(big[0])
    for u, c in small[0].items():
        coefficients[u] = coefficients.get(u, 0) - c
    constant = big[1] - small[1] + shift
    return Linear(tuple((u, c) for u, c in sorted(coefficients.items()) if c), constant, equal)


# Each comparison as (the side that must be larger, the other, a shift, whether an equality).
_SIDES = {
    z3.Z3_OP_GE: lambda a, b: (a, b, 0, False),
    z3.Z3_OP_GT: lambda a, b: (a, b, -1, False),
    z3.Z3_OP_LE: lambda a, b: (b, a, 0, False),
    z3.Z3_OP_LT: lambda a, b: (b, a, -1, False),
    z3.Z3_OP_EQ: lambda a, b: (a, b, 0, True),
}


def _linear(ref, ast, index: dict[int, int]) -> tuple[dict[int, int], int] | None:
    """An integer term as its coefficients by unknown and its constant; None if it is not a
    sum of unknowns times constants."""
    kind = terms.operator(ref, ast)
    children = terms.inside(ref, ast)
    if kind == z3.Z3_OP_ANUM:
        return {}, terms.integer_value(ref, ast)
    if kind == z3.Z3_OP_UNINTERPRETED and not children:
        return {index[terms.term_id(ref, ast)]: 1}, 0
    parts = [_linear(ref, c, index) for c in children]
    if any(p is None for p in parts):
        return None
    if kind == z3.Z3_OP_ADD:
        return _combined(parts, [1] * len(parts))
    if kind == z3.Z3_OP_SUB:
        return _combined(parts, [1] + [-1] * (len(parts) - 1))
    if kind == z3.Z3_OP_UMINUS:
        return _combined(parts, [-1])
    if kind == z3.Z3_OP_MUL and sum(bool(found) for found, _ in parts) <= 1:
        factor = 1
        for found, constant in parts:
            factor *= 1 if found else constant
        return _combined([p for p in parts if p[0]] or [({}, 1)], [factor])
    return None


def _combined(parts, signs) -> tuple[dict[int, int], int]:
    found: dict[int, int] = {}
    constant = 0
    for (part, c), sign in zip(parts, signs, strict=True):
        constant += sign * c
        for u, k in part.items():
            found[u] = found.get(u, 0) + sign * k
    return found, constant


def _whole_atom(ref, ast, index: dict[int, int]) -> Whole:
    ids = _unknowns(ref, ast)
    unknowns = sorted({index[i] for i in ids})
    names = {i: f"x{index[i]}" for i in ids}
    parameters = ", ".join(f"x{u}" for u in unknowns)
    test = eval(f"lambda {parameters}: {_python(ref, ast, names)}")  # noqa: S307 - built from Z3
    return Whole(tuple(unknowns), test)


def unknowns(formula: z3.ExprRef) -> set[int]:
    """The Z3 ids of the unknowns a formula mentions."""
    return _unknowns(*terms.raw(formula))


def _unknowns(ref, ast) -> set[int]:
    seen, found, todo = set(), set(), [ast]
    while todo:
        ast = todo.pop()
        key = terms.term_id(ref, ast)
        if key in seen:
            continue
        seen.add(key)
        children = terms.inside(ref, ast)
        if not children and terms.operator(ref, ast) == z3.Z3_OP_UNINTERPRETED:
            found.add(key)
        todo.extend(children)
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


def _python(ref, ast, names: dict[int, str]) -> str:
    """A Python expression equal to the raw Z3 term; `names` gives each unknown's, by Z3 id."""
    kind = terms.operator(ref, ast)
    args = [_python(ref, a, names) for a in terms.inside(ref, ast)]
    if kind == z3.Z3_OP_UNINTERPRETED and not args:
        return names[terms.term_id(ref, ast)]
    if kind == z3.Z3_OP_ANUM:
        return str(terms.integer_value(ref, ast))
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
    raise NotImplementedError(f"cannot compile {terms.shown(ref, ast)}")
