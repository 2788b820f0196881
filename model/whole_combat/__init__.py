"""The whole combat damage phase: CR 510.4 with 702.4 and 702.7, 510.2, 704.5g-h, 702.19d.

The queries here count the combat damage *dealt* over the phase, each in a module of its
own: `max_min`, `possibility` and `guaranteed`. What they share is one course of the phase
step by step (`course`: the steps' legal assignments, the second step's combat after the
first, what a course deals), and the combat's independent parts joined again (`parts`, and
`game_end` on the players' life and poison when the first step may end the game, 104.2a).
Shields on players that are only so much more life are taken as life (`shields_as_life`).
The damage assignment orders of the editions before 2024-11-08 bind both steps: an order the
file leaves open is announced first (509.2-509.3), and each announcement is asked apart.
Without first or double strike, the whole combat is the one step.
"""

from .course import after, dealing, game_over, legal_assignments, silent_given, starts_the_phase
from .guaranteed import guarantee
from .max_min import optimum
from .possibility import possible

__all__ = [
    "after",
    "dealing",
    "game_over",
    "guarantee",
    "legal_assignments",
    "optimum",
    "possible",
    "silent_given",
    "starts_the_phase",
]
