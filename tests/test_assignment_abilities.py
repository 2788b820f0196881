"""The two abilities that change the assignment (issue 11): a creature that assigns combat
damage equal to its toughness (Doran, the Siege Tower; 510.1a) and one that may assign its
combat damage as though it weren't blocked (Thorn Elemental; 510.1b-c, the Rhox rulings of
2018-04-27).

The rows are T1-T6 and U1-U10 of docs/notes/damage-results-rulings.md (sections 6-7), and a
few more from the rulings and docs/readings.md. Each assignment row is judged three ways, as
in test_worked_examples: by `lethal.check` (which must name the rules broken), by the solver
and by the brute-force reference; the queries on each combat agree with the reference.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field

import pytest

from lethal import check, count, guarantee, maximum, minimum, parse, possible
from lethal.cli import main
from lethal.rules.dealing import deal
from lethal.solver import is_legal as solver_says_legal
from lethal.whole_combat import after

from . import reference
from .build import (
    attacker,
    battle,
    blocker,
    creature_planeswalker,
    entries,
    planeswalker,
    scenario,
    scenario_file,
)

DORAN = "assigns combat damage equal to its toughness"
THORN = "may assign combat damage as though it weren't blocked"
ORDERS = "2020-01-01"  # an edition with a damage assignment order


@dataclass
class Row:
    name: str
    permanents: list
    assignment: list
    broken: tuple = ()  # the CR subrules the check must name; empty means legal
    top: dict = field(default_factory=dict)


def row(name, permanents, assignment, broken=(), **top) -> Row:
    return Row(name, permanents, assignment, tuple(broken), top)


# T1: a 0/5 with Doran's effect, unblocked.
ZERO_FIVE = [attacker("wall", 0, 5, DORAN)]
# T2: a 1/4 with it, blocked by a 3/3.
BLOCKED_ONE_FOUR = [attacker("kid", 1, 4, DORAN), blocker("ogre", 3, 3, blocking=["kid"])]
# T3: a 2/6 trampler with it, blocked by a 2/2.
TRAMPLING_TWO_SIX = [
    attacker("brute", 2, 6, DORAN, "trample"),
    blocker("bear", 2, 2, blocking=["brute"]),
]
# T6: the defending player's 0/4 wall with it (Doran affects both sides) blocks a 3/3.
DORAN_WALL = [attacker("rhino", 3, 3), blocker("wall", 0, 4, DORAN, blocking=["rhino"])]

# U1: Thorn Elemental (7/7) blocked by a 2/2.
THORN_BEAR = [attacker("thorn", 7, 7, THORN), blocker("bear", 2, 2, blocking=["thorn"])]
# U2: with trample.
TRAMPLING_THORN = [
    attacker("thorn", 7, 7, THORN, "trample"),
    blocker("bear", 2, 2, blocking=["thorn"]),
]
# U3: blocked by two 3/3s.
TWO_BLOCKERS = [
    attacker("thorn", 7, 7, THORN),
    blocker("ogre", 3, 3, blocking=["thorn"]),
    blocker("troll", 3, 3, blocking=["thorn"]),
]
# U4: attacking the defending player's planeswalker (loyalty 4), blocked by a 2/2.
AT_A_PLANESWALKER = [
    attacker("thorn", 7, 7, THORN, attacking="jace"),
    blocker("bear", 2, 2, blocking=["thorn"]),
    planeswalker("jace", 4),
]
# U5: blocked by a 1/1 with banding.
BANDING_BLOCKER = [
    attacker("thorn", 7, 7, THORN),
    blocker("knight", 1, 1, "banding", blocking=["thorn"]),
]
# U6: a blocked creature whose blockers have all left combat.
NO_BLOCKERS_LEFT = [attacker("thorn", 7, 7, THORN, blocked=True)]
# U9: attacking a planeswalker removed from combat, blocked by a 2/2.
REMOVED_PLANESWALKER = [
    attacker("thorn", 7, 7, THORN, attacking="jace"),
    blocker("bear", 2, 2, blocking=["thorn"]),
    planeswalker("jace", 4, removed_from_combat=True),
]
# U10: attacking a battle (defense 5) the defending player protects, blocked.
AT_A_BATTLE = [
    attacker("thorn", 7, 7, THORN, attacking="siege"),
    blocker("bear", 2, 2, blocking=["thorn"]),
    battle("siege", 5),
]
# Open question 3: with trample over planeswalkers, attacking a planeswalker.
THRASTA_THORN = [
    attacker("thorn", 7, 7, THORN, "trample over planeswalkers", attacking="jace"),
    blocker("bear", 2, 2, blocking=["thorn"]),
    planeswalker("jace", 4),
]
# Under an edition with a damage assignment order, blocked by two creatures in order.
ORDERED = [
    attacker("thorn", 7, 7, THORN, order=["ogre", "troll"]),
    blocker("ogre", 3, 3, blocking=["thorn"]),
    blocker("troll", 3, 3, blocking=["thorn"]),
]
# A creature planeswalker blocks the creature attacking it, beside a 2/2.
PLANESWALKER_BLOCKS_THORN = [
    attacker("thorn", 7, 7, THORN, "trample over planeswalkers", attacking="nissa"),
    blocker("bear", 2, 2, blocking=["thorn"]),
    creature_planeswalker("nissa", 2, 2, 3, blocking=["thorn"]),
]

BLOCKERS_HIT_BACK = [("ogre", "thorn", 3), ("troll", "thorn", 3)]  # TWO_BLOCKERS, ORDERED

ROWS = [
    # 510.1a with Doran's effect.
    row(
        "T1 (510.1a): an unblocked 0/5 that assigns by toughness assigns 5",
        ZERO_FIVE,
        [("wall", "D", 5)],
    ),
    row(
        "T1 (510.1a): without the effect a 0/5 assigns nothing, so 5 is illegal",
        [attacker("wall", 0, 5)],
        [("wall", "D", 5)],
        ["510.1a"],
    ),
    row(
        "T1 (510.1a): a 0/5 that assigns by toughness may not assign nothing",
        ZERO_FIVE,
        [],
        ["510.1a"],
    ),
    row(
        "T2 (510.1a): a blocked 1/4 that assigns by toughness assigns 4 to its blocker",
        BLOCKED_ONE_FOUR,
        [("kid", "ogre", 4), ("ogre", "kid", 3)],
    ),
    row(
        "T2 (510.1a): assigning its power, 1, instead of its toughness is illegal",
        BLOCKED_ONE_FOUR,
        [("kid", "ogre", 1), ("ogre", "kid", 3)],
        ["510.1a"],
    ),
    row(
        "T3 (702.19b): a 2/6 trampler by toughness gives the 2/2 lethal 2 and 4 to the player",
        TRAMPLING_TWO_SIX,
        [("brute", "bear", 2), ("brute", "D", 4), ("bear", "brute", 2)],
    ),
    row(
        "T3 (702.19b): lethal damage is the blocker's toughness, so 1 and 5 is illegal",
        TRAMPLING_TWO_SIX,
        [("brute", "bear", 1), ("brute", "D", 5), ("bear", "brute", 2)],
        ["702.19b"],
    ),
    row(
        "T6 (510.1a): a blocking 0/4 wall under Doran's effect assigns 4 to the attacker",
        DORAN_WALL,
        [("rhino", "wall", 3), ("wall", "rhino", 4)],
    ),
    row(
        "T6 (510.1a): the wall under Doran's effect may not assign nothing",
        DORAN_WALL,
        [("rhino", "wall", 3)],
        ["510.1a"],
    ),
    # Thorn Elemental's ability.
    row(
        "U1 (Rhox a): Thorn may assign all 7 to the player",
        THORN_BEAR,
        [
            ("thorn", "D", 7),
            ("bear", "thorn", 2),
        ],
    ),
    row(
        "U1 (510.1c): Thorn may assign all 7 to its blocker",
        THORN_BEAR,
        [
            ("thorn", "bear", 7),
            ("bear", "thorn", 2),
        ],
    ),
    row(
        "U1 (Rhox a): without trample, 2 to the blocker and 5 to the player is illegal",
        THORN_BEAR,
        [("thorn", "bear", 2), ("thorn", "D", 5), ("bear", "thorn", 2)],
        ["510.1b-c"],
    ),
    row(
        "U1 (510.1a): as though unblocked it still assigns all of its damage",
        THORN_BEAR,
        [("thorn", "D", 5), ("bear", "thorn", 2)],
        ["510.1a"],
    ),
    row(
        "U1 (510.1c): without the ability, all 7 to the player is illegal",
        [attacker("thorn", 7, 7), blocker("bear", 2, 2, blocking=["thorn"])],
        [("thorn", "D", 7), ("bear", "thorn", 2)],
        ["510.1c"],
    ),
    *[
        row(
            f"U2 (702.19b, Rhox a): a trampling Thorn may assign {on_bear} to the blocker and "
            f"{7 - on_bear} to the player",
            TRAMPLING_THORN,
            [e for e in [("thorn", "bear", on_bear), ("thorn", "D", 7 - on_bear)] if e[2]]
            + [("bear", "thorn", 2)],
        )
        for on_bear in (0, 2, 3, 7)
    ],
    row(
        "U2 (702.19b): a trampling Thorn that puts 1 on the blocker must give it lethal damage",
        TRAMPLING_THORN,
        [("thorn", "bear", 1), ("thorn", "D", 6), ("bear", "thorn", 2)],
        ["702.19b"],
    ),
    row(
        "U3 (Rhox a): blocked by two, Thorn may assign all 7 to the player",
        TWO_BLOCKERS,
        [("thorn", "D", 7), *BLOCKERS_HIT_BACK],
    ),
    row(
        "U3 (510.1c): blocked by two, Thorn may divide 4 and 3 among them",
        TWO_BLOCKERS,
        [
            ("thorn", "ogre", 4),
            ("thorn", "troll", 3),
            *BLOCKERS_HIT_BACK,
        ],
    ),
    row(
        "U3 (510.1c): blocked by two, Thorn may put all 7 on one",
        TWO_BLOCKERS,
        [("thorn", "ogre", 7), *BLOCKERS_HIT_BACK],
    ),
    row(
        "U3 (Rhox a): 3 and 3 on the blockers and 1 to the player is illegal",
        TWO_BLOCKERS,
        [("thorn", "ogre", 3), ("thorn", "troll", 3), ("thorn", "D", 1), *BLOCKERS_HIT_BACK],
        ["510.1b-c"],
    ),
    row(
        "U4 (510.1b): attacking a planeswalker, Thorn may assign all 7 to it",
        AT_A_PLANESWALKER,
        [("thorn", "jace", 7), ("bear", "thorn", 2)],
    ),
    row(
        "U4 (510.1c): attacking a planeswalker, Thorn may assign all 7 to its blocker",
        AT_A_PLANESWALKER,
        [("thorn", "bear", 7), ("bear", "thorn", 2)],
    ),
    row(
        "U4 (702.19f): none of its damage goes to the planeswalker's controller",
        AT_A_PLANESWALKER,
        [("thorn", "D", 7), ("bear", "thorn", 2)],
        ["702.19f"],
    ),
    row(
        "U5 (702.22j, Rhox c): blocked by banding, the defending player may keep it all on "
        "the blocker",
        BANDING_BLOCKER,
        [("thorn", "knight", 7), ("knight", "thorn", 1)],
    ),
    row(
        "U5 (702.22j, Rhox c): blocked by banding, the defending player may send it all to "
        "themselves",
        BANDING_BLOCKER,
        [("thorn", "D", 7), ("knight", "thorn", 1)],
    ),
    row(
        "U6 (510.1b): no blockers left, Thorn may assign all 7 to the player",
        NO_BLOCKERS_LEFT,
        [("thorn", "D", 7)],
    ),
    row("U6 (510.1c): no blockers left, Thorn may assign nothing", NO_BLOCKERS_LEFT, []),
    row(
        "U6 (510.1a): no blockers left, Thorn may not assign part of its damage",
        NO_BLOCKERS_LEFT,
        [("thorn", "D", 3)],
        ["510.1a"],
    ),
    row(
        "U6 (510.1c): without the ability, a creature with no blockers left assigns nothing",
        [attacker("thorn", 7, 7, blocked=True)],
        [("thorn", "D", 7)],
        ["510.1c"],
    ),
    row(
        "U9 (510.1c): its planeswalker removed, Thorn may assign all 7 to its blocker",
        REMOVED_PLANESWALKER,
        [("thorn", "bear", 7), ("bear", "thorn", 2)],
    ),
    row(
        "U9 (506.4c): as though unblocked it attacks nothing, so it may assign nothing",
        REMOVED_PLANESWALKER,
        [("bear", "thorn", 2)],
    ),
    row(
        "U9 (506.4c): nothing to a planeswalker removed from combat",
        REMOVED_PLANESWALKER,
        [("thorn", "jace", 7), ("bear", "thorn", 2)],
        ["506.4c"],
    ),
    row(
        "U9 (702.19f): nothing to the removed planeswalker's controller",
        REMOVED_PLANESWALKER,
        [("thorn", "D", 7), ("bear", "thorn", 2)],
        ["702.19f"],
    ),
    row(
        "U10 (510.1b): attacking a battle, Thorn may assign all 7 to it",
        AT_A_BATTLE,
        [
            ("thorn", "siege", 7),
            ("bear", "thorn", 2),
        ],
    ),
    row(
        "U10 (510.1c): none of its damage goes to the battle's protector",
        AT_A_BATTLE,
        [("thorn", "D", 7), ("bear", "thorn", 2)],
        ["510.1c"],
    ),
    # Open question 3 (docs/readings.md): as though unblocked, trample over planeswalkers
    # follows 702.19c as for an unblocked creature.
    row(
        "reading (702.19c, Thrasta b): as though unblocked, a Thorn with trample over "
        "planeswalkers gives the planeswalker its loyalty, 4, and 3 to its controller",
        THRASTA_THORN,
        [("thorn", "jace", 4), ("thorn", "D", 3), ("bear", "thorn", 2)],
    ),
    row(
        "reading (702.19c): as though unblocked, its controller still waits for the loyalty",
        THRASTA_THORN,
        [("thorn", "jace", 3), ("thorn", "D", 4), ("bear", "thorn", 2)],
        ["702.19c"],
    ),
    row(
        "reading (702.19b): 1 on the blocker makes it the normal assignment, lethal first",
        THRASTA_THORN,
        [("thorn", "bear", 1), ("thorn", "jace", 4), ("thorn", "D", 2), ("bear", "thorn", 2)],
        ["702.19b"],
    ),
    row(
        "reading (702.19c): a creature planeswalker that blocks it and is attacked by it takes "
        "its loyalty, and the rest goes to its controller, the 2/2 aside",
        PLANESWALKER_BLOCKS_THORN,
        [("thorn", "nissa", 3), ("thorn", "D", 4), ("bear", "thorn", 2), ("nissa", "thorn", 2)],
    ),
    # The order editions (509.2, 510.1c): as though unblocked, no order binds it.
    row(
        "reading (510.1c, order editions): as though unblocked, Thorn follows no order",
        ORDERED,
        [("thorn", "D", 7), *BLOCKERS_HIT_BACK],
        rules=ORDERS,
    ),
    row(
        "510.1c (order editions): its normal assignment still follows its order",
        ORDERED,
        [("thorn", "troll", 7), *BLOCKERS_HIT_BACK],
        ["510.1c"],
        rules=ORDERS,
    ),
    # Both abilities at once: the toughness goes where the ability lets it.
    row(
        "510.1a with Rhox a: a blocked 0/7 with both abilities assigns 7 to the player",
        [attacker("ent", 0, 7, DORAN, THORN), blocker("bear", 2, 2, blocking=["ent"])],
        [("ent", "D", 7), ("bear", "ent", 2)],
    ),
    row(
        "unblocked, the ability changes nothing: all to the player",
        [attacker("thorn", 7, 7, THORN)],
        [("thorn", "D", 7)],
    ),
    row(
        "a blocker with the ability still assigns to the creature it blocks (510.1d)",
        [attacker("bear", 2, 2), blocker("thorn", 7, 7, THORN, blocking=["bear"])],
        [("bear", "thorn", 2), ("thorn", "A", 7)],
        ["510.1d"],
    ),
]


@pytest.mark.parametrize("r", ROWS, ids=[r.name for r in ROWS])
def test_row(r: Row):
    combat = scenario(*r.permanents, **r.top)
    assignment = entries(r.assignment)
    verdict = check(combat, assignment)
    assert sorted({v.rule for v in verdict.violations}) == sorted(set(r.broken)), [
        v.message for v in verdict.violations
    ]
    expected_legal = not r.broken
    assert solver_says_legal(combat, assignment) == expected_legal
    assert reference.is_legal(combat, assignment) == expected_legal


def test_row_names_are_unique_sentences():
    names = [r.name for r in ROWS]
    assert len(names) == len(set(names))


COMBATS = {
    "T1": ZERO_FIVE,
    "T2": BLOCKED_ONE_FOUR,
    "T3": TRAMPLING_TWO_SIX,
    "T6": DORAN_WALL,
    "U1": THORN_BEAR,
    "U2": TRAMPLING_THORN,
    "U3": TWO_BLOCKERS,
    "U4": AT_A_PLANESWALKER,
    "U5": BANDING_BLOCKER,
    "U6": NO_BLOCKERS_LEFT,
    "U9": REMOVED_PLANESWALKER,
    "U10": AT_A_BATTLE,
    "thrasta": THRASTA_THORN,
    "planeswalker blocks": PLANESWALKER_BLOCKS_THORN,
}


@pytest.mark.parametrize("name", COMBATS)
def test_queries_agree_with_the_reference(name):
    """The count, the most and least damage to the defending player and what the active
    player can be sure of, on each combat with its assignment left out."""
    combat = scenario(*COMBATS[name])
    legal = list(reference.legal_assignments(combat))
    assert count(combat).count == len(legal)
    to_player = [reference.damage_to(e, "D") for e in legal]
    assert maximum(combat, "D").value == max(to_player)
    assert minimum(combat, "D").value == min(to_player)
    assert guarantee(combat, "D").value == reference.guarantee(combat, "D")


@pytest.mark.parametrize("given", [True, False], ids=["order given", "order left open"])
def test_queries_agree_with_the_reference_under_an_order_edition(given):
    """509.2, 510.1c: with its order given or left open, Thorn's ways are counted alike."""
    permanents = (
        ORDERED if given else [{k: v for k, v in p.items() if k != "order"} for p in ORDERED]
    )
    combat = scenario(*permanents, rules=ORDERS)
    legal = list(reference.legal_assignments(combat))
    assert count(combat).count == len(legal)
    to_player = [reference.damage_to(e, "D") for e in legal]
    assert maximum(combat, "D").value == max(to_player) == 7
    assert guarantee(combat, "D").value == reference.guarantee(combat, "D") == 7


def test_t1_the_most_a_0_5_by_toughness_deals_the_player_is_5():
    """T1 (510.1a): the 0/5 assigns 5 or nothing else; without the effect, nothing."""
    assert maximum(scenario(*ZERO_FIVE), "D").value == 5
    assert minimum(scenario(*ZERO_FIVE), "D").value == 5
    assert maximum(scenario(attacker("wall", 0, 5)), "D").value == 0


def test_u1_thorn_decides_between_7_and_nothing_to_the_player():
    """U1 (Rhox a): the most to the player is 7, the least 0, and nothing between: two
    legal assignments, never a split."""
    combat = scenario(*THORN_BEAR)
    assert maximum(combat, "D").value == 7
    assert minimum(combat, "D").value == 0
    assert count(combat).count == 2
    assert not possible(combat, ["thorn->D >= 1", "thorn->bear >= 1"]).possible


def test_u2_a_trampling_thorn_has_its_normal_divisions_and_all_to_the_player():
    """U2 (702.19b, Rhox a): 2..7 on the blocker with the rest past it, or all 7 past it."""
    assert count(scenario(*TRAMPLING_THORN)).count == 6 + 1


def test_u6_no_blockers_left_gives_two_choices_and_one_without_the_ability():
    """U6 (510.1b-c): all to the player, or nothing; without the ability, only nothing."""
    assert count(scenario(*NO_BLOCKERS_LEFT)).count == 2
    assert count(scenario(attacker("thorn", 7, 7, blocked=True))).count == 1


def test_u5_the_defending_player_chooses_when_banding_blocks_thorn():
    """U5 (702.22j, Rhox c): the chooser reported is the defending player, who also chooses
    whether it assigns as though unblocked, so the active player can be sure of nothing."""
    combat = scenario(*BANDING_BLOCKER, assignment=[("thorn", "D", 7), ("knight", "thorn", 1)])
    chooser = {c.source: c for c in check(combat).choosers}["thorn"]
    assert (chooser.player, chooser.rule, chooser.as_though_unblocked) == ("D", "702.22j", True)
    combat = scenario(*BANDING_BLOCKER)
    assert guarantee(combat, "D").value == 0
    assert guarantee(scenario(*THORN_BEAR), "D").value == 7


def test_the_chooser_of_an_unblocked_or_blocking_creature_has_no_such_choice():
    """Only a blocked attacking creature has the choice; unblocked, or blocking, it has none."""
    combat = scenario(
        attacker("thorn", 7, 7, THORN),
        attacker("other", 7, 7, THORN),
        blocker("elf", 1, 1, THORN, blocking=["other"]),
        assignment=[("thorn", "D", 7), ("other", "elf", 7), ("elf", "other", 1)],
    )
    choosers = {c.source: c.as_though_unblocked for c in check(combat).choosers}
    assert choosers == {"thorn": False, "other": True, "elf": False}


def _check_cli(tmp_path, data, *flags) -> str:
    path = tmp_path / "thorn.json"
    path.write_text(json.dumps(data))
    stdout = io.StringIO()
    assert main(["check", str(path), *flags], stdout=stdout, stderr=io.StringIO()) == 0
    return stdout.getvalue()


def test_check_reports_who_chooses_as_though_unblocked_in_text_and_json(tmp_path):
    """U5: `lethal check` names the defending player (702.22j) and the choice."""
    data = scenario_file(*BANDING_BLOCKER, assignment=[("thorn", "D", 7), ("knight", "thorn", 1)])
    text = _check_cli(tmp_path, data)
    assert (
        "thorn   D  the defending player, as banding blocks it (CR 702.22j), and whether it "
        "assigns as though it weren't blocked (Rhox ruling of 2018-04-27)\n" in text
    )
    choosers = json.loads(_check_cli(tmp_path, data, "--json"))["choosers"]
    assert choosers[0] == {
        "source": "thorn",
        "player": "D",
        "rule": "702.22j",
        "as_though_unblocked": True,
    }
    assert choosers[1] == {"source": "knight", "player": "D", "rule": "510.1"}


def test_a_split_names_the_ruling_and_the_rule():
    """U1: the violation cites 510.1b-c and the Rhox ruling."""
    combat = scenario(*THORN_BEAR)
    (violation,) = check(
        combat, entries([("thorn", "bear", 2), ("thorn", "D", 5), ("bear", "thorn", 2)])
    ).violations
    assert violation.rule == "510.1b-c"
    assert "Rhox ruling of 2018-04-27" in violation.message
    assert "2 to bear" in violation.message


def test_t2_the_violation_speaks_of_toughness():
    combat = scenario(*BLOCKED_ONE_FOUR)
    (violation,) = check(combat, entries([("kid", "ogre", 1), ("ogre", "kid", 3)])).violations
    assert violation.message == "kid assigns 1, but it must assign exactly its toughness, 4"


# Dealing and the whole combat damage phase (--combat).


def _phase(*permanents):
    return parse(scenario_file(*permanents), whole_combat=True)


def test_t4_lifelink_gains_the_toughness_based_damage():
    """T4 (510.1a, 702.15b): a 1/4 lifelinker by toughness, unblocked: D loses 4, A gains 4."""
    data = scenario_file(
        attacker("cleric", 1, 4, DORAN, "lifelink"), assignment=[("cleric", "D", 4)]
    )
    data["players"] = [{"id": "A", "life": 20}, {"id": "D", "life": 20}]
    combat = parse(data)
    (outcome,) = deal(combat, combat.assignment)
    assert (outcome.life["A"], outcome.life["D"]) == (24, 16)


def test_t6_the_wall_by_toughness_destroys_the_3_3():
    """T6 (510.1a, 704.5g): 4 damage on the 3/3."""
    combat = scenario(*DORAN_WALL, assignment=[("rhino", "wall", 3), ("wall", "rhino", 4)])
    (outcome,) = deal(combat, combat.assignment)
    assert {r.id for r in outcome.removed} == {"rhino"}


def test_t5_toughness_lowered_by_wither_in_the_first_step_is_what_it_assigns_in_the_second():
    """T5 (510.1a, 702.80a, 120.3d): a 2/5 by toughness blocked by a 2/2 with first strike
    and wither: two -1/-1 counters make it 0/3, so in the second step it assigns 3."""
    permanents = [
        attacker("giant", 2, 5, DORAN),
        blocker("viper", 2, 2, "first strike", "wither", blocking=["giant"]),
    ]
    first = scenario(*permanents, step="first-strike")
    (outcome,) = deal(first, entries([("viper", "giant", 2)]))
    assert outcome.toughness["giant"] == 3
    second = after(first, outcome)
    assert check(second, entries([("giant", "viper", 3)])).legal
    (violation,) = check(second, entries([("giant", "viper", 5)])).violations
    assert violation.rule == "510.1a"
    assert maximum(_phase(*permanents), "viper", whole_combat=True).value == 3


def test_u7_double_strike_chooses_anew_in_each_step():
    """U7 (Zilortha ruling; Japanese MTG Wiki on Thorn Elemental): first 7 to the 2/2, then,
    with it gone, 7 to the player; or 7 to the player in both steps, 14."""
    permanents = [
        attacker("thorn", 7, 7, THORN, "double strike"),
        blocker("bear", 2, 2, blocking=["thorn"]),
    ]
    first = scenario(*permanents, step="first-strike")
    (outcome,) = deal(first, entries([("thorn", "bear", 7)]))
    second = after(first, outcome)
    assert check(second, entries([("thorn", "D", 7)])).legal
    phase = _phase(*permanents)
    assert maximum(phase, "D", whole_combat=True).value == 14
    assert minimum(phase, "D", whole_combat=True).value == 0
    assert possible(phase, ["thorn->bear >= 7", "thorn->D >= 7"], whole_combat=True).possible


def test_u8_protection_on_the_blocker_does_not_close_the_option():
    """U8 (Rhox b, Zilortha): blocked by a 5/5 with protection from green, the green Thorn
    sends 7 to the player; the blocker still deals its 5 to Thorn."""
    combat = scenario(
        attacker("thorn", 7, 7, THORN, qualities=["green"]),
        blocker("knight", 5, 5, "protection from green", blocking=["thorn"]),
        assignment=[("thorn", "D", 7), ("knight", "thorn", 5)],
    )
    assert check(combat).legal
    (outcome,) = deal(combat, combat.assignment)
    assert {(e.source, e.to): e.amount for e in outcome.dealt} == {
        ("thorn", "D"): 7,
        ("knight", "thorn"): 5,
    }
    assert outcome.lost["D"] == 7
    assert outcome.damage["thorn"] == 5


def test_a_whole_combat_query_with_both_abilities_agrees_with_the_steps():
    """--combat: a first-striking Thorn by toughness, 1/6, blocked by a 2/2: 6 to the player
    in the first step (the 2/2 survives and deals 2 in the second), or 6 to the 2/2."""
    phase = _phase(
        attacker("thorn", 1, 6, THORN, DORAN, "first strike"),
        blocker("bear", 2, 2, blocking=["thorn"]),
    )
    assert maximum(phase, "D", whole_combat=True).value == 6
    assert minimum(phase, "D", whole_combat=True).value == 0
    assert maximum(phase, "thorn", whole_combat=True).value == 2
    assert minimum(phase, "thorn", whole_combat=True).value == 0
