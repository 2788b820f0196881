"""The bundled examples: valid by the schema and the reader, and `lethal check` prints on
each exactly what tests/golden/ holds (regenerate with `pytest --regen-golden`, then read the
diff)."""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from lethal import ScenarioError, check, keywords, load, parse
from lethal.cli import main

EXAMPLES = sorted(
    (p for p in (resources.files("lethal") / "examples").iterdir() if p.name.endswith(".json")),
    key=lambda p: p.name,
)
COMBATS = resources.files("lethal") / "examples" / "combats"
SCHEMA = json.loads((resources.files("lethal") / "scenario.schema.json").read_text())
GOLDEN = Path(__file__).parent / "golden"


def test_there_are_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_is_valid_by_the_schema_and_the_reader(example):
    jsonschema.validate(json.loads(example.read_text()), SCHEMA)
    load(example)


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_check_output_matches_the_golden_file(example, request):
    name = example.name.removesuffix(".json")
    shown = f"model/examples/{example.name}"
    runs = []
    for flags in ([], ["--json"]):
        out = io.StringIO()
        code = main(["check", str(example), *flags], stdout=out, stderr=io.StringIO())
        runs.append(
            f"$ lethal check {shown} {' '.join(flags)}".rstrip()
            + f"\n[exit {code}]\n"
            + out.getvalue().replace(str(example), shown)
        )
    text = "\n".join(runs)
    golden = GOLDEN / f"{name}.txt"
    if request.config.getoption("--regen-golden"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(text)
    assert golden.read_text() == text


def test_schema_knows_the_same_keywords_as_the_reader():
    plain, *_, ignored = SCHEMA["$defs"]["keyword"]["anyOf"]
    assert sorted(plain["enum"]) == sorted(keywords.PLAIN)
    assert sorted(ignored["anyOf"][0]["enum"]) == sorted(keywords.IGNORED)


def test_schema_knows_the_same_card_types_as_the_reader():
    types = SCHEMA["$defs"]["permanent"]["properties"]["types"]
    assert sorted(types["items"]["enum"]) == sorted(keywords.CARD_TYPES)


def _two_players(**player):
    return {"players": [{"id": "A"}, {"id": "D", **player}], "active_player": "A"}


def _bear(**fields):
    bear = {"id": "x", "controller": "A", "types": ["creature"], "power": 1, "toughness": 1}
    return {**bear, **fields}


SHAPE_ERRORS = [
    {"players": [{"id": "A"}], "active_player": "A", "permanents": []},
    {"players": [{"id": "A"}, {"id": "D"}], "active_player": "A", "permanents": [], "extra": 1},
    {
        "players": [{"id": "A"}, {"id": "D"}],
        "active_player": "A",
        "permanents": [{"id": "x", "controller": "A", "types": ["creature"], "power": 1}],
    },
    {
        "players": [{"id": "A"}, {"id": "D"}],
        "active_player": "A",
        "permanents": [
            {"id": "x", "controller": "A", "types": ["planeswalker"], "loyalty": 2, "power": 1}
        ],
    },
    {
        "players": [{"id": "A"}, {"id": "D"}],
        "active_player": "A",
        "permanents": [
            {
                "id": "x",
                "controller": "A",
                "types": ["creature"],
                "power": 1,
                "toughness": 1,
                "keywords": ["trampel"],
            }
        ],
    },
    {
        "players": [{"id": "A"}, {"id": "D"}],
        "active_player": "A",
        "permanents": [],
        "assignment": [{"source": "x", "to": "D", "amount": 0}],
    },
    # Issue 11's fields.
    {**_two_players(), "permanents": [_bear(keywords=["toxic"])]},
    {**_two_players(), "permanents": [_bear(keywords=["toxic 0"])]},
    {**_two_players(poison=-1), "permanents": []},
    {**_two_players(regeneration_shields=1), "permanents": []},
    {**_two_players(keywords=["lifelink"]), "permanents": []},
    {**_two_players(), "permanents": [_bear(types=["artifact"])]},
    {**_two_players(), "permanents": [_bear(types=["creature", "sorcery"])]},
    {**_two_players(), "permanents": [_bear(regeneration_shields=-1)]},
    {**_two_players(), "permanents": [], "effects": [{"id": "s", "kind": "prevent", "amount": 2}]},
    {
        **_two_players(),
        "permanents": [_bear()],
        "effects": [{"id": "q", "kind": "cant-be-prevented", "amount": 1}],
    },
    {
        **_two_players(),
        "permanents": [_bear()],
        "effects": [{"id": "d", "kind": "double", "once": True}],
    },
]


@pytest.mark.parametrize("data", SHAPE_ERRORS)
def test_schema_and_reader_both_reject_a_badly_shaped_file(data):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)
    with pytest.raises(ScenarioError):
        parse(data)


QUERIES = [
    ["max", "thrasta-and-a-cub-attack-a-planeswalker.json", "--to", "D"],
    ["min", "thrasta-and-a-cub-attack-a-planeswalker.json", "--to", "jace", "--from", "cub"],
    ["possible", "thrasta-and-a-cub-attack-a-planeswalker.json", "--require", "thrasta->D >= 1"],
    ["possible", "thrasta-and-a-cub-attack-a-planeswalker.json", "--require", "thrasta->D >= 3"],
    ["guarantee", "trampler-blocked-by-banding.json", "--to", "D"],
    ["guarantee", "trampler-blocked-by-a-1-1.json", "--to", "D"],
    ["guarantee", "trampler-blocked-by-a-1-1.json", "--to", "rhino"],
    ["count", "trampler-blocked-by-a-1-1.json", "--list"],
    ["count", "three-attackers-three-blockers.json"],
    ["possible", "three-attackers-three-blockers.json", "--require", "*->D >= 9", "--json"],
    ["max", "double-striking-trampler-and-a-2-2.json", "--to", "D", "--combat"],
    ["max", "double-striker-and-a-regenerating-blocker.json", "--to", "D", "--combat"],
    ["min", "double-striker-and-a-regenerating-blocker.json", "--to", "D", "--combat"],
    ["guarantee", "double-striking-trampler-and-a-2-2.json", "--to", "D", "--combat", "--json"],
    [
        "possible",
        "double-striking-trampler-and-a-2-2.json",
        "--combat",
        "--require",
        "swift->D >= 7",
    ],
]


def test_query_output_matches_the_golden_file(request):
    runs = []
    for command, name, *flags in QUERIES:
        path = COMBATS / name
        shown = f"model/examples/combats/{name}"
        out = io.StringIO()
        code = main([command, str(path), *flags], stdout=out, stderr=io.StringIO())
        quoted = " ".join(f"'{f}'" if " " in f else f for f in flags)
        runs.append(
            f"$ lethal {command} {shown} {quoted}\n[exit {code}]\n"
            + out.getvalue().replace(str(path), shown)
        )
    text = "\n".join(runs)
    golden = GOLDEN / "queries.txt"
    if request.config.getoption("--regen-golden"):
        golden.write_text(text)
    assert golden.read_text() == text


@pytest.mark.parametrize(
    "combat", sorted(COMBATS.iterdir(), key=lambda p: p.name), ids=lambda p: p.name
)
def test_combat_example_is_valid_by_the_schema_and_the_reader(combat):
    jsonschema.validate(json.loads(combat.read_text()), SCHEMA)
    load(combat, whole_combat=True)  # these are combats to ask about, some from the start


def test_check_does_not_load_the_solver():
    """`lethal check` evaluates the rules on plain numbers; loading Z3 would only slow it."""
    import subprocess
    import sys

    code = "import sys, lethal, lethal.cli; print('z3' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False"


def test_deal_output_matches_the_golden_file(request):
    """`lethal deal` on every bundled example whose assignment is legal."""
    runs = []
    for example in EXAMPLES:
        if not check(load(example)).legal:
            continue
        shown = f"model/examples/{example.name}"
        out = io.StringIO()
        code = main(["deal", str(example)], stdout=out, stderr=io.StringIO())
        runs.append(
            f"$ lethal deal {shown}\n[exit {code}]\n" + out.getvalue().replace(str(example), shown)
        )
    text = "\n".join(runs)
    golden = GOLDEN / "deal.txt"
    if request.config.getoption("--regen-golden"):
        golden.write_text(text)
    assert golden.read_text() == text
