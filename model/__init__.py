"""lethal: Magic: The Gathering's combat damage assignment rules as Z3 constraints.

import lethal
scenario = lethal.load("combat.json")
verdict = lethal.check(scenario)
verdict.legal, verdict.violations, verdict.choosers

The names below are imported when first used, so that a command loads only what it needs
(`lethal --version` nothing of the rules, `lethal check` nothing of Z3).
"""

from importlib import import_module

__version__ = "0.1.0"

# Each public name and the module that defines it.
_WHERE = {
    "Bounds": "answers",
    "Count": "answers",
    "Guarantee": "answers",
    "Impossible": "answers",
    "Obstacle": "answers",
    "Optimum": "answers",
    "Possible": "answers",
    "Chooser": "verdict",
    "Verdict": "verdict",
    "Violation": "verdict",
    "check": "verdict",
    "Entry": "combat",
    "Permanent": "combat",
    "Player": "combat",
    "Scenario": "combat",
    "LethalError": "errors",
    "LimitReached": "errors",
    "Problem": "errors",
    "ScenarioError": "errors",
    "ScenarioWarning": "errors",
    "SolverUnknown": "errors",
    "QueryError": "queries",
    "count": "queries",
    "guarantee": "queries",
    "maximum": "queries",
    "minimum": "queries",
    "possible": "queries",
    "load": "reading",
    "loads": "reading",
    "parse": "reading",
    "Requirement": "requirements",
    "RequirementError": "requirements",
}
__all__ = list(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'lethal' has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value  # found once, then an attribute like any other
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
