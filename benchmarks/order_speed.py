"""How fast a check searches the damage assignment orders a file leaves open (CR 509.2).

    python benchmarks/order_speed.py [--runs N]

Sizes: 4 attackers each blocked by 3 creatures of its own, no orders given, under the rules
of 2020-01-01 (each attacker's 3! orders are tried on its own, since no order constrains
another's division); then one attacker blocked by k creatures, whose k! orders are tried,
up to the limit (lethal.limits.ORDERS) beyond which a check says so (exit 3).
Prints the median time and the orders tried for each, and `lethal max` on the 4x3 combat.
"""

from __future__ import annotations

import argparse

from check_speed import median_seconds

import lethal
from lethal import queries
from lethal.errors import TooManyOrders
from lethal.limits import ORDERS


def combat(attackers: int, blockers_each: int) -> lethal.Scenario:
    """Each attacker, a 6/6 trampler, blocked by its own 1/1s; each assigns 1 to each
    blocker, from the last to the first, and the rest to the player: legal in every order."""
    permanents, assignment = [], []
    for i in range(attackers):
        permanents.append(
            {
                "id": f"a{i}",
                "controller": "A",
                "types": ["creature"],
                "power": blockers_each + 3,
                "toughness": 6,
                "keywords": ["trample"],
                "attacking": "D",
            }
        )
        for j in range(blockers_each):
            permanents.append(
                {
                    "id": f"b{i}.{j}",
                    "controller": "D",
                    "types": ["creature"],
                    "power": 0,
                    "toughness": 1,
                    "blocking": [f"a{i}"],
                }
            )
            assignment.append({"source": f"a{i}", "to": f"b{i}.{j}", "amount": 1})
        assignment.append({"source": f"a{i}", "to": "D", "amount": 3})
    return lethal.parse(
        {
            "rules": "2020-01-01",
            "players": [{"id": "A"}, {"id": "D"}],
            "active_player": "A",
            "permanents": permanents,
            "assignment": assignment,
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="runs per size")
    args = parser.parse_args()
    print(f"{'size (rules of 2020-01-01, no orders)':<44}{'median':>10}{'orders tried':>14}")
    sizes = [(4, 3), (1, 5), (1, 6), (1, 7), (1, 8)]
    for attackers, each in sizes:
        scenario = combat(attackers, each)
        label = f"check, {attackers} attacker(s) x {each} blockers each"
        try:
            verdict = lethal.check(scenario)
        except TooManyOrders:
            seconds = median_seconds(lambda s=scenario: _refused(s), args.runs)
            print(f"{label:<44}{seconds * 1000:>7.2f} ms{'over ' + str(ORDERS.default):>14}")
            continue
        assert verdict.legal, verdict.violations
        tried = sum(found.tried for found in verdict.orders)
        runs = max(3, args.runs // max(1, tried // 100))
        seconds = median_seconds(lambda s=scenario: lethal.check(s), runs)
        print(f"{label:<44}{seconds * 1000:>7.2f} ms{tried:>14}")
    free = combat(4, 3)
    free = lethal.Scenario(**{**free.__dict__, "assignment": None})
    seconds = median_seconds(lambda: queries.maximum(free, "D"), max(3, args.runs // 10))
    best = queries.maximum(free, "D").value
    print(f"{f'lethal max --to D, 4x3 (most: {best})':<44}{seconds * 1000:>7.2f} ms")


def _refused(scenario: lethal.Scenario) -> None:
    try:
        lethal.check(scenario)
    except TooManyOrders:
        return
    raise AssertionError("the order search was not refused")


if __name__ == "__main__":
    main()
