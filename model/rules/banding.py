"""Banding and "bands with other": CR 702.22c-k.

Banding changes which bands may attack and who chooses how a creature's combat damage is
divided. It does not change which divisions are legal (docs/readings.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..keywords import BANDING
from ..ops import Term, all_of, any_of, implies, ite, negate, remembered, total

DEFAULT = "510.1"
DEFENDER_DIVIDES = "702.22j"
ATTACKER_DIVIDES = "702.22k"


def band_allowed(view, members: Sequence[str], in_band: Sequence[Term] | None = None) -> Term:
    """702.22c: one or more with banding and at most one without (a "bands with other"
    creature counts as without); or creatures that all have a quality, one or more of which
    "bands with other" that quality. `in_band` says which of `members` are in the band,
    when that is itself an unknown."""
    in_band = list(in_band) if in_band is not None else [True] * len(members)
    pairs = list(zip(members, in_band, strict=True))
    size = total(ite(m_in, 1, 0) for _, m_in in pairs)
    with_banding = [all_of((m_in, view.has(m, BANDING))) for m, m_in in pairs]
    without = total(ite(all_of((m_in, negate(view.has(m, BANDING)))), 1, 0) for m, m_in in pairs)
    by_banding = all_of((any_of(with_banding), without <= 1))
    by_quality = any_of(
        all_of(
            (
                any_of(
                    all_of((m_in, view.bands_with_other(m, q), view.has_quality(m, q)))
                    for m, m_in in pairs
                ),
                all_of(implies(m_in, view.has_quality(m, q)) for m, m_in in pairs),
            )
        )
        for q in view.qualities
    )
    return all_of((size >= 2, any_of((by_banding, by_quality))))


def _banding_among(view, group: Sequence[str], in_group) -> Term:
    """Some creature of the group has banding, or two of them are a "bands with other" pair:
    a [quality] creature with "bands with other [quality]" and another [quality] creature."""
    if not group:  # as any_of folds nothing, for the many attackers no creature blocks
        return False
    banding = []
    for c in group:
        has = view.has(c, BANDING)
        if has is False:  # as all_of would fold it, without asking whether c is in the group
            continue
        way = all_of((in_group(c), has))
        if way is True:  # as any_of would fold it, without asking the rest, or for pairs
            return True
        banding.append(way)
    with_banding = any_of(banding)
    if not view.qualities:  # no quality, no pair: as any_of would fold them
        return with_banding
    pairs = (
        all_of(
            (
                in_group(x),
                in_group(y),
                view.bands_with_other(x, q),
                view.has_quality(x, q),
                view.has_quality(y, q),
            )
        )
        for q in view.qualities
        for x in group
        if view.bands_with_other(x, q) is not False  # else all_of folds each pair of x to False
        for y in group
        if x != y
    )
    return any_of((with_banding, any_of(pairs)))


@remembered
def defending_player_divides(view, a: str) -> Term:
    """702.22j: an attacker blocked by banding has its damage divided by the defending player."""
    blockers = view.blockers_of(a)
    if not blockers:  # as all_of would fold it (_banding_among of none), for most attackers
        return False
    banding = _banding_among(view, blockers, lambda b: view.blocks(b, a))
    if banding is False:  # as all_of would fold it, for most blocked attackers
        return False
    return all_of((view.is_attacking(a), banding))


@remembered
def active_player_divides(view, b: str) -> Term:
    """702.22k: a blocker blocking banding has its damage divided by the active player."""
    banding = _banding_among(view, view.blocked_by(b), lambda a: view.blocks(b, a))
    if banding is False:  # as all_of would fold it, for most blockers
        return False
    return all_of((view.is_blocking(b), banding))


def who_divides(view, c: str) -> tuple[str, str]:
    """The player who chooses how c's combat damage is divided, and the rule that says so
    (510.1: an attacker's controller, then a blocker's; 702.22j-k: the other way round)."""
    if view.is_attacking(c):
        if defending_player_divides(view, c) is True:
            return view.defending_player(c), DEFENDER_DIVIDES
        return view.active_player, DEFAULT
    if active_player_divides(view, c) is True:
        return view.active_player, ATTACKER_DIVIDES
    return view.controller(c), DEFAULT
