"""Counting the assignments of a group of unknowns by a dynamic programme, one unknown at a
time, without making them.

Once the first unknowns have values, which values the others may take depends only on how
each constraint still open stands: for each of its atoms, the partial sum so far (`atoms`),
or its truth once the unknowns left cannot change it; a constraint that holds whatever comes
after is set aside. Partial assignments that stand alike are counted together, so the work
grows with the ways the open constraints can stand (a few values per blocker a trampler
needs lethal damage on), not with the number of assignments, which may be astronomical.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .atoms import Atom, Linear, Skeleton

SAT = "sat"  # a constraint that holds whatever values the unknowns left take
# A decided atom. Strings, not bools, since Python's True == 1 would pass for a partial sum.
TRUE, FALSE = "T", "F"


@dataclass(frozen=True)
class Block:
    """A creature's unknowns, for listing: each row divides one of `totals` (ascending) among
    the unknowns the file does not give, and the rows come in the order 510.1a's candidates
    always came: nothing first, then the first unknown taking the most it can."""

    start: int  # the index of its first unknown; they are consecutive
    size: int
    given: dict[int, int]  # the file's amounts, by unknown
    totals: tuple[int, ...]


class Programme:
    """Every assignment of `domains` (a range of values per unknown, in the order they are
    decided) under which every constraint, a skeleton over atoms, holds."""

    def __init__(self, domains: Sequence[range], constraints: list[tuple]):
        self.impossible = any(len(d) == 0 for d in domains)
        lows = [d.start for d in domains]
        highs = [d.stop - 1 for d in domains]
        opened: list[list[_Open]] = [[] for _ in domains]
        for skeleton, atoms in constraints:
            constraint = _Open.made(skeleton, atoms, lows, highs)
            if constraint is False:
                self.impossible = True
            elif constraint is not True:
                opened[constraint.unknowns[0]].append(constraint)
        self.steps: list[_Step] = []
        layout: list[_Open] = []
        for u, domain in enumerate(domains):
            step = _Step(u, domain, layout, opened[u])
            self.steps.append(step)
            layout = step.after

    def count(self, check_work: Callable[[int], None]) -> int:
        """How many assignments hold; as each step goes, `check_work` is told the work the
        programme has done (`_layers`), and may refuse."""
        return sum(self._layers(check_work, keep=False)[-1].values())

    def rows(self, blocks: list[Block], check_work: Callable[[int], None]) -> Iterator[tuple]:
        """The assignments that hold, each a tuple of values in unknown order, in the order of
        `blocks`' rows (the first block's varying slowest); only the ways that lead to one are
        walked."""
        layers = self._layers(check_work, keep=True)
        alive = [set(layers[-1])]
        for step, layer in zip(reversed(self.steps), reversed(layers[:-1]), strict=True):
            ahead = alive[-1]
            alive.append(
                {
                    key
                    for key in layer
                    if any(step.advance(key, v) in ahead for v in step.values(key))
                }
            )
        alive.reverse()

        def fill(block: Block, j: int, key, left: int, values: tuple):
            if j == block.size:
                if left == 0:
                    yield values, key
                return
            u = block.start + j
            if u in block.given:
                choices: Sequence[int] = (block.given[u],)
            elif all(w in block.given for w in range(u + 1, block.start + block.size)):
                choices = (left,)  # the last unknown takes what is left
            else:
                choices = range(left, -1, -1)
            for v in choices:
                after = self.steps[u].advance(key, v)
                if after in alive[u + 1]:
                    spent = 0 if u in block.given else v
                    yield from fill(block, j + 1, after, left - spent, (*values, v))

        def walk(b: int, key, values: tuple):
            if b == len(blocks):
                yield values
                return
            for total in blocks[b].totals:
                for row, after in fill(blocks[b], 0, key, total, ()):
                    yield from walk(b + 1, after, values + row)

        if () in alive[0]:
            yield from walk(0, (), ())

    def _layers(self, check_work: Callable[[int], None], keep: bool) -> list[dict]:
        """The partial assignments' standings after each step, with how many stand so.

        The work is counted in standings followed: each partial assignment tried, once for
        itself and once for each constraint it keeps open, as each is a standing the step
        works out and the next layer holds. Counted in tries alone, a board where every
        token blocks every trampler (up to 140 constraints open) took 41-72 s and up to 4.6 GB
        before its refusal, where a random combat of 64x32 keeps five open."""
        layer: dict = {} if self.impossible else {(): 1}
        layers = [layer]
        work = 0
        for step in self.steps:
            values = {}
            standings = 1 + len(step.after)
            for key in layer:  # refused as soon as the step would pass the limit
                values[key] = found = step.values(key)
                work += len(found) * standings
                check_work(work)
            layer = _following(step, layer, values)
            layers = [*layers, layer] if keep else [layer]
        return layers


def _following(step: _Step, layer: dict, values: dict) -> dict:
    """The standings after a step, with how many partial assignments stand so."""
    following: dict = {}
    for key, ways in layer.items():
        for v in values[key]:
            after = step.advance(key, v)
            if after is not None:
                following[after] = following.get(after, 0) + ways
    return following


class _Open:
    """A constraint while some of its unknowns have values and others not yet."""

    def __init__(self, atoms: list[Atom], initial: tuple, skeleton: Skeleton, lows, highs):
        self.unknowns = sorted({u for a in atoms for u in a.unknowns})
        self.initial = initial
        # For each of its unknowns, its standing once that unknown has a value: the atoms
        # it is in follow, then the skeleton says whether the constraint is decided. Python
        # made for each, since the programme calls it for every partial assignment.
        self.advance = {}
        # And the values of that unknown outside which it fails, whatever comes after.
        self.bounds = {}
        for u in self.unknowns:
            helpers = {**_HELPERS, "SAT": SAT}
            states = []
            for i, atom in enumerate(atoms):
                if u in atom.unknowns:
                    helpers[f"update{i}"] = _update(atom, u, lows, highs)
                    states.append(f"update{i}(entry[{i}], v)")
                else:
                    states.append(f"entry[{i}]")
            self.bounds[u] = _bounds(skeleton, atoms, u, lows, highs)
            exec(  # noqa: S102 - made above from the constraint's atoms
                "def advance(entry, v):\n"
                "    if entry is SAT:\n"
                "        return SAT\n"
                f"    s = ({''.join(f'{state}, ' for state in states)})\n"
                f"    holds = {_code(skeleton)}\n"
                "    return s if holds is None else SAT if holds else None\n",
                helpers,
            )
            self.advance[u] = helpers.pop("advance")

    @classmethod
    def made(cls, skeleton: Skeleton, atoms: list[Atom], lows, highs) -> _Open | bool:
        """The constraint before any unknown has a value, or whether it holds already."""
        initial = tuple(
            _decided(a.constant, *_span(a.terms, lows, highs), a.equal)
            if isinstance(a, Linear)
            else (() if a.unknowns else _truth(a.test()))
            for a in atoms
        )
        holds = eval(f"lambda s: {_code(skeleton)}", _HELPERS)(initial)  # noqa: S307
        if holds is not None:
            return holds
        return cls(atoms, initial, skeleton, lows, highs)


class _Step:
    """Giving one unknown a value: how the open constraints' standings follow."""

    def __init__(self, unknown: int, domain: range, before: list[_Open], opening: list[_Open]):
        self.unknown = unknown
        self.domain = domain
        position = {id(c): i for i, c in enumerate(before)}
        self.after = [c for c in before + opening if c.unknowns[-1] != unknown]
        closing = [c for c in before + opening if c.unknowns[-1] == unknown]
        # Python made for the step: each constraint the value concerns follows from where
        # its standing was (its initial one when it opens now); the others are copied; a
        # constraint closing here has every atom decided, so it holds or fails.
        helpers = {"SAT": SAT}
        lines, standing = [], []
        for n, c in enumerate(self.after + closing):
            where = position.get(id(c))
            if unknown not in c.advance:
                standing.append(f"key[{where}]")
                continue
            helpers[f"advance{n}"] = c.advance[unknown]
            helpers[f"initial{n}"] = c.initial
            was = f"initial{n}" if where is None else f"key[{where}]"
            lines.append(f"    e{n} = advance{n}({was}, v)")
            failed = "is None" if n < len(self.after) else "is not SAT"
            lines.append(f"    if e{n} {failed}: return None")
            if n < len(self.after):
                standing.append(f"e{n}")
        lines.append(f"    return ({''.join(f'{e}, ' for e in standing)})")
        exec("def advance(key, v):\n" + "\n".join(lines), helpers)  # noqa: S102 - made above
        # The standing after this unknown takes value v, or None when a constraint fails.
        self.advance = helpers["advance"]
        self.bounded = [
            (position.get(id(c)), c.initial, c.bounds[unknown])
            for c in self.after + closing
            if unknown in c.bounds
        ]

    def values(self, key: tuple) -> range:
        """The values worth trying after the standing `key`: those of the domain within
        every concerned constraint's bounds (the others fail, so are never tried)."""
        low, high = self.domain.start, self.domain.stop - 1
        for where, initial, bounds in self.bounded:
            entry = initial if where is None else key[where]
            if entry is not SAT:
                least, most = bounds(entry)
                low, high = max(low, least), min(high, most)
        return range(low, high + 1) if low <= high else range(0)


def _span(terms, lows, highs) -> tuple[int, int]:
    """The least and the most the terms can add up to."""
    low = high = 0
    for u, c in terms:
        a, b = c * lows[u], c * highs[u]
        low, high = low + min(a, b), high + max(a, b)
    return low, high


def _decided(partial: int, low: int, high: int, equal: bool):
    """A linear atom with `partial` summed so far and between low and high still to come."""
    if equal:
        if partial + low > 0 or partial + high < 0:
            return FALSE
        return TRUE if partial + low == 0 == partial + high else partial
    if partial + low >= 0:
        return TRUE
    return FALSE if partial + high < 0 else partial


INFINITE = float("inf")
EVERY, NONE = (-INFINITE, INFINITE), (INFINITE, -INFINITE)


def _bounds(skeleton: Skeleton, atoms: list[Atom], u: int, lows, highs):
    """A function of a constraint's standing: the least and the most value of unknown u
    under which it may still hold. A linear atom bounds u by what its sum still needs (a
    creature's last unknown takes exactly what is left of its power); `and` takes the
    narrowest, `or` the widest; `not` and whole atoms bound nothing."""
    if skeleton is True or skeleton is False:
        return lambda entry: EVERY if skeleton else NONE
    kind, part = skeleton
    if kind == "not":
        return lambda entry: EVERY
    if kind in ("and", "or"):
        parts = [_bounds(p, atoms, u, lows, highs) for p in part]
        narrow = kind == "and"

        def combined(entry):
            found = [p(entry) for p in parts]
            lows_, highs_ = [f[0] for f in found], [f[1] for f in found]
            return (max(lows_), min(highs_)) if narrow else (min(lows_), max(highs_))

        return combined
    atom = atoms[part]
    if not isinstance(atom, Linear) or u not in atom.unknowns:
        return lambda entry: NONE if entry[part] == FALSE else EVERY
    c = dict(atom.terms)[u]
    low, high = _span([(w, k) for w, k in atom.terms if w > u], lows, highs)
    equal = atom.equal

    def linear(entry):
        s = entry[part]
        if s.__class__ is str:
            return EVERY if s == TRUE else NONE
        # s + c*v + rest, with rest from low to high, may be >= 0 only if c*v >= -s - high,
        # and == 0 only if also c*v <= -s - low.
        at_least, at_most = -s - high, -s - low
        if c > 0:
            return _ceil(at_least, c), (at_most // c if equal else INFINITE)
        return (_ceil(-at_most, -c) if equal else -INFINITE), -at_least // -c

    return linear


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _update(atom: Atom, u: int, lows, highs):
    """How the atom's standing follows from unknown u's value."""
    if isinstance(atom, Linear):
        coefficient = dict(atom.terms)[u]
        low, high = _span([(w, c) for w, c in atom.terms if w > u], lows, highs)
        equal = atom.equal

        def linear(state, v):
            if state.__class__ is str:
                return state
            return _decided(state + coefficient * v, low, high, equal)

        return linear
    last, test = u == atom.unknowns[-1], atom.test

    def whole(state, v):
        values = (*state, v)
        return _truth(test(*values)) if last else values

    return whole


def _truth(holds: bool) -> str:
    return TRUE if holds else FALSE


def _code(skeleton: Skeleton) -> str:
    """The skeleton as Python of its atoms' standings `s`: True, False, or None while
    undecided (Kleene's three-valued logic, so that an undecided atom that cannot matter
    does not keep the constraint open)."""
    if skeleton is True or skeleton is False:
        return str(skeleton)
    kind, part = skeleton
    if kind == "atom":
        return f"_truth.get(s[{part}])"
    if kind == "not":
        return f"_not({_code(part)})"
    return f"{'_all' if kind == 'and' else '_any'}({', '.join(_code(p) for p in part)})"


def _not(value):
    return None if value is None else not value


def _all(*values):
    result = True
    for value in values:
        if value is False:
            return False
        if value is None:
            result = None
    return result


def _any(*values):
    result = False
    for value in values:
        if value is True:
            return True
        if value is None:
            result = None
    return result


_HELPERS = {"_all": _all, "_any": _any, "_not": _not, "_truth": {TRUE: True, FALSE: False}}
