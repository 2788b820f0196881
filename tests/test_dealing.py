"""Dealing damage: every outcome the affected players can choose, against the reference."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from lethal import parse
from lethal.cli import main
from lethal.rules.dealing import deal

from . import reference
from .strategies import WOLVES, scenarios


@st.composite
def dealt_combats(draw):
    """Small combats with a legal assignment, and effects aimed at its damage."""
    data = draw(scenarios(max_power=3))
    for p in data["permanents"]:
        if "creature" in p["types"] and draw(st.integers(0, 3)) == 0:
            p.setdefault("keywords", []).append("protection from " + WOLVES)
    combat = parse(data)
    legal = list(reference.legal_assignments(combat)) if _small(combat) else []
    assume(any(legal))
    entries = draw(st.sampled_from([e for e in legal if e]))
    sources = sorted({e.source for e in entries})
    recipients = sorted({e.to for e in entries})
    effects = []
    for n in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["prevent", "double", "add"]))
        effect = {"id": f"e{n}", "kind": kind}
        if kind == "prevent":
            effect.update(amount=draw(st.integers(1, 4)), to=draw(st.sampled_from(recipients)))
        else:
            if kind == "add":
                effect["amount"] = draw(st.integers(1, 2))
            if draw(st.booleans()):
                effect["sources"] = [draw(st.sampled_from(sources))]
            if draw(st.booleans()):
                effect["recipients"] = [draw(st.sampled_from(recipients))]
        effects.append(effect)
    data["effects"] = effects
    data["assignment"] = [{"source": e.source, "to": e.to, "amount": e.amount} for e in entries]
    combat = parse(data)
    steps = sum(len(reference._effects_on(combat, e.source, e.to)) for e in entries)
    assume(steps <= 6)  # the reference tries every interleaving
    return combat


def _small(combat) -> bool:
    size = 1
    for p in combat.permanents:
        if p.is_creature:
            size *= len(reference.divisions(combat, p))
    return size <= 2000


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(dealt_combats())
def test_deal_offers_exactly_the_outcomes_the_reference_reaches(combat):
    entries = list(combat.assignment)
    expected = reference.dealt_outcomes(combat, entries)
    event("a choice" if len(expected) > 1 else "no choice")
    found = set()
    for outcome in deal(combat):
        amounts = {(e.source, e.to): e.amount for e in outcome.dealt}
        dealt = tuple(amounts.get((e.source, e.to), 0) for e in entries)
        found.add((dealt, frozenset(r.id for r in outcome.removed)))
    assert found == expected


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
