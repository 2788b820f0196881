"""How fast `max --combat` and `min --combat` are: CPU medians per size and seed, on combats
with first strikers.

    python benchmarks/combat_speed.py [--runs N] [--sizes 16 32 64] [--seeds 1 2 3 4]
    python benchmarks/combat_speed.py --at-life SECONDS

The combats are `check_speed.banding_combat(n, seed)` (n attackers with trample, deathtouch
and banding, n/2 blockers, a planeswalker) without its assignment, and with 15% of their
creatures given first strike or double strike; then rows with only 2 strikers. The query is
the most, then the least, combat damage dealt to D over the whole combat damage phase (the
first-strike step, then the second). Goal (issue 12): 64x32 under 10 s CPU on every seed,
and no refusal caused by creatures that do not assign in a step. CPU time, so that other
work on the machine does not distort the figures.

The second times `max --combat` to D on 100 double-striking 2/2 trample tokens, each blocked
by a 1/1 deathtouch token of its own, with no life total and with D at 20 life, and on 60
unlike such fights at 20 life (the first step may then end the game, so the parts are
joined on the life D loses: `game_end`), and on 100 double-striking 3/3 trample tokens under
the rules of 2020, each blocked by two 1/1 tokens in the order the file gives, D at 20 life,
and on the 100 token pairs with three effects that leave dealing no choice (a doubler,
"plus 1", a prevention of all damage to one blocker), with a shield of 3 on D, and with
two effects that make dealing a choice (a shield of 2 on a blocker, the next time damage
would be dealt to an attacker prevented), at 20 life and with none, and with first strike on
every blocker at 20 life, and with c0 given first strike and blocking t0 and t1 (both sides
divide in the first step); and 200 such tokens at 20 life, each two blocked by a 1/1
deathtouch wall with first strike (every wall divides); then
`possible --combat` of that most to D, of more, and of exactly 20 less (a total between,
which alike parts' shares must meet), and `guarantee --combat` to D; each
stopped after SECONDS (wall clock), or refused at a limit; then the peak memory of all.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from dataclasses import replace
from pathlib import Path

from check_speed import banding_combat
from timing import cpu_median

import lethal
from lethal.deadline import TimedOut, deadline
from lethal.keywords import DOUBLE_STRIKE, FIRST_STRIKE

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.build import (  # noqa: E402 - the tests' builders
    double_blocks,
    fights,
    unchosen_effects,
    walled,
)

SHARE = 0.15  # of the creatures, given first strike or double strike


def combat_with_strikers(n: int, seed: int, strikers: int | None = None) -> lethal.Scenario:
    """`banding_combat(n, seed)` without its assignment, with first or double strike on 15%
    of its creatures (or on `strikers` of them), chosen by the seed."""
    scenario = banding_combat(n, seed)
    rng = random.Random(seed)
    creatures = [p.id for p in scenario.permanents if p.is_creature]
    many = round(SHARE * len(creatures)) if strikers is None else strikers
    chosen = {c: rng.choice((FIRST_STRIKE, DOUBLE_STRIKE)) for c in rng.sample(creatures, many)}
    # A striker has struck first by the second step, as a file's reader would default it.
    permanents = tuple(
        replace(
            p,
            keywords=replace(p.keywords, plain=p.keywords.plain | {chosen[p.id]}),
            struck_first=True,
        )
        if p.id in chosen
        else p
        for p in scenario.permanents
    )
    return replace(scenario, permanents=permanents, assignment=None)


def row(label: str, scenario: lethal.Scenario, runs: int) -> None:
    cells = []
    for name, query in (("most", lethal.maximum), ("least", lethal.minimum)):
        try:
            seconds, answer = cpu_median(lambda q=query: q(scenario, "D", whole_combat=True), runs)
        except lethal.LimitReached as refused:
            print(f"{label:<34}{name}: refused  {refused}")
            return
        cells.append(f"{seconds:>8.2f} s  {name} {answer.value:<5}")
    print(f"{label:<34}" + "".join(cells))


def fights_at_life(n: int, life: int | None, unlike: bool = False) -> lethal.Scenario:
    """n double-striking 2/2 trample tokens attacking D, each blocked by a 1/1 deathtouch
    token of its own, D at `life` (None: no life total). With `unlike`, the fights differ:
    tramplers of power 2 to 5 and blockers of toughness 1 to 3, without deathtouch."""
    if not unlike:
        return lethal.parse(fights([2] * n, [1] * n, life, deathtouch=True), whole_combat=True)
    rng = random.Random(1)
    drawn = [(rng.randint(2, 5), rng.randint(1, 3)) for _ in range(n)]
    powers, toughnesses = zip(*drawn, strict=True)
    return lethal.parse(fights(powers, toughnesses, life), whole_combat=True)


def fights_with(
    n: int, life: int | None, effects: list[dict], lifelink: bool = False
) -> lethal.Scenario:
    """`fights_at_life(n, life)`'s tokens with the effects given; with `lifelink`, t0 has
    lifelink."""
    data = fights([2] * n, [1] * n, life, deathtouch=True)
    data["effects"] = effects
    if lifelink:
        data["permanents"][0]["keywords"].append("lifelink")
    return lethal.parse(data, whole_combat=True)


def fights_struck_first(n: int, life: int) -> lethal.Scenario:
    """`fights_at_life(n, life)`'s tokens with first strike on every blocker: each blocker's
    division is forced (all on the one token it blocks), so only the attackers choose in the
    first step, which may end the game."""
    data = fights([2] * n, [1] * n, life, deathtouch=True)
    for permanent in data["permanents"][n:]:
        permanent["keywords"].append("first strike")
    return lethal.parse(data, whole_combat=True)


def fights_walled(n: int, life: int, walls: int) -> lethal.Scenario:
    """`fights_at_life(n, life)`'s tokens with their first `walls` pairs each blocked by
    one wall with first strike (`walled`): both sides divide in the first step, which may
    end the game."""
    return lethal.parse(
        walled(fights([2] * n, [1] * n, life, deathtouch=True), walls), whole_combat=True
    )


# A shield of 3 on D: only so much more life (`shields_as_life`).
SALVE = {"id": "salve", "kind": "prevent", "amount": 3, "to": "D"}
# A shield of 2 on one blocker and the next time damage would be dealt to one token
# prevented: dealing is a choice, in two of the parts.
WARD = {"id": "ward", "kind": "prevent", "amount": 2, "to": "c0"}
COP = {"id": "cop", "kind": "prevent", "to": "t5", "once": True}


def fights_at_life_timed(limit: float) -> None:
    boards = [
        ("100 token pairs, D at no life", fights_at_life(100, None)),
        ("100 token pairs, D at 20 life", fights_at_life(100, 20)),
        ("60 unlike fights, D at 20 life", fights_at_life(60, 20, unlike=True)),
        (
            "100 double blocks in order (2020), D at 20 life",
            lethal.parse(double_blocks(100, 20), whole_combat=True),
        ),
        ("100 token pairs, 3 effects, D at 20 life", fights_with(100, 20, unchosen_effects())),
        ("100 token pairs, a shield of 3 on D at 20 life", fights_with(100, 20, [SALVE])),
        (
            "100 token pairs, t0 with lifelink, a shield of 3 on D at 20 life",
            fights_with(100, 20, [SALVE], lifelink=True),
        ),
        (
            "100 token pairs, a shield on c0, a next-time prevention on t5, D at 20 life",
            fights_with(100, 20, [WARD, COP]),
        ),
        (
            "100 token pairs, a shield on c0, a next-time prevention on t5, D at no life",
            fights_with(100, None, [WARD, COP]),
        ),
        (
            "100 token pairs, every blocker with first strike, D at 20 life",
            fights_struck_first(100, 20),
        ),
        (
            "100 token pairs, c0 with first strike blocking t0 and t1, D at 20 life",
            fights_walled(100, 20, walls=1),
        ),
        (
            "200 tokens, each two blocked by a first-striking wall of 100, D at 20 life",
            fights_walled(200, 20, walls=100),
        ),
    ]
    for label, scenario in boards:
        seconds, most = _stopped_after(
            limit, lambda s=scenario: lethal.maximum(s, "D", whole_combat=True).value
        )
        cells = [f"{seconds:6.2f} s max {most}"]
        for asked in (f"*->D >= {most}", f"*->D > {most}", f"*->D == {most - 20}"):

            def reached(s=scenario, a=asked) -> bool:
                return lethal.possible(s, [a], whole_combat=True).possible

            seconds, answer = _stopped_after(limit, reached)
            cells.append(f"{seconds:6.2f} s possible {asked}: {answer}")
        seconds, sure = _stopped_after(
            limit, lambda s=scenario: lethal.guarantee(s, "D", whole_combat=True).value
        )
        cells.append(f"{seconds:6.2f} s guarantee {sure}")
        print(f"{label}: " + "; ".join(cells))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of all: {peak:.0f} MB")


def _stopped_after(limit: float, query):
    """The CPU seconds of the query, and its answer, where it was stopped, or the limit it
    refused at."""
    start = time.process_time()
    try:
        with deadline(limit, f"stopped after {limit:g} s"):
            answer = query()
    except TimedOut as stopped:
        answer = str(stopped)
    except lethal.LimitReached as refused:
        answer = f"refused ({refused})"
    return time.process_time() - start, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per combat")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 32, 64])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--at-life", type=float, metavar="SECONDS", help="see above")
    args = parser.parse_args()
    if args.at_life is not None:
        fights_at_life_timed(args.at_life)
        return
    print(f"{'--combat to D: max, then min':<34}{'CPU medians, and the damage':>30}")
    for strikers in (None, 2):
        for n in args.sizes:
            for seed in args.seeds:
                scenario = combat_with_strikers(n, seed, strikers)
                shown = "15%" if strikers is None else f"{strikers}"
                label = f"{n}x{n // 2}, {shown} strikers, seed {seed}"
                row(label, scenario, args.runs)


if __name__ == "__main__":
    main()
