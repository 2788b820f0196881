"""A whole combat split into independent parts: creatures, and the permanents they can
damage, that share nothing with the rest in either combat damage step.

Two creatures are in one part when a rule's constraint in either step speaks of both (they
block one another, share a blocker, a band or a planeswalker's loyalty), or when one can
damage a permanent the other can: what the first-strike step deals to a permanent (damage
marked, counters, loyalty, its death) is what the second step starts from (510.2, 704.5).
Players are in every part, and their damage is shared state only through what ends the game
(104.2a: life and poison, so lifelink and infect too); whoever splits a combat must rule that
out (`whole_combat`). Creatures whose damage may meet one prevention shield or one "next
time" prevention are in one part too: what one event uses of it, the next finds gone (615.7).
Parts without a first or double striker have no first step, and are kept as one part, so
that the second step asks one question for all of them; but not those whose effects make
dealing a choice, which are tried every way, so kept small. Each part keeps the effects that
may apply to its own damage.
"""

from __future__ import annotations

from dataclasses import replace

from ..combat import FIRST_STRIKE_STEP, SECOND, Effect, Scenario
from ..rules.dealing import leaves_no_choice
from .encoding import Encoding
from .parts import parts


def independent_parts(first: Scenario) -> list[Scenario]:
    """The first-strike step's combat as independent parts, each a combat of its own with
    every player; together they hold every permanent once. One part when nothing splits."""
    ids = [p.id for p in first.permanents]
    parent = {i: i for i in ids}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(members) -> None:
        members = [m for m in members if m in parent]
        for other in members[1:]:
            parent[root(other)] = root(members[0])

    for band in first.bands:
        join(band)
    for step in (FIRST_STRIKE_STEP, SECOND):
        encoding = Encoding(replace(first, step=step))
        view = encoding.view
        for c in view.creatures:
            join([c, *view.reachable(c)])
        for e in first.effects:
            if e.is_shield or e.once:  # its state is shared by every event it meets
                join([c for c in view.creatures if _meets(e, c, view.reachable(c))])
        for part in parts(encoding):  # creatures whose unknowns share a constraint
            join([source for source, _ in part.pairs])

    members: dict[str, list[str]] = {}
    for i in ids:
        members.setdefault(root(i), []).append(i)
    strikers = set(first.strikers())
    apart, rest = [], set()
    for m in map(set, members.values()):
        part = part_of(first, m)
        if strikers.intersection(m) or not leaves_no_choice(part):
            apart.append(part)
        else:
            rest |= m
    found = apart + [part_of(first, rest)] if rest else apart
    return [first] if len(found) == 1 else found


def together(first: Scenario, parts: list[Scenario]) -> Scenario:
    """The combat of these parts of `first`, as one."""
    return part_of(first, {p.id for part in parts for p in part.permanents})


def part_of(scenario: Scenario, ids: set[str]) -> Scenario:
    """The combat of these permanents alone (a part of it, say): its blocks and bands stay
    within it, and the effects that may change its creatures' damage (to one of them or a
    player)."""
    players = {p.id for p in scenario.players}
    return replace(
        scenario,
        permanents=tuple(p for p in scenario.permanents if p.id in ids),
        bands=tuple(band for band in scenario.bands if set(band) <= ids),
        effects=tuple(e for e in scenario.effects if _may_apply(e, ids, ids | players)),
    )


def _meets(effect: Effect, source: str, recipients) -> bool:
    return any(effect.applies(source, r) for r in recipients)


def _may_apply(effect: Effect, sources: set[str], recipients: set[str]) -> bool:
    """Whether the effect applies to damage from one of `sources` to one of `recipients`:
    `Effect.applies`, whose test of the source and of the recipient are apart."""
    source = next(iter(sources if effect.sources is None else effect.sources & sources), None)
    return source is not None and _meets(effect, source, recipients)
