"""Creatures a query cannot tell apart: those that may swap names without changing the combat.

Two creatures are interchangeable when exchanging their ids everywhere (what they are, what
they attack, block and are blocked by, their damage assignment orders, the effects, amounts
given and damage counted that name them) gives back the very same combat, and the question
asked names neither. Then every legal assignment has a twin with their amounts exchanged,
legal too and with the same answer, so a search may skip one of the two (`symmetry`).

Plain values only: this module knows nothing of the solver.

    interchangeable(scenario, named=(), tally=ASSIGNED) -> list[tuple[str, ...]]
    alike_parts(parts, named=()) -> list[dict[str, str]]
    alike_groups(parts, named=()) -> list[list[int]]
    renaming(part, alike) -> dict[str, str]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields

from .combat import Permanent, Scenario
from .rules import order
from .tally import ASSIGNED, Tally
from .view import ScenarioView

# The fields of a permanent that name other permanents; every other one is compared as is.
_NAMING = ("id", "attacking", "blocking", "order")
_OWN = tuple(f.name for f in fields(Permanent) if f.name not in _NAMING)

# One thing the combat says: (kind, values compared as they are, slots naming permanents).
# A slot is an id, None, or a tuple (an order) or frozenset of ids.
Fact = tuple[str, tuple, tuple]


def interchangeable(
    scenario: Scenario, named: Iterable[str] = (), tally: Tally = ASSIGNED
) -> list[tuple[str, ...]]:
    """The classes (two or more creatures each, in the order of the permanents) whose
    members are pairwise interchangeable; none is in `named`, the ids the question speaks
    of. Where the rules leave room for doubt, creatures are kept apart: those in a band
    (702.22j-k, who divides), those a damage assignment order could rank (509.2-509.3), and
    creatures that are also planeswalkers or battles."""
    facts = _facts(scenario, tally)
    mentions: dict[str, set[Fact]] = {}
    for fact in facts:
        for slot in fact[2]:
            for id in (slot,) if isinstance(slot, str) else slot or ():
                mentions.setdefault(id, set()).add(fact)
    kept_apart = set(named) | _doubtful(scenario)
    own = {
        p.id: tuple(getattr(p, name) for name in _OWN)
        for p in scenario.permanents
        if p.is_creature and p.id not in kept_apart
    }
    classes: dict[tuple, list[list[str]]] = {}
    for id, attributes in own.items():
        # Interchangeable creatures have one key, so only creatures of one key are compared.
        blank = {id: "."}

        def blanked(x: str, id=id, attributes=attributes, blank=blank) -> str:
            return blank.get(x) or ("~" if own.get(x) == attributes else x)

        said: Counter = Counter()
        for fact in mentions.get(id, ()):
            said[_renamed(fact, blanked)] += facts[fact]
        alike = classes.setdefault((attributes, frozenset(said.items())), [])
        for members in alike:
            if _swappable(members[0], id, facts, mentions):
                members.append(id)
                break
        else:
            alike.append([id])
    return [tuple(m) for group in classes.values() for m in group if len(m) > 1]


def _facts(scenario: Scenario, tally: Tally) -> Counter:
    """Everything the combat says that may name a permanent, counted; players are never
    exchanged, so what names only players is compared as is."""
    facts: Counter = Counter()
    for p in scenario.permanents:
        blocking = None if p.blocking is None else frozenset(p.blocking)
        own = tuple(getattr(p, name) for name in _OWN)
        facts[("permanent", own, (p.id, p.attacking, blocking, p.order))] += 1
    for band in scenario.bands:
        facts[("band", (), (frozenset(band),))] += 1
    for e in scenario.effects:
        plain = (e.id, e.kind, e.amount, e.once)
        facts[("effect", plain, (e.to, e.sources, e.recipients))] += 1
    for e in scenario.assignment or ():
        facts[("given", (e.amount,), (e.source, e.to))] += 1
    for (source, to), amount in tally.before.items():
        facts[("before", (amount,), (source, to))] += 1
    for (source, to), changes in tally.changed.items():
        facts[("changed", tuple((c.name, c.kind, c.amount) for c in changes), (source, to))] += 1
    return facts


def _renamed(fact: Fact, rename: Callable[[str], str]) -> Fact:
    def slot(value):
        if isinstance(value, str):
            return rename(value)
        if value is None:
            return None
        return type(value)(rename(x) for x in value)

    return (fact[0], fact[1], tuple(slot(v) for v in fact[2]))


def _swappable(x: str, y: str, facts: Counter, mentions: dict[str, set[Fact]]) -> bool:
    """Exchanging x and y gives back the same combat: the facts naming either are the same
    facts, as often, once the names are exchanged (the rest name neither, and stay)."""
    touched = Counter({f: facts[f] for f in mentions.get(x, set()) | mentions.get(y, set())})
    swap = {x: y, y: x}
    return Counter({_renamed(f, lambda v: swap.get(v, v)): n for f, n in touched.items()}) == (
        touched
    )


def _doubtful(scenario: Scenario) -> set[str]:
    view = ScenarioView(scenario)
    doubtful = {m for band in scenario.bands for m in band}
    doubtful |= {p.id for p in scenario.permanents if p.is_planeswalker or p.is_battle}
    if scenario.edition.has_order:
        for c in view.creatures:
            doubtful |= set(order.candidates(view, c))
    return doubtful


def alike_parts(parts: Sequence[Scenario], named: Iterable[str] = ()) -> list[dict[str, str]]:
    """For each two neighbours of each set of alike parts (`alike_groups`), the exchange of
    their ids, both ways."""
    exchanges = []
    for group in alike_groups(parts, named):
        for one, other in zip(group, group[1:], strict=False):
            exchanges.append(
                {**renaming(parts[one], parts[other]), **renaming(parts[other], parts[one])}
            )
    return exchanges


def alike_groups(parts: Sequence[Scenario], named: Iterable[str] = ()) -> list[list[int]]:
    """The sets (two or more, by their places in `parts`) of whole parts of a combat
    (`solver/combat_parts`: each a combat of its own, with every player) that may exchange
    their permanents' ids and give back the same combat: renaming each part's permanents by
    their places in it, in the order of the file, gives the same permanents, blocks, orders
    and bands. Players, in every part, are never renamed; a part that holds an id of `named`
    is like no other, and so is a part with effects of its own (a part keeps those that may
    change its creatures' damage, `solver.combat_parts`): an effect names what it applies
    to. With an assignment given, which may name any permanent, none is compared."""
    if any(part.assignment for part in parts):
        return []
    named = set(named)
    alike: dict[tuple, list[int]] = {}
    for index, part in enumerate(parts):
        ids = _ids(part)
        if named.isdisjoint(ids) and not part.effects:
            alike.setdefault(_shape(part, ids), []).append(index)
    return [group for group in alike.values() if len(group) > 1]


def renaming(part: Scenario, alike: Scenario) -> dict[str, str]:
    """Each permanent id of `part` to the id in the same place of `alike`, a part alike to
    it (`alike_groups`)."""
    return dict(zip(_ids(part), _ids(alike), strict=True))


def _ids(part: Scenario) -> list[str]:
    return [p.id for p in part.permanents]


def _shape(part: Scenario, ids: list[str]) -> tuple:
    """The part with each permanent's id, and each id naming one of them, replaced by its
    place; what names a player stays as it is."""
    place = {id: i for i, id in enumerate(ids)}

    def renamed(names):
        return None if names is None else tuple(place.get(x, x) for x in names)

    permanents = tuple(
        (
            tuple(getattr(p, name) for name in _OWN),
            place.get(p.attacking, p.attacking),
            renamed(p.blocking),
            renamed(p.order),
        )
        for p in part.permanents
    )
    return permanents, tuple(sorted(tuple(sorted(renamed(band))) for band in part.bands))
