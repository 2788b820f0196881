"""Wrong on purpose: it accepts a trampler's assignment whenever the total is its power and
its blockers got anything, never asking whether each blocker was assigned lethal damage
(702.19b)."""

from naive import main

main("total")
