"""Z3 terms made through Z3's C API: the formulas the rules and the proofs build, made fast.

A proof builds hundreds of thousands of terms, each of one context and of a sort known when
it is made. z3py's functions and operators (And, Not, If, Sum, `x > 0`) spend most of their
time checking and coercing their arguments for that: a sort object for each argument, a
numeral object for each constant. The functions here make the very same terms (so Z3's
answers do not change) with the C API directly, once their arguments are known to be fit;
anything else goes through z3py, its checks, conversions and errors alike. Every call into Z3
is still checked for an error, as z3py checks it.

`Formula` and `Integer` are z3py's BoolRef and ArithRef for the terms made here, and behave
as those do; they take the reference that holds a term directly, and an Integer compares
with, adds and subtracts a Python int or another Integer of its context directly, so that a
rule's `amount > 0` costs a fifth of what z3py's operator does. One difference is Python's
doing: with a plain z3py integer on its left (`y < X`), Python asks the Integer's reflected
operator first, which makes `X > y`, the same meaning with its sides swapped. lethal's own
unknowns are all Integers, so its formulas never mix the two.
"""

from __future__ import annotations

import ctypes

import z3


class _Held:
    """A term held by one reference count of its context's, as z3py's AstRef holds one,
    without the lookups AstRef makes on the way in and out."""

    def __init__(self, ast, ctx: z3.Context):
        # The reference taken before the fields are set: a KeyboardInterrupt landing in
        # between (Python's own handler, outside lethal's) leaks a term, never frees one
        # twice.
        z3.Z3_inc_ref(ctx.ctx, ast)
        self.ctx = ctx
        self.ast = ast

    # The function is kept as a default: at exit, z3's module may be gone before the term.
    def __del__(self, dec_ref=z3.Z3_dec_ref):
        ast, ctx = getattr(self, "ast", None), getattr(self, "ctx", None)  # half built?
        if ast is not None and ctx is not None and ctx.ctx is not None:  # not after its context
            dec_ref(ctx.ctx, ast)
            self.ast = None


class Formula(_Held, z3.BoolRef):
    """A truth value made here."""


_TRUTHS = (Formula, z3.BoolRef)  # exactly these: no quantifier, whose sort may be another


class Integer(_Held, z3.ArithRef):
    """An integer (never a real) made here."""

    def _made(self, other, make, kind, operator, swapped: bool = False):
        """`make` of this term and `other` (or of `other` and this, `swapped`) when `other` is
        a Python int or an Integer of this context; else z3py's `operator`."""
        ref = self.ctx.ctx
        if type(other) is int:
            # Made and used at once, with no object to hold it: Z3 keeps the last term it
            # made alive until it makes another, here the one that holds this numeral.
            sort = z3.Z3_mk_int_sort(ref)
            fit = z3.Z3_mk_numeral(ref, str(other), sort)
        elif type(other) is Integer and other.ctx is self.ctx:
            fit = other.ast
        else:  # a real, a bool, another context: z3py's operator says what it is
            return operator(self, other)
        pair = (fit, self.ast) if swapped else (self.ast, fit)
        return kind(make(ref, *pair), self.ctx)

    def __gt__(self, other):
        return self._made(other, z3.Z3_mk_gt, Formula, z3.ArithRef.__gt__)

    def __ge__(self, other):
        return self._made(other, z3.Z3_mk_ge, Formula, z3.ArithRef.__ge__)

    def __lt__(self, other):
        return self._made(other, z3.Z3_mk_lt, Formula, z3.ArithRef.__lt__)

    def __le__(self, other):
        return self._made(other, z3.Z3_mk_le, Formula, z3.ArithRef.__le__)

    def __eq__(self, other):
        return self._made(other, z3.Z3_mk_eq, Formula, z3.ArithRef.__eq__)

    def __ne__(self, other):  # z3py's `!=` is Distinct of the two
        return self._made(other, _distinct, Formula, z3.ArithRef.__ne__)

    __hash__ = z3.ArithRef.__hash__  # defining __eq__ would otherwise unset it

    def __add__(self, other):
        return self._made(other, _add, Integer, z3.ArithRef.__add__)

    def __radd__(self, other):
        return self._made(other, _add, Integer, z3.ArithRef.__radd__, swapped=True)

    def __sub__(self, other):
        return self._made(other, _subtract, Integer, z3.ArithRef.__sub__)

    def __rsub__(self, other):
        return self._made(other, _subtract, Integer, z3.ArithRef.__rsub__, swapped=True)

    def __neg__(self):
        return Integer(z3.Z3_mk_unary_minus(self.ctx.ctx, self.ast), self.ctx)


# z3py's two-argument Distinct, Add and Sub, as the operators above make them.
def _distinct(ref, a, b):
    return z3.Z3_mk_distinct(ref, 2, _asts(a, b))


def _add(ref, a, b):
    return z3.Z3_mk_add(ref, 2, _asts(a, b))


def _subtract(ref, a, b):
    return z3.Z3_mk_sub(ref, 2, _asts(a, b))


def _asts(*asts) -> ctypes.Array:
    return (z3.Ast * len(asts))(*asts)


def _array(terms) -> ctypes.Array:
    return _asts(*(term.ast for term in terms))


def _booleans(terms) -> z3.Context | None:
    """The context the terms share, if each is a truth value of it; else None."""
    if type(terms[0]) not in _TRUTHS:
        return None
    context = terms[0].ctx
    for term in terms:
        if type(term) not in _TRUTHS or term.ctx is not context:
            return None
    return context


def _integers(terms) -> z3.Context | None:
    """The context the terms share, if each is an integer (not a real) of it; else None."""
    if not isinstance(terms[0], z3.ArithRef):
        return None
    context = terms[0].ctx
    for term in terms:
        if type(term) is Integer:
            if term.ctx is not context:
                return None
            continue
        if type(term) is not z3.ArithRef or term.ctx is not context:
            return None
        ref = context.ref()
        if z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, term.ast)) != z3.Z3_INT_SORT:
            return None
    return context


def constant(name: str, sort: z3.SortRef) -> z3.ExprRef:
    """z3.Bool(name) or z3.Int(name), of the sort given (made once for the thousands of
    unknowns of a proof, where those make a sort object for each); z3.Const(name, sort)
    for any other sort."""
    kind = {z3.Z3_BOOL_SORT: Formula, z3.Z3_INT_SORT: Integer}.get(sort.kind())
    if kind is None:
        return z3.Const(name, sort)
    ref = sort.ctx.ref()
    return kind(z3.Z3_mk_const(ref, z3.Z3_mk_string_symbol(ref, name), sort.ast), sort.ctx)


def numeral(value: int, context: z3.Context) -> Integer:
    """z3.IntVal(value, context)."""
    sort = z3.Z3_mk_int_sort(context.ref())
    return Integer(z3.Z3_mk_numeral(context.ref(), str(value), sort), context)


def conjunction(terms: list) -> z3.BoolRef:
    """z3.And(terms)."""
    context = _booleans(terms)
    if context is None:
        return z3.And(terms)
    return Formula(z3.Z3_mk_and(context.ref(), len(terms), _array(terms)), context)


def disjunction(terms: list) -> z3.BoolRef:
    """z3.Or(terms)."""
    context = _booleans(terms)
    if context is None:
        return z3.Or(terms)
    return Formula(z3.Z3_mk_or(context.ref(), len(terms), _array(terms)), context)


def negation(term) -> z3.BoolRef:
    """z3.Not(term)."""
    if type(term) not in _TRUTHS:
        return z3.Not(term)
    return Formula(z3.Z3_mk_not(term.ctx.ref(), term.ast), term.ctx)


def if_then_else(condition, then, otherwise) -> z3.ExprRef:
    """z3.If(condition, then, otherwise), for a condition that is a term."""
    branches = _branches(condition, then, otherwise)
    if branches is None:
        return z3.If(condition, then, otherwise)
    kind, then, otherwise = branches
    context = condition.ctx
    return kind(z3.Z3_mk_ite(context.ref(), condition.ast, then.ast, otherwise.ast), context)


def _branches(condition, then, otherwise):
    """For an if-then-else of terms of the condition's context, both truth values or both
    integers (plain ints among them, which z3.If would make numerals): the kind of term it
    is, and its two branches as terms of that context. None for anything else."""
    if type(condition) not in _TRUTHS:
        return None
    context = condition.ctx
    if type(then) in _TRUTHS and type(otherwise) in _TRUTHS:
        if _booleans([condition, then, otherwise]) is None:
            return None
        return Formula, then, otherwise
    terms = [t for t in (then, otherwise) if type(t) is not int]
    if terms and _integers(terms) is not context:  # a bool or a float among them too
        return None
    # Numerals as objects, which hold them: a Z3 term no object holds may be freed.
    pair = [numeral(t, context) if type(t) is int else t for t in (then, otherwise)]
    return Integer, *pair


def sum_of(terms: list, constant: int = 0) -> z3.ArithRef:
    """The sum of the terms and the constant, as `z3.Sum(terms) + constant` would make it
    (no constant when it is 0, and a lone term for Sum)."""
    context = _integers(terms)
    if len(terms) == 1:
        sum_ = terms[0]
    elif context is None:
        sum_ = z3.Sum(terms)
    else:
        sum_ = Integer(z3.Z3_mk_add(context.ref(), len(terms), _array(terms)), context)
    return sum_ + constant if constant else sum_


def at_most_of(flags: list, n: int) -> z3.BoolRef:
    """z3.AtMost(*flags, n): at most n of the flags hold, as a pseudo-Boolean constraint."""
    context = _booleans(flags)
    if context is None:
        return z3.AtMost(*flags, n)
    return Formula(z3.Z3_mk_atmost(context.ref(), len(flags), _array(flags), n), context)


def exactly_of(flags: list, n: int) -> z3.BoolRef:
    """z3.PbEq([(f, 1) for f in flags], n): exactly n of the flags hold."""
    context, size = _booleans(flags), len(flags)
    if context is None:
        return z3.PbEq([(f, 1) for f in flags], n)
    ones = (ctypes.c_int * size)(*([1] * size))
    return Formula(z3.Z3_mk_pbeq(context.ref(), size, _array(flags), ones, n), context)
