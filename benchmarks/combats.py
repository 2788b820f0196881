"""Random combats of stated sizes for the benchmarks, the same for a given seed."""

from __future__ import annotations

import random

from lethal import Entry, Scenario, parse


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


def random_assignment(scenario: Scenario, seed: int) -> list[Entry]:
    """Each creature's power divided at random among those it may assign to (legal or not)."""
    rng = random.Random(seed)
    entries = []
    for p in scenario.permanents:
        if p.blocking:
            recipients = list(p.blocking)
        else:
            blockers = [b.id for b in scenario.permanents if b.blocking and p.id in b.blocking]
            recipients = blockers + ["D"]
        left = p.power
        for r in recipients[:-1]:
            amount = rng.randint(0, left)
            left -= amount
            if amount:
                entries.append(Entry(p.id, r, amount))
        if left > 0:
            entries.append(Entry(p.id, recipients[-1], left))
    return entries
