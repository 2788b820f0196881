"""Symmetry breaking: of the twins of an assignment (the same amounts with interchangeable
creatures' exchanged, `interchangeable`), a search is shown only one.

Exchanging two interchangeable creatures maps legal assignments to legal assignments with the
same answer, so every set of twins keeps its greatest member, read unknown by unknown in one
fixed order: for each two neighbours x, y of a class, the amounts are at least, in that
order, the amounts with x and y exchanged (the lex-leader constraint of that exchange). The
greatest twin meets every such constraint at once, so what is possible stays possible and a
most or least stays where it was; a witness meets every rule still. For identical blockers
of one attacker this orders what they are assigned, most first; for identical attackers,
their divisions.

Whole parts of a combat may be alike too (`interchangeable.alike_parts`: tokens each blocked
by a token of its own), and exchanging two of them is one more such symmetry, given as the
exchange of every id of one with its counterpart in the other. Its lex-leader constraint is
made in the same order as the creatures', so all of them hold of the same greatest twin.

Terms over whole parts (`leading`: what each deals of a pair a requirement asks about,
`two_steps`) may be read before the unknowns, each keyed by its part's ids, which an
exchange renames as it renames an unknown's. An exchange of alike parts is then read in
those terms alone: the first stretch of its lex-leader constraint, which the greatest twin
meets as it meets the whole. It skips fewer twins, but ties no part to the next by how each
divides its damage, and that tie is where Z3 searched long for parts whose shares meet an
exact total (55 s for 280 of the 200 tokens behind walls, benchmarks/combat_speed.py; under
1 s without it). An exchange of two creatures of one part leaves such a term as it is.

    breaking(unknowns, classes, among=None, exchanges=(), leading=None) -> list[z3.BoolRef]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import z3

from . import terms

# One unknown: (source, recipient), and whatever else tells unknowns of one pair apart (the
# step, when both combat damage steps are asked at once).
Pair = tuple[str, ...]


def breaking(
    unknowns: Mapping[Pair, z3.ArithRef],
    classes: Sequence[Sequence[str]],
    among: Collection[Pair] | None = None,
    exchanges: Sequence[Mapping[str, str]] = (),
    leading: Mapping[tuple, z3.ArithRef] | None = None,
) -> list[z3.BoolRef]:
    """The lex-leader constraints of exchanging each two neighbours of each class, and of
    each of `exchanges` (ids to ids, each exchanged with the other), over the terms
    `leading` (each keyed by the ids of its part, then what it is) and `unknowns` (a part's,
    by pair), read in their order; of an exchange of parts with terms in `leading`, over
    those alone. An exchange that takes one of them elsewhere (into another part) is left
    out, as is one that exchanges unknowns `among` those the search may order (the first
    side's, in a guarantee) with others: leaving one out loses no answer."""
    read = {**(leading or {}), **unknowns}
    place = {key: i for i, key in enumerate(read)}
    of: dict[str, list[tuple]] = {}
    for pair in unknowns:
        for creature in set(pair[:2]):
            of.setdefault(creature, []).append(pair)
    terms_of: dict[str, list[tuple]] = {}
    for key in leading or ():
        for id in key[0]:
            terms_of.setdefault(id, []).append(key)
    swaps = [(swap, any(x in terms_of for x in swap)) for swap in exchanges]
    # Those with no unknown here order nothing.
    here = [[m for m in members if m in of] for members in classes]
    for members in _rows(here, unknowns):
        swaps += [({x: y, y: x}, False) for x, y in zip(members, members[1:], strict=False)]
    found = []
    for swap, in_terms_alone in swaps:
        touched = {  # each once, in order
            p: None
            for x in swap
            for p in (*terms_of.get(x, ()), *(() if in_terms_alone else of.get(x, ())))
        }
        moved = {p: moved_key(p, swap) for p in touched}
        if any(q not in place for q in moved.values()):
            continue
        if among is not None:
            if any((p in among) != (q in among) for p, q in moved.items()):
                continue
            moved = {p: q for p, q in moved.items() if p in among}
        # An exchange swaps unknowns two by two: once the first of two is equal to its
        # mirror, so is the second, so only the first is compared.
        firsts = sorted((place[p], p) for p, q in moved.items() if place[p] < place[q])
        if firsts:
            found.append(
                _at_least([read[p] for _, p in firsts], [read[moved[p]] for _, p in firsts])
            )
    return found


def _rows(classes: list[list[str]], unknowns: Mapping[Pair, z3.ArithRef]) -> list[list[str]]:
    """The classes whose exchanges are kept, in their order: each but a class some member of
    which is assigned to by a dividing member of a class kept before it (identical tramplers
    each blocked by the same identical tokens). The unknowns between the two classes are
    then a matrix, and ordering both its rows (each divider's division) and its columns
    (what each of the other class is assigned, and divides back, when the tokens deal their
    damage in the same step or the second) left Z3 searching long for an assignment that
    meets both: 10 tramplers with power 20, each blocked by all of 20 tokens, an assignment
    sending exactly the most to D found in 0.13 s with the rows alone, 2.7 s with both; 12
    double-striking tramplers and 22 deathtouch tokens, the most over both steps in 5 s with
    the rows alone, not in 120 s with both (benchmarks/matrix_speed.py). Leaving an exchange
    out loses no answer."""
    sources = {pair[0] for pair in unknowns}
    kept: list[list[str]] = []
    ordered: set[str] = set()  # the dividing members of the classes kept
    for members in classes:
        if not any(pair[0] in ordered for pair in unknowns if pair[1] in members):
            kept.append(members)
            if len(members) > 1:
                ordered.update(m for m in members if m in sources)
    return kept


def moved_key(key: tuple, swap: Mapping[str, str]) -> tuple:
    """The key of what an exchange puts in the place of what `key` names."""
    if isinstance(key[0], frozenset):  # a term over a whole part: its ids, then what it is
        return (frozenset(swap.get(id, id) for id in key[0]), *key[1:])
    return (swap.get(key[0], key[0]), swap.get(key[1], key[1]), *key[2:])


def _at_least(mine: list[z3.ArithRef], theirs: list[z3.ArithRef]) -> z3.BoolRef:
    """`mine` is at least `theirs`, lexicographically."""
    holds = mine[-1] >= theirs[-1]
    for a, b in zip(reversed(mine[:-1]), reversed(theirs[:-1]), strict=True):
        holds = terms.disjunction([a > b, terms.conjunction([a == b, holds])])
    return holds
