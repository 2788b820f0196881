"""The rules of the damage assignment order era (2009-07-11 to 2024-11-07), edition by edition.

Every worked example and ruling of the order era in the references is a row under the date
of an edition that has it, judged three ways: by `lethal.check` (which must also cite the
rules broken, numbered as that edition numbers them), by the solver, and by the brute-force
reference. Sources: shared/reference/editions.md (the CR texts at each boundary, and the
readings A1-A14), shared/reference/rules-and-rulings.md (R2 = M11-UB on deathtouch, R6 =
the Defensive Formation rulings), and the Italian seed 003 (trample as 702.17a-e, the
numbering of the editions in force 2009-07-11 .. 2011-06-16).

Every expected value comes from those texts, never from running the model.
"""

from __future__ import annotations

import copy
import io
import json
from dataclasses import dataclass, field

import pytest

from lethal import ScenarioError, check, parse
from lethal.cli import main
from lethal.solver import is_legal as solver_says_legal

from . import reference
from .build import (
    attacker,
    battle,
    blocker,
    entries,
    planeswalker,
    scenario,
    scenario_file,
)

# Days on either side of each boundary (editions.md, summary table and A12).
M10 = "2009-07-11"  # the damage assignment order; M10 deathtouch (702.2b of then)
M10_FIXES = "2009-09-04"
TOTAL_CHECK = "2009-10-01"  # 510.1f: the total assignment is checked
EVERY_BLOCKED = "2010-02-01"  # every blocked / blocking creature has an order
LAST_M10 = "2010-07-15"
M11 = "2010-07-16"  # nonzero deathtouch damage is lethal, and the order binds deathtouch
LAST_702_17 = "2011-06-16"
FIRST_702_18 = "2011-06-17"
WHEN_COMPLETE = "2011-07-15"  # 510.1c-d "when combat damage assignments are complete"
GORGER = "2011-09-30"  # the Vastwood Gorger examples
LAST_702_18 = "2013-07-12"
FIRST_702_19 = "2013-07-13"
LAST_510_5 = "2016-09-29"
FIRST_510_4 = "2016-09-30"
LAST_702_2B = "2017-01-19"
FIRST_702_2C = "2017-01-20"
LAST_702_21 = "2021-04-21"
FIRST_702_22 = "2021-04-22"
LAST_WITHOUT_TOP = "2021-06-17"
FIRST_TOP = "2021-06-18"  # trample over planeswalkers
LAST_WITHOUT_BATTLES = "2023-04-13"
FIRST_BATTLES = "2023-04-14"
LAST_ORDER = "2024-11-07"
FOUNDATIONS = "2024-11-08"  # no damage assignment order
MID_M10 = "2010-01-01"
MID_702_18 = "2012-01-01"
MID_702_19 = "2015-01-01"
ORDER_DATES = (M10, M10_FIXES, TOTAL_CHECK, M11, WHEN_COMPLETE, GORGER, MID_702_19, LAST_ORDER)


@dataclass
class Row:
    name: str
    rules: str
    permanents: list
    assignment: list
    broken: tuple = ()  # the CR subrules the check must cite, as the edition numbers them
    sources: tuple | None = None  # the creatures whose assignment breaks them, where it matters
    top: dict = field(default_factory=dict)


def row(name, rules, permanents, assignment, broken=(), sources=None, **top) -> Row:
    return Row(name, rules, permanents, assignment, tuple(broken), sources, top)


def without_orders(permanents) -> list:
    """The same combat under an edition without damage assignment order."""
    out = copy.deepcopy(permanents)
    for p in out:
        p.pop("order", None)
    return out


def divisions(name, rules, permanents, source, to, amounts, others, broken=(), **top):
    """One row per division of `source`'s damage among `to` (amounts by recipient)."""
    rows = []
    for split in amounts:
        parts = [(source, t, x) for t, x in zip(to, split, strict=True) if x]
        label = ", ".join(f"{x} to {t}" for t, x in zip(to, split, strict=True))
        rows.append(row(f"{name}: {label}", rules, permanents, parts + others, broken, **top))
    return rows


# ---------------------------------------------------------------------------------------------
# Seed 003: trample as 702.17a-e (editions in force 2009-07-11 .. 2011-06-16).

TRAMPLER = [attacker("wurm", 5, 5, "trample"), blocker("wall", 3, 3, blocking=["wurm"])]
OTHER_ATTACKERS = [
    attacker("grunt", 1, 1),
    attacker("rhino", 3, 3, "trample"),
    blocker("wall", 2, 2, blocking=["grunt", "rhino"], order=["rhino", "grunt"]),
]
PRO_GREEN = [
    attacker("green", 6, 6, "trample", qualities=["green"]),
    blocker("warden", 2, 2, "protection from green", blocking=["green"]),
]
# R2 (M11-UB): a 4/4 with deathtouch and trample blocked by a 3/3.
DT_TRAMPLER = [
    attacker("beast", 4, 4, "deathtouch", "trample"),
    blocker("ox", 3, 3, blocking=["beast"]),
]
JUST_TRAMPLE = [attacker("beast", 4, 4, "trample"), blocker("ox", 3, 3, blocking=["beast"])]
# A5: the MTGRULES-L answer of 2009: a 4/4 deathtouch trampler must assign 2 to a 2/2.
DT_TRAMPLER_22 = [
    attacker("beast", 4, 4, "deathtouch", "trample"),
    blocker("bear", 2, 2, blocking=["beast"]),
]

SEED = [
    # 702.17a: trample does nothing for a blocker.
    row(
        "702.17a: a blocking trampler assigns nothing past the creature it blocks",
        MID_M10,
        [attacker("grunt", 1, 1), blocker("brute", 3, 3, "trample", blocking=["grunt"])],
        [("grunt", "brute", 1), ("brute", "grunt", 1), ("brute", "A", 2)],
        ["510.1d"],
    ),
    row(
        "702.17a: a blocking trampler puts all its damage on the creature it blocks",
        MID_M10,
        [attacker("grunt", 1, 1), blocker("brute", 3, 3, "trample", blocking=["grunt"])],
        [("grunt", "brute", 1), ("brute", "grunt", 3)],
    ),
    # 702.17b: lethal damage to every blocker before any goes to the player.
    row(
        "702.17b: a 5/5 trampler puts 3 on a 3/3 and 2 through",
        MID_M10,
        TRAMPLER,
        [("wurm", "wall", 3), ("wurm", "D", 2), ("wall", "wurm", 3)],
    ),
    row(
        "702.17b: a 5/5 trampler may keep 4 on a 3/3 and send 1 through",
        LAST_702_17,
        TRAMPLER,
        [("wurm", "wall", 4), ("wurm", "D", 1), ("wall", "wurm", 3)],
    ),
    row(
        "702.17b: a 5/5 trampler need not trample over at all",
        M10,
        TRAMPLER,
        [("wurm", "wall", 5), ("wall", "wurm", 3)],
    ),
    row(
        "702.17b: a 5/5 trampler short of lethal on a 3/3 sends nothing through",
        MID_M10,
        TRAMPLER,
        [("wurm", "wall", 2), ("wurm", "D", 3), ("wall", "wurm", 3)],
        ["702.17b"],
    ),
    row(
        "702.17b: damage already marked counts toward lethal",
        MID_M10,
        [attacker("wurm", 5, 5, "trample"), blocker("wall", 3, 3, blocking=["wurm"], damage=2)],
        [("wurm", "wall", 1), ("wurm", "D", 4), ("wall", "wurm", 3)],
    ),
    row(
        "702.17b: marked damage short of lethal still leaves the blocker short",
        MID_M10,
        [attacker("wurm", 5, 5, "trample"), blocker("wall", 3, 3, blocking=["wurm"], damage=1)],
        [("wurm", "wall", 1), ("wurm", "D", 4), ("wall", "wurm", 3)],
        ["702.17b"],
    ),
    row(
        "702.17b example (2009-07-11): 1 from the 1/1 and 1 from the 3/3 kill the 2/2",
        M10,
        OTHER_ATTACKERS,
        [("grunt", "wall", 1), ("rhino", "wall", 1), ("rhino", "D", 2), ("wall", "rhino", 2)],
    ),
    row(
        "702.17b example: without the 1/1's damage on it, the 2/2 lacks lethal damage",
        M10,
        OTHER_ATTACKERS,
        [("grunt", "D", 1), ("rhino", "wall", 1), ("rhino", "D", 2), ("wall", "rhino", 2)],
        ["510.1c", "702.17b"],
        sources=("grunt", "rhino"),
    ),
    row(
        "510.1d: the 2/2's order puts the 1/1 first, so its 2 on the 3/3 needs lethal on the 1/1",
        M10,
        [
            *OTHER_ATTACKERS[:2],
            blocker("wall", 2, 2, blocking=["grunt", "rhino"], order=["grunt", "rhino"]),
        ],
        [("grunt", "wall", 1), ("rhino", "wall", 1), ("rhino", "D", 2), ("wall", "rhino", 2)],
        ["510.1d"],
        sources=("wall",),
    ),
    row(
        "510.1d: the 2/2's order puts the 1/1 first; 1 on it, then 1 on the 3/3",
        M10,
        [
            *OTHER_ATTACKERS[:2],
            blocker("wall", 2, 2, blocking=["grunt", "rhino"], order=["grunt", "rhino"]),
        ],
        [
            ("grunt", "wall", 1),
            ("rhino", "wall", 1),
            ("rhino", "D", 2),
            ("wall", "grunt", 1),
            ("wall", "rhino", 1),
        ],
    ),
    row(
        "702.17b example: 2 on the 2/2 with protection from green, the rest through",
        M10,
        PRO_GREEN,
        [("green", "warden", 2), ("green", "D", 4), ("warden", "green", 2)],
    ),
    row(
        "702.17b example: protection does not lower lethal, 1 on the 2/2 is short",
        M10,
        PRO_GREEN,
        [("green", "warden", 1), ("green", "D", 5), ("warden", "green", 2)],
        ["702.17b"],
    ),
    # 702.17b with deathtouch, on both sides of M11 (R2, A5).
    row(
        "A5, R2: under M10 a 4/4 deathtouch trampler needs 3 on a 3/3, 1 is not lethal",
        MID_M10,
        DT_TRAMPLER,
        [("beast", "ox", 1), ("beast", "D", 3), ("ox", "beast", 3)],
        ["702.17b"],
    ),
    row(
        "A5, R2: the last day of M10 deathtouch, 1 on the 3/3 is still not lethal",
        LAST_M10,
        DT_TRAMPLER,
        [("beast", "ox", 1), ("beast", "D", 3), ("ox", "beast", 3)],
        ["702.17b"],
    ),
    row(
        "A5: under M10 a 4/4 deathtouch trampler with 2 on a 3/3 is short",
        LAST_M10,
        DT_TRAMPLER,
        [("beast", "ox", 2), ("beast", "D", 2), ("ox", "beast", 3)],
        ["702.17b"],
    ),
    row(
        "A5: under M10 a 4/4 deathtouch trampler puts 3 on a 3/3 and 1 through",
        LAST_M10,
        DT_TRAMPLER,
        [("beast", "ox", 3), ("beast", "D", 1), ("ox", "beast", 3)],
    ),
    row(
        "R2 (M11-UB): with deathtouch and trample, 1 on the 3/3 is lethal and 3 go through",
        M11,
        DT_TRAMPLER,
        [("beast", "ox", 1), ("beast", "D", 3), ("ox", "beast", 3)],
    ),
    row(
        "R2: from M11, 2 on the 3/3 and 2 through is legal too",
        LAST_702_17,
        DT_TRAMPLER,
        [("beast", "ox", 2), ("beast", "D", 2), ("ox", "beast", 3)],
    ),
    row(
        "R2: from M11, 3 on the 3/3 and 1 through is still legal",
        M11,
        DT_TRAMPLER,
        [("beast", "ox", 3), ("beast", "D", 1), ("ox", "beast", 3)],
    ),
    row(
        "702.17b, 702.2b: deathtouch makes only nonzero damage lethal, 0 on the 3/3 is short",
        M11,
        DT_TRAMPLER,
        [("beast", "D", 4), ("ox", "beast", 3)],
        ["702.17b"],
    ),
    row(
        "R2: 'if your creature had just trample, you'd have to assign 3'",
        M11,
        JUST_TRAMPLE,
        [("beast", "ox", 1), ("beast", "D", 3), ("ox", "beast", 3)],
        ["702.17b"],
    ),
    row(
        "R2: with just trample, 3 on the 3/3 and only 1 through",
        M11,
        JUST_TRAMPLE,
        [("beast", "ox", 3), ("beast", "D", 1), ("ox", "beast", 3)],
    ),
    row(
        "A5 (MTGRULES-L, 2009): a 4/4 deathtouch trampler must assign 2 to a 2/2",
        M10,
        DT_TRAMPLER_22,
        [("beast", "bear", 1), ("beast", "D", 3), ("bear", "beast", 2)],
        ["702.17b"],
    ),
    row(
        "A5 (MTGRULES-L, 2009): 2 on the 2/2 and 2 through",
        M10,
        DT_TRAMPLER_22,
        [("beast", "bear", 2), ("beast", "D", 2), ("bear", "beast", 2)],
    ),
    # 702.17c: blocked, but no creature blocks it any more.
    row(
        "702.17c: a blocked trampler with no blockers left assigns all to the player",
        MID_M10,
        [attacker("wurm", 4, 4, "trample", blocked=True)],
        [("wurm", "D", 4)],
    ),
    row(
        "702.17c: a blocked trampler attacking a planeswalker, no blockers left, hits it",
        MID_M10,
        [
            attacker("wurm", 4, 4, "trample", attacking="jace", blocked=True),
            planeswalker("jace", 3),
        ],
        [("wurm", "jace", 4)],
    ),
    row(
        "510.1c: a blocked creature without trample, no blockers left, assigns nothing",
        MID_M10,
        [attacker("bear", 2, 2, blocked=True)],
        [],
    ),
    row(
        "510.1c: a blocked creature without trample, no blockers left, can't hit the player",
        MID_M10,
        [attacker("bear", 2, 2, blocked=True)],
        [("bear", "D", 2)],
        ["510.1c"],
    ),
    # 702.17d: a trampler attacking a planeswalker never reaches the player.
    row(
        "702.17d: no blockers left and attacking a planeswalker, none to the player",
        MID_M10,
        [
            attacker("wurm", 4, 4, "trample", attacking="jace", blocked=True),
            planeswalker("jace", 3),
        ],
        [("wurm", "D", 4)],
        ["702.17d"],
    ),
    row(
        "702.17d (2009-07-11): damage exceeding the loyalty still can't go to the player",
        M10,
        [attacker("wurm", 5, 5, "trample", attacking="jace"), planeswalker("jace", 2)],
        [("wurm", "jace", 2), ("wurm", "D", 3)],
        ["702.17d"],
    ),
    row(
        "702.17d (2010-02-01): 'greater than the planeswalker's loyalty', same verdict",
        EVERY_BLOCKED,
        [attacker("wurm", 5, 5, "trample", attacking="jace"), planeswalker("jace", 2)],
        [("wurm", "jace", 2), ("wurm", "D", 3)],
        ["702.17d"],
    ),
    row(
        "702.17d: an unblocked trampler puts all 5 on the planeswalker it attacks",
        EVERY_BLOCKED,
        [attacker("wurm", 5, 5, "trample", attacking="jace"), planeswalker("jace", 2)],
        [("wurm", "jace", 5)],
    ),
    row(
        "702.17d: the planeswalker removed from combat, still none past the blocker to the player",
        MID_M10,
        [
            attacker("wurm", 5, 5, "trample", attacking="jace"),
            planeswalker("jace", 2, removed_from_combat=True),
            blocker("wall", 2, 2, blocking=["wurm"]),
        ],
        [("wurm", "wall", 2), ("wurm", "D", 3), ("wall", "wurm", 2)],
        ["702.17d"],
    ),
    row(
        "702.17d: the planeswalker removed from combat, all 5 on the blocker",
        MID_M10,
        [
            attacker("wurm", 5, 5, "trample", attacking="jace"),
            planeswalker("jace", 2, removed_from_combat=True),
            blocker("wall", 2, 2, blocking=["wurm"]),
        ],
        [("wurm", "wall", 5), ("wall", "wurm", 2)],
    ),
    # 702.17e: trample twice is trample once.
    row(
        "702.17e: a creature with trample twice tramples over a 3/3 with 2",
        LAST_702_17,
        [attacker("wurm", 5, 5, "trample", "trample"), blocker("wall", 3, 3, blocking=["wurm"])],
        [("wurm", "wall", 3), ("wurm", "D", 2), ("wall", "wurm", 3)],
    ),
    row(
        "702.17e: trample twice does not lower lethal damage",
        MID_M10,
        [attacker("wurm", 5, 5, "trample", "trample"), blocker("wall", 3, 3, blocking=["wurm"])],
        [("wurm", "wall", 2), ("wurm", "D", 3), ("wall", "wurm", 3)],
        ["702.17b"],
    ),
]

# ---------------------------------------------------------------------------------------------
# 510.1c examples: Craw Wurm (2009-07-11 .. 2011-07-15 texts), Vastwood Gorger (2011-09-30 on).


def wall_of_wood(toughness=3, power=0, blocking=("wurm",)):
    return blocker("wall", power, toughness, blocking=list(blocking))


CRAW = [
    attacker("wurm", 6, 4, order=["wall", "cadet"]),
    wall_of_wood(),
    blocker("cadet", 1, 1, blocking=["wurm"]),
]
CRAW_GROWN = [CRAW[0], wall_of_wood(6, 3), CRAW[2]]  # Giant Growth: the Wall is a 3/6
MENDING_WALL = {"effects": [{"id": "mending", "kind": "prevent", "amount": 4, "to": "wall"}]}
WALL_AND_CADET = ["wall", "cadet"]
CRAW_BACK = [("cadet", "wurm", 1)]

GORGER_COMBAT = [
    attacker("gorger", 5, 6, order=["guardian", "elves"]),
    blocker("guardian", 0, 3, blocking=["gorger"]),
    blocker("elves", 1, 1, blocking=["gorger"]),
]
GORGER_GROWN = [GORGER_COMBAT[0], blocker("guardian", 3, 6, blocking=["gorger"]), GORGER_COMBAT[2]]
MENDING_GUARDIAN = {
    "effects": [{"id": "mending", "kind": "prevent", "amount": 4, "to": "guardian"}]
}
GUARDIAN_AND_ELVES = ["guardian", "elves"]
GORGER_BACK = [("elves", "gorger", 1)]
GORGER_GROWN_BACK = [("guardian", "gorger", 3), ("elves", "gorger", 1)]

EXAMPLES_510_1C = [
    *divisions(
        "510.1c example (2009-07-11): Craw Wurm, order Wall then Cadet, may assign",
        M10,
        CRAW,
        "wurm",
        WALL_AND_CADET,
        [(3, 3), (4, 2), (5, 1), (6, 0)],
        CRAW_BACK,
    ),
    *divisions(
        "510.1c (2009-07-11): Craw Wurm's Wall lacks lethal damage, so it may not assign",
        M10,
        CRAW,
        "wurm",
        WALL_AND_CADET,
        [(2, 4), (1, 5), (0, 6)],
        CRAW_BACK,
        ["510.1c"],
    ),
    *divisions(
        "510.1c example (2011-07-15): Craw Wurm, order Wall then Cadet, may assign",
        WHEN_COMPLETE,
        CRAW,
        "wurm",
        WALL_AND_CADET,
        [(3, 3), (6, 0)],
        CRAW_BACK,
    ),
    *divisions(
        "510.1c (2011-07-15): Craw Wurm's Wall lacks lethal damage, so it may not assign",
        WHEN_COMPLETE,
        CRAW,
        "wurm",
        WALL_AND_CADET,
        [(2, 4)],
        CRAW_BACK,
        ["510.1c"],
    ),
    *divisions(
        "510.1c example (2009-07-11): Giant Growth on the Wall, the Wurm must assign",
        M10,
        CRAW_GROWN,
        "wurm",
        WALL_AND_CADET,
        [(6, 0)],
        [("wall", "wurm", 3), ("cadet", "wurm", 1)],
    ),
    *divisions(
        "510.1c example (2009-07-11): Giant Growth on the Wall, the Wurm may not assign",
        M10,
        CRAW_GROWN,
        "wurm",
        WALL_AND_CADET,
        [(5, 1), (3, 3)],
        [("wall", "wurm", 3), ("cadet", "wurm", 1)],
        ["510.1c"],
    ),
    *divisions(
        "510.1c example (2009-07-11): Mending Hands on the Wall, the Wurm may still assign",
        M10,
        CRAW,
        "wurm",
        WALL_AND_CADET,
        [(3, 3), (4, 2), (5, 1), (6, 0)],
        CRAW_BACK,
        **MENDING_WALL,
    ),
    *divisions(
        "510.1c (2009-07-11): Mending Hands on the Wall changes nothing, the Wurm may not assign",
        M10,
        CRAW,
        "wurm",
        WALL_AND_CADET,
        [(2, 4)],
        CRAW_BACK,
        ["510.1c"],
        **MENDING_WALL,
    ),
    *divisions(
        "510.1c example (2011-09-30): Vastwood Gorger, order Guardian then Elves, may assign",
        GORGER,
        GORGER_COMBAT,
        "gorger",
        GUARDIAN_AND_ELVES,
        [(3, 2), (4, 1), (5, 0)],
        GORGER_BACK,
    ),
    *divisions(
        "510.1c (2011-09-30): the Guardian lacks lethal damage, so the Gorger may not assign",
        GORGER,
        GORGER_COMBAT,
        "gorger",
        GUARDIAN_AND_ELVES,
        [(2, 3), (1, 4), (0, 5)],
        GORGER_BACK,
        ["510.1c"],
    ),
    *divisions(
        "510.1c example (2011-09-30): Giant Growth on the Guardian, the Gorger must assign",
        GORGER,
        GORGER_GROWN,
        "gorger",
        GUARDIAN_AND_ELVES,
        [(5, 0)],
        GORGER_GROWN_BACK,
    ),
    *divisions(
        "510.1c example (2011-09-30): Giant Growth on the Guardian, the Gorger may not assign",
        GORGER,
        GORGER_GROWN,
        "gorger",
        GUARDIAN_AND_ELVES,
        [(4, 1), (3, 2)],
        GORGER_GROWN_BACK,
        ["510.1c"],
    ),
    *divisions(
        "510.1c example (2011-09-30): Mending Hands changes nothing, the Gorger may assign",
        GORGER,
        GORGER_COMBAT,
        "gorger",
        GUARDIAN_AND_ELVES,
        [(3, 2), (4, 1), (5, 0)],
        GORGER_BACK,
        **MENDING_GUARDIAN,
    ),
    *divisions(
        "510.1c (2011-09-30): Mending Hands changes nothing, the Gorger may not assign",
        GORGER,
        GORGER_COMBAT,
        "gorger",
        GUARDIAN_AND_ELVES,
        [(2, 3)],
        GORGER_BACK,
        ["510.1c"],
        **MENDING_GUARDIAN,
    ),
    *divisions(
        "510.1c (last order day): the Guardian lacks lethal damage, so the Gorger may not assign",
        LAST_ORDER,
        GORGER_COMBAT,
        "gorger",
        GUARDIAN_AND_ELVES,
        [(2, 3)],
        GORGER_BACK,
        ["510.1c"],
    ),
    *divisions(
        "510.1c, R1 (Foundations): no order, so the Gorger may assign",
        FOUNDATIONS,
        without_orders(GORGER_COMBAT),
        "gorger",
        GUARDIAN_AND_ELVES,
        [(2, 3), (0, 5)],
        GORGER_BACK,
    ),
    *divisions(
        "510.1c, R1 (current rules): no order, so the Gorger may assign",
        "current",
        without_orders(GORGER_COMBAT),
        "gorger",
        GUARDIAN_AND_ELVES,
        [(2, 3)],
        GORGER_BACK,
    ),
    *divisions(
        "510.1c (2011-09-30): order Elves then Guardian, the Gorger may assign",
        GORGER,
        [attacker("gorger", 5, 6, order=["elves", "guardian"]), *GORGER_COMBAT[1:]],
        "gorger",
        GUARDIAN_AND_ELVES,
        [(2, 3), (4, 1), (0, 5)],
        GORGER_BACK,
    ),
    *divisions(
        "510.1c (2011-09-30): order Elves then Guardian, the Gorger may not assign",
        GORGER,
        [attacker("gorger", 5, 6, order=["elves", "guardian"]), *GORGER_COMBAT[1:]],
        "gorger",
        GUARDIAN_AND_ELVES,
        [(5, 0)],
        GORGER_BACK,
        ["510.1c"],
    ),
]

# 509.2 and 509.7 examples: the orders they announce, and what those orders allow.
CRAW_THREE = [
    attacker("wurm", 6, 4, order=["angel", "bears", "elves"]),
    blocker("elves", 1, 1, blocking=["wurm"]),
    blocker("bears", 2, 2, blocking=["wurm"]),
    blocker("angel", 4, 4, blocking=["wurm"]),
]
CRAW_THREE_BACK = [("elves", "wurm", 1), ("bears", "wurm", 2), ("angel", "wurm", 4)]
GORGER_THREE = [
    attacker("gorger", 5, 6, order=["angel", "elves", "bear"]),
    blocker("elves", 1, 1, blocking=["gorger"]),
    blocker("bear", 2, 2, blocking=["gorger"]),
    blocker("angel", 4, 4, blocking=["gorger"]),
]
GORGER_THREE_BACK = [("elves", "gorger", 1), ("bear", "gorger", 2), ("angel", "gorger", 4)]
WARDEN = [
    attacker("warden", 1, 3, order=["saproling", "bears"]),
    blocker("bears", 2, 2, blocking=["warden"]),
    blocker("saproling", 1, 1, blocking=["warden"]),
]
WARDEN_BACK = [("bears", "warden", 2), ("saproling", "warden", 1)]
SPIDER = [
    attacker("spider", 2, 4, order=["saproling", "minotaur"]),
    blocker("minotaur", 3, 3, blocking=["spider"]),
    blocker("saproling", 1, 1, blocking=["spider"]),
]
SPIDER_BACK = [("minotaur", "spider", 3), ("saproling", "spider", 1)]

EXAMPLES_509 = [
    *divisions(
        "509.2 example (2009-07-11): Craw Wurm, order Angel, Bears, Elves, may assign",
        M10,
        CRAW_THREE,
        "wurm",
        ["angel", "bears", "elves"],
        [(4, 2, 0), (5, 1, 0)],
        CRAW_THREE_BACK,
    ),
    *divisions(
        "509.2 example (2009-07-11): Craw Wurm, order Angel, Bears, Elves, may not assign",
        M10,
        CRAW_THREE,
        "wurm",
        ["angel", "bears", "elves"],
        [(4, 1, 1), (0, 0, 6), (3, 2, 1)],
        CRAW_THREE_BACK,
        ["510.1c"],
    ),
    *divisions(
        "509.2 example (2011-09-30): Vastwood Gorger, order Angel, Elves, Bear, may assign",
        GORGER,
        GORGER_THREE,
        "gorger",
        ["angel", "elves", "bear"],
        [(4, 1, 0)],
        GORGER_THREE_BACK,
    ),
    *divisions(
        "509.2 example (2011-09-30): Vastwood Gorger, order Angel, Elves, Bear, may not assign",
        GORGER,
        GORGER_THREE,
        "gorger",
        ["angel", "elves", "bear"],
        [(4, 0, 1)],
        GORGER_THREE_BACK,
        ["510.1c"],
    ),
    *divisions(
        "509.7 example (2009-07-11): Lumengrid Warden, order Saproling then Bears, may assign",
        M10,
        WARDEN,
        "warden",
        ["saproling", "bears"],
        [(1, 0)],
        WARDEN_BACK,
    ),
    *divisions(
        "509.7 example (2009-07-11): Lumengrid Warden, order Saproling then Bears, may not assign",
        M10,
        WARDEN,
        "warden",
        ["saproling", "bears"],
        [(0, 1)],
        WARDEN_BACK,
        ["510.1c"],
    ),
    *divisions(
        "509.7 example (2024-07-30): Giant Spider, order Saproling then Minotaur, may assign",
        "2024-07-30",
        SPIDER,
        "spider",
        ["saproling", "minotaur"],
        [(1, 1), (2, 0)],
        SPIDER_BACK,
    ),
    *divisions(
        "509.7 example (2024-07-30): Giant Spider, order Saproling then Minotaur, may not assign",
        "2024-07-30",
        SPIDER,
        "spider",
        ["saproling", "minotaur"],
        [(0, 2)],
        SPIDER_BACK,
        ["510.1c"],
    ),
    row(
        "A2 (2009-07-11): an order of one blocker is accepted, and changes nothing",
        M10,
        [attacker("bear", 2, 2, order=["wall"]), blocker("wall", 0, 3, blocking=["bear"])],
        [("bear", "wall", 2)],
    ),
]

# ---------------------------------------------------------------------------------------------
# 510.1c example: Enormous Baloth and Durkwood Boars (A1: the total is checked, every edition).

BALOTH = [
    attacker("baloth", 7, 7, order=["armodon", "brigade", "ape"]),
    attacker("boars", 4, 4, order=["brigade", "piker"]),
    blocker("armodon", 3, 3, blocking=["baloth"], damage=2),
    blocker("brigade", 2, 4, blocking=["baloth", "boars"], order=["baloth", "boars"]),
    blocker("ape", 5, 5, blocking=["baloth"]),
    blocker("piker", 2, 1, blocking=["boars"]),
]
BALOTH_BLOCKERS = [
    ("armodon", "baloth", 3),
    ("brigade", "baloth", 2),
    ("ape", "baloth", 5),
    ("piker", "boars", 2),
]
BALOTH_EXAMPLE = [
    ("baloth", "armodon", 1),
    ("baloth", "brigade", 1),
    ("baloth", "ape", 5),
    ("boars", "brigade", 3),
    ("boars", "piker", 1),
    *BALOTH_BLOCKERS,
]


def baloth_with(changes: dict, blockers=BALOTH_BLOCKERS) -> list:
    amounts = {(s, t): x for s, t, x in BALOTH_EXAMPLE[:5]}
    amounts.update(changes)
    return [(s, t, x) for (s, t), x in amounts.items() if x] + list(blockers)


BALOTH_ROWS = [
    *[
        row(
            f"510.1c example, A1 ({day}): the Baloth 1-1-5 and the Boars 3-1, the total checked",
            day,
            BALOTH,
            BALOTH_EXAMPLE,
        )
        for day in ORDER_DATES
    ],
    row(
        "510.1c example, R1 (current rules): the Baloth and Boars assignment, no orders",
        "current",
        without_orders(BALOTH),
        BALOTH_EXAMPLE,
    ),
    *[
        row(
            f"510.1c ({day}): the Boars put 2 on the Brigade, which is short for both orders",
            day,
            BALOTH,
            baloth_with({("boars", "brigade"): 2, ("boars", "piker"): 2}),
            ["510.1c"],
            sources=("baloth", "boars"),
        )
        for day in (M10, WHEN_COMPLETE, LAST_ORDER)
    ],
    row(
        "510.1c: nothing on the Armodon, 2 marked on a 3/3 is short, the Baloth may go no further",
        M10,
        BALOTH,
        baloth_with({("baloth", "armodon"): 0, ("baloth", "brigade"): 2}),
        ["510.1c"],
        sources=("baloth",),
    ),
    row(
        "510.1d: the Brigade's 2 on the Boars, the Baloth already lethal with 3 + 5 from others",
        M10,
        BALOTH,
        baloth_with(
            {},
            [
                ("armodon", "baloth", 3),
                ("brigade", "boars", 2),
                ("ape", "baloth", 5),
                ("piker", "boars", 2),
            ],
        ),
    ),
    row(
        "510.1d: the Brigade's order puts the Boars first, 2 from the Piker is short of 4",
        WHEN_COMPLETE,
        [
            *BALOTH[:3],
            blocker("brigade", 2, 4, blocking=["baloth", "boars"], order=["boars", "baloth"]),
            *BALOTH[4:],
        ],
        BALOTH_EXAMPLE,
        ["510.1d"],
        sources=("brigade",),
    ),
]

# ---------------------------------------------------------------------------------------------
# Deathtouch: M10's 702.2b (divides freely, makes nothing lethal) and M11's (1 is lethal, the
# order binds). R2's 3/3 with deathtouch blocked by a 2/2, a 4/4, a 7/7 and a 9/9, order
# "the 9/9, then the 7/7, then the 4/4, then the 2/2".

ASP = [
    attacker("asp", 3, 3, "deathtouch", order=["b9", "b7", "b4", "b2"]),
    blocker("b2", 2, 2, blocking=["asp"]),
    blocker("b4", 4, 4, blocking=["asp"]),
    blocker("b7", 7, 7, blocking=["asp"]),
    blocker("b9", 9, 9, blocking=["asp"]),
]
ASP_BACK = [("b2", "asp", 2), ("b4", "asp", 4), ("b7", "asp", 7), ("b9", "asp", 9)]
ASP_TO = ["b9", "b7", "b4", "b2"]
# A5 (b) and A6: another creature's deathtouch damage, for trample and for an order.
SNAKE_AND_TRAMPLER = [
    attacker("snake", 1, 1, "deathtouch"),
    attacker("ogre", 5, 5, "trample"),
    blocker("giant", 4, 4, blocking=["snake", "ogre"], order=["snake", "ogre"]),
]
SNAKE_AND_OGRE = [
    attacker("snake", 1, 1, "deathtouch"),
    attacker("ogre", 5, 5, order=["giant", "bear"]),
    blocker("giant", 4, 4, blocking=["snake", "ogre"], order=["snake", "ogre"]),
    blocker("bear", 2, 2, blocking=["ogre"]),
]
DT_BLOCKER = [
    attacker("bear", 3, 3),
    attacker("elf", 1, 1),
    blocker("asp", 2, 2, "deathtouch", blocking=["bear", "elf"], order=["bear", "elf"]),
]
DT_BLOCKER_BACK = [("bear", "asp", 3), ("elf", "asp", 1)]

DEATHTOUCH = [
    *[
        r
        for day in (M10, LAST_M10, M11, FIRST_702_2C)
        for r in divisions(
            f"R2 ({day}): the deathtouch 3/3 puts 1 on the 9/9, 1 on the 7/7, 1 on the 4/4",
            day,
            ASP,
            "asp",
            ASP_TO,
            [(1, 1, 1, 0)],
            ASP_BACK,
        )
    ],
    *[
        r
        for day in (M10, LAST_M10)
        for r in divisions(
            f"702.2b of M10 ({day}): deathtouch divides as it chooses, ignoring its order",
            day,
            ASP,
            "asp",
            ASP_TO,
            [(0, 0, 0, 3), (1, 1, 0, 1), (0, 0, 1, 2)],
            ASP_BACK,
        )
    ],
    *[
        r
        for day in (M11, LAST_702_2B, FIRST_702_2C, LAST_ORDER)
        for r in divisions(
            f"R2 ({day}): the order binds deathtouch, 'you can't hit the 2/2'",
            day,
            ASP,
            "asp",
            ASP_TO,
            [(0, 0, 0, 3), (1, 1, 0, 1), (0, 0, 1, 2)],
            ASP_BACK,
            ["510.1c"],
        )
    ],
    *divisions(
        "702.2b of M11: more than 1 on a creature is allowed, 2 on the 9/9 and 1 on the 7/7",
        M11,
        ASP,
        "asp",
        ASP_TO,
        [(2, 1, 0, 0)],
        ASP_BACK,
    ),
    *divisions(
        "R1 (Foundations): no order, the deathtouch 3/3 may put all 3 on the 2/2",
        FOUNDATIONS,
        without_orders(ASP),
        "asp",
        ASP_TO,
        [(0, 0, 0, 3), (1, 1, 0, 1)],
        ASP_BACK,
    ),
    # A deathtouch blocker and its order (510.1d).
    row(
        "702.2b of M10 (2009-07-11): a deathtouch blocker ignores its order, 2 on the 1/1",
        M10,
        DT_BLOCKER,
        [*DT_BLOCKER_BACK, ("asp", "elf", 2)],
    ),
    row(
        "702.2b of M10 (last day): a deathtouch blocker ignores its order, 2 on the 1/1",
        LAST_M10,
        DT_BLOCKER,
        [*DT_BLOCKER_BACK, ("asp", "elf", 2)],
    ),
    row(
        "702.2b of M11: a deathtouch blocker follows its order, nothing on the 3/3 first",
        M11,
        DT_BLOCKER,
        [*DT_BLOCKER_BACK, ("asp", "elf", 2)],
        ["510.1d"],
        sources=("asp",),
    ),
    row(
        "702.2b of M11: a deathtouch blocker puts 1 on the 3/3, lethal, then 1 on the 1/1",
        M11,
        DT_BLOCKER,
        [*DT_BLOCKER_BACK, ("asp", "bear", 1), ("asp", "elf", 1)],
    ),
    row(
        "702.2b of M10: 1 deathtouch on the 3/3 then 1 on the 1/1 is a free division too",
        M10,
        DT_BLOCKER,
        [*DT_BLOCKER_BACK, ("asp", "bear", 1), ("asp", "elf", 1)],
    ),
    # Another creature's deathtouch damage (A5 b, A6).
    row(
        "A5 (M10): another creature's 1 deathtouch damage does not make the 4/4 lethal for trample",
        LAST_M10,
        SNAKE_AND_TRAMPLER,
        [("snake", "giant", 1), ("ogre", "giant", 1), ("ogre", "D", 4), ("giant", "snake", 4)],
        ["702.17b"],
        sources=("ogre",),
    ),
    row(
        "A5 (M10): 1 from the deathtouch 1/1 and 3 from the trampler are lethal on the 4/4",
        LAST_M10,
        SNAKE_AND_TRAMPLER,
        [("snake", "giant", 1), ("ogre", "giant", 3), ("ogre", "D", 2), ("giant", "snake", 4)],
    ),
    row(
        "A6 (M11): another creature's 1 deathtouch damage is lethal for the trampler",
        M11,
        SNAKE_AND_TRAMPLER,
        [("snake", "giant", 1), ("ogre", "giant", 1), ("ogre", "D", 4), ("giant", "snake", 4)],
    ),
    row(
        "A5 (M10): another creature's 1 deathtouch damage does not satisfy the ogre's order",
        MID_M10,
        SNAKE_AND_OGRE,
        [
            ("snake", "giant", 1),
            ("ogre", "giant", 1),
            ("ogre", "bear", 4),
            ("giant", "snake", 4),
            ("bear", "ogre", 2),
        ],
        ["510.1c"],
        sources=("ogre",),
    ),
    row(
        "A6 (M11): another creature's 1 deathtouch damage satisfies the ogre's order",
        M11,
        SNAKE_AND_OGRE,
        [
            ("snake", "giant", 1),
            ("ogre", "giant", 1),
            ("ogre", "bear", 4),
            ("giant", "snake", 4),
            ("bear", "ogre", 2),
        ],
    ),
]

# ---------------------------------------------------------------------------------------------
# Banding and Defensive Formation (R6, A7): the chooser ignores the order; trample still needs
# lethal damage on every blocker.

PEGASUS = [
    attacker("wurm", 5, 5, order=["pegasus", "bear"]),
    blocker("pegasus", 1, 1, "banding", blocking=["wurm"]),
    blocker("bear", 3, 3, blocking=["wurm"]),
]
NO_BANDING = [PEGASUS[0], blocker("pegasus", 1, 1, blocking=["wurm"]), PEGASUS[2]]
PEGASUS_TRAMPLED = [
    attacker("wurm", 5, 5, "trample", order=["pegasus", "bear"]),
    *PEGASUS[1:],
]
PEGASUS_BACK = [("pegasus", "wurm", 1), ("bear", "wurm", 3)]
BAND = [
    attacker("hero", 1, 1, "banding"),
    attacker("angel", 4, 4),
    blocker("horde", 3, 3, blocking=["hero", "angel"], order=["hero", "angel"]),
]
NO_BAND = [
    attacker("hero", 1, 1),
    attacker("angel", 4, 4),
    blocker("horde", 3, 3, blocking=["hero", "angel"], order=["hero", "angel"]),
]
BAND_FIGHT = [("hero", "horde", 1), ("angel", "horde", 4), ("horde", "angel", 3)]

BANDING = [
    *[
        row(
            f"R6, 702.19j-702.22j ({day}): the defending player ignores the order, 5 on the 3/3",
            day,
            PEGASUS,
            [("wurm", "bear", 5), *PEGASUS_BACK],
        )
        for day in (M10, MID_M10, MID_702_18, MID_702_19, FIRST_702_22, LAST_ORDER)
    ],
    row(
        "510.1c: without banding, the order puts the 1/1 first, 5 on the 3/3 is illegal",
        MID_M10,
        NO_BANDING,
        [("wurm", "bear", 5), *PEGASUS_BACK],
        ["510.1c"],
    ),
    row(
        "A7, R6: banding and trample, 1 on the 1/1, 3 on the 3/3, 1 through",
        MID_M10,
        PEGASUS_TRAMPLED,
        [("wurm", "pegasus", 1), ("wurm", "bear", 3), ("wurm", "D", 1), *PEGASUS_BACK],
    ),
    row(
        "A7, R6: banding and trample, all 5 on the blockers, out of order",
        MID_M10,
        PEGASUS_TRAMPLED,
        [("wurm", "bear", 5), *PEGASUS_BACK],
    ),
    row(
        "A7, R6 (2010): banding frees the order, not trample: the 1/1 unassigned, nothing through",
        MID_M10,
        PEGASUS_TRAMPLED,
        [("wurm", "bear", 3), ("wurm", "D", 2), *PEGASUS_BACK],
        ["702.17b"],
        sources=("wurm",),
    ),
    row(
        "A7, R6 (2015): banding frees the order, not trample: the 1/1 unassigned, nothing through",
        MID_702_19,
        PEGASUS_TRAMPLED,
        [("wurm", "bear", 3), ("wurm", "D", 2), *PEGASUS_BACK],
        ["702.19b"],
        sources=("wurm",),
    ),
    row(
        "A7, R6: banding and trample, the 3/3 short with 2, nothing through",
        MID_702_18,
        PEGASUS_TRAMPLED,
        [("wurm", "pegasus", 1), ("wurm", "bear", 2), ("wurm", "D", 2), *PEGASUS_BACK],
        ["702.18b"],
        sources=("wurm",),
    ),
    *[
        row(
            f"702.19k-702.22k, A8 ({day}): the active player ignores the order, 3 on the 4/4",
            day,
            BAND,
            BAND_FIGHT,
            bands=[["hero", "angel"]],
        )
        for day in (M10, M10_FIXES, MID_702_19, LAST_ORDER)
    ],
    row(
        "510.1d: no band, the horde's order puts the 1/1 first, 3 on the 4/4 is illegal",
        MID_M10,
        NO_BAND,
        BAND_FIGHT,
        ["510.1d"],
        sources=("horde",),
    ),
]

# ---------------------------------------------------------------------------------------------
# Citations by date, and the boundaries exactly.

SHORT_TRAMPLER = [("wurm", "wall", 2), ("wurm", "D", 3), ("wall", "wurm", 3)]
ON_JACE = [attacker("wurm", 5, 5, "trample", attacking="jace"), planeswalker("jace", 2)]
PLAIN_ON_JACE = [attacker("bear", 3, 3, attacking="jace"), planeswalker("jace", 2)]
FIRST_STRIKE = [
    attacker("knight", 2, 2, "first strike"),
    blocker("bear", 2, 2, blocking=["knight"]),
]

CITATIONS = [
    *[
        row(f"trample short of lethal ({day}) cites {rule}", day, TRAMPLER, SHORT_TRAMPLER, [rule])
        for day, rule in [
            (M10, "702.17b"),
            (MID_M10, "702.17b"),
            (LAST_702_17, "702.17b"),
            (FIRST_702_18, "702.18b"),
            (MID_702_18, "702.18b"),
            (LAST_702_18, "702.18b"),
            (FIRST_702_19, "702.19b"),
            (MID_702_19, "702.19b"),
            (LAST_WITHOUT_TOP, "702.19b"),
            (FIRST_TOP, "702.19b"),
            (LAST_ORDER, "702.19b"),
            (FOUNDATIONS, "702.19b"),
            ("current", "702.19b"),
        ]
    ],
    *[
        row(
            f"a trampler attacking a planeswalker sends some to its controller ({day}): {rule}",
            day,
            ON_JACE,
            [("wurm", "jace", 2), ("wurm", "D", 3)],
            [rule],
        )
        for day, rule in [
            (MID_M10, "702.17d"),
            (LAST_702_17, "702.17d"),
            (FIRST_702_18, "702.18d"),
            (LAST_702_18, "702.18d"),
            (FIRST_702_19, "702.19d"),
            (LAST_WITHOUT_TOP, "702.19d"),
            (FIRST_TOP, "702.19f"),
            ("current", "702.19f"),
        ]
    ],
    # Before 2021-06-18, 702.17d-702.19d speak of a creature with trample only; a creature
    # without it, unblocked, assigns to what it attacks by 510.1b. From 2021-06-18, 702.19f
    # speaks of every creature without trample over planeswalkers.
    *[
        row(
            f"an unblocked creature without trample attacking a planeswalker hits its "
            f"controller ({day}): {rule}",
            day,
            PLAIN_ON_JACE,
            [("bear", "jace", 1), ("bear", "D", 2)],
            [rule],
        )
        for day, rule in [
            (MID_M10, "510.1b"),
            (MID_702_18, "510.1b"),
            (LAST_WITHOUT_TOP, "510.1b"),
            (FIRST_TOP, "702.19f"),
        ]
    ],
    *[
        row(
            f"first-strike step, a creature without first strike assigns ({day}): {rule}",
            day,
            FIRST_STRIKE,
            [("knight", "bear", 2), ("bear", "knight", 2)],
            [rule],
            step="first-strike",
        )
        for day, rule in [
            (M10, "510.5"),
            (LAST_510_5, "510.5"),
            (FIRST_510_4, "510.4"),
            (LAST_ORDER, "510.4"),
            ("current", "510.4"),
        ]
    ],
    row(
        "702.19c (2021-06-18): trample over planeswalkers exists, 2 on the planeswalker, 3 through",
        FIRST_TOP,
        [
            attacker("thrasta", 5, 5, "trample over planeswalkers", attacking="jace"),
            planeswalker("jace", 2),
        ],
        [("thrasta", "jace", 2), ("thrasta", "D", 3)],
    ),
    row(
        "702.19c (2021-06-18): trample over planeswalkers, 1 on the planeswalker is short",
        FIRST_TOP,
        [
            attacker("thrasta", 5, 5, "trample over planeswalkers", attacking="jace"),
            planeswalker("jace", 2),
        ],
        [("thrasta", "jace", 1), ("thrasta", "D", 4)],
        ["702.19c"],
    ),
    row(
        "310 (2023-04-14): battles exist, a creature attacking a battle assigns to it",
        FIRST_BATTLES,
        [attacker("bear", 2, 2, attacking="siege"), battle("siege", 5)],
        [("bear", "siege", 2)],
    ),
]

ROWS = [*SEED, *EXAMPLES_510_1C, *EXAMPLES_509, *BALOTH_ROWS, *DEATHTOUCH, *BANDING, *CITATIONS]
IDS = [f"{r.name} [{r.rules}]" for r in ROWS]


def test_rows_are_named_uniquely():
    assert len(IDS) == len(set(IDS))


def _combat(r: Row):
    return scenario(*r.permanents, rules=r.rules, **r.top), entries(r.assignment)


@pytest.mark.parametrize("r", ROWS, ids=IDS)
def test_check(r: Row):
    combat, assignment = _combat(r)
    verdict = check(combat, assignment)
    messages = [f"{v.rule} {v.source}: {v.message}" for v in verdict.violations]
    assert sorted({v.rule for v in verdict.violations}) == sorted(set(r.broken)), messages
    assert verdict.legal == (not r.broken), messages
    if r.sources is not None:
        assert {v.source for v in verdict.violations} == set(r.sources), messages
    assert verdict.edition.asked == r.rules


@pytest.mark.parametrize("r", ROWS, ids=IDS)
def test_solver(r: Row):
    combat, assignment = _combat(r)
    assert solver_says_legal(combat, assignment) == (not r.broken)


@pytest.mark.parametrize("r", ROWS, ids=IDS)
def test_reference(r: Row):
    combat, assignment = _combat(r)
    assert reference.is_legal(combat, assignment) == (not r.broken)


# ---------------------------------------------------------------------------------------------
# Citations that are not violations: who divides under banding, deathtouch's lethal rule.


@pytest.mark.parametrize(
    "day, rule_j, rule_k",
    [
        (M10, "702.19j", "702.19k"),
        (LAST_702_17, "702.19j", "702.19k"),
        (FIRST_702_18, "702.20j", "702.20k"),
        (LAST_702_18, "702.20j", "702.20k"),
        (FIRST_702_19, "702.21j", "702.21k"),
        (LAST_702_21, "702.21j", "702.21k"),
        (FIRST_702_22, "702.22j", "702.22k"),
        (LAST_ORDER, "702.22j", "702.22k"),
        ("current", "702.22j", "702.22k"),
    ],
)
def test_banding_choosers_cite_the_edition_s_number(day, rule_j, rule_k):
    attackers = without_orders(PEGASUS) if day == "current" else PEGASUS
    verdict = check(scenario(*attackers, rules=day), entries([("wurm", "bear", 5), *PEGASUS_BACK]))
    assert verdict.legal
    assert {c.source: (c.player, c.rule) for c in verdict.choosers}["wurm"] == ("D", rule_j)
    band = without_orders(BAND) if day == "current" else BAND
    verdict = check(scenario(*band, rules=day, bands=[["hero", "angel"]]), entries(BAND_FIGHT))
    assert verdict.legal
    assert {c.source: (c.player, c.rule) for c in verdict.choosers}["horde"] == ("A", rule_k)


@pytest.mark.parametrize(
    "day, rule",
    [
        (M10, None),  # M10's 702.2b lets deathtouch divide freely; no rule makes it lethal
        (LAST_M10, None),
        (M11, "702.2b"),
        (LAST_702_2B, "702.2b"),
        (FIRST_702_2C, "702.2c"),
        (LAST_ORDER, "702.2c"),
        ("current", "702.2c"),
    ],
)
def test_deathtouch_lethal_rule_is_numbered_by_the_edition(day, rule):
    combat, assignment = _combat(row("", day, TRAMPLER, SHORT_TRAMPLER))
    assert check(combat, assignment).edition.cite("702.2c") == rule


# What damage does, numbered by the edition (the archive of official texts, read at each
# change): the damage section was 118 (M10), 119 (from 2010-07-16) and 120 (from
# 2019-07-12); before infect its results were lettered a, then b-e for today's c-f;
# prevention shields and the order of effects were 614.7 and 615.1 until 2009-10-01; the
# state-based actions kept their letters.


@pytest.mark.parametrize(
    "day, lifelink, loyalty, shield, order, lethal",
    [
        (M10, "118.3e", "118.3b", "614.7", "615.1", "704.5g"),
        ("2009-09-30", "118.3e", "118.3b", "614.7", "615.1", "704.5g"),
        ("2009-10-01", "118.3e", "118.3b", "615.7", "616.1", "704.5g"),
        (M11, "119.3e", "119.3b", "615.7", "616.1", "704.5g"),
        ("2010-10-01", "119.3f", "119.3c", "615.7", "616.1", "704.5g"),
        ("2019-07-11", "119.3f", "119.3c", "615.7", "616.1", "704.5g"),
        ("2019-07-12", "120.3f", "120.3c", "615.7", "616.1", "704.5g"),
        ("current", "120.3f", "120.3c", "615.7", "616.1", "704.5g"),
    ],
)
def test_the_results_of_damage_are_numbered_by_the_edition(
    day, lifelink, loyalty, shield, order, lethal
):
    edition = parse(scenario_file(attacker("bear", 2, 2), rules=day)).edition
    today = ("120.3f", "120.3c", "615.7", "616.1", "704.5g")
    assert tuple(edition.cite(rule) for rule in today) == (lifelink, loyalty, shield, order, lethal)
    poison = edition.cite("120.3b")
    assert (poison is None) == (day < "2010-10-01")  # infect's poison: no rule before it


@pytest.mark.parametrize(
    "day, rule",
    [
        (M10, "701.11a"),
        ("2011-07-15", "701.11a"),
        ("2011-09-30", "701.11a or 701.12a"),  # between the editions seen either side
        ("2012-02-01", "701.12a"),
        ("2016-01-22", "701.12a or 701.13a"),
        ("2016-11-11", "701.13a"),
        ("2018-07-13", "701.14a"),
        ("2020-07-02", "701.14a"),
        ("2020-07-03", "701.15a"),  # mill became a keyword action
        ("2025-02-07", "701.15a"),
        ("2025-04-04", "701.15a or 701.19a"),
        ("2025-06-06", "701.19a"),
        ("current", "701.19a"),
    ],
)
def test_regenerate_is_numbered_by_the_day_asked_and_both_numbers_where_unknown(day, rule):
    assert parse(scenario_file(attacker("bear", 2, 2), rules=day)).edition.cite("701.19a") == rule


@pytest.mark.parametrize(
    "day, lifelink, protection, infect, wither, destroys, indestructible",
    [
        (M10, "702.13b", "702.14a", "702.87b", "702.77a", "702.2c", None),
        ("2011-06-17", "702.14b", "702.15a", "702.88b", "702.78a", "702.2c", None),
        ("2013-07-13", "702.15b", "702.16a", "702.89b", "702.79a", "702.2c", "702.12b"),
        ("2017-01-20", "702.15b", "702.16a", "702.89b", "702.79a", "702.2b", "702.12b"),
        ("2021-04-22", "702.15b", "702.16a", "702.90b", "702.80a", "702.2b", "702.12b"),
    ],
)
def test_keywords_are_numbered_by_the_keywords_inserted_before_them(
    day, lifelink, protection, infect, wither, destroys, indestructible
):
    """Hexproof (2011-06-17), indestructible (2013-07-13) and the keyword before banding
    (2021-04-22) each moved the keywords after them on by one; deathtouch's destruction was
    702.2c until 2017-01-20 (M10's and M11's texts; XMage's 702.77 wither, 702.87 infect)."""
    edition = parse(scenario_file(attacker("bear", 2, 2), rules=day)).edition
    today = ("702.15b", "702.16a", "702.90b", "702.80a", "702.2b", "702.12b")
    found = tuple(edition.cite(rule) for rule in today)
    assert found == (lifelink, protection, infect, wither, destroys, indestructible)


def test_deal_under_an_old_edition_cites_its_numbers(capsys, tmp_path):
    data = scenario_file(
        attacker("cleric", 3, 3, "lifelink"),
        blocker("troll", 1, 2, blocking=["cleric"], regeneration_shields=1),
        rules="2016-01-22",
        assignment=[("cleric", "troll", 3), ("troll", "cleric", 1)],
    )
    data["players"][0]["life"] = 20
    path = tmp_path / "troll.json"
    path.write_text(json.dumps(data))
    assert main(["deal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "dealt (CR 510.2, 119.3-119.4)" in out
    assert (
        "troll is regenerated: tapped, all damage removed, removed from combat (CR 701.12a "
        "or 701.13a)" in out
    )
    assert main(["deal", str(path), "--json"]) == 0
    (outcome,) = json.loads(capsys.readouterr().out)["outcomes"]
    assert outcome["regenerated"][0]["rule"] == "701.12a or 701.13a"
    data["rules"] = "2010-01-01"
    data["permanents"][1]["regeneration_shields"] = 0
    del data["players"][0]["life"]
    path.write_text(json.dumps(data))
    assert main(["deal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "dealt (CR 510.2, 118.3-118.4)" in out
    assert "A: gains 3 life (CR 118.3e)" in out
    assert "troll is put into the graveyard: 3 damage, toughness 2 (CR 704.5g)" in out


# ---------------------------------------------------------------------------------------------
# Orders the file leaves open: legal iff some order works, and exactly those are listed.

FIVE = [
    attacker("ogre", 5, 5),
    blocker("small", 2, 2, blocking=["ogre"]),
    blocker("big", 3, 3, blocking=["ogre"]),
]
FIVE_BACK = [("small", "ogre", 2), ("big", "ogre", 3)]
SIX = [
    attacker("ogre", 6, 6),
    blocker("one", 1, 1, blocking=["ogre"]),
    blocker("two", 2, 2, blocking=["ogre"]),
    blocker("three", 3, 3, blocking=["ogre"]),
]
SIX_BACK = [("one", "ogre", 1), ("two", "ogre", 2), ("three", "ogre", 3)]
ALL_SIX = {
    ("one", "two", "three"),
    ("one", "three", "two"),
    ("two", "one", "three"),
    ("two", "three", "one"),
    ("three", "one", "two"),
    ("three", "two", "one"),
}
WALL_OF_TWO = [
    attacker("elf", 1, 1),
    attacker("bear", 2, 2),
    blocker("wall", 3, 3, blocking=["elf", "bear"]),
]
WALL_BACK = [("elf", "wall", 1), ("bear", "wall", 2)]


@dataclass
class Open:
    name: str
    rules: str
    permanents: list
    assignment: list
    source: str
    announcer: str
    rule: str  # 509.2 or 509.3
    tried: int
    legal_orders: set


OPEN = [
    Open(
        "5/5 with 2 on the 2/2 and 3 on the 3/3: every order works",
        MID_702_19,
        FIVE,
        [("ogre", "small", 2), ("ogre", "big", 3), *FIVE_BACK],
        "ogre",
        "A",
        "509.2",
        2,
        {("small", "big"), ("big", "small")},
    ),
    Open(
        "5/5 with 1 on the 2/2 and 4 on the 3/3: only the 3/3 first",
        MID_702_19,
        FIVE,
        [("ogre", "small", 1), ("ogre", "big", 4), *FIVE_BACK],
        "ogre",
        "A",
        "509.2",
        2,
        {("big", "small")},
    ),
    Open(
        "5/5 with 4 on the 2/2 and 1 on the 3/3 (M10): only the 2/2 first",
        M10,
        FIVE,
        [("ogre", "small", 4), ("ogre", "big", 1), *FIVE_BACK],
        "ogre",
        "A",
        "509.2",
        2,
        {("small", "big")},
    ),
    Open(
        "5/5 with all 5 on the 3/3: only the 3/3 first",
        LAST_ORDER,
        FIVE,
        [("ogre", "big", 5), *FIVE_BACK],
        "ogre",
        "A",
        "509.2",
        2,
        {("big", "small")},
    ),
    Open(
        "5/5 with 1 on the 2/2 and 4 on a 3/3 that is a 5/5 now: no order works",
        GORGER,
        [FIVE[0], FIVE[1], blocker("big", 3, 5, blocking=["ogre"])],
        [("ogre", "small", 1), ("ogre", "big", 4), *FIVE_BACK],
        "ogre",
        "A",
        "509.2",
        2,
        set(),
    ),
    Open(
        "6/6 with 1, 2, 3 on a 1/1, 2/2, 3/3: all six orders",
        MID_702_18,
        SIX,
        [("ogre", "one", 1), ("ogre", "two", 2), ("ogre", "three", 3), *SIX_BACK],
        "ogre",
        "A",
        "509.2",
        6,
        ALL_SIX,
    ),
    Open(
        "6/6 with 1, 1, 4 on a 1/1, 2/2, 3/3: the 2/2 last",
        MID_702_18,
        SIX,
        [("ogre", "one", 1), ("ogre", "two", 1), ("ogre", "three", 4), *SIX_BACK],
        "ogre",
        "A",
        "509.2",
        6,
        {("one", "three", "two"), ("three", "one", "two")},
    ),
    Open(
        "6/6 with 0, 2, 4 on a 1/1, 2/2, 3/3: the 1/1 last",
        M11,
        SIX,
        [("ogre", "two", 2), ("ogre", "three", 4), *SIX_BACK],
        "ogre",
        "A",
        "509.2",
        6,
        {("two", "three", "one"), ("three", "two", "one")},
    ),
    Open(
        "a 3/3 blocking a 1/1 and a 2/2, 1 and 2: both orders (509.3)",
        MID_702_19,
        WALL_OF_TWO,
        [*WALL_BACK, ("wall", "elf", 1), ("wall", "bear", 2)],
        "wall",
        "D",
        "509.3",
        2,
        {("elf", "bear"), ("bear", "elf")},
    ),
    Open(
        "a 3/3 blocking a 1/1 and a 2/2, all 3 on the 2/2: the 2/2 first (509.3)",
        MID_702_19,
        WALL_OF_TWO,
        [*WALL_BACK, ("wall", "bear", 3)],
        "wall",
        "D",
        "509.3",
        2,
        {("bear", "elf")},
    ),
]


@pytest.mark.parametrize("o", OPEN, ids=[o.name for o in OPEN])
def test_open_orders(o: Open):
    combat = scenario(*o.permanents, rules=o.rules)
    assignment = entries(o.assignment)
    verdict = check(combat, assignment)
    legal = bool(o.legal_orders)
    assert verdict.legal == legal, [v.message for v in verdict.violations]
    if not legal:
        assert {v.rule for v in verdict.violations} == {"510.1c" if o.rule == "509.2" else "510.1d"}
    found = {f.source: f for f in verdict.orders}
    assert set(found) == {o.source}
    assert (found[o.source].announcer, found[o.source].rule, found[o.source].tried) == (
        o.announcer,
        o.rule,
        o.tried,
    )
    assert set(found[o.source].legal) == o.legal_orders
    assert len(found[o.source].legal) == len(o.legal_orders)
    assert solver_says_legal(combat, assignment) == legal
    assert reference.is_legal(combat, assignment) == legal


def test_given_orders_are_not_searched():
    combat, assignment = _combat(EXAMPLES_510_1C[0])
    assert check(combat, assignment).orders == ()


# ---------------------------------------------------------------------------------------------
# Reading errors: exit 2, located, no traceback.

GOOD = scenario_file(
    *TRAMPLER, assignment=[("wurm", "wall", 3), ("wurm", "D", 2), ("wall", "wurm", 3)]
)


def file_with(*permanents, rules, **top):
    return scenario_file(*permanents, rules=rules, **top)


ERRORS = [
    (
        "a date before the M10 rewrite",
        {**GOOD, "rules": "2009-07-10"},
        "rules",
        "2009-07-11",
    ),
    (
        "a date long before the M10 rewrite",
        {**GOOD, "rules": "2003-01-01"},
        "rules",
        "2009-07-11",
    ),
    (
        "trample over planeswalkers the day before it exists",
        file_with(
            attacker("thrasta", 5, 5, "trample", "trample over planeswalkers", attacking="jace"),
            planeswalker("jace", 2),
            rules=LAST_WITHOUT_TOP,
        ),
        "permanents[0].keywords[1]",
        "2021-06-18",
    ),
    (
        "a battle the day before battles exist",
        file_with(
            attacker("bear", 2, 2, attacking="siege"),
            battle("siege", 5),
            rules=LAST_WITHOUT_BATTLES,
        ),
        "permanents[1].types[0]",
        "2023-04-14",
    ),
    (
        "an order under current rules",
        file_with(*FIVE[1:], attacker("ogre", 5, 5, order=["small", "big"]), rules="current"),
        "permanents[2].order",
        "damage assignment order",
    ),
    (
        "an order under the Foundations edition",
        file_with(*FIVE[1:], attacker("ogre", 5, 5, order=["small", "big"]), rules=FOUNDATIONS),
        "permanents[2].order",
        "damage assignment order",
    ),
    (
        "an order on a creature that is not in combat",
        file_with(
            *FIVE,
            {
                "id": "idle",
                "controller": "A",
                "types": ["creature"],
                "power": 1,
                "toughness": 1,
                "order": ["small"],
            },
            rules=LAST_ORDER,
        ),
        "permanents[3].order",
        "attacking or blocking",
    ),
    (
        "an attacker's order missing a blocker",
        file_with(attacker("ogre", 5, 5, order=["small"]), *FIVE[1:], rules=MID_702_19),
        "permanents[0].order",
        "big",
    ),
    (
        "an attacker's order naming a creature that does not block it",
        file_with(
            attacker("ogre", 5, 5, order=["small", "big", "elf"]),
            *FIVE[1:],
            attacker("elf", 1, 1),
            rules=MID_702_19,
        ),
        "permanents[0].order[2]",
        "509.2",
    ),
    (
        "an attacker's order listing a blocker twice",
        file_with(attacker("ogre", 5, 5, order=["small", "big", "small"]), *FIVE[1:], rules=M10),
        "permanents[0].order[2]",
        "small",
    ),
    (
        "a blocker's order missing an attacker",
        file_with(
            *WALL_OF_TWO[:2],
            blocker("wall", 3, 3, blocking=["elf", "bear"], order=["bear"]),
            rules=M11,
        ),
        "permanents[2].order",
        "elf",
    ),
    (
        "a blocker's order naming a creature it does not block",
        file_with(
            *WALL_OF_TWO[:2],
            attacker("ogre", 5, 5),
            blocker("wall", 3, 3, blocking=["elf", "bear"], order=["bear", "elf", "ogre"]),
            rules=M11,
        ),
        "permanents[3].order[2]",
        "509.3",
    ),
    (
        "a blocker's order listing an attacker twice",
        file_with(
            *WALL_OF_TWO[:2],
            blocker("wall", 3, 3, blocking=["elf", "bear"], order=["bear", "bear", "elf"]),
            rules=M11,
        ),
        "permanents[2].order[1]",
        "bear",
    ),
]


@pytest.mark.parametrize(
    "data, place, fragment", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_reading_error(data, place, fragment):
    with pytest.raises(ScenarioError) as caught:
        parse(data, "combat.json")
    matching = [p for p in caught.value.problems if p.place == place]
    assert matching, str(caught.value)
    assert any(fragment in p.message for p in matching), str(caught.value)


@pytest.mark.parametrize(
    "data, place, fragment", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_reading_error_exits_2_located(tmp_path, data, place, fragment):
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(data))
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", str(path)], out, err) == 2
    assert f"{path}: {place}: " in err.getvalue()
    assert fragment in err.getvalue()
    assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize(
    "data",
    [
        file_with(
            attacker("thrasta", 5, 5, "trample over planeswalkers", attacking="jace"),
            planeswalker("jace", 2),
            rules=FIRST_TOP,
        ),
        file_with(
            attacker("bear", 2, 2, attacking="siege"), battle("siege", 5), rules=FIRST_BATTLES
        ),
        file_with(attacker("ogre", 5, 5, order=["small", "big"]), *FIVE[1:], rules=LAST_ORDER),
        {**GOOD, "rules": M10},
    ],
    ids=[
        "trample over planeswalkers on its first day",
        "a battle on its first day",
        "an order on the last order day",
        "the first modelled day",
    ],
)
def test_accepted_on_the_first_day(data):
    parse(data)


# ---------------------------------------------------------------------------------------------
# The command line.


def _write(tmp_path, data) -> str:
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_check_names_the_edition_in_force(tmp_path):
    path = _write(
        tmp_path,
        file_with(
            *CRAW, rules=MID_M10, assignment=[("wurm", "wall", 2), ("wurm", "cadet", 4), *CRAW_BACK]
        ),
    )
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", path], out, err) == 1
    text = out.getvalue()
    assert MID_M10 in text
    # In force on 2010-01-01: an edition of the span 2009-10-01 .. 2010-07-15 (M10 deathtouch;
    # from 2009-10-01, prevention is numbered 615).
    assert "2009-10-01" in text and LAST_M10 in text
    assert "510.1c" in text
    out = io.StringIO()
    assert main(["check", path, "--json"], out, io.StringIO()) == 1
    data = json.loads(out.getvalue())
    assert data["rules"] == MID_M10
    assert "2009-10-01" in data["edition"] and LAST_M10 in data["edition"]
    assert data["legal"] is False
    assert {v["rule"] for v in data["violations"]} == {"510.1c"}


def test_check_lists_the_orders_it_found(tmp_path):
    path = _write(
        tmp_path,
        file_with(
            *FIVE,
            rules=MID_702_19,
            assignment=[("ogre", "small", 1), ("ogre", "big", 4), *FIVE_BACK],
        ),
    )
    out = io.StringIO()
    assert main(["check", path, "--json"], out, io.StringIO()) == 0
    data = json.loads(out.getvalue())
    assert data["rules"] == MID_702_19
    assert FIRST_702_19 in data["edition"]
    assert [(o["source"], o["rule"], o["legal"]) for o in data["orders"]] == [
        ("ogre", "509.2", [["big", "small"]])
    ]


def test_order_limit_1_with_an_open_order_of_three_is_undecided(tmp_path):
    path = _write(
        tmp_path,
        file_with(
            *SIX,
            rules=MID_702_19,
            assignment=[("ogre", "one", 1), ("ogre", "two", 2), ("ogre", "three", 3), *SIX_BACK],
        ),
    )
    for extra in ([], ["--json"]):
        out, err = io.StringIO(), io.StringIO()
        assert main(["check", path, "--order-limit", "1", *extra], out, err) == 3
        assert "Traceback" not in err.getvalue()
        assert "order" in err.getvalue()
        assert "more than 1 order" in err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", path, "--order-limit", "6"], out, err) == 0, err.getvalue()


def test_a_creature_with_no_power_has_no_order_to_try(tmp_path):
    """510.1a: a creature with power 0 assigns no combat damage, so its order (509.2) is
    never chosen between: it costs nothing against --order-limit, and none is reported."""
    path = _write(
        tmp_path,
        file_with(attacker("ogre", 0, 6), *SIX[1:], rules=MID_702_19, assignment=SIX_BACK),
    )
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", path, "--order-limit", "1", "--json"], out, err) == 0, err.getvalue()
    assert json.loads(out.getvalue())["orders"] == []
    for query in (["possible"], ["guarantee", "--to", "ogre"]):
        err = io.StringIO()
        assert main([*query, path, "--order-limit", "1"], io.StringIO(), err) == 0, err.getvalue()


@pytest.mark.parametrize(
    "keyword, before, first, rule",
    [
        ("infect", "2010-09-30", "2010-10-01", "702.87"),  # Scars of Mirrodin; 702.90 today
        ("toxic 2", "2023-02-02", "2023-02-03", "702.164"),  # Phyrexia: All Will Be One
    ],
)
def test_infect_and_toxic_do_not_exist_before_their_first_edition(keyword, before, first, rule):
    """The scenario format: a keyword that does not exist yet on the file's date is an error
    naming the first edition that has it; from that edition on, the file reads."""

    def data(rules):
        return scenario_file(attacker("germ", 1, 1, keyword), rules=rules)

    with pytest.raises(ScenarioError) as caught:
        parse(data(before))
    (problem,) = caught.value.problems
    assert problem.place == "permanents[0].keywords[0]"
    assert problem.message == (
        f"'{keyword}' does not exist yet in the rules in force on {before}: it exists from the "
        f"edition of {first} on (CR {rule})"
    )
    assert parse(data(first)).permanent("germ").keywords
