"""A step's encoding split into independent parts: groups of unknowns that no constraint
spans.

Two unknowns are in one part when some constraint mentions both, directly or through a term
it shares with another (a creature's damage sent, a blocker's lethal damage, a planeswalker's
damage received). Parts share nothing, so a question asked of each apart has the answer it
has of the whole: the whole is possible when every part is, an unsatisfiable core of one part
is one of the whole, and the most (or least) of a sum over the parts is the sum of each
part's most (or least). A formula of the question's own (a requirement, an amount the file
gives) joins the parts it speaks of.

    parts(encoding, formulas=()) -> list[Part]
    shape(encoding, part, asked) -> Shape: equal for parts that are the same but for names
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import z3

from ..ops import Term
from ..rules.constraint import Constraint
from . import terms
from .encoding import Encoding

Pair = tuple[str, str]  # (source, recipient): one unknown


@dataclass(frozen=True)
class Part:
    pairs: tuple[Pair, ...]  # its unknowns, in the encoding's order
    constraints: tuple[Constraint, ...]  # the rules' constraints over them, in order
    formulas: tuple[int, ...]  # which of the formulas given to `parts` speak of it


def parts(encoding: Encoding, formulas: Sequence[Term] = ()) -> list[Part]:
    """The encoding's unknowns in independent parts, in the order of their first unknown,
    each with its constraints and the `formulas` over it. Constraints and formulas that
    speak of no unknown (a constant, such as a rule the combat breaks whatever the amounts)
    come first, as a part with no unknowns, when there are any."""
    joined = _Joined(encoding)
    constraint_pairs = [joined.reach(c.holds) for c in encoding.constraints]
    formula_pairs = [joined.reach(f) for f in formulas]
    groups: dict[Pair | None, tuple[list, list, list]] = {None: ([], [], [])}
    for pair in encoding.variables:
        groups.setdefault(joined.root(pair), ([], [], []))[0].append(pair)
    for constraint, pair in zip(encoding.constraints, constraint_pairs, strict=True):
        groups[pair and joined.root(pair)][1].append(constraint)
    for i, pair in enumerate(formula_pairs):
        groups[pair and joined.root(pair)][2].append(i)
    found = [Part(tuple(p), tuple(c), tuple(f)) for p, c, f in groups.values()]
    return found if found[0].constraints or found[0].formulas else found[1:]


class _Joined:
    """Unknowns joined when a formula reaches them both: a union-find over the unknowns,
    built by walking each term once, however many formulas share it."""

    def __init__(self, encoding: Encoding):
        self._pair_of = {v.get_id(): pair for pair, v in encoding.variables.items()}
        self._parent: dict[Pair, Pair] = {pair: pair for pair in encoding.variables}
        self._reached: dict[int, Pair | None] = {}  # a term's id: one unknown it reaches

    def root(self, pair: Pair) -> Pair:
        parent = self._parent
        while parent[pair] != pair:
            parent[pair] = parent[parent[pair]]
            pair = parent[pair]
        return pair

    def reach(self, term: Term) -> Pair | None:
        """One unknown the term reaches, all of them joined; None when it reaches none."""
        if not isinstance(term, z3.ExprRef):
            return None  # a plain bool or int, folded by the rules
        return self._reach(*terms.raw(term))

    def _reach(self, ref, ast) -> Pair | None:
        key = terms.term_id(ref, ast)
        if key in self._reached:
            return self._reached[key]
        found = self._pair_of.get(key)
        if found is None:
            for child in terms.inside(ref, ast):
                other = self._reach(ref, child)
                if other is None:
                    continue
                if found is None:
                    found = other
                else:
                    self._parent[self.root(other)] = self.root(found)
        self._reached[key] = found
        return found


@dataclass(frozen=True)
class Shape:
    """Terms with a part's unknowns renamed by their place in it. Two parts of one shape
    (the same tokens, blocked alike) have the same solutions, unknown for unknown in order,
    so one is solved for both."""

    ids: tuple  # Z3 makes equal terms one: equal ids, equal terms
    terms: tuple = field(compare=False, repr=False)  # kept, as an id is a term's while it lives


def shape(encoding: Encoding, part: Part, asked: Sequence[Term]) -> Shape:
    integer = z3.IntSort(encoding.context)
    renamed = [
        (encoding.variables[p], terms.constant(f"#{i}", integer)) for i, p in enumerate(part.pairs)
    ]
    # One renaming of all the formulas at once, as one renaming costs as much as its list.
    formulas = [t for t in asked if z3.is_bool(t)]
    rest = [t for t in asked if not z3.is_bool(t)]
    together = (terms.conjunction(formulas) if formulas else True, *rest)
    shaped = tuple(terms.substitution(t, renamed) if z3.is_expr(t) else t for t in together)
    ids = tuple(t.get_id() if z3.is_expr(t) else t for t in shaped)
    return Shape((len(part.pairs), *ids), shaped)
