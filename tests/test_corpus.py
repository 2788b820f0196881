"""The conformance corpus: each file re-checks as its manifest says, the corpus is the same
every time, and each kind of constraint and each keyword that decides an assignment is
caught: without it, some file's answer changes."""

from __future__ import annotations

import json
import shutil
import warnings

import pytest

from lethal import check, parse
from lethal import rules as rule_kinds
from lethal.cli import main
from lethal.conformance.judging import judge_deal
from lethal.editions import in_force
from lethal.proving import corpus
from lethal.report import outcome_json
from lethal.rules.dealing import deal

from .test_conform import engine

ORDERS = "2020-01-01"  # an edition with damage assignment orders


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The current rules' corpus and one with orders, each written once for the module."""
    made = {}
    for rules in ("current", ORDERS):
        out = tmp_path_factory.mktemp(f"corpus-{rules}")
        made[rules] = (out, corpus.write(out, rules))
    return made


def read(out) -> dict:
    """The manifest as an engine in another language reads it: plain JSON."""
    return json.loads((out / corpus.MANIFEST).read_text())


@pytest.mark.parametrize("rules", ["current", ORDERS])
def test_every_file_reads_and_checks_as_its_manifest_says(written, rules):
    out, _ = written[rules]
    manifest = read(out)
    assert manifest["format"] == "lethal-corpus/1" and manifest["rules"] == rules
    assert len(manifest["files"]) >= 90
    for row in manifest["files"]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            scenario = parse(json.loads((out / row["file"]).read_text()), row["file"])
        verdict = check(scenario)
        assert verdict.legal == row["expected"]["legal"], row["file"]
        # Its name and its rules say what it is about.
        assert row["file"].removesuffix(".json") in manifest["coverage"]["covered"]
        assert row["decides"] and row["catches"].startswith("an engine that"), row["file"]
        assert [v.rule for v in verdict.violations] == [
            v["rule"] for v in row["expected"]["violations"]
        ]
        assert [(c.source, c.player) for c in verdict.choosers] == [
            (c["source"], c["player"]) for c in row["expected"]["choosers"]
        ]
        for recipient, damage in row["expected"]["damage"].items():
            assert damage["least"] <= damage["most"], (row["file"], recipient)


@pytest.mark.parametrize("rules", ["current", ORDERS])
def test_each_kind_of_constraint_is_caught_by_a_file_whose_verdict_then_changes(written, rules):
    out, _ = written[rules]
    manifest = read(out)
    scenarios = {
        row["file"]: parse(json.loads((out / row["file"]).read_text())) for row in manifest["files"]
    }
    expected = {row["file"]: row["expected"]["legal"] for row in manifest["files"]}
    kinds = corpus.kinds(rules)
    assert ("510.1c" in kinds) == (rules == ORDERS)
    for kind in kinds:
        with rule_kinds.without(kind):
            changed = [n for n, s in scenarios.items() if check(s).legal != expected[n]]
        assert changed, f"no file of the {rules} corpus notices {kind} gone"
        assert changed == manifest["coverage"]["caught_by"][kind]
    # Each kind, numbered as the edition numbers it, decides some file.
    edition = in_force(rules)
    decided = set(manifest["coverage"]["rules"])
    assert {edition.cite(k) for k in kinds} <= decided
    assert not decided & set(manifest["coverage"]["rules_no_file_decides"])


def test_each_keyword_and_each_thing_that_changes_the_damage_dealt_is_caught(written):
    out, manifest = written["current"]
    caught = manifest["coverage"]["caught_by"]
    assert manifest["coverage"]["not_caught"] == {}
    for keyword in (*corpus.keywords("current"), corpus.MARKED):
        assert caught[keyword], keyword
    for what in corpus.DEALING:
        assert caught[corpus.DEALT + what], what
    # Each pair that meets in a rule of dealing has a file where both change the outcome.
    pairs = [t.name for t in corpus.targets() if len(t.dealing) == 2]
    assert len(pairs) == len(corpus.DEALING_PAIRS)
    assert set(pairs) <= set(manifest["coverage"]["covered"])
    # Banding decides who divides, not what is legal: its file says so in its choosers.
    (row,) = [r for r in manifest["files"] if r["file"] == "banding-chooses.json"]
    scenario = parse(json.loads((out / row["file"]).read_text()))
    assert check(scenario).choosers != corpus.choosers(corpus.Ignoring(scenario, ("banding",)))


def test_an_engine_ignoring_what_changes_dealing_disagrees_on_each_file_said_to_catch_it(written):
    """What caught_by claims, asked as `conform` asks it: an engine that deals each file as
    lethal deals it without the thing (whatever its players choose) answers something
    judge_deal calls a disagreement."""
    out, manifest = written["current"]
    for what in corpus.DEALING:
        for name in manifest["coverage"]["caught_by"][corpus.DEALT + what]:
            data = json.loads((out / name).read_text())
            scenario = parse(data)
            ignoring = parse(corpus._without(data, what))
            for o in deal(ignoring):
                answer = {
                    "life": {p: n for p, n in o.life.items() if n is not None},
                    "poison": {p: n for p, n in o.poison.items() if n},
                    "graveyard": [r.id for r in o.removed if not r.exiled],
                }
                assert not judge_deal(data, scenario, answer).agrees, (what, name)


def test_a_file_about_dealing_expects_what_deal_gives_and_changes_without_its_keyword(written):
    out, manifest = written["current"]
    rows = {r["file"]: r for r in manifest["files"]}
    for name in ("deal-lifelink.json", "deal-indestructible.json", "deal-infect.json"):
        data = json.loads((out / name).read_text())
        scenario = parse(data)
        outcomes = [outcome_json(o, scenario) for o in deal(scenario)]
        assert rows[name]["expected"]["deal"] == outcomes
        keyword = name.removeprefix("deal-").removesuffix(".json")
        for p in data["permanents"]:
            p["keywords"] = [k for k in p.get("keywords", []) if k != keyword]
        changed = parse(data)
        assert [outcome_json(o, changed) for o in deal(changed)] != outcomes, name
    assert all(r["expected"]["deal"] is None for n, r in rows.items() if not n.startswith("deal-"))


def test_the_files_are_the_smallest_that_decide(written):
    out, _ = written["current"]
    trample = json.loads((out / "702.19b.json").read_text())
    # One trampler and one blocker; all its damage past the blocker, none to it.
    assert [p["id"] for p in trample["permanents"]] == ["a0", "b0"]
    assert trample["assignment"] == [{"source": "a0", "to": "D", "amount": 1}]
    both = json.loads((out / "trample+deathtouch.json").read_text())
    (a0,) = [p for p in both["permanents"] if p["id"] == "a0"]
    assert set(a0["keywords"]) == {"trample", "deathtouch"}


def test_the_corpus_is_the_same_every_time(written, tmp_path):
    out, _ = written["current"]
    again = tmp_path / "again"
    corpus.write(again)
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(p.name for p in again.iterdir())
    for name in names:
        assert (out / name).read_text() == (again / name).read_text(), name


def test_the_command_writes_replaces_and_refuses(written, tmp_path, capsys):
    out = tmp_path / "corpus"
    shutil.copytree(written["current"][0], out)
    # An earlier corpus is replaced: a file it listed and the new one lacks goes.
    manifest = read(out)
    kept = out / manifest["files"][0]["file"]
    manifest["files"].append({"file": "gone.json"})
    (out / corpus.MANIFEST).write_text(json.dumps(manifest))
    (out / "gone.json").write_text("{}")
    assert main(["corpus", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == read(out) == written["current"][1]
    assert not (out / "gone.json").exists() and kept.exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert main(["corpus", str(other)]) == 2
    assert "no manifest.json" in capsys.readouterr().err
    assert (other / "notes.txt").read_text() == "mine"
    assert main(["corpus", str(other / "notes.txt")]) == 2
    assert main(["corpus", str(tmp_path / "x"), "--rules", "2009-07-10"]) == 2
    assert "--rules" in capsys.readouterr().err


@pytest.mark.parametrize(
    "wrong, caught_by",
    [
        # Checks a trampler's assignment against its total, once each blocker got anything.
        ("trample_total_only", "702.19b-near.json"),
        # Counts only the trampler's own damage toward its blockers' lethal damage.
        ("trample_own_damage_only", "702.19b-others-damage-counts.json"),
    ],
)
def test_the_corpus_alone_catches_each_wrong_engine(written, tmp_path, capsys, wrong, caught_by):
    out, _ = written["current"]
    ran = ["conform", "--engine", engine(wrong), "--corpus", str(out), "--random", "0"]
    assert main([*ran, "--out", str(tmp_path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    disagreed = {f["file"]: f for f in report["results"] if f["outcome"] == "disagreed"}
    assert "702.19b" in disagreed[caught_by]["about"]


def test_the_corpus_catches_an_engine_that_gives_the_division_to_the_wrong_player(
    written, tmp_path, capsys
):
    """Banding changes who divides, never what is legal today: only `divide` shows it, on
    the files the coverage says catch it."""
    out, manifest = written["current"]
    ran = ["conform", "--engine", engine("banding_ignored_when_dividing"), "--corpus", str(out)]
    assert main([*ran, "--random", "0", "--out", str(tmp_path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    disagreed = {f["file"] for f in report["results"] if f["outcome"] == "disagreed"}
    caught = manifest["coverage"]["caught_by"]
    assert set(caught["banding"]) | set(caught["bands with other"]) <= disagreed
    (one,) = [
        f
        for f in report["results"]
        if f["file"] == "banding-chooses.json" and f["outcome"] == "disagreed"
    ]
    assert one["ask"] == "divide" and "(CR 702.22" in one["message"]


def test_the_corpus_passes_lethal_itself(written, tmp_path, capsys):
    out, _ = written["current"]
    ran = ["conform", "--engine", engine("lethal_itself"), "--corpus", str(out), "--random", "0"]
    assert main([*ran, "--out", str(tmp_path)]) == 0


def test_a_targets_time_limit_is_not_armed_while_its_file_is_written():
    # Each target was yielded from inside its --timeout: what the caller then did with it
    # (writing its file) ran on that target's clock, and could end the command.
    import time

    from lethal.deadline import remaining

    built = corpus.build(timeout=0.5)
    next(built)
    assert remaining() is None  # no limit armed while the caller holds the entry
    start = time.monotonic()
    while time.monotonic() - start < 0.7:  # past the target's limit, in the caller
        pass
    next(built)
    built.close()
