"""Z3 terms made, read and asserted through Z3's C API: the formulas the rules and the proofs
build, made fast.

A proof builds hundreds of thousands of terms, each of one context and of a sort known when
it is made. z3py's functions and operators (And, Not, If, Sum, `x > 0`) spend most of their
time checking and coercing their arguments for that: a sort object for each argument, a
numeral object for each constant. The functions here make the very same terms (so Z3's
answers do not change) with the C API directly, once their arguments are known to be fit;
anything else goes through z3py, its checks, conversions and errors alike. The calls go to the
very functions z3py calls, given plain pointers (`_c`); every term made is still checked for
an error, as z3py checks it.

Terms are read (`raw`, `term_id`, `inside`, ...: walking a formula without an object for each
term it passes, as z3py's `children()` makes one) and asserted (`assert_all`, without z3py's
cast of each formula to the truth value it already is) through the C API too. Each formula
asserted is checked for an error; the readers are given only terms read from a term a caller
holds, which they cannot fail on, and are not checked.

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
from typing import NoReturn

import z3


def _c(name: str):
    """Z3's C function `name`, as the library z3py loaded exports it, taking plain pointers
    for z3py's handles (a context, a term, a sort, a symbol). z3py's wrapper of it calls a
    Python method for each such argument and asks Z3 for an error code after the call:
    about eight calls of Python's for each term made, counting its reference's taking and
    giving back (the property library at 3x3x2, 7.5-7.7 s to 6.8-7.2 s CPU). The wrapper
    keeps the library's function as the default of its last parameter; a z3py that keeps
    it otherwise is given its wrapper, slower and as right."""
    wrapper = getattr(z3.z3core, name)
    loaded = getattr((wrapper.__defaults__ or (None,))[-1], "f", None)
    if getattr(loaded, "argtypes", None) is None:
        return wrapper
    plain = [
        ctypes.c_void_p if issubclass(kind, ctypes.c_void_p) else kind for kind in loaded.argtypes
    ]
    return ctypes.CFUNCTYPE(loaded.restype, *plain)(ctypes.cast(loaded, ctypes.c_void_p).value)


_inc_ref, _dec_ref = _c("Z3_inc_ref"), _c("Z3_dec_ref")
_mk_and, _mk_or, _mk_not, _mk_ite = (_c(f"Z3_mk_{n}") for n in ("and", "or", "not", "ite"))
_mk_gt, _mk_ge, _mk_lt, _mk_le, _mk_eq = (_c(f"Z3_mk_{n}") for n in ("gt", "ge", "lt", "le", "eq"))
_mk_add, _mk_sub, _mk_unary_minus, _mk_distinct = (
    _c(f"Z3_mk_{n}") for n in ("add", "sub", "unary_minus", "distinct")
)
_mk_int64, _mk_numeral, _mk_int_sort = (_c(f"Z3_mk_{n}") for n in ("int64", "numeral", "int_sort"))
_mk_const, _mk_string_symbol = _c("Z3_mk_const"), _c("Z3_mk_string_symbol")
_mk_atmost, _mk_pbeq = _c("Z3_mk_atmost"), _c("Z3_mk_pbeq")
_get_sort, _get_sort_kind = _c("Z3_get_sort"), _c("Z3_get_sort_kind")
_get_ast_id, _get_ast_kind = _c("Z3_get_ast_id"), _c("Z3_get_ast_kind")
_get_app_num_args, _get_app_arg = _c("Z3_get_app_num_args"), _c("Z3_get_app_arg")
_get_quantifier_body, _substitute = _c("Z3_get_quantifier_body"), _c("Z3_substitute")
_solver_assert, _optimize_assert = _c("Z3_solver_assert"), _c("Z3_optimize_assert")
_get_error_code, _get_error_msg = _c("Z3_get_error_code"), _c("Z3_get_error_msg")
_get_app_decl, _get_decl_kind = _c("Z3_get_app_decl"), _c("Z3_get_decl_kind")
_get_numeral_string = _c("Z3_get_numeral_string")
_model_eval, _get_bool_value = _c("Z3_model_eval"), _c("Z3_get_bool_value")
_get_numeral_int64 = _c("Z3_get_numeral_int64")
_INT64 = 2**63  # Z3_mk_int64 takes a signed 64-bit number: ctypes would cut a larger one


def _checked(ast, ctx: z3.Context):
    """The term Z3 made, or z3py's exception with Z3's message if it made none: a function
    that makes a term gives back none exactly when it fails."""
    if not ast:
        _failed(ctx)
    return ast


def _failed(ctx: z3.Context) -> NoReturn:
    """z3py's exception, with Z3's message for the error the last call made."""
    ref = ctx.ctx
    message = _get_error_msg(ref, _get_error_code(ref))
    raise z3.Z3Exception(message.decode() if isinstance(message, bytes) else message)


class _Held:
    """A term held by one reference count of its context's, as z3py's AstRef holds one,
    without the lookups AstRef makes on the way in and out."""

    ast = ctx = None  # until set: a term half built is let go with no reference given back

    def __init__(self, ast, ctx: z3.Context):
        # The reference taken before the fields are set: a KeyboardInterrupt landing in
        # between (Python's own handler, outside lethal's) leaks a term, never frees one
        # twice.
        if not ast:
            _failed(ctx)
        _inc_ref(ctx.ctx, ast)
        self.ctx = ctx
        self.ast = ast

    # The function is kept as a default: at exit, this module may be gone before the term.
    def __del__(self, dec_ref=_dec_ref):
        ast, ctx = self.ast, self.ctx
        if ast is not None and ctx is not None and ctx.ctx is not None:  # not after its context
            dec_ref(ctx.ctx, ast)
            self.ast = None


class Formula(_Held, z3.BoolRef):
    """A truth value made here."""

    # Its negation, once made (`negation`): the rules negate the same few facts of a
    # combat (blocked, blocking, removed) for each pair and each rule that asks them.
    negated: Formula | None = None


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
            fit = _checked(_numeral(ref, other), self.ctx)
        elif type(other) is Integer and other.ctx is self.ctx:
            fit = other.ast
        else:  # a real, a bool, another context: z3py's operator says what it is
            return operator(self, other)
        pair = (fit, self.ast) if swapped else (self.ast, fit)
        return kind(make(ref, *pair), self.ctx)

    def __gt__(self, other):
        return self._made(other, _mk_gt, Formula, z3.ArithRef.__gt__)

    def __ge__(self, other):
        return self._made(other, _mk_ge, Formula, z3.ArithRef.__ge__)

    def __lt__(self, other):
        return self._made(other, _mk_lt, Formula, z3.ArithRef.__lt__)

    def __le__(self, other):
        return self._made(other, _mk_le, Formula, z3.ArithRef.__le__)

    def __eq__(self, other):
        return self._made(other, _mk_eq, Formula, z3.ArithRef.__eq__)

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
        return Integer(_mk_unary_minus(self.ctx.ctx, self.ast), self.ctx)


# z3py's two-argument Distinct, Add and Sub, as the operators above make them.
def _distinct(ref, a, b):
    return _mk_distinct(ref, 2, _asts(a, b))


def _add(ref, a, b):
    return _mk_add(ref, 2, _asts(a, b))


def _subtract(ref, a, b):
    return _mk_sub(ref, 2, _asts(a, b))


def _asts(*asts) -> ctypes.Array:
    return (z3.Ast * len(asts))(*asts)


def _array(terms) -> ctypes.Array:
    return (z3.Ast * len(terms))(*[term.ast for term in terms])


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
        ref = context.ctx
        if _get_sort_kind(ref, _get_sort(ref, term.ast)) != z3.Z3_INT_SORT:
            return None
    return context


def constant(name: str, sort: z3.SortRef) -> z3.ExprRef:
    """z3.Bool(name) or z3.Int(name), of the sort given (made once for the thousands of
    unknowns of a proof, where those make a sort object for each); z3.Const(name, sort)
    for any other sort."""
    ref = sort.ctx.ctx
    kind = _UNKNOWNS.get(_get_sort_kind(ref, sort.ast))
    if kind is None:
        return z3.Const(name, sort)
    symbol = _checked(_mk_string_symbol(ref, name.encode()), sort.ctx)
    return kind(_mk_const(ref, symbol, sort.ast), sort.ctx)


_UNKNOWNS = {z3.Z3_BOOL_SORT: Formula, z3.Z3_INT_SORT: Integer}


def numeral(value: int, context: z3.Context) -> Integer:
    """z3.IntVal(value, context)."""
    return Integer(_numeral(context.ctx, value), context)


def _numeral(ref, value: int):
    """The numeral `value` of Z3's context `ref`, made and not yet held."""
    sort = _mk_int_sort(ref)
    if -_INT64 <= value < _INT64:
        return _mk_int64(ref, value, sort)
    return _mk_numeral(ref, str(value).encode(), sort)


def conjunction(terms: list) -> z3.BoolRef:
    """z3.And(terms)."""
    context = _booleans(terms)
    if context is None:
        return z3.And(terms)
    return Formula(_mk_and(context.ctx, len(terms), _array(terms)), context)


def disjunction(terms: list) -> z3.BoolRef:
    """z3.Or(terms)."""
    context = _booleans(terms)
    if context is None:
        return z3.Or(terms)
    return Formula(_mk_or(context.ctx, len(terms), _array(terms)), context)


def negation(term) -> z3.BoolRef:
    """z3.Not(term)."""
    if type(term) is Formula:
        if term.negated is None:
            term.negated = Formula(_mk_not(term.ctx.ctx, term.ast), term.ctx)
        return term.negated
    if type(term) not in _TRUTHS:
        return z3.Not(term)
    return Formula(_mk_not(term.ctx.ctx, term.ast), term.ctx)


def if_then_else(condition, then, otherwise) -> z3.ExprRef:
    """z3.If(condition, then, otherwise), for a condition that is a term."""
    branches = _branches(condition, then, otherwise)
    if branches is None:
        return z3.If(condition, then, otherwise)
    kind, then, otherwise = branches
    context = condition.ctx
    return kind(_mk_ite(context.ctx, condition.ast, then.ast, otherwise.ast), context)


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
        sum_ = Integer(_mk_add(context.ctx, len(terms), _array(terms)), context)
    return sum_ + constant if constant else sum_


def at_most_of(flags: list, n: int) -> z3.BoolRef:
    """z3.AtMost(*flags, n): at most n of the flags hold, as a pseudo-Boolean constraint."""
    context = _booleans(flags)
    if context is None:
        return z3.AtMost(*flags, n)
    return Formula(_mk_atmost(context.ctx, len(flags), _array(flags), n), context)


def exactly_of(flags: list, n: int) -> z3.BoolRef:
    """z3.PbEq([(f, 1) for f in flags], n): exactly n of the flags hold."""
    context, size = _booleans(flags), len(flags)
    if context is None:
        return z3.PbEq([(f, 1) for f in flags], n)
    ones = (ctypes.c_int * size)(*([1] * size))
    return Formula(_mk_pbeq(context.ctx, size, _array(flags), ones, n), context)


def assert_all(solver: z3.Solver | z3.Optimize, formulas) -> None:
    """solver.add(*formulas): each a truth value of the solver's context made here or by
    z3py is asserted directly, where add would cast each of the thousands to what it
    already is; anything else (a Python bool, a quantifier, another context's formula)
    goes through add, which casts it or refuses it."""
    context = solver.ctx
    if isinstance(solver, z3.Optimize):
        asserted, handle = _optimize_assert, solver.optimize
    else:
        asserted, handle = _solver_assert, solver.solver
    for formula in formulas:
        if type(formula) in _TRUTHS and formula.ctx is context:
            asserted(context.ctx, handle, formula.ast)
            if _get_error_code(context.ctx) != z3.Z3_OK:  # as z3py checks after each call
                _failed(context)
        else:
            solver.add(formula)


def value_in(model: z3.ModelRef, term) -> bool | int:
    """The value of a truth value or an integer in a model, completed where the model says
    nothing: z3.is_true(model.eval(term, True)), or its as_long(), without the objects z3py
    makes for each (a counterexample reads thousands)."""
    context = term.ctx
    ref, found = context.ctx, (z3.Ast * 1)()
    if not _model_eval(ref, model.model, term.ast, True, found):
        _failed(context)
    # Read before any other term is made: until then Z3 holds the one just made for us.
    kind = _get_sort_kind(ref, _get_sort(ref, found[0]))
    if kind == z3.Z3_BOOL_SORT:
        return _get_bool_value(ref, found[0]) == z3.Z3_L_TRUE
    if kind != z3.Z3_INT_SORT or _get_ast_kind(ref, found[0]) != z3.Z3_NUMERAL_AST:
        raise TypeError(f"{term} has no truth value or integer in the model")
    number = ctypes.c_longlong()
    if _get_numeral_int64(ref, found[0], ctypes.byref(number)):
        return number.value
    return int(_get_numeral_string(ref, found[0]))


def substitution(term, pairs: list) -> z3.ExprRef:
    """z3.substitute(term, *pairs): each pair's first term replaced by its second, in a truth
    value or an integer made here and pairs of integers, all of one context."""
    kind = Formula if type(term) in _TRUTHS else Integer if type(term) is Integer else None
    olds, news = [a for a, _ in pairs], [b for _, b in pairs]
    if kind is None or not pairs or _integers(olds + news) is not term.ctx:
        return z3.substitute(term, *pairs)
    made = _substitute(term.ctx.ctx, term.ast, len(pairs), _array(olds), _array(news))
    return kind(made, term.ctx)


# Walking a formula: its terms read raw, with no object made for each, as z3py's `children()`
# makes (and counts a reference to) one for every term it passes. A term read so is held by
# nothing of its own: it lives as long as the term it was read from.


def raw(term: z3.ExprRef) -> tuple:
    """The term's context, as Z3's C functions take it, and the term itself raw: where a
    walk starts. The caller holds `term` for as long as the walk lasts."""
    return term.ctx.ctx, term.ast


def term_id(ref, ast) -> int:
    """term.get_id() of a raw term: the same for equal terms (Z3 makes them one)."""
    return _get_ast_id(ref, ast)


_APPLICATIONS = (z3.Z3_APP_AST, z3.Z3_NUMERAL_AST)  # the terms that have an operator


def operator(ref, ast) -> int | None:
    """term.decl().kind() of a raw term (Z3_OP_ANUM for a numeral, Z3_OP_UNINTERPRETED for
    an unknown); None for a quantifier or a bound variable, which have none."""
    if _get_ast_kind(ref, ast) not in _APPLICATIONS:
        return None
    return _get_decl_kind(ref, _get_app_decl(ref, ast))


def sort_kind(ref, ast) -> int:
    """term.sort().kind() of a raw term: Z3_BOOL_SORT, Z3_INT_SORT, ..."""
    return _get_sort_kind(ref, _get_sort(ref, ast))


def integer_value(ref, ast) -> int:
    """term.as_long() of a raw integer numeral."""
    return int(_get_numeral_string(ref, ast))


def shown(ref, ast) -> str:
    """str(term) of a raw term, for a message."""
    return z3.Z3_ast_to_string(ref, ast)


def inside(ref, ast) -> list:
    """term.children() of a raw term, raw: an application's arguments, a quantifier's body,
    nothing else's."""
    kind = _get_ast_kind(ref, ast)
    if kind == z3.Z3_APP_AST:
        return [_get_app_arg(ref, ast, i) for i in range(_get_app_num_args(ref, ast))]
    if kind == z3.Z3_QUANTIFIER_AST:
        return [_get_quantifier_body(ref, ast)]
    return []
