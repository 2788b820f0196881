"""Protection's part in combat damage: CR 702.16a, e, g, h, j, k.

Assignment ignores protection (702.19b's example assigns lethal damage to a creature with
protection from the trampler's colour); dealing does not: damage from a source with a quality
the recipient has protection from is prevented (702.16e), and protection from everything
prevents all damage (702.16j). A card type is a quality (702.16a), so "protection from
creatures" prevents the damage of every creature; protection from a player, the damage of
what that player controls (702.16k). Players may have protection too. "From A and from B"
and "from each color" are read as one protection for each quality (702.16g-h, keywords.py).
"""

from __future__ import annotations

from ..keywords import PROTECTION_FROM_EVERYTHING
from ..ops import Term, all_of, any_of


def prevents(view, source: str, recipient: str) -> Term:
    """Protection prevents the damage source would deal to recipient (a permanent or a
    player). Only the recipient's protection counts, never the source's."""
    return any_of(
        (
            view.has(recipient, PROTECTION_FROM_EVERYTHING),  # 702.16j
            *(
                all_of(
                    (
                        view.protection_from(recipient, quality),
                        any_of(
                            (
                                view.has_quality(source, quality),
                                view.has_type(source, quality),
                                _controlled_by(view, quality, source),
                            )
                        ),
                    )
                )
                for quality in view.protection_qualities(recipient)
            ),
        )
    )


def _controlled_by(view, quality: str, source: str) -> Term:
    """702.16k: protection from a player is from each object that player controls (lethal
    has no owners: a source is its controller's)."""
    player = view.player_called(quality)
    return False if player is None else view.controls(player, source)
