"""`lethal teeth --jobs N` proves the library N properties at once, each in a process of its
own that inherits the kind of constraint removed: the same bites as one at a time."""

from __future__ import annotations

from lethal.proving import teeth
from lethal.proving.library import collect
from lethal.reading import bundled_examples

# Quick properties that some kinds of constraint, but not all, are needed for.
NAMES = (
    "a_legal_assignment_always_exists",
    "no_player_damage_without_lethal_to_every_blocker",
    "controller_damage_needs_loyalty_on_the_planeswalker",
    "struck_first_assigns_nothing_in_the_second_step_without_double_strike",
    "blocked_without_trample_assigns_only_to_its_blockers",
)


def test_teeth_bite_alike_one_at_a_time_and_two_at_once(monkeypatch):
    chosen = [p for p in collect([]) if p.name in NAMES]
    assert len(chosen) == len(NAMES)
    monkeypatch.setattr(teeth, "collect", lambda paths: chosen)
    monkeypatch.setattr(teeth, "bundled_examples", lambda: bundled_examples()[:1])
    alone = teeth.bite(60)
    assert any(b.properties for b in alone)  # something to compare
    assert any(not b.properties for b in alone)
    names = [p.name for p in chosen]
    for b in alone:  # the first property that notices, in order; the rest not proved
        if b.properties:
            (first,) = b.properties
            assert b.not_proved == len(names) - names.index(first) - 1
        else:
            assert b.not_proved == 0
    assert teeth.bite(60, jobs=2) == alone
