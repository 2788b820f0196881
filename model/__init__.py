"""lethal: Magic: The Gathering's combat damage assignment rules as Z3 constraints.

import lethal
scenario = lethal.load("combat.json")
verdict = lethal.check(scenario)
verdict.legal, verdict.violations, verdict.choosers
"""

__version__ = "0.1.0"

from .answers import Count, Guarantee, Impossible, Obstacle, Optimum, Possible
from .check import Chooser, Verdict, Violation, check
from .combat import Entry, Permanent, Player, Scenario
from .errors import LethalError, Problem, ScenarioError, SolverUnknown
from .queries import QueryError, count, guarantee, maximum, minimum, possible
from .reading import load, loads, parse
from .requirements import Requirement, RequirementError

__all__ = [
    "Chooser",
    "Count",
    "Guarantee",
    "Impossible",
    "Obstacle",
    "Optimum",
    "Possible",
    "QueryError",
    "Requirement",
    "RequirementError",
    "count",
    "guarantee",
    "maximum",
    "minimum",
    "possible",
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
