"""ops builds Z3 formulas through the C API (lethal.solver.terms) when its arguments are
plainly Z3 booleans or integers of one context: the formulas must be the very ones z3.And,
Or, Not, If, Sum and z3py's operators build, and anything else must go through those, errors
included."""

from __future__ import annotations

import gc
import weakref

import pytest
import z3

from lethal.ops import (
    all_of,
    any_of,
    any_positive,
    at_least_zero,
    built_once,
    implies,
    ite,
    negate,
    remembered,
    total,
)
from lethal.solver import terms

context = z3.Context()
p, q, r = (z3.Bool(n, context) for n in "pqr")
x, y, w = (z3.Int(n, context) for n in "xyw")
real = z3.Real("real", context)
exists = z3.Exists([x], x > y)


def same(built, expected) -> bool:
    """The same formula (Z3 terms are shared: the same term, not merely an equal one), and
    the same kind of Python object: z3py's own, or lethal's for it (a Formula is a BoolRef,
    an Integer an ArithRef)."""
    kinds = {z3.BoolRef: terms.Formula, z3.ArithRef: terms.Integer}
    return type(built) in (type(expected), kinds.get(type(expected))) and built.eq(expected)


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
        (lambda: any_positive([(True, x), (True, y)]), lambda: z3.Sum(x, y) > 0),
        (lambda: any_positive([(p, x), (False, y)]), lambda: z3.And(p, x > 0)),
        (
            lambda: any_positive([(p, x), (True, w), (q, 2)]),
            lambda: z3.Or(w > 0, z3.And(p, x > 0), q),
        ),
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


@pytest.mark.parametrize(
    "counted, expected",
    [([], False), ([(True, 0)], False), ([(False, 3), (True, 0)], False), ([(True, 2)], True)],
)
def test_any_positive_of_plain_values_is_whether_an_amount_counted_is_above_0(counted, expected):
    assert any_positive(counted) is expected


def test_any_positive_is_the_disjunction_of_amounts_never_negative():
    counted = [(True, x), (p, y), (True, w)]
    disjunction = z3.Or([z3.And(c, a > 0) for c, a in counted])
    solver = z3.Solver(ctx=context)
    solver.add(x >= 0, y >= 0, w >= 0, any_positive(counted) != disjunction)
    assert solver.check() == z3.unsat


def test_what_the_c_api_is_not_given_goes_through_z3py():
    assert terms.if_then_else(p, True, False).eq(z3.If(p, True, False))
    assert terms.conjunction([True, p]).eq(z3.And(True, p))
    assert terms.sum_of([real]).eq(real)
    real_unknown = terms.constant("real", z3.RealSort(context))
    assert type(real_unknown) is z3.ArithRef and real_unknown.eq(real)
    assert terms.at_most_of([p, True], 1).eq(z3.AtMost(p, True, 1))
    assert terms.exactly_of([p, q], 1).eq(z3.PbEq([(p, 1), (q, 1)], 1))


def test_a_formula_is_negated_once():
    """The rules negate the same facts for every pair: a formula made here keeps its
    negation, which is z3.Not's, and outlives nothing it should not."""
    fact = all_of((p, q))
    once = negate(fact)
    assert negate(fact) is once and once.eq(z3.Not(fact))
    assert negate(once).eq(z3.Not(z3.Not(fact)))
    kept = weakref.ref(once)
    del fact, once
    assert kept() is None


def test_an_integer_is_compared_with_0_once():
    """Whether an amount is above 0, asked by nearly every rule: an Integer keeps it, z3py's
    `x > 0`, and no other comparison is taken for it."""
    amount = terms.constant("amount", z3.IntSort(context))
    once = amount > 0
    assert (amount > 0) is once and once.eq(z3.Int("amount", context) > 0)
    assert (amount > 1) is not once and (amount > 1).eq(z3.Int("amount", context) > 1)
    assert (amount >= 0).eq(z3.Int("amount", context) >= 0)
    kept = weakref.ref(once)
    del amount, once
    assert kept() is None


def test_terms_no_object_holds_survive_until_used():
    # Numerals and partial sums made on the way are held until the formula holding them
    # is made: with Z3 collecting in between, the formulas still read as they should.
    made = [(ite(p, n, n + 1), total([x, y, n]), X > n) for n in range(2000)]
    gc.collect()
    for n, (chosen, summed, compared) in enumerate(made):
        assert chosen.sexpr() == f"(ite p {n} {n + 1})"
        assert compared.sexpr() == f"(> x {n})"
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


# The unknowns of a proof are lethal's Integers and Formulas, whose operators make their
# formulas directly when the other side is an int or another of their kind and context.
X, Y = (terms.constant(n, z3.IntSort(context)) for n in "xy")
P, Q = (terms.constant(n, z3.BoolSort(context)) for n in "pq")


@pytest.mark.parametrize(
    "built, expected",
    [
        (lambda: X > 1, lambda: x > 1),
        (lambda: X >= Y, lambda: x >= y),
        (lambda: X < -2, lambda: x < -2),
        (lambda: X <= 2**70, lambda: x <= 2**70),
        (lambda: X == Y, lambda: x == y),
        (lambda: X != 0, lambda: x != 0),
        (lambda: 3 < X, lambda: 3 < x),
        (lambda: 3 == X, lambda: 3 == x),
        (lambda: X + 1, lambda: x + 1),
        (lambda: 1 + X, lambda: 1 + x),
        (lambda: X - Y, lambda: x - y),
        (lambda: 5 - X, lambda: 5 - x),
        (lambda: -X, lambda: -x),
        (lambda: (X + Y) > X - 1, lambda: (x + y) > x - 1),
        (lambda: terms.substitution(X + Y > 1, [(X, Y)]), lambda: z3.substitute(x + y > 1, (x, y))),
        (lambda: terms.substitution(X - 1, [(X, Y), (Y, X)]), lambda: y - 1),
        # What is not an int or an Integer of the context goes through z3py's operators.
        (lambda: terms.substitution(x + 1, [(X, Y)]), lambda: y + 1),
        (lambda: terms.substitution(X > 1, []), lambda: x > 1),
        (lambda: X > y, lambda: x > y),
        (lambda: X + real, lambda: x + real),
        (lambda: X * 2, lambda: x * 2),
        (lambda: 2 * X, lambda: 2 * x),
        (lambda: X * Y, lambda: x * y),
        (lambda: X * p, lambda: x * p),
        (lambda: P == Q, lambda: p == q),
        (lambda: P != Q, lambda: p != q),
        (lambda: P == q, lambda: p == q),
        (lambda: P == True, lambda: p == True),  # noqa: E712 (z3py's own equality)
    ],
)
def test_an_integers_operators_make_the_formulas_z3py_makes(built, expected):
    assert same(built(), expected())


def test_an_integer_unknown_is_the_one_z3_int_makes():
    assert X.eq(x) and terms.constant("p", z3.BoolSort(context)).eq(p)
    assert isinstance(X, z3.ArithRef) and X.is_int() and hash(X) == hash(x)


def test_an_integer_compared_with_one_of_another_context_is_refused_as_z3_refuses_it():
    with pytest.raises(z3.Z3Exception):
        X > z3.Int("x", z3.Context())  # noqa: B015 (the comparison is the point)


def test_a_term_z3_will_not_make_through_its_c_api_raises_as_z3py_raises():
    # Terms are made by Z3's C functions directly; one that fails gives back no term, and
    # that is z3py's exception with Z3's own message, never a term holding nothing.
    with pytest.raises(z3.Z3Exception, match="Sort mismatch"):
        terms.Formula(terms._mk_not(context.ctx.value, X.at), context)


def test_a_z3py_that_keeps_its_c_functions_otherwise_is_refused_by_name(monkeypatch):
    # The C functions are found where z3py's wrappers keep them, and called with addresses
    # as plain ints; another z3py's wrappers, laid out otherwise, would read an address as a
    # C int, so lethal says which function it could not find rather than call them.
    original = z3.z3core.Z3_mk_not

    def Z3_mk_not(a0, a1):  # a wrapper keeping nothing as a default
        return original(a0, a1)

    monkeypatch.setattr(z3.z3core, "Z3_mk_not", Z3_mk_not)
    with pytest.raises(ImportError, match="Z3_mk_not"):
        terms._c("Z3_mk_not")


def test_the_operators_of_terms_made_here_make_terms_here():
    # Not z3py's operators, which would give the same formula as z3py's own object.
    for made, kind in ((P == Q, terms.Formula), (P != Q, terms.Formula), (X * Y, terms.Integer)):
        assert type(made) is kind
    assert type(2 * X) is terms.Integer and type(X > 0) is terms.Formula
    assert type(P == True) is z3.BoolRef  # noqa: E712 (a Python bool goes through z3py)


def test_a_term_made_here_gives_z3py_its_own_handle():
    # z3py's functions, given a term made here, read its handle: the term's address.
    made = terms.conjunction([p, q])
    assert made.ast.value == made.at == z3.And(p, q).ast.value
    assert made.sexpr() == "(and p q)"
    assert hash(made) == hash(z3.And(p, q))


@pytest.mark.parametrize("make", [lambda: z3.Solver(ctx=context), lambda: z3.Optimize(ctx=context)])
def test_asserting_all_asserts_what_add_would(make):
    # Formulas made here and z3py's are asserted directly; a Python bool and a quantifier
    # go through add, as they would have.
    direct, added = make(), make()
    formulas = [X > 1, p, z3.Or(q, r), True, exists]
    terms.assert_all(direct, formulas)
    added.add(formulas)
    assert [f.sexpr() for f in direct.assertions()] == [f.sexpr() for f in added.assertions()]
    terms.assert_all(direct, [X < 1])
    assert direct.check() == z3.unsat


def test_a_solvers_assertions_copied_are_what_add_would_assert():
    source, copied, added = (z3.Solver(ctx=context) for _ in range(3))
    source.add(X > 1, p, z3.Or(q, r), exists)
    terms.assert_copy(copied, source)
    added.add(source.assertions())
    assert [f.sexpr() for f in copied.assertions()] == [f.sexpr() for f in added.assertions()]
    assert len(copied.assertions()) == 4
    with pytest.raises(z3.Z3Exception):  # another context's solver refuses them, as add does
        terms.assert_copy(z3.Solver(ctx=z3.Context()), source)


def test_asserting_a_formula_of_another_context_is_refused_as_add_refuses_it():
    with pytest.raises(z3.Z3Exception):
        terms.assert_all(z3.Solver(ctx=context), [z3.Bool("p", z3.Context())])


def test_a_formula_read_raw_reads_as_z3py_reads_it():
    # What the walks over formulas (parts, counting) read without z3py's objects.
    def compare(ref, ast, expected):
        assert terms.term_id(ref, ast) == expected.get_id()
        assert terms.sort_kind(ref, ast) == expected.sort().kind()
        if z3.is_quantifier(expected) or z3.is_var(expected):
            assert terms.operator(ref, ast) is None
        else:
            assert terms.operator(ref, ast) == expected.decl().kind()
        if z3.is_int_value(expected):
            assert terms.integer_value(ref, ast) == expected.as_long()
        inner = terms.inside(ref, ast)
        assert len(inner) == len(expected.children())
        for child, known in zip(inner, expected.children(), strict=True):
            compare(ref, child, known)

    formula = z3.And(z3.Implies(p, X + Y >= -2), z3.If(q, x, 2**70) == w, exists)
    compare(*terms.raw(formula), formula)
    held = X + 1  # a term read raw lives only as long as something holds it
    assert terms.shown(*terms.raw(held)) == "(+ x 1)"


def test_a_value_in_a_model_is_what_z3py_reads_there():
    """Truth values and integers, small, negative, past 64 bits and left out of the model,
    read as z3py's eval with model completion reads them."""
    context = z3.Context()
    p, q = z3.Bools("p q", context)
    x, y, z = z3.Ints("x y z", context)
    solver = z3.Solver(ctx=context)
    solver.add(p, x == -7, y == 2**70)
    assert solver.check() == z3.sat
    model = solver.model()
    for term in (p, q, z3.Not(p), x, y, z, x + 1):
        evaluated = model.eval(term, model_completion=True)
        expected = z3.is_true(evaluated) if z3.is_bool(evaluated) else evaluated.as_long()
        assert terms.value_in(model, term) == expected, term
    assert [terms.value_in(model, t) for t in (p, x, y)] == [True, -7, 2**70]
    with pytest.raises(TypeError, match="no truth value or integer"):
        terms.value_in(model, z3.Real("r", context) + z3.RealVal("1/2", context))


def test_a_question_is_wrapped_for_exactly_its_arguments():
    # remembered and built_once have wrappers for one and two arguments, taken only by a
    # question of exactly that many: one with a default or more arguments keeps them.
    class Plain:
        answers, built = {}, None

    class Keeping:
        answers, built = {}, {}

    @remembered
    def of_one(view, c="a"):
        return c

    @built_once
    def of_two(view, s, r=None, *more):
        return (s, r, more)

    for view in (Plain(), Keeping()):
        assert of_one(view) == "a" and of_one(view, "b") == "b"
        assert of_two(view, "s") == ("s", None, ())
        assert of_two(view, "s", "r", 1) == ("s", "r", (1,))
