"""Lethal damage for the purposes of assignment, with deathtouch: CR 702.19b, 702.2c, 120.6."""

from __future__ import annotations

from ..amounts import Amounts
from ..keywords import DEATHTOUCH
from ..ops import Term, any_of, any_positive, built_once


def deathtouch_damage_assigned(view, amounts: Amounts, b: str) -> Term:
    """702.2c: some source with deathtouch assigns b a nonzero amount this step.

    Reading (docs/readings.md): the source need not be the creature asking; any creature's
    deathtouch damage assigned this step counts, as other creatures' damage counts toward
    lethal in 702.19b.
    """
    return any_positive((view.has(o, DEATHTOUCH), x) for o, x in amounts.into(b))


@built_once
def lethal_damage_assigned(view, amounts: Amounts, b: str) -> Term:
    """702.19b, 510.1c-d: damage marked plus all damage assigned to b this step reaches its
    toughness, or 702.2c makes it lethal (from M11, 2010-07-16: M10's deathtouch made nothing
    lethal, docs/readings.md). Protection, prevention and doubling are not considered."""
    by_toughness = view.marked(b) + amounts.received_by(b) >= view.toughness(b)
    # With no deathtouch rule, or as any_of would fold it, without asking who has deathtouch.
    if not view.edition.deathtouch_is_lethal or by_toughness is True:
        return by_toughness
    return any_of((by_toughness, deathtouch_damage_assigned(view, amounts, b)))
