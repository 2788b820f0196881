"""Random combats of stated sizes for the benchmarks, the same for a given seed."""

from __future__ import annotations

import random

from lethal import Scenario, parse


def random_combat(attackers: int, blockers: int, seed: int, max_power: int = 6) -> Scenario:
    """Attackers with trample, deathtouch, both or neither; blockers blocking one or two of
    them; no assignment."""
    rng = random.Random(seed)
    permanents = []
    for i in range(attackers):
        keywords = rng.sample(["trample", "deathtouch"], rng.randint(0, 2))
        permanents.append(
            {
                "id": f"a{i}",
                "controller": "A",
                "types": ["creature"],
                "power": rng.randint(1, max_power),
                "toughness": 4,
                "keywords": keywords,
                "attacking": "D",
            }
        )
    for i in range(blockers):
        blocks = rng.sample([f"a{j}" for j in range(attackers)], min(attackers, rng.randint(1, 2)))
        permanents.append(
            {
                "id": f"b{i}",
                "controller": "D",
                "types": ["creature"],
                "power": rng.randint(0, max_power),
                "toughness": rng.randint(1, 5),
                "blocking": blocks,
            }
        )
    return parse(
        {"players": [{"id": "A"}, {"id": "D"}], "active_player": "A", "permanents": permanents}
    )
