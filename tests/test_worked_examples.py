"""Every worked example and ruling of the reference that concerns assignment, as a test row.

Each row is named by a sentence and its rule, and is judged three ways: by `lethal.check`
(which must also name the rules broken), by the solver, and by the brute-force reference.
Sources are those of shared/reference/rules-and-rulings.md: the CR examples, the Foundations
update bulletin (FDN-UB), the Magic 2011 bulletin (M11-UB), the Thrasta rulings (MH2-RN),
Torbran (ELD-RN), the judges' rules tip (RT-SWIFT), Defensive Formation (DF-G), Judge
Points: Banding (JP-BAND), "bands with other" (MG-BWO) and the battle rulings (MOM-G).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from lethal import check, count, guarantee, maximum, minimum
from lethal.solver import is_legal as solver_says_legal

from . import reference
from .build import (
    attacker,
    battle,
    blocker,
    creature_planeswalker,
    entries,
    planeswalker,
    scenario,
)


@dataclass
class Case:
    name: str
    permanents: list
    assignment: list
    broken: tuple = ()  # the CR subrules the check must name; empty means legal
    top: dict = field(default_factory=dict)
    choosers: dict = field(default_factory=dict)  # creature -> (player, rule), where it matters


def case(name, permanents, assignment, broken=(), choosers=None, **top) -> Case:
    return Case(name, permanents, assignment, tuple(broken), top, choosers or {})


REGROWER = [
    attacker("regrower", 4, 3),
    blocker("spawn", 2, 3, blocking=["regrower"]),
    blocker("hunter", 1, 1, blocking=["regrower"]),
]
TWO_BLOCKERS = [
    attacker("bear", 3, 3),
    blocker("small", 1, 1, blocking=["bear"]),
    blocker("big", 5, 5, blocking=["bear"]),
]
OTHER_ATTACKERS = [
    attacker("grunt", 1, 1),
    attacker("rhino", 3, 3, "trample"),
    blocker("wall", 2, 2, blocking=["grunt", "rhino"]),
]
PRO_GREEN = [
    attacker("green", 6, 6, "trample", qualities=["green"]),
    blocker("warden", 2, 2, "protection from green", blocking=["green"]),
]
TOPW_EXAMPLE = [
    attacker("grunt", 1, 1, attacking="jace"),
    attacker("thrasta", 7, 7, "trample over planeswalkers", attacking="jace"),
    planeswalker("jace", 3),
]
THRASTA = ("trample", "trample over planeswalkers")

CASES = [
    # 510.1c and the Foundations bulletin: no damage assignment order since 2024-11-08.
    *[
        case(
            f"510.1c example: Elvish Regrower may put {s} on the Spawn and {h} on the Hunter",
            REGROWER,
            [e for e in [("regrower", "spawn", s), ("regrower", "hunter", h)] if e[2]]
            + [("spawn", "regrower", 2), ("hunter", "regrower", 1)],
        )
        for s, h in [(4, 0), (1, 3), (2, 2), (3, 1), (0, 4)]
    ],
    case(
        "510.1c: a blocked creature without trample assigns nothing to the player",
        REGROWER,
        [
            ("regrower", "spawn", 2),
            ("regrower", "D", 2),
            ("spawn", "regrower", 2),
            ("hunter", "regrower", 1),
        ],
        broken=["510.1c"],
    ),
    case(
        "510.1a: a blocked creature assigns all of its power, not less",
        REGROWER,
        [("regrower", "spawn", 3), ("spawn", "regrower", 2), ("hunter", "regrower", 1)],
        broken=["510.1a"],
    ),
    case(
        "FDN-UB: a 3/3 may put all 3 on the 5/5 blocker, whatever lethal would be",
        TWO_BLOCKERS,
        [("bear", "big", 3), ("small", "bear", 1), ("big", "bear", 5)],
    ),
    case(
        "FDN-UB: 2 on one blocker and 1 on the other, lethal having no bearing",
        TWO_BLOCKERS,
        [("bear", "small", 2), ("bear", "big", 1), ("small", "bear", 1), ("big", "bear", 5)],
    ),
    # 702.19b and its examples.
    case(
        "702.19b example: other attackers' damage counts toward lethal",
        OTHER_ATTACKERS,
        [("grunt", "wall", 1), ("rhino", "wall", 1), ("rhino", "D", 2), ("wall", "rhino", 2)],
    ),
    case(
        "702.19b example: without the 1/1's damage the wall lacks lethal damage",
        OTHER_ATTACKERS,
        [("grunt", "D", 1), ("rhino", "wall", 1), ("rhino", "D", 2), ("wall", "rhino", 2)],
        broken=["510.1c", "702.19b"],
    ),
    case(
        "702.19b example: 2 on the protection-from-green blocker, 4 to the player",
        PRO_GREEN,
        [("green", "warden", 2), ("green", "D", 4), ("warden", "green", 2)],
    ),
    case(
        "702.19b example: protection does not lower lethal damage below toughness",
        PRO_GREEN,
        [("green", "warden", 1), ("green", "D", 5), ("warden", "green", 2)],
        broken=["702.19b"],
    ),
    case(
        "702.19b example: the rest may stay on the blocker",
        PRO_GREEN,
        [("green", "warden", 6), ("warden", "green", 2)],
    ),
    case(
        "702.19b: without lethal to every blocker, all of it stays on the blockers",
        [attacker("rhino", 3, 3, "trample"), blocker("ogre", 4, 4, blocking=["rhino"])],
        [("rhino", "ogre", 3), ("ogre", "rhino", 4)],
    ),
    case(
        "702.19b: damage already marked counts toward lethal",
        [attacker("rhino", 3, 3, "trample"), blocker("ogre", 1, 3, blocking=["rhino"], damage=2)],
        [("rhino", "ogre", 1), ("rhino", "D", 2), ("ogre", "rhino", 1)],
    ),
    case(
        "702.19b: a trampler blocked by two needs lethal on both",
        [
            attacker("rhino", 5, 5, "trample"),
            blocker("x", 1, 2, blocking=["rhino"]),
            blocker("y", 1, 2, blocking=["rhino"]),
        ],
        [
            ("rhino", "x", 2),
            ("rhino", "y", 1),
            ("rhino", "D", 2),
            ("x", "rhino", 1),
            ("y", "rhino", 1),
        ],
        broken=["702.19b"],
    ),
    # 702.19c and its example.
    case(
        "702.19c example: 1 + 2 reach the loyalty of 3, so 5 may go to the controller",
        TOPW_EXAMPLE,
        [("grunt", "jace", 1), ("thrasta", "jace", 2), ("thrasta", "D", 5)],
    ),
    case(
        "702.19c example: 1 + 1 do not reach the loyalty of 3",
        TOPW_EXAMPLE,
        [("grunt", "jace", 1), ("thrasta", "jace", 1), ("thrasta", "D", 6)],
        broken=["702.19c"],
    ),
    # Trample and deathtouch, M11-UB.
    case(
        "702.2c, M11-UB: a 4/4 deathtouch trampler puts 1 on a 3/3 and 3 on the player",
        [attacker("beast", 4, 4, "deathtouch", "trample"), blocker("ox", 3, 3, blocking=["beast"])],
        [("beast", "ox", 1), ("beast", "D", 3), ("ox", "beast", 3)],
    ),
    case(
        "702.19b, M11-UB: with trample alone, 1 on a 3/3 is not lethal",
        [attacker("beast", 4, 4, "trample"), blocker("ox", 3, 3, blocking=["beast"])],
        [("beast", "ox", 1), ("beast", "D", 3), ("ox", "beast", 3)],
        broken=["702.19b"],
    ),
    case(
        "702.19b, M11-UB: with trample alone, 3 on the 3/3 and 1 to the player",
        [attacker("beast", 4, 4, "trample"), blocker("ox", 3, 3, blocking=["beast"])],
        [("beast", "ox", 3), ("beast", "D", 1), ("ox", "beast", 3)],
    ),
    case(
        "510.1c, M11-UB: with deathtouch alone, all of it goes to the blocker",
        [attacker("beast", 4, 4, "deathtouch"), blocker("ox", 3, 3, blocking=["beast"])],
        [("beast", "ox", 1), ("beast", "D", 3), ("ox", "beast", 3)],
        broken=["510.1c"],
    ),
    case(
        "M11-UB: a 3/3 deathtouch creature may put 1 on each of the 9/9, 7/7 and 4/4",
        [
            attacker("snake", 3, 3, "deathtouch"),
            *[blocker(f"b{n}", 1, n, blocking=["snake"]) for n in (2, 4, 7, 9)],
        ],
        [("snake", "b9", 1), ("snake", "b7", 1), ("snake", "b4", 1)]
        + [(f"b{n}", "snake", 1) for n in (2, 4, 7, 9)],
    ),
    case(
        "510.1c, FDN-UB: the 2/2 M11-UB could not be hit may be hit now, with no order",
        [
            attacker("snake", 3, 3, "deathtouch"),
            *[blocker(f"b{n}", 1, n, blocking=["snake"]) for n in (2, 4, 7, 9)],
        ],
        [("snake", "b2", 1), ("snake", "b4", 1), ("snake", "b7", 1)]
        + [(f"b{n}", "snake", 1) for n in (2, 4, 7, 9)],
    ),
    case(
        "702.2c: a 3/3 deathtouch trampler blocked by four can't reach the player",
        [
            attacker("snake", 3, 3, "deathtouch", "trample"),
            *[blocker(f"b{n}", 1, n, blocking=["snake"]) for n in (2, 4, 7, 9)],
        ],
        [("snake", "b2", 1), ("snake", "b4", 1), ("snake", "D", 1)]
        + [(f"b{n}", "snake", 1) for n in (2, 4, 7, 9)],
        broken=["702.19b"],
    ),
    case(
        "702.2c, reading: another attacker's deathtouch damage makes the blocker lethal",
        [
            attacker("rhino", 3, 3, "trample"),
            attacker("asp", 1, 1, "deathtouch"),
            blocker("ogre", 4, 4, blocking=["rhino", "asp"]),
        ],
        [("rhino", "D", 3), ("asp", "ogre", 1), ("ogre", "rhino", 4)],
    ),
    # Thrasta, Tempest's Roar (MH2-RN).
    case(
        "MH2-RN (a): deathtouch does not make 1 damage enough for a planeswalker",
        [
            attacker("thrasta", 7, 7, *THRASTA, "deathtouch", attacking="jace"),
            planeswalker("jace", 3),
        ],
        [("thrasta", "jace", 1), ("thrasta", "D", 6)],
        broken=["702.19c"],
    ),
    case(
        "MH2-RN (a): damage beyond the loyalty may go to the controller",
        [
            attacker("thrasta", 7, 7, *THRASTA, "deathtouch", attacking="jace"),
            planeswalker("jace", 3),
        ],
        [("thrasta", "jace", 3), ("thrasta", "D", 4)],
    ),
    case(
        "MH2-RN (b): Thrasta and a 2/2 on a 7-loyalty planeswalker: 5 to it, 2 to its controller",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="jace"),
            attacker("cub", 2, 2, attacking="jace"),
            planeswalker("jace", 7),
        ],
        [("thrasta", "jace", 5), ("thrasta", "D", 2), ("cub", "jace", 2)],
    ),
    case(
        "MH2-RN (b): 4 from Thrasta and 2 from the cub fall short of 7",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="jace"),
            attacker("cub", 2, 2, attacking="jace"),
            planeswalker("jace", 7),
        ],
        [("thrasta", "jace", 4), ("thrasta", "D", 3), ("cub", "jace", 2)],
        broken=["702.19c"],
    ),
    case(
        "MH2-RN (c): 3 to the blocking 3/3, 2 to the planeswalker, 2 to its controller",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="jace"),
            planeswalker("jace", 2),
            blocker("ox", 3, 3, blocking=["thrasta"]),
        ],
        [("thrasta", "ox", 3), ("thrasta", "jace", 2), ("thrasta", "D", 2), ("ox", "thrasta", 3)],
    ),
    case(
        "MH2-RN (c): the planeswalker gets nothing until the blocker has lethal",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="jace"),
            planeswalker("jace", 2),
            blocker("ox", 3, 3, blocking=["thrasta"]),
        ],
        [("thrasta", "ox", 2), ("thrasta", "jace", 2), ("thrasta", "D", 3), ("ox", "thrasta", 3)],
        broken=["702.19b"],
    ),
    case(
        "MH2-RN (d): an attacked creature planeswalker counts its loyalty, not its toughness",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="gideon"),
            creature_planeswalker("gideon", 5, 5, 2),
        ],
        [("thrasta", "gideon", 2), ("thrasta", "D", 5)],
    ),
    case(
        "MH2-RN (e): blocking the creature attacking it, it needs its loyalty if that is greater",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="gideon"),
            creature_planeswalker("gideon", 1, 3, 5, blocking=["thrasta"]),
        ],
        [("thrasta", "gideon", 3), ("thrasta", "D", 4), ("gideon", "thrasta", 1)],
        broken=["702.19c"],
    ),
    case(
        "MH2-RN (e): blocking the creature attacking it, it needs its toughness if that is greater",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="gideon"),
            creature_planeswalker("gideon", 1, 5, 3, blocking=["thrasta"]),
        ],
        [("thrasta", "gideon", 3), ("thrasta", "D", 4), ("gideon", "thrasta", 1)],
        broken=["702.19b"],
    ),
    case(
        "MH2-RN (e): the greater of toughness and loyalty, then the rest to its controller",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="gideon"),
            creature_planeswalker("gideon", 1, 5, 3, blocking=["thrasta"]),
        ],
        [("thrasta", "gideon", 5), ("thrasta", "D", 2), ("gideon", "thrasta", 1)],
    ),
    # 702.19d-f and 506.4c.
    case(
        "702.19d: a blocked trampler with no blockers left assigns all to the player",
        [attacker("rhino", 4, 4, "trample", blocked=True)],
        [("rhino", "D", 4)],
    ),
    case(
        "510.1c: a blocked creature with no blockers left assigns nothing",
        [attacker("bear", 4, 4, blocked=True)],
        [],
    ),
    case(
        "510.1c: so its damage may not go to the player",
        [attacker("bear", 4, 4, blocked=True)],
        [("bear", "D", 4)],
        broken=["510.1c"],
    ),
    case(
        "702.19e: past a blocker to the controller of a planeswalker removed from combat",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="jace"),
            planeswalker("jace", 4, removed_from_combat=True),
            blocker("ox", 2, 2, blocking=["thrasta"]),
        ],
        [("thrasta", "ox", 2), ("thrasta", "D", 5), ("ox", "thrasta", 2)],
    ),
    case(
        "702.19e: unblocked, all of it goes to the controller of the removed planeswalker",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="jace"),
            planeswalker("jace", 4, removed_from_combat=True),
        ],
        [("thrasta", "D", 7)],
    ),
    case(
        "506.4c: a removed planeswalker can be dealt no combat damage",
        [
            attacker("thrasta", 7, 7, *THRASTA, attacking="jace"),
            planeswalker("jace", 4, removed_from_combat=True),
        ],
        [("thrasta", "jace", 4), ("thrasta", "D", 3)],
        broken=["506.4c"],
    ),
    case(
        "510.1b, 506.4c: unblocked and attacking a removed planeswalker, it assigns nothing",
        [
            attacker("bear", 3, 3, attacking="jace"),
            planeswalker("jace", 4, removed_from_combat=True),
        ],
        [],
    ),
    case(
        "702.19f: plain trample attacking a removed planeswalker does not reach the player",
        [
            attacker("rhino", 3, 3, "trample", attacking="jace"),
            planeswalker("jace", 4, removed_from_combat=True),
        ],
        [("rhino", "D", 3)],
        broken=["702.19f"],
    ),
    case(
        "702.19f: plain trample attacking a planeswalker never reaches its controller",
        [attacker("rhino", 5, 5, "trample", attacking="jace"), planeswalker("jace", 3)],
        [("rhino", "jace", 3), ("rhino", "D", 2)],
        broken=["702.19f"],
    ),
    case(
        "510.1b: an unblocked trampler attacking a planeswalker assigns all to it",
        [attacker("rhino", 5, 5, "trample", attacking="jace"), planeswalker("jace", 3)],
        [("rhino", "jace", 5)],
    ),
    # Battles.
    case(
        "510.1b: an unblocked creature attacking a battle assigns to the battle",
        [attacker("bear", 3, 3, attacking="siege"), battle("siege", 5)],
        [("bear", "siege", 3)],
    ),
    case(
        "702.19b, reading: a trampler attacking a battle tramples over to the battle",
        [
            attacker("rhino", 4, 4, "trample", attacking="siege"),
            battle("siege", 5),
            blocker("ox", 2, 2, blocking=["rhino"]),
        ],
        [("rhino", "ox", 2), ("rhino", "siege", 2), ("ox", "rhino", 2)],
    ),
    case(
        "702.19b: not to the battle's protector",
        [
            attacker("rhino", 4, 4, "trample", attacking="siege"),
            battle("siege", 5),
            blocker("ox", 2, 2, blocking=["rhino"]),
        ],
        [("rhino", "ox", 2), ("rhino", "D", 2), ("ox", "rhino", 2)],
        broken=["510.1c"],
    ),
    case(
        "702.19d, reading: a blocked trampler with no blockers left assigns all to the battle",
        [attacker("rhino", 4, 4, "trample", attacking="siege", blocked=True), battle("siege", 5)],
        [("rhino", "siege", 4)],
    ),
    # Replacement effects don't change assignment (ELD-RN, RT-SWIFT, old 502.9d).
    case(
        "ELD-RN, Torbran: divide before adding 2, so 2 on a 2/2 and 3 to the player",
        [
            attacker("red", 5, 5, "trample", qualities=["red"]),
            blocker("ox", 2, 2, blocking=["red"]),
        ],
        [("red", "ox", 2), ("red", "D", 3), ("ox", "red", 2)],
    ),
    case(
        "RT-SWIFT: a 5/5 trampler puts 1 on an indestructible 1/1 and 4 through",
        [
            attacker("rhino", 5, 5, "trample"),
            blocker("saint", 1, 1, "indestructible", blocking=["rhino"]),
        ],
        [("rhino", "saint", 1), ("rhino", "D", 4), ("saint", "rhino", 1)],
    ),
    case(
        "RT-SWIFT: first-strike step, the double striker puts 1 on the blocker and 3 through",
        [
            attacker("swift", 4, 4, "trample", "double strike"),
            blocker("saint", 1, 1, "indestructible", blocking=["swift"]),
        ],
        [("swift", "saint", 1), ("swift", "D", 3)],
        step="first-strike",
    ),
    case(
        "RT-SWIFT: second step, lethal damage already marked lets all 4 through",
        [
            attacker("swift", 4, 4, "trample", "double strike"),
            blocker("saint", 1, 1, "indestructible", blocking=["swift"], damage=1),
        ],
        [("swift", "D", 4), ("saint", "swift", 1)],
        step="second",
    ),
    case(
        "RT-SWIFT: second step, the blocker died, so all 4 trample through (702.19d)",
        [attacker("swift", 4, 4, "trample", "double strike", blocked=True)],
        [("swift", "D", 4)],
        step="second",
    ),
    case(
        "702.4: a double striker without trample whose blocker died assigns nothing",
        [attacker("knight", 4, 4, "double strike", blocked=True)],
        [("knight", "D", 4)],
        broken=["510.1c"],
        step="second",
    ),
    # 510.4, 702.4, 702.7: who assigns in which step.
    case(
        "510.4: in the first-strike step, a creature without first strike assigns nothing",
        [attacker("knight", 2, 2, "first strike"), attacker("bear", 2, 2)],
        [("knight", "D", 2), ("bear", "D", 2)],
        broken=["510.4"],
        step="first-strike",
    ),
    case(
        "510.4: in the second step, a first striker assigns nothing",
        [attacker("knight", 2, 2, "first strike"), attacker("bear", 2, 2)],
        [("knight", "D", 2), ("bear", "D", 2)],
        broken=["510.4"],
        step="second",
    ),
    case(
        "510.4: in the second step, a creature without first strike must assign",
        [attacker("knight", 2, 2, "first strike"), attacker("bear", 2, 2)],
        [],
        broken=["510.1a"],
        step="second",
    ),
    case(
        "702.4b: a double striker assigns in the first-strike step",
        [attacker("knight", 2, 2, "double strike"), attacker("bear", 2, 2)],
        [("knight", "D", 2)],
        step="first-strike",
    ),
    case(
        "702.4b: and again in the second step",
        [attacker("knight", 2, 2, "double strike"), attacker("bear", 2, 2)],
        [("knight", "D", 2), ("bear", "D", 2)],
        step="second",
    ),
    case(
        "702.4d: double strike given after the first step lets a first striker assign again",
        [attacker("knight", 2, 2, "double strike", struck_first=True)],
        [("knight", "D", 2)],
        step="second",
    ),
    case(
        "702.7c: first strike given after the first step does not stop it assigning",
        [attacker("knight", 2, 2, "first strike", struck_first=False)],
        [("knight", "D", 2)],
        step="second",
    ),
    case(
        "702.7c: first strike removed after the first step does not let it assign again",
        [attacker("knight", 2, 2, struck_first=True)],
        [("knight", "D", 2)],
        broken=["510.4"],
        step="second",
    ),
    # 510.1 and 510.1a, 510.1d.
    case(
        "510.1a: power 0 assigns no combat damage",
        [attacker("wall", 0, 4), blocker("ox", 2, 2, blocking=["wall"])],
        [("ox", "wall", 2)],
    ),
    case(
        "510.1a: so a power 0 creature may not appear in the assignment",
        [attacker("wall", 0, 4), blocker("ox", 2, 2, blocking=["wall"])],
        [("wall", "ox", 1), ("ox", "wall", 2)],
        broken=["510.1a"],
    ),
    case(
        "510.1a: negative power assigns nothing either",
        [attacker("imp", -2, 4)],
        [("imp", "D", 1)],
        broken=["510.1a"],
    ),
    case(
        "510.1a: more than its power is illegal",
        [attacker("bear", 2, 2)],
        [("bear", "D", 3)],
        broken=["510.1a"],
    ),
    case(
        "510.1d: a blocker of two attackers divides as its controller likes",
        [attacker("x", 1, 3), attacker("y", 1, 3), blocker("giant", 3, 3, blocking=["x", "y"])],
        [("x", "giant", 1), ("y", "giant", 1), ("giant", "x", 1), ("giant", "y", 2)],
    ),
    case(
        "510.1d: a blocker whose attackers left combat assigns nothing",
        [attacker("x", 1, 3, attacking="D"), blocker("giant", 3, 3, blocking=[])],
        [("x", "D", 1), ("giant", "x", 3)],
        broken=["510.1d"],
    ),
    case(
        "510.1: a creature neither attacking nor blocking assigns no combat damage",
        [
            attacker("x", 1, 3),
            {"id": "elf", "controller": "A", "types": ["creature"], "power": 1, "toughness": 1},
        ],
        [("x", "D", 1), ("elf", "D", 1)],
        broken=["510.1"],
    ),
    # Banding, 702.22j-k (JP-BAND, DF-G).
    case(
        "702.22j, JP-BAND (b): the banding blocker's controller puts all 6 on the pro-red Glider",
        [
            attacker("hellkite", 6, 6, qualities=["red"]),
            blocker("pegasus", 1, 1, "banding", blocking=["hellkite"]),
            blocker("glider", 1, 1, "protection from red", blocking=["hellkite"]),
            blocker("roc", 3, 3, blocking=["hellkite"]),
        ],
        [
            ("hellkite", "glider", 6),
            ("pegasus", "hellkite", 1),
            ("glider", "hellkite", 1),
            ("roc", "hellkite", 3),
        ],
        choosers={"hellkite": ("D", "702.22j"), "roc": ("D", "510.1")},
    ),
    case(
        "702.22k, JP-BAND (a): the blocker of a band has its damage divided by the active player",
        [
            attacker("hero", 1, 1, "banding"),
            attacker("angel", 4, 4),
            blocker("horde", 5, 5, blocking=["hero", "angel"]),
        ],
        [("hero", "horde", 1), ("angel", "horde", 4), ("horde", "angel", 5)],
        choosers={"horde": ("A", "702.22k"), "hero": ("A", "510.1")},
        bands=[["hero", "angel"]],
    ),
    case(
        "702.22j-k, JP-BAND (c): banding on both sides",
        [
            attacker("hellkite", 6, 6),
            attacker("griffin", 2, 2, "banding"),
            blocker("pegasus", 1, 1, "banding", blocking=["hellkite", "griffin"]),
            blocker("roc", 3, 3, blocking=["hellkite", "griffin"]),
        ],
        [
            ("hellkite", "pegasus", 6),
            ("griffin", "pegasus", 2),
            ("pegasus", "griffin", 1),
            ("roc", "hellkite", 3),
        ],
        choosers={
            "hellkite": ("D", "702.22j"),
            "griffin": ("D", "702.22j"),
            "pegasus": ("A", "702.22k"),
            "roc": ("A", "702.22k"),
        },
        bands=[["hellkite", "griffin"]],
    ),
    case(
        "702.22j, DF-G, reading: with a banding blocker, all of a trampler's damage may stay on it",
        [
            attacker("rhino", 5, 5, "trample"),
            blocker("pegasus", 1, 1, "banding", blocking=["rhino"]),
        ],
        [("rhino", "pegasus", 5), ("pegasus", "rhino", 1)],
        choosers={"rhino": ("D", "702.22j")},
    ),
    case(
        "702.22j, reading: the defending player may also let the excess through",
        [
            attacker("rhino", 5, 5, "trample"),
            blocker("pegasus", 1, 1, "banding", blocking=["rhino"]),
        ],
        [("rhino", "pegasus", 1), ("rhino", "D", 4), ("pegasus", "rhino", 1)],
    ),
    case(
        "702.22j, MG-BWO: a 'bands with other' creature and another of that quality block",
        [
            attacker("rhino", 3, 3),
            blocker(
                "alpha",
                1,
                1,
                "bands with other Wolves of the Hunt",
                qualities=["Wolves of the Hunt"],
                blocking=["rhino"],
            ),
            blocker("beta", 1, 1, qualities=["Wolves of the Hunt"], blocking=["rhino"]),
        ],
        [("rhino", "beta", 3), ("alpha", "rhino", 1), ("beta", "rhino", 1)],
        choosers={"rhino": ("D", "702.22j"), "alpha": ("D", "510.1")},
    ),
    case(
        "702.22k, MG-BWO: a blocker of two legendary creatures, one banding with legends",
        [
            attacker("sir", 2, 2, "bands with other legendary creatures", qualities=["legendary"]),
            attacker("dame", 2, 2, qualities=["Legendary"]),
            blocker("ogre", 3, 3, blocking=["sir", "dame"]),
        ],
        [("sir", "ogre", 2), ("dame", "ogre", 2), ("ogre", "sir", 3)],
        choosers={"ogre": ("A", "702.22k")},
        bands=[["sir", "dame"]],
    ),
    case(
        "702.22j: a 'bands with other' blocker alone does not change who divides",
        [
            attacker("rhino", 3, 3),
            blocker(
                "alpha",
                1,
                1,
                "bands with other Wolves of the Hunt",
                qualities=["Wolves of the Hunt"],
                blocking=["rhino"],
            ),
            blocker("ox", 1, 1, blocking=["rhino"]),
        ],
        [("rhino", "ox", 3), ("alpha", "rhino", 1), ("ox", "rhino", 1)],
        choosers={"rhino": ("A", "510.1")},
    ),
]


@pytest.mark.parametrize("row", CASES, ids=[c.name for c in CASES])
def test_worked_example(row: Case):
    combat = scenario(*row.permanents, **row.top)
    assignment = entries(row.assignment)
    verdict = check(combat, assignment)
    assert sorted({v.rule for v in verdict.violations}) == sorted(set(row.broken)), [
        v.message for v in verdict.violations
    ]
    expected_legal = not row.broken
    assert verdict.legal == expected_legal
    assert solver_says_legal(combat, assignment) == expected_legal
    assert reference.is_legal(combat, assignment) == expected_legal
    chosen = {c.source: (c.player, c.rule) for c in verdict.choosers}
    for creature, who in row.choosers.items():
        assert chosen[creature] == who


def test_names_are_unique_sentences():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("row", CASES, ids=[c.name for c in CASES])
def test_queries_on_the_worked_example_agree_with_the_reference(row: Case):
    """The queries on each worked combat (its assignment left out): the count, the most and
    the least damage to the defending player, and what the active player is sure of."""
    combat = scenario(*row.permanents, **row.top)
    legal = list(reference.legal_assignments(combat))
    assert count(combat).count == len(legal)
    to_player = [reference.damage_to(entries, "D") for entries in legal]
    assert maximum(combat, "D").value == max(to_player)
    assert minimum(combat, "D").value == min(to_player)
    assert guarantee(combat, "D").value == reference.guarantee(combat, "D")
