"""The library's properties across editions (proofs/editions.py): each false claim's
counterexample is written as one file per edition, and `lethal check` judges its assignment
legal under one edition and illegal under the other, as the claim's texts say it must."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lethal import check, load
from lethal.proving.library import collect
from lethal.proving.prover import REFUTED, prove

# Each false claim: the edition whose file's assignment is legal, the one where it is not
# (the claim is "legal under the first implies legal under the second").
INCOMPARABLE = {
    "every_assignment_legal_today_was_legal_before_foundations": ("current", "2024-07-30"),
    "every_assignment_legal_under_m10_is_legal_under_m11": ("2009-07-11", "2010-07-16"),
    "every_assignment_legal_under_m11_is_legal_under_m10": ("2010-07-16", "2009-07-11"),
}


def _refuted(name: str, out: Path) -> list[Path]:
    (prop,) = collect([], name)
    result = prove(prop, 60, out)
    assert result.verdict == REFUTED, result.reason
    assert not result.reason  # the smallest counterexample, not merely one
    return [Path(p) for p in result.counterexamples]


def _rules(path: Path) -> str:
    return json.loads(path.read_text()).get("rules", "current")


@pytest.mark.parametrize("name", sorted(INCOMPARABLE))
def test_the_counterexample_is_legal_under_one_edition_and_not_the_other(name, tmp_path):
    allows, forbids = INCOMPARABLE[name]
    files = {_rules(p): p for p in _refuted(name, tmp_path)}
    assert set(files) == {allows, forbids}
    assert check(load(files[allows])).legal
    assert not check(load(files[forbids])).legal


def test_the_smallest_counterexample_to_the_converse_of_foundations_is_one_order(tmp_path):
    """Three creatures: one blocking (or blocked by) two, which assigns its damage to the
    second of its order with none to the first (CR 510.1c-d of 2024-07-30)."""
    files = _refuted("every_assignment_legal_today_was_legal_before_foundations", tmp_path)
    (ordered,) = [p for p in files if _rules(p) == "2024-07-30"]
    data = json.loads(ordered.read_text())
    assert len(data["permanents"]) == 3
    (chooser,) = [p for p in data["permanents"] if "order" in p]
    ((source, to),) = [(e["source"], e["to"]) for e in data["assignment"]]
    assert source == chooser["id"] and to == chooser["order"][1]
