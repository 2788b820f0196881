"""How long each command takes on inputs past its limits, and whether it says so (issue 10).

    python benchmarks/size_limits.py [--runs N] [--creatures N] [--timeout SECONDS]

Each row runs the command in process, as `lethal.cli.main` does, and prints its exit code
(3: a stated limit was reached, named on standard error) and its median time. Inputs:
a trampler of power 1000, and of 2**53 - 1 (the largest power a file may give), blocked by
three creatures; eight identical prevention shields on one attacker's damage, and on three
attackers'; and a combat of N creatures (default 10,000), attackers each blocked by one
blocker, with a legal assignment, for every command.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lethal.cli import main as lethal


def trampler(power: int) -> dict:
    blockers = [
        {"id": f"b{i}", "controller": "D", "types": ["creature"], "power": 1, "toughness": 2}
        | {"blocking": ["ghalta"]}
        for i in range(3)
    ]
    ghalta = {"id": "ghalta", "controller": "A", "types": ["creature"], "power": power}
    ghalta |= {"toughness": 12, "keywords": ["trample"], "attacking": "D"}
    return combat([ghalta, *blockers])


def shields(attackers: int) -> dict:
    data = combat(
        [
            {"id": f"a{i}", "controller": "A", "types": ["creature"], "power": 3}
            | {"toughness": 3, "attacking": "D"}
            for i in range(attackers)
        ],
        [(f"a{i}", "D", 3) for i in range(attackers)],
    )
    data["effects"] = [{"id": f"s{i}", "kind": "prevent", "amount": 1, "to": "D"} for i in range(8)]
    return data


def pairs(creatures: int) -> dict:
    """Attackers each blocked by one blocker, each dealing the other all its power."""
    half = creatures // 2
    permanents, assignment = [], []
    for i in range(half):
        permanents.append(
            {"id": f"a{i}", "controller": "A", "types": ["creature"], "power": 1 + i % 5}
            | {"toughness": 4, "attacking": "D"}
            | ({"keywords": ["trample"]} if i % 2 else {})
        )
        permanents.append(
            {"id": f"b{i}", "controller": "D", "types": ["creature"], "power": 1 + i % 3}
            | {"toughness": 5, "blocking": [f"a{i}"]}
        )
        assignment += [(f"a{i}", f"b{i}", 1 + i % 5), (f"b{i}", f"a{i}", 1 + i % 3)]
    return combat(permanents, assignment)


def combat(permanents: list, assignment: list | None = None) -> dict:
    data = {
        "players": [{"id": "A", "life": 20}, {"id": "D", "life": 20}],
        "active_player": "A",
        "permanents": permanents,
    }
    if assignment is not None:
        data["assignment"] = [{"source": s, "to": t, "amount": a} for s, t, a in assignment]
    return data


def run(argv: list[str], runs: int) -> tuple[float, int, str]:
    times, code, err = [], 0, io.StringIO()
    for _ in range(runs):
        err = io.StringIO()
        start = time.perf_counter()
        code = lethal(argv, io.StringIO(), err)
        times.append(time.perf_counter() - start)
    return statistics.median(times), code, err.getvalue().strip().splitlines()[-1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per row")
    parser.add_argument("--creatures", type=int, default=10_000, help="the large combat's size")
    parser.add_argument("--timeout", default="120", help="each command's --timeout")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="size-limits-"))

    def write(name: str, data: dict) -> str:
        path = folder / f"{name}.json"
        path.write_text(json.dumps(data))
        return str(path)

    large = write("large", pairs(args.creatures))
    start = dict(pairs(args.creatures))
    del start["assignment"]
    large_start = write("large-start", start)
    rows = [
        ("count, power 1000 vs 3 blockers", ["count", write("p1000", trampler(1000))]),
        (
            "count --list --limit 5, power 2**53-1 vs 3 blockers",
            ["count", write("pmax", trampler(2**53 - 1)), "--list", "--limit", "5"],
        ),
        ("deal, 8 identical shields, 1 attacker", ["deal", write("shields1", shields(1))]),
        ("deal, 8 identical shields, 3 attackers", ["deal", write("shields3", shields(3))]),
    ]
    n = f"{args.creatures:,} creatures"
    rows += [
        (f"check, {n}", ["check", large]),
        (f"deal, {n}", ["deal", large]),
        (f"possible, {n}", ["possible", large_start]),
        (f"possible --combat, {n}", ["possible", large_start, "--combat"]),
        (f"max, {n}", ["max", large_start, "--to", "D"]),
        (f"min --combat, {n}", ["min", large_start, "--to", "D", "--combat"]),
        (f"count, {n}", ["count", large_start]),
        (f"guarantee, {n}", ["guarantee", large_start, "--to", "D"]),
        (f"guarantee --combat, {n}", ["guarantee", large_start, "--to", "D", "--combat"]),
    ]
    print(f"{'command and input':<56}{'exit':>5}{'median':>12}  limit named")
    for label, argv in rows:
        seconds, code, said = run([*argv, "--timeout", args.timeout], args.runs)
        named = said[0].split(": undecided: ")[-1][-60:] if code == 3 and said else ""
        print(f"{label:<56}{code:>5}{seconds:>10.2f} s  {named}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
