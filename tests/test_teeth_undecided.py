"""A property the solver cannot decide, or that fails, catches nothing when a kind of
constraint is removed: it says nothing of whether the library tests the rule. Before, a
per-property --timeout too short to prove anything made the first property "catch" every
kind, and `lethal teeth` passed (exit 0)."""

from __future__ import annotations

import io
import json

from lethal.cli import main
from lethal.proving import teeth
from lethal.proving.library import collect
from lethal.proving.prover import ERROR, PROVED, REFUTED, UNKNOWN, Result


def _proved_as(verdicts: dict[str, str]):
    """prove_all, each property given the verdict named for it (else its expected one)."""

    def prove_all(properties, timeout, out, jobs=1):
        for p in properties:
            expected = PROVED if p.expected == "holds" else REFUTED
            yield Result(p, verdicts.get(p.name, expected), 0.0)

    return prove_all


def _library(monkeypatch, verdicts: dict[str, str]):
    chosen = collect([])[:3]
    monkeypatch.setattr(teeth, "collect", lambda paths: chosen)
    monkeypatch.setattr(teeth, "bundled_examples", lambda: [])  # no example catches anything
    monkeypatch.setattr(teeth, "prove_all", _proved_as(verdicts))
    return [p.name for p in chosen]


def test_undecided_properties_catch_nothing_and_the_kind_is_undecided(monkeypatch):
    names = _library(monkeypatch, {})
    first, second, _ = names
    monkeypatch.setattr(teeth, "prove_all", _proved_as({first: UNKNOWN, second: ERROR}))
    bites = teeth.bite(1)
    for b in bites:
        assert not b.caught and b.properties == ()
        assert b.undecided == ((first, UNKNOWN), (second, ERROR))
        assert b.status == "undecided" and b.not_proved == 0
    assert teeth.exit_status(bites) == "undecided"
    assert "UNDECIDED" in teeth.table(bites) and "NOT CAUGHT" not in teeth.table(bites)


def test_a_definite_change_after_an_undecided_one_still_catches(monkeypatch):
    first, second, third = _library(monkeypatch, {})
    expected = {p.name: p.expected for p in collect([])}
    flipped = REFUTED if expected[second] == "holds" else PROVED
    monkeypatch.setattr(teeth, "prove_all", _proved_as({first: UNKNOWN, second: flipped}))
    bites = teeth.bite(1)
    assert all(b.properties == (second,) and b.caught for b in bites)
    assert all(b.undecided == ((first, UNKNOWN),) and b.not_proved == 1 for b in bites)
    assert teeth.exit_status(bites) == "caught"


def test_every_property_decided_and_none_noticing_is_not_caught(monkeypatch):
    _library(monkeypatch, {})
    bites = teeth.bite(1)
    assert all(b.status == "not caught" for b in bites)
    assert teeth.exit_status(bites) == "not caught"


def test_the_command_exits_3_when_a_kind_is_undecided(monkeypatch):
    first, _, _ = _library(monkeypatch, {})
    monkeypatch.setattr(teeth, "prove_all", _proved_as({first: UNKNOWN}))
    out = io.StringIO()
    assert main(["teeth", "--json", "--timeout", "1"], out, io.StringIO()) == 3
    kinds = json.loads(out.getvalue())
    assert all(k["status"] == "undecided" and not k["caught"] for k in kinds)
    assert all(k["undecided"] == [{"property": first, "verdict": UNKNOWN}] for k in kinds)
