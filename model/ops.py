"""The few operations the rules are written in, for plain values and Z3 terms alike.

Each rule is written once against these. Given Python bools and ints they compute a plain
answer (the fast concrete check); given Z3 terms they build a formula (queries and proofs).
Constants fold away, so a combat whose structure is concrete and whose amounts are symbolic
yields only the formulas that matter. Python's `and`, `or`, `not` and `if` must never be
applied to a value that may be a term: use these instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

Term = Any  # bool, int, or a z3 expression


def _z3():
    import z3  # only reached when a term is symbolic, so the concrete check never loads Z3

    return z3


# The formulas of a proof are built from terms that are already Z3 booleans or integers of one
# context, and z3.And, Or, Not, If and Sum spend most of their time checking and coercing
# their arguments for that (building a sort object per argument). When every argument is
# plainly of the right kind, the same formula is made with Z3's C API directly, as those
# functions end by doing; anything else (Python values to convert, reals, quantifiers, terms
# of two contexts) goes through them, checks, conversions and errors alike.


def _context(terms, kind) -> Any:
    """The context the terms share, if each is exactly a `kind` term of it; else None."""
    context = terms[0].ctx
    for term in terms:
        if type(term) is not kind or term.ctx is not context:
            return None
    return context


def _integers(terms) -> Any:
    """The context the terms share, if each is an integer (not real) term of it; else None."""
    z3 = _z3()
    context = _context(terms, z3.ArithRef)
    if context is None:
        return None
    ref = context.ref()
    for term in terms:
        if z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, term.ast)) != z3.Z3_INT_SORT:
            return None
    return context


def _array(terms) -> Any:
    return (_z3().Ast * len(terms))(*(term.ast for term in terms))


def _numeral(value: int, context) -> Any:
    """z3.IntVal(value, context), without the sort object IntVal makes on the way."""
    z3 = _z3()
    sort = z3.Z3_mk_int_sort(context.ref())
    return z3.IntNumRef(z3.Z3_mk_numeral(context.ref(), str(value), sort), context)


def _and(terms: list) -> Term:
    z3 = _z3()
    return _connective(terms, z3.Z3_mk_and, z3.And)


def _or(terms: list) -> Term:
    z3 = _z3()
    return _connective(terms, z3.Z3_mk_or, z3.Or)


def _connective(terms: list, make, fallback) -> Term:
    """`fallback(terms)` (z3.And or z3.Or), built by the C API's `make` when every term is a
    Z3 boolean of one context; otherwise by `fallback` itself, its checks and errors too."""
    z3 = _z3()
    context = _context(terms, z3.BoolRef)
    if context is None:
        return fallback(terms)
    return z3.BoolRef(make(context.ref(), len(terms), _array(terms)), context)


def _sum(terms: list, constant: int) -> Term:
    """The sum of the terms and the constant, as `z3.Sum(terms) + constant` (with no
    constant when it is 0, and a lone term for Sum) would build it: the same formula."""
    z3 = _z3()
    context = _integers(terms)
    if context is None:
        sum_ = terms[0] if len(terms) == 1 else z3.Sum(terms)
        return sum_ + constant if constant else sum_
    if len(terms) == 1 and not constant:
        return terms[0]
    sum_ = terms[0]
    if len(terms) > 1:
        sum_ = z3.ArithRef(z3.Z3_mk_add(context.ref(), len(terms), _array(terms)), context)
    if not constant:
        return sum_
    pair = _array([sum_, _numeral(constant, context)])
    return z3.ArithRef(z3.Z3_mk_add(context.ref(), 2, pair), context)


# all_of and any_of are asked of plain bools most of all (every check): no list is made
# until a term comes.
def all_of(values: Iterable[Term]) -> Term:
    terms = None
    for value in values:
        if value is True:
            continue
        if value is False:
            return False
        if terms is None:
            terms = [value]
        else:
            terms.append(value)
    if terms is None:
        return True
    return terms[0] if len(terms) == 1 else _and(terms)


def any_of(values: Iterable[Term]) -> Term:
    terms = None
    for value in values:
        if value is False:
            continue
        if value is True:
            return True
        if terms is None:
            terms = [value]
        else:
            terms.append(value)
    if terms is None:
        return False
    return terms[0] if len(terms) == 1 else _or(terms)


def negate(value: Term) -> Term:
    if value is True or value is False:
        return value is False
    z3 = _z3()
    if type(value) is not z3.BoolRef:
        return z3.Not(value)
    return z3.BoolRef(z3.Z3_mk_not(value.ctx.ref(), value.ast), value.ctx)


def implies(premise: Term, conclusion: Term) -> Term:
    # Folded as any_of((negate(premise), conclusion)) would fold it: one call, not three, for
    # each of the thousands of plain constraints a check builds.
    if premise is False or conclusion is True:
        return True
    if premise is True:
        return conclusion
    return any_of((negate(premise), conclusion))


def ite(condition: Term, then: Term, otherwise: Term) -> Term:
    if condition is True:
        return then
    if condition is False:
        return otherwise
    z3 = _z3()
    branches = _branches(condition, then, otherwise)
    if branches is None:
        return z3.If(condition, then, otherwise)
    kind, then, otherwise = branches
    context = condition.ctx
    return kind(z3.Z3_mk_ite(context.ref(), condition.ast, then.ast, otherwise.ast), context)


def _branches(condition: Term, then: Term, otherwise: Term) -> Any:
    """For an if-then-else of terms of the condition's context, both booleans or both
    integers (plain ints among them, which z3.If would make numerals): the kind of term it
    is, and its two branches as terms of that context. None for anything else."""
    z3 = _z3()
    if type(condition) is not z3.BoolRef:
        return None
    context = condition.ctx
    if type(then) is z3.BoolRef and type(otherwise) is z3.BoolRef:
        if _context([condition, then, otherwise], z3.BoolRef) is None:
            return None
        return z3.BoolRef, then, otherwise
    terms = [t for t in (then, otherwise) if type(t) is not int]
    if terms and _integers(terms) is not context:
        return None
    # Numerals as objects, which hold them: a Z3 term no object holds may be freed.
    pair = [_numeral(t, context) if type(t) is int else t for t in (then, otherwise)]
    return z3.ArithRef, *pair


def total(values: Iterable[Term]) -> Term:
    constant = 0
    terms = []
    for value in values:
        if isinstance(value, int):
            constant += value
        else:
            terms.append(value)
    if not terms:
        return constant
    return _sum(terms, constant)


def at_least_zero(value: Term) -> Term:
    if type(value) is int:  # a plain number, as ite would fold it: one for each creature
        return value if value > 0 else 0
    return ite(value > 0, value, 0)


def remembered(question: Callable[..., Term]) -> Callable[..., Term]:
    """A question about the combat alone (never the amounts), answered once per view and
    arguments by a view that keeps its answers in `view.answers`: the rules ask whom each
    creature may assign to in several places, and a symbolic combat is asked the same
    questions of each assignment a property names. A view without `answers`, or whose
    `answers` is None, builds the answer each time."""
    if question.__code__.co_argcount == 2:
        return _remembered_of_one(question)

    @wraps(question)
    def ask(view, *args):
        # `answers` holds a table for each question, of its answers by arguments: no key is
        # built, and no exception raised but the first time a view is asked the question.
        try:
            table = view.answers[question]
        except KeyError:
            table = view.answers[question] = {}
        except (AttributeError, TypeError):  # no `answers`, or None: nothing is kept
            return question(view, *args)
        # `in` and a subscript, not `get`: no method is looked up and called on the way.
        if args in table:
            return table[args]
        answer = table[args] = question(view, *args)
        return answer

    return ask


def _remembered_of_one(question: Callable[..., Term]) -> Callable[..., Term]:
    """`remembered` for a question of one creature, the most asked (several times of each
    creature by every check): its table is keyed by the creature alone, so that no tuple of
    arguments is packed and hashed for each asking."""

    @wraps(question)
    def ask(view, c):
        try:
            table = view.answers[question]
        except KeyError:
            table = view.answers[question] = {}
        except (AttributeError, TypeError):  # no `answers`, or None: nothing is kept
            return question(view, c)
        if c in table:
            return table[c]
        answer = table[c] = question(view, c)
        return answer

    return ask
