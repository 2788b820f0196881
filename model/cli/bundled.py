"""What ships with lethal: the bundled examples and the JSON Schema of the format."""

from __future__ import annotations

from importlib import resources

from ..errors import (
    LethalError,
)
from ..reading.problems import did_you_mean
from .codes import YES


def examples(args):
    examples = _bundled()
    if args.name is None:
        width = max(len(name) for name in examples)
        lines = [f"{name:<{width}}  {_what_it_shows(name, p)}" for name, p in examples.items()]
        return "\n".join(lines) + "\n", None, YES
    name = args.name.removesuffix(".json")
    if name not in examples:
        hint = did_you_mean(name, examples)
        raise LethalError(f"no bundled example '{args.name}'{hint}; 'lethal examples' lists them")
    return examples[name].read_text(encoding="utf-8"), None, YES


def _bundled() -> dict:
    """Every bundled scenario by the name `lethal examples` knows it by: the examples, then
    the combats the README asks its queries of, as combats/NAME."""
    from ..reading import bundled_examples

    combats = resources.files("lethal") / "examples" / "combats"
    found = {p.name.removesuffix(".json"): p for p in bundled_examples()}
    for path in sorted(combats.iterdir(), key=lambda p: p.name):
        if path.name.endswith(".json"):
            found[f"combats/{path.name.removesuffix('.json')}"] = path
    return found


def _what_it_shows(name: str, path) -> str:
    """What lethal check says of a bundled scenario and under which rules, in a few words:
    the files carry no description, and their names already say what they are about."""
    from ..reading import loads
    from ..verdict import check

    # The combats are asked about as a whole combat damage phase too, so may name no step.
    scenario = loads(path.read_text(encoding="utf-8"), name, name.startswith("combats/"))
    rules = scenario.edition.called
    if scenario.assignment is None:
        return f"no assignment: a combat for the queries ({rules})"
    verdict = check(scenario)
    where = rules if verdict.step == "only" else f"{verdict.step} step; {rules}"
    if verdict.legal:
        return f"legal ({where})"
    broken = ", ".join(dict.fromkeys(v.rule for v in verdict.violations))
    return f"illegal, CR {broken} ({where})"


def schema(args):
    text = (resources.files("lethal") / "scenario.schema.json").read_text(encoding="utf-8")
    return text, None, YES
