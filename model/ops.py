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
    return terms[0] if len(terms) == 1 else _z3().And(terms)


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
    return terms[0] if len(terms) == 1 else _z3().Or(terms)


def negate(value: Term) -> Term:
    if value is True or value is False:
        return value is False
    return _z3().Not(value)


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
    return _z3().If(condition, then, otherwise)


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
    sum_ = terms[0] if len(terms) == 1 else _z3().Sum(terms)
    return sum_ + constant if constant else sum_


def at_least_zero(value: Term) -> Term:
    return ite(value > 0, value, 0)


_UNASKED = object()


def remembered(question: Callable[..., Term]) -> Callable[..., Term]:
    """A question about the combat alone (never the amounts), answered once per view and
    arguments by a view that keeps its answers in `view.answers`: a plain view, whose
    answers are plain values, and which the rules ask whom each creature may assign to in
    several places. A view without one (the symbolic view), or whose `answers` is None,
    builds the formula each time."""

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
        answer = table.get(args, _UNASKED)
        if answer is _UNASKED:
            answer = table[args] = question(view, *args)
        return answer

    return ask
