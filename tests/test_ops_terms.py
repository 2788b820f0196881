"""ops builds Z3 formulas through the C API when its arguments are plainly Z3 booleans or
integers of one context: the formulas must be the very ones z3.And, Or, Not, If and Sum
build, and anything else must go through those functions, errors included."""

from __future__ import annotations

import gc

import pytest
import z3

from lethal.ops import all_of, any_of, at_least_zero, implies, ite, negate, total

context = z3.Context()
p, q, r = (z3.Bool(n, context) for n in "pqr")
x, y, w = (z3.Int(n, context) for n in "xyw")
real = z3.Real("real", context)
exists = z3.Exists([x], x > y)


def same(built, expected) -> bool:
    """The same formula (Z3 terms are shared: the same term, not merely an equal one), and
    the same kind of Python object."""
    return type(built) is type(expected) and built.eq(expected)


@pytest.mark.parametrize(
    "built, expected",
    [
        (lambda: all_of([p, q, r]), lambda: z3.And(p, q, r)),
        (lambda: all_of([p, True, q]), lambda: z3.And(p, q)),
        (lambda: any_of([p, q, False, r]), lambda: z3.Or(p, q, r)),
        (lambda: all_of([p, x > 1]), lambda: z3.And(p, x > 1)),
        (lambda: negate(p), lambda: z3.Not(p)),
        (lambda: negate(x == y), lambda: z3.Not(x == y)),
        (lambda: implies(p, q), lambda: z3.Or(z3.Not(p), q)),
        (lambda: ite(p, q, r), lambda: z3.If(p, q, r)),
        (lambda: ite(p, x, y), lambda: z3.If(p, x, y)),
        (lambda: ite(p, x, 0), lambda: z3.If(p, x, 0)),
        (lambda: ite(p, -3, y), lambda: z3.If(p, -3, y)),
        (lambda: ite(p, 1, 0), lambda: z3.If(p, z3.IntVal(1, context), 0)),
        (lambda: ite(p, 2**70, 0), lambda: z3.If(p, z3.IntVal(2**70, context), 0)),
        (lambda: total([x, y, w]), lambda: z3.Sum(x, y, w)),
        (lambda: total([x, 2, y, 3]), lambda: z3.Sum(x, y) + 5),
        (lambda: total([x, -4]), lambda: x + -4),
        (lambda: total([3, x]), lambda: x + 3),
        (lambda: total([x]), lambda: x),
        (lambda: at_least_zero(x - y), lambda: z3.If(x - y > 0, x - y, 0)),
        # What the C API is not given: reals, quantifiers, Python bools among terms.
        (lambda: total([x, real]), lambda: z3.Sum(x, real)),
        (lambda: total([real, 1]), lambda: real + 1),
        (lambda: ite(p, x, real), lambda: z3.If(p, x, real)),
        (lambda: ite(p, q, True), lambda: z3.If(p, q, True)),
        (lambda: all_of([p, exists]), lambda: z3.And(p, exists)),
        (lambda: negate(exists), lambda: z3.Not(exists)),
        (lambda: ite(exists, x, 1), lambda: z3.If(exists, x, 1)),
    ],
)
def test_the_formula_is_the_one_z3_builds(built, expected):
    assert same(built(), expected())


def test_terms_no_object_holds_survive_until_used():
    # Numerals and partial sums made on the way are held until the formula holding them
    # is made: with Z3 collecting in between, the formulas still read as they should.
    made = [(ite(p, n, n + 1), total([x, y, n])) for n in range(2000)]
    gc.collect()
    for n, (chosen, summed) in enumerate(made):
        assert chosen.sexpr() == f"(ite p {n} {n + 1})"
        assert (
            z3.simplify(
                z3.substitute(summed, (x, z3.IntVal(0, context)), (y, z3.IntVal(0, context)))
            ).as_long()
            == n
        )


@pytest.mark.parametrize(
    "build",
    [
        lambda other: all_of([p, other]),
        lambda other: any_of([p, other]),
        lambda other: ite(p, q, other),
    ],
)
def test_terms_of_two_contexts_are_refused_as_z3_refuses_them(build):
    stranger = z3.Bool("p", z3.Context())
    with pytest.raises(z3.Z3Exception):
        build(stranger)


def test_an_integer_where_a_truth_value_belongs_is_refused_as_z3_refuses_it():
    with pytest.raises(z3.Z3Exception):
        all_of([p, x])
    with pytest.raises(z3.Z3Exception):
        negate(x)
