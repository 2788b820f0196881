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


_made = None  # the module that makes Z3 terms, once a term has come


def _terms():
    """lethal.solver.terms, imported when the first term comes: only then, so that the
    concrete check never loads Z3."""
    global _made
    if _made is None:
        from .solver import terms

        _made = terms
    return _made


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
    return terms[0] if len(terms) == 1 else _terms().conjunction(terms)


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
    return terms[0] if len(terms) == 1 else _terms().disjunction(terms)


def negate(value: Term) -> Term:
    if value is True or value is False:
        return value is False
    return _terms().negation(value)


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
    return _terms().if_then_else(condition, then, otherwise)


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
    return _terms().sum_of(terms, constant)


def any_positive(counted: Iterable[tuple[Term, Term]]) -> Term:
    """Whether some amount whose condition holds is above 0, of amounts never negative (the
    damage assigned). The amounts whose condition is plainly true are summed, one atom for
    all of them: their disjunction left Z3 a case for each (two deathtouch tramplers blocked
    by 24 tokens, each blocking both: "more than the most" undecided after 20 s, 0.05 s as a
    sum). An amount whose condition is a term counts only with it, a disjunct of its own."""
    certain, maybe = [], []
    for condition, amount in counted:
        if condition is True:
            certain.append(amount)
        elif condition is not False:
            maybe.append(all_of((condition, amount > 0)))
    return any_of((total(certain) > 0, *maybe))


def at_least_zero(value: Term) -> Term:
    if type(value) is int:  # a plain number, as ite would fold it: one for each creature
        return value if value > 0 else 0
    return ite(value > 0, value, 0)


def _takes_exactly(question: Callable[..., Term], n: int) -> bool:
    """The question takes n arguments, no fewer and no more: no default, *args or keyword-only
    argument that a wrapper of exactly n would refuse or drop."""
    code = question.__code__
    loose = code.co_flags & _STARRED or code.co_kwonlyargcount or question.__defaults__
    return code.co_argcount == n and not loose


# inspect's CO_VARARGS | CO_VARKEYWORDS: inspect itself is not imported, for the check's start.
_STARRED = 0x04 | 0x08


def remembered(question: Callable[..., Term]) -> Callable[..., Term]:
    """A question about the combat alone (never the amounts), answered once per view and
    arguments by a view that keeps its answers in `view.answers`: the rules ask whom each
    creature may assign to in several places, and a symbolic combat is asked the same
    questions of each assignment a property names. A view without `answers`, or whose
    `answers` is None, builds the answer each time."""
    if _takes_exactly(question, 2):
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


def built_once(question: Callable[..., Term]) -> Callable[..., Term]:
    """A question about the combat, or the combat and one assignment (`amounts`), whose
    answer is plain and cheap on plain values but a formula on terms: remembered by a view
    that keeps the formulas it built (`view.built`, a symbolic combat's), by question and
    arguments, for a property asks `legal` of several assignments and several rules ask
    the same of each (whether a creature may assign nothing, a blocker's lethal damage);
    asked afresh of a view that keeps none (`built` None), where looking an
    answer up would cost more than asking (the check of a 4x2 combat, a tenth slower)."""
    if _takes_exactly(question, 3):
        return _built_once_of_two(question)

    @wraps(question)
    def ask(view, *args):
        built = view.built
        if built is None:
            return question(view, *args)
        key = (question, *args)
        if key in built:
            return built[key]
        answer = built[key] = question(view, *args)
        return answer

    return ask


def _built_once_of_two(question: Callable[..., Term]) -> Callable[..., Term]:
    """`built_once` for a question of two arguments, such as whether a creature may assign
    to a recipient, asked of every pair by every check: its arguments passed on as they
    are, with no tuple packed for a view that keeps nothing."""

    @wraps(question)
    def ask(view, a, b):
        built = view.built
        if built is None:
            return question(view, a, b)
        key = (question, a, b)
        if key in built:
            return built[key]
        answer = built[key] = question(view, a, b)
        return answer

    return ask
