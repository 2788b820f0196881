"""Hypothesis strategies for the project's own tests: the scenario files are drawn by the
public `lethal.strategies` (one copy of the drawing code); the assignments here are drawn
from the independent reference's divisions, often near trample's thresholds or an order's,
so that the reference and lethal are compared where they could differ.
"""

from __future__ import annotations

from hypothesis import strategies as st

from lethal import Entry, parse
from lethal import strategies as public
from lethal.strategies import (
    EFFECT_KINDS,
    PROTECTIONS,
    RESULT_KEYWORDS,
    editions,
    with_results,
)
from lethal.strategies import effect_lists as effects

from . import reference

__all__ = [
    "EFFECT_KINDS",
    "PROTECTIONS",
    "RESULT_KEYWORDS",
    "assignments",
    "combats",
    "editions",
    "effects",
    "near_the_order",
    "near_the_threshold",
    "phase_starts",
    "scenarios",
    "with_results",
]


def scenarios(
    max_power: int = 5,
    protection: bool = False,
    rules: st.SearchStrategy[str] | None = None,
    leave_open: int = 1,
    crowded: bool = False,
) -> st.SearchStrategy[dict]:
    """`lethal.strategies.scenarios` as these tests ask for it: with `protection`, some
    creatures have protection from a quality (the whole combat's reference deals no
    effects); an order a creature needs is left open with `leave_open` chances in 5."""
    keywords = public.ASSIGNMENT_KEYWORDS + ((public.PROTECTION_FROM,) if protection else ())
    return public.scenarios(
        keywords=keywords,
        max_power=max_power,
        rules=rules,
        open_orders=leave_open,
        crowded=crowded,
    )


@st.composite
def near_the_threshold(draw, scenario, p) -> dict[str, int] | None:
    """A trampler's row that gives each blocker about what it needs, give or take one, and
    the planeswalker it attacks about its loyalty: where off-by-one readings differ."""
    free, gated = reference.recipients(scenario, p)
    if not gated or not reference.assigns_this_step(scenario, p) or reference.amount(p) <= 0:
        return None
    row: dict[str, int] = {}
    for b in reference.blockers_of(scenario, p.id):
        blocker = scenario.permanent(b)
        row[b] = max(0, _need(scenario, p, blocker) + draw(st.sampled_from([-1, 0, 0, 1])))
    attacked = next((q for q in scenario.permanents if q.id == p.attacking), None)
    if attacked is not None and attacked.is_planeswalker and len(gated) > 1:
        row[attacked.id] = max(0, attacked.loyalty + draw(st.sampled_from([-2, -1, 0, 0, 1])))
    return _the_rest_to_one(draw, row, reference.amount(p), gated)


def _the_rest_to_one(draw, row: dict[str, int], power: int, among) -> dict[str, int] | None:
    """The row with what is left of power added to one of `among`; None when the row
    already asks for more than power."""
    rest = power - sum(row.values())
    if rest < 0:
        return None
    chosen = draw(st.sampled_from(among))
    row[chosen] = row.get(chosen, 0) + rest
    return {r: a for r, a in row.items() if a}


def _need(scenario, p, x) -> int:
    """What p alone must assign to x for lethal damage (702.2c from M11 on: 1 with
    deathtouch)."""
    if "deathtouch" in p.keywords and reference.deathtouch_is_lethal(scenario):
        return 1
    return max(0, x.toughness - x.damage)


@st.composite
def near_the_order(draw, scenario, p) -> dict[str, int] | None:
    """A row of a creature bound by its damage assignment order that gives the creatures
    in an order (its own, or a drawn one when it is open) about what each needs, give or
    take one, and the rest to one of them: where 510.1c-d decide."""
    members = reference.order_members(scenario, p)
    if not reference.bound_by_order(scenario, p) or reference.amount(p) <= 0:
        return None
    order = p.order if p.order is not None else draw(st.permutations(members))
    row: dict[str, int] = {}
    for x in order[: draw(st.integers(1, len(order)))]:
        need = _need(scenario, p, scenario.permanent(x))
        row[x] = max(0, need + draw(st.sampled_from([-1, 0, 0, 1])))
    return _the_rest_to_one(draw, row, reference.amount(p), order)


@st.composite
def assignments(draw, scenario) -> list[Entry]:
    """Mostly divisions the reference allows one creature at a time (so trample's
    conditions and the orders decide), often near trample's thresholds or an order's,
    sometimes rows that break the plain rules too."""
    ids = [p.id for p in scenario.players] + [p.id for p in scenario.permanents]
    entries: list[Entry] = []
    for p in scenario.permanents:
        if not p.is_creature:
            continue
        kind = draw(st.integers(0, 5))
        near = draw(near_the_threshold(scenario, p)) if kind <= 2 else None
        if near is None and kind <= 3:
            near = draw(near_the_order(scenario, p))
        if near is not None:
            row = near
        elif kind < 5:
            row = draw(st.sampled_from(reference.divisions(scenario, p)))
        else:
            targets = draw(st.lists(st.sampled_from(ids), unique=True, max_size=3))
            row = {t: draw(st.integers(1, 6)) for t in targets}
        entries += [Entry(p.id, t, a) for t, a in row.items()]
    return entries


def combats(max_power: int = 5, **options):
    return scenarios(max_power, **options).map(parse)


@st.composite
def phase_starts(draw, rules: st.SearchStrategy[str] | None = None) -> dict:
    """A small combat's dict from the start of the combat damage phase (no step, nothing
    struck first yet), half the time with what damage does (`with_results`); `rules`: its
    editions, as `scenarios` takes them."""
    data = draw(scenarios(max_power=3, rules=rules))
    data.pop("step")
    for p in data["permanents"]:
        p.pop("struck_first", None)
    return draw(with_results(data)) if draw(st.booleans()) else data
