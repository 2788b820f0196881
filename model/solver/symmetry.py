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

    breaking(unknowns, classes, among=None, exchanges=()) -> list[z3.BoolRef]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import z3

# One unknown: (source, recipient), and whatever else tells unknowns of one pair apart (the
# step, when both combat damage steps are asked at once).
Pair = tuple[str, ...]


def breaking(
    unknowns: Mapping[Pair, z3.ArithRef],
    classes: Sequence[Sequence[str]],
    among: Collection[Pair] | None = None,
    exchanges: Sequence[Mapping[str, str]] = (),
) -> list[z3.BoolRef]:
    """The lex-leader constraints of exchanging each two neighbours of each class, and of
    each of `exchanges` (ids to ids, each exchanged with the other), over `unknowns` (a
    part's, by pair) read in their order. An exchange that takes one of them elsewhere (into
    another part) is left out, as is one that exchanges unknowns `among` those the search
    may order (the first side's, in a guarantee) with others: leaving one out loses no
    answer."""
    place = {pair: i for i, pair in enumerate(unknowns)}
    of: dict[str, list[Pair]] = {}
    for pair in unknowns:
        for creature in set(pair[:2]):
            of.setdefault(creature, []).append(pair)
    swaps = [*exchanges]
    for members in classes:
        members = [m for m in members if m in of]  # those with no unknown here order nothing
        swaps += [{x: y, y: x} for x, y in zip(members, members[1:], strict=False)]
    found = []
    for swap in swaps:
        touched = {p: None for x in swap for p in of.get(x, ())}  # each once, in order
        moved = {p: (swap.get(p[0], p[0]), swap.get(p[1], p[1]), *p[2:]) for p in touched}
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
                _at_least([unknowns[p] for _, p in firsts], [unknowns[moved[p]] for _, p in firsts])
            )
    return found


def _at_least(mine: list[z3.ArithRef], theirs: list[z3.ArithRef]) -> z3.BoolRef:
    """`mine` is at least `theirs`, lexicographically."""
    holds = mine[-1] >= theirs[-1]
    for a, b in zip(reversed(mine[:-1]), reversed(theirs[:-1]), strict=True):
        holds = z3.Or(a > b, z3.And(a == b, holds))
    return holds
