"""Z3 terms made, read and asserted through Z3's C API: the formulas the rules and the proofs
build, made fast.

A proof builds hundreds of thousands of terms, each of one context and of a sort known when
it is made. z3py's functions and operators (And, Not, If, Sum, `x > 0`) spend most of their
time checking and coercing their arguments for that: a sort object for each argument, a
numeral object for each constant. The functions here make the very same terms (so Z3's
answers do not change) with the C API directly, once their arguments are known to be fit;
anything else goes through z3py, its checks, conversions and errors alike. The calls go to the
very functions z3py calls, given each handle as its address, a Python int (`_c`); every term
made is still checked for an error, as z3py checks it.

Terms are read (`raw`, `term_id`, `inside`, ...: walking a formula without an object for each
term it passes, as z3py's `children()` makes one) and asserted (`assert_all`, without z3py's
cast of each formula to the truth value it already is) through the C API too. Each formula
asserted is checked for an error; the readers are given only terms read from a term a caller
holds, which they cannot fail on, and are not checked.

`Formula` and `Integer` are z3py's BoolRef and ArithRef for the terms made here, and behave
as those do; they take the reference that holds a term directly and keep its address, z3py's
handle made only when z3py asks for it; and an Integer compares with, adds and subtracts a
Python int or another Integer of its context directly, so that a rule's `amount > 0` costs a
fifth of what z3py's operator does (a Formula compares with another so too). One difference
is Python's doing: with a plain z3py term on its left (`y < X`, `q == P`), Python asks the
reflected operator of the term made here first, which makes `X > y` or `P == q`, the same
meaning with its sides swapped. lethal's own unknowns are all made here, so its formulas
never mix the two.
"""

from __future__ import annotations

import array
import ctypes
from typing import NoReturn

import z3


def _c(name: str):
    """Z3's C function `name`, as the library z3py loaded exports it, taking and giving back
    Z3's handles (a context, a term, a sort, an array of terms) as plain addresses, Python
    ints. z3py's wrapper of it calls a Python method for each handle and asks Z3 for an error
    code after the call: about eight calls of Python's for each term made (the property
    library at 3x3x2, 7.5-7.7 s to 6.8-7.2 s CPU); and a handle as a ctypes object costs
    ctypes a third more to pass than an int, and more again to make of each result. The
    wrapper keeps the library's function as the default of its last parameter; a z3py that
    keeps it otherwise is refused, as its wrappers would read an address as a C int."""
    wrapper = getattr(z3.z3core, name)
    loaded = getattr((wrapper.__defaults__ or (None,))[-1], "f", None)
    if getattr(loaded, "argtypes", None) is None:
        raise ImportError(
            f"lethal calls Z3's {name} where z3py's wrapper keeps it, and this z3py "
            f"({z3.get_version_string()}) keeps it elsewhere: install z3-solver as "
            "requirements-dev.txt pins it"
        )
    plain = [_address(kind) for kind in loaded.argtypes]
    function = ctypes.CFUNCTYPE(_address(loaded.restype), *plain)
    return function(ctypes.cast(loaded, ctypes.c_void_p).value)


def _address(kind):
    """ctypes' plain pointer for a handle of Z3's or an array of them; any other kind as it is."""
    if kind is None:
        return None
    handles = kind
    if issubclass(kind, ctypes._Pointer):
        handles = kind._type_
    return ctypes.c_void_p if issubclass(handles, ctypes.c_void_p) else kind


_inc_ref, _dec_ref = _c("Z3_inc_ref"), _c("Z3_dec_ref")
_mk_and, _mk_or, _mk_not, _mk_ite = (_c(f"Z3_mk_{n}") for n in ("and", "or", "not", "ite"))
_mk_gt, _mk_ge, _mk_lt, _mk_le, _mk_eq = (_c(f"Z3_mk_{n}") for n in ("gt", "ge", "lt", "le", "eq"))
_mk_add, _mk_sub, _mk_mul, _mk_unary_minus, _mk_distinct = (
    _c(f"Z3_mk_{n}") for n in ("add", "sub", "mul", "unary_minus", "distinct")
)
_mk_int64, _mk_numeral, _mk_int_sort = (_c(f"Z3_mk_{n}") for n in ("int64", "numeral", "int_sort"))
_mk_const, _mk_string_symbol = _c("Z3_mk_const"), _c("Z3_mk_string_symbol")
_mk_atmost, _mk_pbeq = _c("Z3_mk_atmost"), _c("Z3_mk_pbeq")
_get_sort, _get_sort_kind = _c("Z3_get_sort"), _c("Z3_get_sort_kind")
_get_ast_id, _get_ast_kind = _c("Z3_get_ast_id"), _c("Z3_get_ast_kind")
_get_ast_hash = _c("Z3_get_ast_hash")
_get_app_num_args, _get_app_arg = _c("Z3_get_app_num_args"), _c("Z3_get_app_arg")
_get_quantifier_body, _substitute = _c("Z3_get_quantifier_body"), _c("Z3_substitute")
_solver_assert, _optimize_assert = _c("Z3_solver_assert"), _c("Z3_optimize_assert")
_get_error_code, _get_error_msg = _c("Z3_get_error_code"), _c("Z3_get_error_msg")
_get_app_decl, _get_decl_kind = _c("Z3_get_app_decl"), _c("Z3_get_decl_kind")
_get_numeral_string, _ast_to_string = _c("Z3_get_numeral_string"), _c("Z3_ast_to_string")
_model_eval, _get_bool_value = _c("Z3_model_eval"), _c("Z3_get_bool_value")
_get_numeral_int64 = _c("Z3_get_numeral_int64")
_solver_get_assertions, _ast_vector_size, _ast_vector_get = (
    _c(f"Z3_{n}") for n in ("solver_get_assertions", "ast_vector_size", "ast_vector_get")
)
_ast_vector_inc_ref, _ast_vector_dec_ref = _c("Z3_ast_vector_inc_ref"), _c("Z3_ast_vector_dec_ref")
_INT64 = 2**63  # Z3_mk_int64 takes a signed 64-bit number: ctypes would cut a larger one

# An array of terms is passed as the address of Python's own array of addresses, made in a
# third of the time a ctypes array takes: of words as wide as an address.
_WORD = next(code for code in "QLI" if array.array(code).itemsize == ctypes.sizeof(ctypes.c_void_p))


def _ref(ctx: z3.Context) -> int:
    """The context's address, as the functions here take it. (Where a term is made, at the
    rate of hundreds of thousands a proof, it is read in place: `ctx.ctx.value`.)"""
    return ctx.ctx.value


def _checked(ast, ctx: z3.Context):
    """The term Z3 made, or z3py's exception with Z3's message if it made none: a function
    that makes a term gives back none exactly when it fails."""
    if not ast:
        _failed(ctx)
    return ast


def _failed(ctx: z3.Context) -> NoReturn:
    """z3py's exception, with Z3's message for the error the last call made."""
    ref = _ref(ctx)
    message = _get_error_msg(ref, _get_error_code(ref))
    raise z3.Z3Exception(message.decode() if isinstance(message, bytes) else message)


class _Held:
    """A term held by one reference count of its context's, as z3py's AstRef holds one,
    without the lookups AstRef makes on the way in and out. It keeps the term's address
    (`at`), which the functions here pass; z3py's functions, given the term, are given the
    handle they expect (`ast`), made when they ask."""

    at = 0  # until set: a term half built is let go with no reference given back
    ctx = None

    def __init__(self, at: int, ctx: z3.Context):
        # The reference taken before the fields are set: a KeyboardInterrupt landing in
        # between (Python's own handler, outside lethal's) leaks a term, never frees one
        # twice.
        if not at:
            _failed(ctx)
        _inc_ref(ctx.ctx.value, at)
        self.ctx = ctx
        self.at = at

    # The function is kept as a default: at exit, this module may be gone before the term.
    def __del__(self, dec_ref=_dec_ref):
        at, ctx = self.at, self.ctx
        if at and ctx is not None and ctx.ctx is not None:  # not after its context
            dec_ref(ctx.ctx.value, at)
            self.at = 0

    @property
    def ast(self) -> z3.Ast:
        """z3py's handle of the term: a ctypes object holding its address (z3py's class
        Ast takes something else as its argument)."""
        handle = z3.Ast.__new__(z3.Ast)
        ctypes.c_void_p.__init__(handle, self.at)
        return handle

    def __hash__(self) -> int:  # z3py's, read without its handle
        return _get_ast_hash(self.ctx.ctx.value, self.at)


class Formula(_Held, z3.BoolRef):
    """A truth value made here."""

    # Its negation, once made (`negation`): the rules negate the same few facts of a
    # combat (blocked, blocking, removed) for each pair and each rule that asks them.
    negated: Formula | None = None

    def _paired(self, other, make, operator):
        """`make` of this formula and `other` when that is a Formula of this context; else
        z3py's `operator` (a Python bool, another context)."""
        if type(other) is not Formula or other.ctx is not self.ctx:
            return operator(self, other)
        return Formula(make(self.ctx.ctx.value, self.at, other.at), self.ctx)

    def __eq__(self, other):  # two combats' flags alike, as `agrees_with` asks of each
        return self._paired(other, _mk_eq, z3.BoolRef.__eq__)

    def __ne__(self, other):
        return self._paired(other, _distinct, z3.BoolRef.__ne__)

    __hash__ = _Held.__hash__  # defining __eq__ would otherwise unset it


_TRUTHS = (Formula, z3.BoolRef)  # exactly these: no quantifier, whose sort may be another


def _at(term) -> int:
    """The address of a term made here or by z3py."""
    return term.at if isinstance(term, _Held) else term.ast.value


class Integer(_Held, z3.ArithRef):
    """An integer (never a real) made here."""

    # Whether it is above 0, once made (`> 0`): the rules ask it of each amount assigned in
    # nearly every rule (whether s sends r anything), two thirds of the times asked again.
    positive: Formula | None = None

    def _made(self, other, make, kind, operator, swapped: bool = False):
        """`make` of this term and `other` (or of `other` and this, `swapped`) when `other` is
        a Python int or an Integer of this context; else z3py's `operator`."""
        ctx = self.ctx
        ref = ctx.ctx.value
        if type(other) is int:
            # Made and used at once, with no object to hold it: Z3 keeps the last term it
            # made alive until it makes another, here the one that holds this numeral.
            fit = _checked(_numeral(ref, other), ctx)
        elif type(other) is Integer and other.ctx is ctx:
            fit = other.at
        else:  # a real, a bool, another context: z3py's operator says what it is
            return operator(self, other)
        pair = (fit, self.at) if swapped else (self.at, fit)
        return kind(make(ref, *pair), ctx)

    def __gt__(self, other):
        if type(other) is int and other == 0:
            if self.positive is None:
                self.positive = self._made(0, _mk_gt, Formula, z3.ArithRef.__gt__)
            return self.positive
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

    __hash__ = _Held.__hash__  # defining __eq__ would otherwise unset it

    def __add__(self, other):
        return self._made(other, _add, Integer, z3.ArithRef.__add__)

    def __radd__(self, other):
        return self._made(other, _add, Integer, z3.ArithRef.__radd__, swapped=True)

    def __sub__(self, other):
        return self._made(other, _subtract, Integer, z3.ArithRef.__sub__)

    def __rsub__(self, other):
        return self._made(other, _subtract, Integer, z3.ArithRef.__rsub__, swapped=True)

    def __mul__(self, other):
        return self._made(other, _multiply, Integer, z3.ArithRef.__mul__)

    def __rmul__(self, other):  # 701.10: damage doubled, `2 * amount`
        return self._made(other, _multiply, Integer, z3.ArithRef.__rmul__, swapped=True)

    def __neg__(self):
        return Integer(_mk_unary_minus(self.ctx.ctx.value, self.at), self.ctx)


def _of_a_pair(make):
    """z3py's two-argument form of one of Z3's n-ary functions (Distinct, Add, Sub, Mul), as
    the operators above make it."""

    def made(ref, a, b):
        pair = _words((a, b))  # held until Z3 has read it
        return make(ref, 2, _start(pair))

    return made


_distinct, _add, _subtract, _multiply = map(_of_a_pair, (_mk_distinct, _mk_add, _mk_sub, _mk_mul))


def _words(addresses) -> array.array:
    """The addresses as a C array, which lives as long as the object given back: the caller
    holds it until the call that reads it has returned."""
    return array.array(_WORD, addresses)


def _start(words: array.array) -> int:
    return words.buffer_info()[0]


def _truths(terms) -> tuple[z3.Context, array.array] | None:
    """The context the terms share and their addresses, if each is a truth value of it;
    else None."""
    context = getattr(terms[0], "ctx", None)
    addresses = []
    for term in terms:
        kind = type(term)
        if kind is Formula:
            if term.ctx is not context:
                return None
            addresses.append(term.at)
        elif kind is z3.BoolRef and term.ctx is context:
            addresses.append(term.ast.value)
        else:
            return None
    return context, _words(addresses)


def _integers(terms) -> tuple[z3.Context, array.array] | None:
    """The context the terms share and their addresses, if each is an integer (not a real)
    of it; else None."""
    context = getattr(terms[0], "ctx", None)
    addresses = []
    for term in terms:
        kind = type(term)
        if kind is Integer:
            if term.ctx is not context:
                return None
            addresses.append(term.at)
            continue
        if kind is not z3.ArithRef or term.ctx is not context:
            return None
        ref, at = _ref(context), term.ast.value
        if _get_sort_kind(ref, _get_sort(ref, at)) != z3.Z3_INT_SORT:
            return None
        addresses.append(at)
    return context, _words(addresses)


def constant(name: str, sort: z3.SortRef) -> z3.ExprRef:
    """z3.Bool(name) or z3.Int(name), of the sort given (made once for the thousands of
    unknowns of a proof, where those make a sort object for each); z3.Const(name, sort)
    for any other sort."""
    ref, at = _ref(sort.ctx), sort.ast.value
    kind = _UNKNOWNS.get(_get_sort_kind(ref, at))
    if kind is None:
        return z3.Const(name, sort)
    symbol = _checked(_mk_string_symbol(ref, name.encode()), sort.ctx)
    return kind(_mk_const(ref, symbol, at), sort.ctx)


_UNKNOWNS = {z3.Z3_BOOL_SORT: Formula, z3.Z3_INT_SORT: Integer}


def numeral(value: int, context: z3.Context) -> Integer:
    """z3.IntVal(value, context)."""
    return Integer(_numeral(_ref(context), value), context)


def _numeral(ref: int, value: int):
    """The numeral `value` of Z3's context `ref`, made and not yet held."""
    sort = _mk_int_sort(ref)
    if -_INT64 <= value < _INT64:
        return _mk_int64(ref, value, sort)
    return _mk_numeral(ref, str(value).encode(), sort)


def conjunction(terms: list) -> z3.BoolRef:
    """z3.And(terms)."""
    found = _truths(terms)
    if found is None:
        return z3.And(terms)
    context, words = found
    return Formula(_mk_and(context.ctx.value, len(terms), _start(words)), context)


def disjunction(terms: list) -> z3.BoolRef:
    """z3.Or(terms)."""
    found = _truths(terms)
    if found is None:
        return z3.Or(terms)
    context, words = found
    return Formula(_mk_or(context.ctx.value, len(terms), _start(words)), context)


def negation(term) -> z3.BoolRef:
    """z3.Not(term)."""
    if type(term) is Formula:
        if term.negated is None:
            term.negated = Formula(_mk_not(term.ctx.ctx.value, term.at), term.ctx)
        return term.negated
    if type(term) not in _TRUTHS:
        return z3.Not(term)
    return Formula(_mk_not(_ref(term.ctx), term.ast.value), term.ctx)


def if_then_else(condition, then, otherwise) -> z3.ExprRef:
    """z3.If(condition, then, otherwise), for a condition that is a term."""
    branches = _branches(condition, then, otherwise)
    if branches is None:
        return z3.If(condition, then, otherwise)
    kind, then, otherwise = branches
    context = condition.ctx
    made = _mk_ite(context.ctx.value, _at(condition), _at(then), _at(otherwise))
    return kind(made, context)


def _branches(condition, then, otherwise):
    """For an if-then-else of terms of the condition's context, both truth values or both
    integers (plain ints among them, which z3.If would make numerals): the kind of term it
    is, and its two branches as terms of that context. None for anything else."""
    if type(condition) not in _TRUTHS:
        return None
    context = condition.ctx
    if type(then) in _TRUTHS and type(otherwise) in _TRUTHS:
        if _truths([condition, then, otherwise]) is None:
            return None
        return Formula, then, otherwise
    terms = [t for t in (then, otherwise) if type(t) is not int]
    if terms and (_integers(terms) or (None,))[0] is not context:  # a bool or a float too
        return None
    # Numerals as objects, which hold them: a Z3 term no object holds may be freed.
    pair = [numeral(t, context) if type(t) is int else t for t in (then, otherwise)]
    return Integer, *pair


def sum_of(terms: list, constant: int = 0) -> z3.ArithRef:
    """The sum of the terms and the constant, as `z3.Sum(terms) + constant` would make it
    (no constant when it is 0, and a lone term for Sum)."""
    if len(terms) == 1:
        sum_ = terms[0]
    else:
        found = _integers(terms)
        if found is None:
            sum_ = z3.Sum(terms)
        else:
            context, words = found
            sum_ = Integer(_mk_add(context.ctx.value, len(terms), _start(words)), context)
    return sum_ + constant if constant else sum_


def at_most_of(flags: list, n: int) -> z3.BoolRef:
    """z3.AtMost(*flags, n): at most n of the flags hold, as a pseudo-Boolean constraint."""
    found = _truths(flags)
    if found is None:
        return z3.AtMost(*flags, n)
    context, words = found
    return Formula(_mk_atmost(context.ctx.value, len(flags), _start(words), n), context)


def exactly_of(flags: list, n: int) -> z3.BoolRef:
    """z3.PbEq([(f, 1) for f in flags], n): exactly n of the flags hold."""
    found, size = _truths(flags), len(flags)
    if found is None:
        return z3.PbEq([(f, 1) for f in flags], n)
    context, words = found
    ones = (ctypes.c_int * size)(*([1] * size))
    return Formula(_mk_pbeq(context.ctx.value, size, _start(words), ones, n), context)


def assert_all(solver: z3.Solver | z3.Optimize, formulas) -> None:
    """solver.add(*formulas): each a truth value of the solver's context made here or by
    z3py is asserted directly, where add would cast each of the thousands to what it
    already is; anything else (a Python bool, a quantifier, another context's formula)
    goes through add, which casts it or refuses it."""
    context = solver.ctx
    ref = _ref(context)
    if isinstance(solver, z3.Optimize):
        asserted, handle = _optimize_assert, solver.optimize.value
    else:
        asserted, handle = _solver_assert, solver.solver.value
    for formula in formulas:
        if type(formula) in _TRUTHS and formula.ctx is context:
            asserted(ref, handle, _at(formula))
            if _get_error_code(ref) != z3.Z3_OK:  # as z3py checks after each call
                _failed(context)
        else:
            solver.add(formula)


def assert_copy(target: z3.Solver, source: z3.Solver) -> None:
    """target.add(source.assertions()), two solvers of one context: each formula asserted in
    `source` asserted in `target` as it is, with no z3py object made for each (a query asked
    afresh of another solver holds hundreds)."""
    context = source.ctx
    if target.ctx is not context:  # add refuses another context's formulas, as it would
        target.add(source.assertions())
        return
    ref, into = _ref(context), target.solver.value
    formulas = _checked(_solver_get_assertions(ref, source.solver.value), context)
    _ast_vector_inc_ref(ref, formulas)
    try:
        for i in range(_ast_vector_size(ref, formulas)):
            _solver_assert(ref, into, _ast_vector_get(ref, formulas, i))
            if _get_error_code(ref) != z3.Z3_OK:
                _failed(context)
    finally:
        _ast_vector_dec_ref(ref, formulas)


def value_in(model: z3.ModelRef, term) -> bool | int:
    """The value of a truth value or an integer in a model, completed where the model says
    nothing: z3.is_true(model.eval(term, True)), or its as_long(), without the objects z3py
    makes for each (a counterexample reads thousands)."""
    context = term.ctx
    ref, found = _ref(context), (ctypes.c_void_p * 1)()
    if not _model_eval(ref, model.model.value, _at(term), True, found):
        _failed(context)
    # Read before any other term is made: until then Z3 holds the one just made for us.
    value = found[0]
    kind = _get_sort_kind(ref, _get_sort(ref, value))
    if kind == z3.Z3_BOOL_SORT:
        return _get_bool_value(ref, value) == z3.Z3_L_TRUE
    if kind != z3.Z3_INT_SORT or _get_ast_kind(ref, value) != z3.Z3_NUMERAL_AST:
        raise TypeError(f"{term} has no truth value or integer in the model")
    number = ctypes.c_longlong()
    if _get_numeral_int64(ref, value, ctypes.byref(number)):
        return number.value
    return int(_get_numeral_string(ref, value))


def substitution(term, pairs: list) -> z3.ExprRef:
    """z3.substitute(term, *pairs): each pair's first term replaced by its second, in a truth
    value or an integer made here and pairs of integers, all of one context."""
    kind = Formula if type(term) in _TRUTHS else Integer if type(term) is Integer else None
    olds, news = [a for a, _ in pairs], [b for _, b in pairs]
    found = _integers(olds + news) if kind is not None and pairs else None
    if found is None or found[0] is not term.ctx:
        return z3.substitute(term, *pairs)
    words = found[1]
    start, n = _start(words), len(pairs)
    made = _substitute(_ref(term.ctx), _at(term), n, start, start + n * words.itemsize)
    return kind(made, term.ctx)


# Walking a formula: its terms read raw, with no object made for each, as z3py's `children()`
# makes (and counts a reference to) one for every term it passes. A term read so is held by
# nothing of its own: it lives as long as the term it was read from.


def raw(term: z3.ExprRef) -> tuple:
    """The term's context, as Z3's C functions take it, and the term itself raw: where a
    walk starts. The caller holds `term` for as long as the walk lasts."""
    return _ref(term.ctx), _at(term)


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
    return _ast_to_string(ref, ast).decode()


def inside(ref, ast) -> list:
    """term.children() of a raw term, raw: an application's arguments, a quantifier's body,
    nothing else's."""
    kind = _get_ast_kind(ref, ast)
    if kind == z3.Z3_APP_AST:
        return [_get_app_arg(ref, ast, i) for i in range(_get_app_num_args(ref, ast))]
    if kind == z3.Z3_QUANTIFIER_AST:
        return [_get_quantifier_body(ref, ast)]
    return []
