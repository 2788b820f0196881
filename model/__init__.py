"""lethal: Magic: The Gathering's combat damage assignment rules as Z3 constraints.

import lethal
scenario = lethal.load("combat.json")
verdict = lethal.check(scenario)
verdict.legal, verdict.violations, verdict.choosers
"""

from .check import Chooser, Verdict, Violation, check
from .combat import Entry, Permanent, Player, Scenario
from .errors import LethalError, Problem, ScenarioError, SolverUnknown
from .reading import load, loads, parse

__all__ = [
    "Chooser",
    "Entry",
    "LethalError",
    "Permanent",
    "Player",
    "Problem",
    "Scenario",
    "ScenarioError",
    "SolverUnknown",
    "Verdict",
    "Violation",
    "check",
    "load",
    "loads",
    "parse",
]
