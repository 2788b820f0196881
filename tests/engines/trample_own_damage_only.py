"""Wrong on purpose: judging whether a trampler's blockers have lethal damage, it counts the
trampler's own damage and the damage marked, and ignores the damage other creatures assign
to the same blocker (702.19b counts all of it)."""

from naive import main

main("own")
