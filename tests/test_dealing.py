"""Dealing damage: every outcome the affected players can choose, against the reference."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from math import factorial

import pytest
from hypothesis import HealthCheck, assume, event, given, note, settings
from hypothesis import strategies as st

from lethal import parse
from lethal.cli import main
from lethal.rules.dealing import deal

from . import reference
from .build import attacker, battle, blocker, creature_planeswalker, scenario_file
from .strategies import effects, scenarios, with_results

# Random combats often give protection from a quality nothing has: a warning, rightly.
pytestmark = pytest.mark.filterwarnings("ignore::lethal.errors.ScenarioWarning")


@st.composite
def dealt_combats(draw):
    """Small combats with a legal assignment, every keyword and player's field that changes
    what damage does, and effects aimed at the assignment's damage."""
    data = draw(with_results(draw(scenarios(max_power=3))))
    combat = parse(data)
    legal = list(reference.legal_assignments(combat)) if _small(combat) else []
    assume(any(legal))
    entries = draw(st.sampled_from([e for e in legal if e]))
    sources = sorted({e.source for e in entries})
    recipients = sorted({e.to for e in entries})
    data["effects"] = draw(effects(sources, recipients, most=4))
    data["assignment"] = [{"source": e.source, "to": e.to, "amount": e.amount} for e in entries]
    combat = parse(data)
    note(json.dumps(data))
    assume(_orders_to_try(combat, entries) <= 2000)  # the reference tries every interleaving
    return combat


def _orders_to_try(combat, entries) -> int:
    """How many orders of effects the reference tries: each recipient's on their own."""
    total = 1
    for to in {e.to for e in entries}:
        steps = sum(len(reference._effects_on(combat, e.source, to)) for e in entries if e.to == to)
        total *= factorial(steps)
    return total


def _small(combat) -> bool:
    size = 1
    for p in combat.permanents:
        if p.is_creature:
            size *= len(reference.divisions(combat, p))
    return size <= 2000


def _key(combat, outcome: reference.Dealt) -> reference.Dealt:
    """The outcome with who loses and what is removed, without the rules that say so (one
    is reported, and several may hold: they are compared apart); and with its effects by
    what they are rather than by their ids: lethal gives outcomes up to which of two
    identical effects is which (what is left of each shield, which "once" prevention ended)."""
    alike = {
        e.id: (e.kind, e.amount, e.to, e.sources, e.recipients, e.once) for e in combat.effects
    }
    return replace(
        outcome,
        loses=tuple(p for p, _ in outcome.loses),
        removed=tuple(p for p, _ in outcome.removed),
        shields=tuple(sorted((repr(alike[id]), left) for id, left in outcome.shields)),
        ended=tuple(sorted(repr(alike[id]) for id in outcome.ended)),
    )


def as_reference(entries, outcome) -> reference.Dealt:
    """lethal's outcome in the reference's terms: the damage dealt by each entry, in order,
    and every other value as sorted (id, value) pairs, each rule reported as a 1-tuple."""
    amounts = {(e.source, e.to): e.amount for e in outcome.dealt}
    return reference.Dealt(
        dealt=tuple(amounts.get((e.source, e.to), 0) for e in entries),
        life=tuple(sorted(outcome.life.items())),
        gained=tuple(sorted(outcome.gained.items())),
        poison=tuple(sorted(outcome.poison.items())),
        loses=tuple(sorted((p, (rule,)) for p, rule in outcome.loses.items())),
        damage=tuple(sorted(outcome.damage.items())),
        counters=tuple(sorted(outcome.counters.items())),
        toughness=tuple(sorted(outcome.toughness.items())),
        loyalty=tuple(sorted(outcome.loyalty.items())),
        defense=tuple(sorted(outcome.defense.items())),
        removed=tuple(sorted((r.id, (r.rule,)) for r in outcome.removed)),
        regenerated=tuple(sorted(outcome.regenerated)),
        shields=tuple(sorted(outcome.shields.items())),
        ended=tuple(sorted(outcome.ended)),
    )


def assert_same_outcomes(combat, entries, outcomes) -> None:
    """lethal's outcomes are the reference's: the same set, and each rule lethal reports
    for a loss or a removal is one that holds."""
    expected = {_key(combat, o): o for o in reference.dealt_outcomes(combat, entries)}
    found = {}
    for outcome in outcomes:
        mine = as_reference(entries, outcome)
        found[_key(combat, mine)] = mine
    assert set(found) == set(expected)
    for key, mine in found.items():
        theirs = expected[key]
        for field in ("loses", "removed"):
            holds = dict(getattr(theirs, field))
            for id, (rule,) in getattr(mine, field):
                assert rule in holds[id], (field, id, rule, holds[id])


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(dealt_combats())
def test_deal_offers_exactly_the_outcomes_the_reference_reaches(combat):
    entries = list(combat.assignment)
    outcomes = list(deal(combat))
    event("a choice" if len(outcomes) > 1 else "no choice")
    for name in _features(combat, entries):
        event(name)
    for outcome in reference.dealt_outcomes(combat, entries):
        for name in _happened(outcome):
            event(name)
    assert_same_outcomes(combat, entries, outcomes)


def _happened(outcome: reference.Dealt) -> list[str]:
    """What some outcome of the example does, for Hypothesis' statistics."""
    names = {"loses " + rule for _, rules in outcome.loses for rule in rules}
    names |= {"removed " + rule for _, rules in outcome.removed for rule in rules}
    names |= {"regenerated" for _ in outcome.regenerated} | {"once ended" for _ in outcome.ended}
    names |= {"counters" for _, n in outcome.counters if n} | {
        "gained" for _, n in outcome.gained if n
    }
    return sorted(names)


def _features(combat, entries) -> list[str]:
    """What the example exercises, for Hypothesis' statistics."""
    names = set()
    for e in entries:
        names |= {k for k in combat.permanent(e.source).keywords.plain}
        if combat.permanent(e.source).keywords.toxic:
            names.add("toxic")
        if reference._protected(combat, e.source, e.to):
            names.add("protected")
    names |= {"effect " + e.kind + (" once" if e.once else "") for e in combat.effects}
    names |= {"regeneration" for p in combat.permanents if p.regeneration_shields}
    return sorted(names)


def test_shield_and_doubler_the_affected_player_chooses_the_order():
    """615, 616.1, 701.10g: D chooses; shield first is 2 less, doubled; doubler first is
    2 less than double."""
    combat = parse(
        {
            "players": [{"id": "A"}, {"id": "D", "life": 20}],
            "active_player": "A",
            "permanents": [
                {
                    "id": "rhino",
                    "controller": "A",
                    "types": ["creature"],
                    "power": 5,
                    "toughness": 5,
                    "attacking": "D",
                }
            ],
            "effects": [
                {"id": "shield", "kind": "prevent", "amount": 2, "to": "D"},
                {"id": "dictate", "kind": "double"},
            ],
            "assignment": [{"source": "rhino", "to": "D", "amount": 5}],
        }
    )
    outcomes = {o.choices: o.life["D"] for o in deal(combat)}
    assert outcomes == {
        ("D chooses shield on rhino's damage, then dictate on rhino's damage",): 20 - 6,
        ("D chooses dictate on rhino's damage, then shield on rhino's damage",): 20 - 8,
    }


@pytest.mark.parametrize(
    "qualities, rule, exiled", [(["Siege"], "310.11b", True), ([], "704.5v", False)]
)
def test_a_siege_at_no_defense_is_exiled_by_its_own_ability(qualities, rule, exiled):
    """310.7, 310.11b: a battle with no defense left goes to the graveyard (704.5v), unless
    an ability of its own has triggered: a Siege's, which exiles it."""
    data = scenario_file(
        {**attacker("rhino", 3, 3), "attacking": "siege"},
        battle("siege", 3, protector="D", qualities=qualities),
        assignment=[("rhino", "siege", 3)],
    )
    (outcome,) = deal(parse(data), parse(data).assignment)
    assert [(r.id, r.rule, r.exiled) for r in outcome.removed] == [("siege", rule, exiled)]


@pytest.mark.parametrize("qualities", [["Siege"], []])
def test_a_creature_battle_dealt_lethal_damage_is_put_into_the_graveyard_once(qualities):
    """A creature battle dealt lethal damage that takes its last defense counter: 704.5g
    puts it into the graveyard (a Siege's ability, 310.11b, then finds it gone), and it is
    removed once, however many state-based actions apply (704.3)."""
    siege = {
        **battle("sc", 2, qualities=qualities),
        "types": ["creature", "battle"],
        "power": 1,
        "toughness": 2,
    }
    data = scenario_file(
        siege, {**attacker("x", 3, 3), "attacking": "sc"}, assignment=[("x", "sc", 3)]
    )
    (outcome,) = deal(parse(data))
    assert [(r.id, r.rule, r.exiled) for r in outcome.removed] == [("sc", "704.5g", False)]


@pytest.mark.parametrize("attacked, blocking", [(True, False), (False, True)])
def test_regeneration_removes_from_combat_only_a_creature_in_combat_701_19a(
    attacked, blocking, tmp_path
):
    """A creature planeswalker that was attacked, regenerated, stays where it is (701.19a:
    an attacking or blocking creature leaves combat); a regenerated blocker leaves it."""
    gid = creature_planeswalker("gid", 2, 2, 5, regeneration_shields=1)
    if blocking:
        gid["blocking"] = ["x"]
    x = {**attacker("x", 3, 3), "attacking": "gid" if attacked else "D"}
    back = [("gid", "x", 2)] if blocking else []
    data = scenario_file(gid, x, assignment=[("x", "gid", 3), *back])
    (outcome,) = deal(parse(data))
    assert outcome.regenerated == ("gid",)
    path = tmp_path / "gid.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    assert main(["deal", str(path), "--json"], stdout=out, stderr=io.StringIO()) == 0
    (regenerated,) = json.loads(out.getvalue())["outcomes"][0]["regenerated"]
    left = regenerated["why"].endswith(", removed from combat")
    assert left == blocking and regenerated["why"].startswith("tapped, all damage removed")


def test_protection_from_a_player_prevents_the_damage_of_what_they_control_702_16k():
    """True-Name Nemesis, with protection from D, blocked by D's 2/2: the 2/2's damage to it
    is prevented, its own is dealt; its controller A's other creatures are no source of D's."""
    data = scenario_file(
        attacker("nemesis", 3, 1, "protection from D"),
        blocker("bear", 2, 2, blocking=["nemesis"]),
        assignment=[("nemesis", "bear", 3), ("bear", "nemesis", 2)],
    )
    (outcome,) = deal(parse(data), parse(data).assignment)
    assert [(e.source, e.to, e.amount) for e in outcome.dealt] == [("nemesis", "bear", 3)]
    assert [r.id for r in outcome.removed] == ["bear"]


@pytest.mark.parametrize(
    "protection",
    [
        "protection from each color",
        "protection from all colors",
        "protection from blue and from red",
    ],
)
def test_protection_from_each_color_or_from_two_is_one_for_each_quality_702_16g_h(protection):
    """A red lifelinking 5/5 blocked by a 3/3 with protection from each color (or all colors,
    or blue and red): all its damage is prevented, so it gains nothing and the 3/3 lives."""
    data = scenario_file(
        {**attacker("dragon", 5, 5, "lifelink"), "qualities": ["red"]},
        blocker("angel", 3, 3, protection, blocking=["dragon"]),
        assignment=[("dragon", "angel", 5), ("angel", "dragon", 3)],
    )
    (outcome,) = deal(parse(data), parse(data).assignment)
    assert [(e.source, e.to) for e in outcome.dealt] == [("angel", "dragon")]
    assert outcome.removed == () and outcome.gained == {"A": 0, "D": 0}


def test_state_based_actions_respect_indestructible_and_deathtouch():
    combat = parse(
        {
            "players": [{"id": "A"}, {"id": "D"}],
            "active_player": "A",
            "permanents": [
                {
                    "id": "asp",
                    "controller": "A",
                    "types": ["creature"],
                    "power": 2,
                    "toughness": 1,
                    "keywords": ["deathtouch"],
                    "attacking": "D",
                },
                {
                    "id": "saint",
                    "controller": "D",
                    "types": ["creature"],
                    "power": 1,
                    "toughness": 5,
                    "keywords": ["indestructible"],
                    "blocking": ["asp"],
                },
                {
                    "id": "ox",
                    "controller": "D",
                    "types": ["creature"],
                    "power": 0,
                    "toughness": 5,
                    "blocking": ["asp"],
                },
            ],
            "assignment": [
                {"source": "asp", "to": "saint", "amount": 1},
                {"source": "asp", "to": "ox", "amount": 1},
                {"source": "saint", "to": "asp", "amount": 1},
            ],
        }
    )
    (outcome,) = deal(combat)
    assert {(r.id, r.rule) for r in outcome.removed} == {("ox", "704.5h"), ("asp", "704.5g")}


def test_deal_json(tmp_path):
    path = tmp_path / "combat.json"
    path.write_text(
        json.dumps(
            {
                "players": [{"id": "A"}, {"id": "D", "life": 3}],
                "active_player": "A",
                "permanents": [
                    {
                        "id": "bear",
                        "controller": "A",
                        "types": ["creature"],
                        "power": 3,
                        "toughness": 3,
                        "attacking": "D",
                    }
                ],
                "assignment": [{"source": "bear", "to": "D", "amount": 3}],
            }
        )
    )
    out = io.StringIO()
    assert main(["deal", str(path), "--json"], stdout=out, stderr=io.StringIO()) == 0
    (outcome,) = json.loads(out.getvalue())["outcomes"]
    assert outcome["players"] == [
        {"id": "A", "life": None, "gained": 0, "poison": 0, "loses": False},
        {"id": "D", "life": 0, "gained": 0, "poison": 0, "loses": True, "rule": "704.5a"},
    ]


def test_shields_limited_to_different_sources_are_not_interchangeable():
    """616.1, 615.7: A chooses which shield meets the wall's 1 damage to the bear: the one
    limited to the wall, or the one for any source; what is left differs (the second step's
    damage from another source meets only the second). lethal took them as alike, being of
    one amount, and offered only the first in the file."""
    combat = parse(
        {
            "players": [{"id": "A"}, {"id": "D"}],
            "active_player": "A",
            "permanents": [
                {
                    "id": "bear",
                    "controller": "A",
                    "types": ["creature"],
                    "power": 2,
                    "toughness": 2,
                    "attacking": "D",
                },
                {
                    "id": "wall",
                    "controller": "D",
                    "types": ["creature"],
                    "power": 1,
                    "toughness": 3,
                    "blocking": ["bear"],
                },
            ],
            "effects": [
                {"id": "any", "kind": "prevent", "amount": 1, "to": "bear"},
                {"id": "wall's", "kind": "prevent", "amount": 1, "to": "bear", "sources": ["wall"]},
            ],
            "assignment": [
                {"source": "bear", "to": "wall", "amount": 2},
                {"source": "wall", "to": "bear", "amount": 1},
            ],
        }
    )
    kept = {tuple(sorted(o.shields.items())) for o in deal(combat)}
    assert kept == {(("any", 0), ("wall's", 1)), (("any", 1), ("wall's", 0))}
    assert_same_outcomes(combat, list(combat.assignment), deal(combat))


def test_a_prevention_of_all_first_leaves_a_next_time_prevention_unused():
    """616.1f: after the Fog prevents the 1 damage, the Circle no longer applies (there is no
    damage left that would be dealt), so it waits; D may also choose the Circle first, which
    then ends."""
    combat = parse(
        {
            "players": [{"id": "A"}, {"id": "D"}],
            "active_player": "A",
            "permanents": [
                {
                    "id": "knight",
                    "controller": "A",
                    "types": ["creature"],
                    "power": 1,
                    "toughness": 1,
                    "attacking": "D",
                }
            ],
            "effects": [
                {"id": "fog", "kind": "prevent"},
                {"id": "circle", "kind": "prevent", "to": "D", "once": True},
            ],
            "assignment": [{"source": "knight", "to": "D", "amount": 1}],
        }
    )
    assert {o.ended for o in deal(combat)} == {(), ("circle",)}
    assert_same_outcomes(combat, list(combat.assignment), deal(combat))
