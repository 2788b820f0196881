"""Reading scenario files (format lethal/1): JSON in, a validated `Scenario` out.

Every problem found is reported at once, each with its place in the file, the value found
and what was expected. Reading happens in two passes: the shape of each value (`shape`),
then what the values say together (`meaning`), so that a file with a typo does not also
bury the user in follow-on complaints.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..combat import Scenario
from ..errors import Problem, ScenarioError
from .meaning import Meaning
from .shape import Shape


def load(path: str | Path, whole_combat: bool = False) -> Scenario:
    """Reads a scenario file; raises ScenarioError naming every problem. With
    `whole_combat`, a file with first or double strike may name no step: it is the start of
    the combat damage phase (`--combat`)."""
    origin = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(origin, [Problem("", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError(origin, [Problem("", "is a folder, not a scenario file")]) from None
    except UnicodeDecodeError as error:
        problem = Problem("", f"not UTF-8 text (byte {error.start})")
        raise ScenarioError(origin, [problem]) from None
    except OSError as error:
        raise ScenarioError(origin, [Problem("", error.strerror or str(error))]) from None
    return loads(text, origin, whole_combat)


def loads(text: str, origin: str = "<scenario>", whole_combat: bool = False) -> Scenario:
    try:
        data = json.loads(text, object_pairs_hook=_JsonObject)
    except json.JSONDecodeError as error:
        place = f"line {error.lineno}, column {error.colno}"
        raise ScenarioError(origin, [Problem(place, f"not valid JSON: {error.msg}")]) from None
    except RecursionError:  # Python's decoder recurses once per level of nesting
        problem = Problem("", "not a scenario: JSON nested deeper than Python's decoder can read")
        raise ScenarioError(origin, [problem]) from None
    return parse(data, origin, whole_combat)


def bundled_examples() -> list[Path]:
    """The scenario files shipped in lethal/examples, one per rule modelled, by name."""
    folder = resources.files("lethal") / "examples"
    return sorted((p for p in folder.iterdir() if p.name.endswith(".json")), key=lambda p: p.name)


def parse(data: Any, origin: str = "<scenario>", whole_combat: bool = False) -> Scenario:
    """Validates decoded JSON (or an equivalent dict) and builds the scenario."""
    shape = Shape()
    shaped = shape.check(data)
    if shape.problems:
        raise ScenarioError(origin, shape.problems)
    meaning = Meaning(whole_combat)
    scenario = meaning.build(shaped)
    if meaning.problems:
        raise ScenarioError(origin, meaning.problems)
    return scenario


class _JsonObject(dict):
    """A decoded JSON object that remembers keys given twice (plain dicts keep the last)."""

    def __init__(self, pairs: list[tuple[str, Any]]):
        super().__init__(pairs)
        seen: set[str] = set()
        self.repeated = [k for k, _ in pairs if k in seen or seen.add(k)]
