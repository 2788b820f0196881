"""Small builders for scenario files in tests: players A (active) and D unless told."""

from __future__ import annotations

from lethal import Entry, parse


def creature(id, power, toughness, *keywords, controller, **fields) -> dict:
    permanent = {
        "id": id,
        "controller": controller,
        "types": ["creature"],
        "power": power,
        "toughness": toughness,
        **fields,
    }
    if keywords:
        permanent["keywords"] = list(keywords)
    return permanent


def attacker(id, power, toughness, *keywords, attacking="D", **fields) -> dict:
    return creature(id, power, toughness, *keywords, controller="A", attacking=attacking, **fields)


def blocker(id, power, toughness, *keywords, blocking, **fields) -> dict:
    return creature(
        id, power, toughness, *keywords, controller="D", blocking=list(blocking), **fields
    )


def planeswalker(id, loyalty, controller="D", **fields) -> dict:
    return {
        "id": id,
        "controller": controller,
        "types": ["planeswalker"],
        "loyalty": loyalty,
        **fields,
    }


def creature_planeswalker(id, power, toughness, loyalty, *keywords, **fields) -> dict:
    permanent = creature(id, power, toughness, *keywords, controller="D", **fields)
    permanent["types"] = ["creature", "planeswalker"]
    permanent["loyalty"] = loyalty
    return permanent


def battle(id, defense, controller="A", protector="D", **fields) -> dict:
    return {
        "id": id,
        "controller": controller,
        "types": ["battle"],
        "defense": defense,
        "protector": protector,
        **fields,
    }


def scenario_file(*permanents, assignment=None, **top) -> dict:
    data = {
        "players": [{"id": "A"}, {"id": "D"}],
        "active_player": "A",
        "permanents": list(permanents),
        **top,
    }
    if assignment is not None:
        data["assignment"] = [{"source": s, "to": t, "amount": a} for s, t, a in assignment]
    return data


def fights(powers, toughnesses, life=None, deathtouch=False) -> dict:
    """Double-striking trample tokens t0, t1, ... of the powers given (toughness 2) attacking
    D, each blocked by a token c0, c1, ... of its own, of power 1 and the toughnesses given
    (with deathtouch if asked); D at `life`, if given. The board of 200 tokens, and its like."""
    tokens = [attacker(f"t{i}", p, 2, "double strike", "trample") for i, p in enumerate(powers)]
    keywords = ["deathtouch"] if deathtouch else []
    chumps = [
        blocker(f"c{i}", 1, t, *keywords, blocking=[f"t{i}"]) for i, t in enumerate(toughnesses)
    ]
    data = scenario_file(*tokens, *chumps)
    if life is not None:
        data["players"][1]["life"] = life
    return data


def walled(data: dict, walls: int) -> dict:
    """`fights`'s file with its first `walls` pairs of tokens each blocked by one wall: c0,
    c2, ... given first strike, each blocking both tokens of its pair (t0 and t1, t2 and
    t3, ...), and c1, c3, ... gone. A wall divides its damage between its two in the first
    step (the defending player's choice, 510.1d), as the tokens divide theirs (the active
    player's)."""
    gone = {f"c{2 * i + 1}" for i in range(walls)}
    data["permanents"] = [p for p in data["permanents"] if p["id"] not in gone]
    for i in range(walls):
        (wall,) = (p for p in data["permanents"] if p["id"] == f"c{2 * i}")
        wall["keywords"] = [*wall.get("keywords", []), "first strike"]
        wall["blocking"] = [f"t{2 * i}", f"t{2 * i + 1}"]
    return data


def unchosen_effects() -> list[dict]:
    """Effects that leave dealing no choice, on the token fights of `fights`: a doubler on
    t0's damage, "plus 1" on t1's, and a prevention of all damage to c2."""
    return [
        {"id": "dictate", "kind": "double", "sources": ["t0"]},
        {"id": "torbran", "kind": "add", "amount": 1, "sources": ["t1"]},
        {"id": "fog", "kind": "prevent", "to": "c2"},
    ]


def double_blocks(n: int, life: int, rules: str = "2020-01-01") -> dict:
    """Under an edition with damage assignment orders, double-striking 3/3 trample tokens t0,
    t1, ... attacking D, each blocked by two 1/1 tokens of its own, c and d, in the order
    the file gives (c first); D at `life`."""
    permanents = []
    for i in range(n):
        token = attacker(f"t{i}", 3, 3, "double strike", "trample", order=[f"c{i}", f"d{i}"])
        permanents += [token, *(blocker(f"{x}{i}", 1, 1, blocking=[f"t{i}"]) for x in "cd")]
    data = scenario_file(*permanents, rules=rules)
    data["players"][1]["life"] = life
    return data


def scenario(*permanents, assignment=None, **top):
    return parse(scenario_file(*permanents, assignment=assignment, **top))


def entries(assignment) -> list[Entry]:
    return [Entry(s, t, a) for s, t, a in assignment]
