"""Random combats, drawn with lethal's public Hypothesis strategies (`lethal.strategies`)
from a fixed seed, asked until the engine disagrees with lethal; Hypothesis then shrinks
that combat to the smallest one that still shows the disagreement.

A combat the engine declines (`unsupported`) is not counted: Hypothesis draws another
in its place, up to its own limit on examples rejected (about ten times as many). An engine
failure is not shrunk (each try could cost the engine's whole time limit): the combat that
met it is reported as it was drawn. Hypothesis is imported here alone, when random combats
are asked for.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator

from . import ASSIGN, CHECK, DEAL, DISAGREED, DIVIDE, FAILED, SKIPPED
from .runner import Finding, OutOfTime, Reply, Search

LIFE = 20  # the life total given to each player the drawn combat gives none, for `deal`
RANDOM_COMBAT = "<random combat>"
STRIKES = ("first strike", "double strike")


class _Failed(BaseException):
    """The engine failed: stops the search without Hypothesis shrinking it (it takes any
    Exception for what it is looking for)."""


def search(ask: str, count: int, seed: int, respond: Callable[[dict], Reply]) -> Search:
    """Random combats asked `ask`, drawn from `seed`, until `count` are answered: the
    smallest disagreement found, or the engine failure met, or nothing."""
    from hypothesis import Phase, Verbosity, assume, find, settings
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    start = time.monotonic()
    compared = declined = shrinks = 0
    smallest: list[tuple[dict, Reply]] = []  # the last disagreement met is the smallest yet
    failure: list[tuple[dict, Reply]] = []

    def disagrees(data: dict) -> bool:
        nonlocal compared, declined, shrinks
        reply = respond(data)
        if smallest:
            shrinks += 1
        elif reply.outcome == SKIPPED:
            declined += 1
        else:
            compared += 1
        if reply.outcome == FAILED:
            failure.append((data, reply))
            raise _Failed
        assume(reply.outcome != SKIPPED)  # not counted: another is drawn in its place
        if reply.outcome == DISAGREED:
            smallest[:] = [(data, reply)]
            return True
        return False

    chosen = settings(
        database=None,
        max_examples=count,
        deadline=None,
        phases=(Phase.generate, Phase.shrink),
        verbosity=Verbosity.quiet,
    )
    stopped = False
    try:
        find(combats(ask), disagrees, settings=chosen, random=random.Random(seed))
    except (NoSuchExample, Unsatisfiable):
        pass
    except _Failed:
        smallest[:] = failure
    except OutOfTime:
        stopped = True
    if smallest and not failure and not stopped:
        try:
            trimmed, tries = trim(ask, *smallest[0], respond)
            smallest[:] = [trimmed]
            shrinks += tries
        except OutOfTime:
            stopped = True
    finding = None
    if smallest:
        data, reply = smallest[0]
        finding = Finding(RANDOM_COMBAT, ask, reply, combat=data, drawn=True)
    return Search(ask, compared, declined, shrinks, finding, time.monotonic() - start, stopped)


def trim(
    ask: str, data: dict, reply: Reply, respond: Callable[[dict], Reply]
) -> tuple[tuple[dict, Reply], int]:
    """The disagreement made plainer one step at a time (`plainer`), while the engine still
    disagrees (for `deal`, on an assignment still legal): Hypothesis shrinks what it draws,
    but a smaller combat draws another assignment, so what the disagreement does not need
    can remain. The plainest (data, reply), and the combats asked."""
    from ..errors import ScenarioError
    from ..reading import parse
    from ..verdict import check

    tries = 0
    seen = set()
    found = True
    while found:
        found = False
        for smaller in plainer(data):
            key = json.dumps(smaller, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            try:
                scenario = parse(smaller, RANDOM_COMBAT, warn=False)
            except ScenarioError:
                continue
            if ask == DEAL and not check(scenario).legal:
                continue
            tries += 1
            again = respond(smaller)
            if again.outcome == DISAGREED:
                data, reply, found = smaller, again, True
                break
    return (data, reply), tries


def plainer(data: dict) -> Iterator[dict]:
    """Scenarios one step plainer than `data`: a permanent fewer, a player fewer, a keyword
    fewer, no damage marked, no qualities, no regeneration shields, a player without
    protection or poison counters, an effect fewer, the current rules, the only combat
    damage step (with no first or double strike)."""
    for p in data["permanents"]:
        smaller = without(data, p["id"])
        if smaller is not None:
            yield smaller
    for n, p in enumerate(data["permanents"]):
        changes = [
            {"keywords": [k for k in p["keywords"] if k != k2]} for k2 in p.get("keywords", ())
        ]
        changes += [
            {field: None}
            for field in ("damage", "qualities", "regeneration_shields")
            if p.get(field)
        ]
        for change in changes:
            changed = {k: v for k, v in {**p, **change}.items() if v is not None}
            yield {**data, "permanents": _replaced(data["permanents"], n, changed)}
    for n, p in enumerate(data["players"]):  # one the file no longer names, else no file
        if len(data["players"]) > 2 and p["id"] != data["active_player"]:
            yield {**data, "players": _replaced(data["players"], n)}
        for field in ("keywords", "poison"):
            if p.get(field):
                changed = {k: v for k, v in p.items() if k != field}
                yield {**data, "players": _replaced(data["players"], n, changed)}
    for n in range(len(data.get("effects", ()))):
        yield {**data, "effects": _replaced(data["effects"], n)}
    for field in ("rules", "step"):
        if field in data:
            yield {k: v for k, v in data.items() if k != field}
    if "step" in data:  # one step: no first strike, no double strike
        plain = [
            {
                **{k: v for k, v in p.items() if k != "struck_first"},
                **(
                    {"keywords": [k for k in p["keywords"] if k not in STRIKES]}
                    if "keywords" in p
                    else {}
                ),
            }
            for p in data["permanents"]
        ]
        yield {**{k: v for k, v in data.items() if k != "step"}, "permanents": plain}


def _replaced(items: list, n: int, *by) -> list:
    """The list with its nth item replaced by `by` (one item, or none: taken out)."""
    return [*items[:n], *by, *items[n + 1 :]]


def without(data: dict, gone: str) -> dict | None:
    """The scenario without the permanent `gone`: out of every block, band and order, and
    its assignment entries, from it and to it, dropped; None when something attacks it."""
    if any(p.get("attacking") == gone or p.get("protector") == gone for p in data["permanents"]):
        return None
    permanents = []
    for p in data["permanents"]:
        if p["id"] == gone:
            continue
        p = dict(p)
        for field in ("blocking", "order"):
            if field in p:
                p[field] = [i for i in p[field] if i != gone]
        if "order" in p and not p["order"]:
            del p["order"]
        permanents.append(p)
    smaller = {**data, "permanents": permanents}
    if "bands" in data:
        bands = [[i for i in band if i != gone] for band in data["bands"]]
        smaller["bands"] = [band for band in bands if len(band) >= 2]
        if not smaller["bands"]:
            del smaller["bands"]
    if "assignment" in data:
        smaller["assignment"] = [
            e for e in data["assignment"] if gone not in (e["source"], e["to"])
        ]
    if "effects" in data:
        effects = (_effect_without(e, gone) for e in data["effects"])
        smaller["effects"] = [e for e in effects if e is not None]
    return smaller


def _effect_without(effect: dict, gone: str) -> dict | None:
    """The effect once the permanent `gone` is: without it among its sources and recipients;
    None when it was the effect's only source or recipient, or its `to`."""
    if effect.get("to") == gone:
        return None
    effect = dict(effect)
    for field in ("sources", "recipients"):
        if field in effect:
            effect[field] = [i for i in effect[field] if i != gone]
            if not effect[field]:
                return None
    return effect


def combats(ask: str):
    """Scenario files to ask `ask` about, half of them crowded (blockers shared by several
    attackers, where 702.19b counts every attacker's damage): for `check`, each with a
    legal or an illegal assignment; for `assign` and `divide`, with none; for `deal`, with a
    legal one, every player with a life total, and what changes what damage does (lifelink,
    infect, wither, toxic, protection, regeneration shields, poison counters, effects)."""
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument

    from .. import strategies
    from ..reading import parse
    from ..report import entries_json

    @st.composite
    def combat(draw) -> dict:
        results = {"effects": True, "keywords": strategies.KEYWORDS} if ask == DEAL else {}
        drawn = draw(
            st.one_of(
                strategies.scenarios(**results), strategies.scenarios(crowded=True, **results)
            )
        )
        data = {k: v for k, v in drawn.items() if k != "assignment"}
        if ask in (ASSIGN, DIVIDE):
            return data
        scenario = parse(data, RANDOM_COMBAT, warn=False)
        entries = None
        if ask == CHECK and not draw(st.booleans()):
            try:
                entries = draw(strategies.illegal_assignments(scenario))
            except InvalidArgument:  # no creature's damage can be changed: ask a legal one
                pass
        if entries is None:
            entries = draw(strategies.legal_assignments(scenario))
        if ask == DEAL:
            data["players"] = [{"id": p["id"], "life": LIFE, **p} for p in data["players"]]
        return {**data, "assignment": entries_json(entries)}

    return combat()
