"""`lethal conform` runs an engine against lethal: it catches engines that read trample
wrongly, with a small counterexample; it passes an engine that answers as lethal does; an
engine that hangs, crashes or writes garbage is an engine failure, never a hang; bad usage
and a bad corpus are exit 2, each with a message that says where and what.

The engines are in tests/engines/: two deliberately wrong ones over a naive engine in plain
Python (`naive.py`), an adapter over lethal itself, and one that misbehaves as told.
"""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import lethal
from lethal import cli
from lethal.conformance.protocol import EngineFailure, Unsupported, read_answer
from lethal.report import outcome_json
from lethal.rules.dealing import deal

ENGINES = Path(__file__).parent / "engines"
EXAMPLES = Path(__file__).parent.parent / "model" / "examples"

# A few bundled examples: each wrong engine is wrong about one of the first two, the others
# are right answers to agree on, or questions the naive engines decline (effects, orders).
CORPUS = (
    "trample-short-of-lethal",  # illegal: the wall is 1 short (702.19b)
    "trample-counts-other-attackers-damage",  # legal: the grunt's damage counts (702.19b)
    "deathtouch-trample-one-is-lethal",
    "blocker-divides-among-attackers",
    "shield-and-doubler-on-a-trampler",
    "order-vastwood-gorger",
)
TOTAL_ONLY = "trample_total_only"  # (a) a trampler's blockers need only get something
OWN_DAMAGE_ONLY = "trample_own_damage_only"  # (b) others' damage on a blocker is ignored


def engine(name: str, *args: str) -> str:
    """The command that runs a test engine; the naive ones need no site-packages, those
    that answer with lethal do."""
    plain = (
        []
        if name in ("lethal_itself", "toxic_ignored", "banding_ignored_when_dividing")
        else ["-S"]
    )
    return shlex.join([sys.executable, *plain, str(ENGINES / f"{name}.py"), *args])


def write_corpus(folder: Path, names=CORPUS) -> Path:
    """A corpus of bundled examples with the manifest `lethal corpus` writes: each file's
    expected answers computed by lethal (its check; the most and least damage to each
    player, planeswalker and battle, on the file without its assignment; the outcomes of
    its deal, as `lethal deal --json` gives them, for a legal assignment of a file that
    gives life totals)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for name in names:
        text = (EXAMPLES / f"{name}.json").read_text(encoding="utf-8")
        (folder / f"{name}.json").write_text(text, encoding="utf-8")
        data = json.loads(text)
        scenario = lethal.parse(data, warn=False)
        verdict = lethal.check(scenario)
        free = lethal.parse({k: v for k, v in data.items() if k != "assignment"}, warn=False)
        recipients = [p.id for p in free.players]
        recipients += [p.id for p in free.permanents if p.is_planeswalker or p.is_battle]
        damage = {
            r: {"most": lethal.maximum(free, r).value, "least": lethal.minimum(free, r).value}
            for r in recipients
        }
        dealt = None
        if verdict.legal and any("life" in p for p in data["players"]):
            dealt = [outcome_json(o, scenario) for o in deal(scenario)]
        violations = [
            {"rule": v.rule, "source": v.source, "message": v.message} for v in verdict.violations
        ]
        files.append(
            {
                "file": f"{name}.json",
                "decides": sorted({v["rule"] for v in violations}),
                "catches": f"an engine that gets {name} wrong",
                "expected": {
                    "legal": verdict.legal,
                    "violations": violations,
                    "choosers": [
                        {"source": c.source, "player": c.player, "rule": c.rule}
                        for c in verdict.choosers
                    ],
                    "damage": damage,
                    "deal": dealt,
                },
            }
        )
    manifest = {
        "format": "lethal-corpus/1",
        "lethal": lethal.__version__,
        "rules": "current",
        "files": files,
        "coverage": {},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def one_file(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("one"), CORPUS[:1])


@pytest.fixture(scope="module")
def empty(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("empty"), ())


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["conform", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def conform(command: str, corpus: Path, out: Path, *more: str) -> tuple[int, str, str]:
    """`lethal conform` of an engine over a corpus, writing what fails under `out`."""
    return run("--engine", command, "--corpus", str(corpus), "--out", str(out), *more)


def creatures(data: dict) -> int:
    return sum("creature" in p["types"] for p in data["permanents"])


# The wrong engines are caught, on the corpus and among random combats


def test_an_engine_that_checks_trample_against_the_total_fails_the_corpus(corpus, tmp_path):
    out_dir = tmp_path / "failures"
    code, out, err = conform(engine(TOTAL_ONLY), corpus, out_dir, "--random", "0")
    assert code == 1 and err == ""
    file = corpus / "trample-short-of-lethal.json"
    saved = out_dir / "trample-short-of-lethal.check.json"
    assert out.splitlines()[0] == (
        f"{file}: ask check (saved as {saved}): engine said legal, lethal says illegal: "
        "CR 702.19b: rhino sends 2 to D, but wall has 1 of the 2 damage it needs (0 marked + "
        "1 assigned), 1 short"
    )
    # Its own assignment is wrong the same way, and saved with it, for lethal check to read.
    assert f"{file}: ask assign (saved as {out_dir / 'trample-short-of-lethal.assign.json'})" in out
    assert not lethal.check(lethal.load(out_dir / "trample-short-of-lethal.assign.json")).legal
    assert creatures(json.loads(saved.read_text())) == 2
    assert "conform: 6 files, 21 asks: 8 agreed, 2 disagreed, 11 skipped, 0 engine failures" in out


def test_an_engine_that_ignores_other_attackers_damage_fails_the_corpus(corpus, tmp_path):
    code, out, _ = conform(
        engine(OWN_DAMAGE_ONLY), corpus, tmp_path, "--random", "0", "--asks", "check"
    )
    assert code == 1
    name = "trample-counts-other-attackers-damage"
    assert out.splitlines()[0] == (
        f"{corpus / name}.json: ask check (saved as {tmp_path / name}.check.json): "
        "engine said illegal, lethal says legal"
    )
    assert "1 disagreed" in out


def _caught_at_random(
    name: str, empty: Path, tmp_path: Path, engine_says_legal: bool
) -> tuple[dict, float]:
    """The random disagreement conform finds for the engine where the engine says legal or
    illegal as asked, from the first seed that finds one (a few are tried, so that a change
    in how combats are drawn moves no test), and the time that run took. A bug may show
    both ways (the total-only engine also refuses damage past a blocker already dealt
    lethal damage): a disagreement the other way is checked to be one, and the next seed
    tried. The own-damage bug needs a blocker two attackers share and a trampler's damage
    just past it: about one random combat in a hundred has both (the corpus's
    702.19b-others-damage-counts file catches it every time)."""
    for seed in (2, 5, 0, 1):
        start = time.monotonic()
        more = ["--asks", "check", "--random", "150", "--seed", str(seed), "--json"]
        code, out, _ = conform(engine(name), empty, tmp_path, *more)
        found = json.loads(out)["random"][0]["finding"]
        if code == 0:
            assert found is None
            continue
        assert code == 1 and found["outcome"] == "disagreed"
        if found["answer"] == {"legal": engine_says_legal}:
            return found, time.monotonic() - start
        assert lethal.check(lethal.load(found["saved"])).legal == engine_says_legal
    raise AssertionError(f"no random combat caught {name} saying {engine_says_legal}")


def test_random_combats_catch_the_total_only_engine_with_a_small_combat(empty, tmp_path):
    found, seconds = _caught_at_random(TOTAL_ONLY, empty, tmp_path, engine_says_legal=True)
    assert found["outcome"] == "disagreed" and found["rules"] == ["702.19b"]
    assert found["answer"] == {"legal": True}
    combat = lethal.load(found["saved"])  # what was asked, saved to paste or re-check
    assert creatures(found["combat"]) <= 4
    assert not lethal.check(combat).legal
    assert seconds < 120


def test_random_combats_catch_the_own_damage_engine_with_a_small_combat(empty, tmp_path):
    found, seconds = _caught_at_random(OWN_DAMAGE_ONLY, empty, tmp_path, engine_says_legal=False)
    assert found["outcome"] == "disagreed" and found["answer"] == {"legal": False}
    assert found["message"] == "engine said illegal, lethal says legal"
    assert creatures(found["combat"]) <= 4
    assert lethal.check(lethal.load(found["saved"])).legal
    # The disagreement needs a blocker that two attackers share (the 702.19b example).
    shared = [p for p in found["combat"]["permanents"] if len(p.get("blocking", ())) >= 2]
    assert shared
    assert seconds < 120


def test_random_combats_catch_an_engine_that_ignores_toxic_when_dealing(empty, tmp_path):
    """Random `deal` asks draw what changes what damage does, toxic among it, and compare
    poison counters: the disagreement found is shrunk to a toxic creature's damage."""
    more = ["--asks", "deal", "--random", "100", "--json"]
    code, out, _ = conform(engine("toxic_ignored"), empty, tmp_path, *more)
    assert code == 1
    found = json.loads(out)["random"][0]["finding"]
    assert found["outcome"] == "disagreed" and ", poison " in found["message"]
    toxic = [
        p
        for p in found["combat"]["permanents"]
        if any(k.startswith("toxic") for k in p.get("keywords", ()))
    ]
    assert toxic and creatures(found["combat"]) <= 2
    assert "effects" not in found["combat"]  # none is needed to show it
    assert len(found["combat"]["players"]) == 2  # nor a third player


# The correct adapter passes


def test_an_engine_that_answers_as_lethal_does_passes(corpus, tmp_path):
    junit = tmp_path / "conform.xml"
    more = ["--random", "5", "--junit", str(junit), "--json"]
    code, out, err = conform(engine("lethal_itself"), corpus, tmp_path / "failures", *more)
    assert code == 0 and err == ""
    report = json.loads(out)
    summary = report["summary"]
    assert (summary["files"], summary["asks"], summary["agreed"]) == (6, 21, 21)
    assert summary["random_compared"] == 20 and summary["random_disagreed"] == 0
    assert not (tmp_path / "failures").exists()  # nothing to save
    suite = ET.parse(junit).getroot()
    assert suite.tag == "testsuite" and suite.get("tests") == "21"
    assert (suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("0", "0", "0")


# Output


def test_json_and_junit_count_the_same_as_the_text(corpus, tmp_path):
    junit = tmp_path / "conform.xml"
    argv = ["--engine", engine(TOTAL_ONLY), "--corpus", str(corpus), "--random", "0"]
    argv += ["--out", str(tmp_path)]
    code, text, _ = run(*argv)
    code_json, out, _ = run(*argv, "--json", "--junit", str(junit))
    assert code == code_json == 1
    report = json.loads(out)
    assert report["summary"]["disagreed"] == 2 and report["summary"]["skipped"] == 11
    outcomes = [(r["file"], r["ask"], r["outcome"]) for r in report["results"]]
    assert ("trample-short-of-lethal.json", "check", "disagreed") in outcomes
    assert ("order-vastwood-gorger.json", "deal", "skipped") not in outcomes  # not asked
    suite = ET.parse(junit).getroot()
    counts = [suite.get(k) for k in ("tests", "failures", "errors", "skipped")]
    assert counts == ["21", "2", "0", "11"]
    failed = [c for c in suite if c.find("failure") is not None]
    assert [(c.get("classname"), c.get("name")) for c in failed] == [
        ("trample-short-of-lethal.json", "check"),
        ("trample-short-of-lethal.json", "assign"),
    ]
    assert "CR 702.19b" in failed[0].find("failure").get("message")
    skipped = suite.findall("testcase/skipped")
    assert skipped[0].get("message").startswith("unsupported: ")
    assert (
        "skipped 4 asks: unsupported: no effects (shield-and-doubler-on-a-trampler.json check, "
        in text
    )


def test_an_engine_that_declines_everything_compares_nothing_and_does_not_pass(corpus, tmp_path):
    code, out, _ = conform(engine("misbehaves", "declines"), corpus, tmp_path, "--random", "0")
    assert code == 1
    assert "21 asks: 0 agreed, 0 disagreed, 21 skipped, 0 engine failures" in out
    assert "conform: nothing was compared" in out


# An engine that fails is reported, never waited on


@pytest.mark.parametrize(
    "how, says",
    [
        ("crash", "exited with code 1; its standard error ends: "),
        ("garbage", "wrote an answer that is not one JSON value (Expecting value at line 1"),
        ("two", "wrote an answer that is not one JSON value (Extra data at line 2"),
        ("shape", "answered check with '{\"legal\": \"yes\"}': expected 'legal': true or false"),
        ("silent", "wrote no answer on standard output"),
    ],
)
def test_an_engine_that_fails_is_an_engine_failure(how, says, one_file, tmp_path):
    code, out, err = conform(
        engine("misbehaves", how), one_file, tmp_path, "--asks", "check", "--random", "0"
    )
    assert code == 1 and err == ""
    first = out.splitlines()[0]
    assert first.startswith(f"{one_file / 'trample-short-of-lethal.json'}: ask check (saved as ")
    assert f": engine failure: {says}" in first
    assert "1 ask: 0 agreed, 0 disagreed, 0 skipped, 1 engine failure" in out


def test_a_crash_shows_the_last_line_of_the_engines_standard_error(one_file, tmp_path):
    _, out, _ = conform(
        engine("misbehaves", "crash"), one_file, tmp_path, "--asks", "check", "--random", "0"
    )
    assert "its standard error ends: 'RuntimeError: the engine fell over'" in out


@pytest.mark.parametrize("how", ["sleep", "forks"])
def test_an_engine_that_never_answers_times_out_and_is_stopped(how, one_file, tmp_path):
    start = time.monotonic()
    code, out, _ = conform(
        engine("misbehaves", how), one_file, tmp_path, "--engine-timeout", "0.5", "--random", "0"
    )
    assert code == 1
    assert time.monotonic() - start < 10  # three asks of half a second each, and no hang
    assert out.count("engine failure: gave no answer in the time allowed (--engine-timeout)") == 3


def test_the_run_stops_at_its_timeout_and_says_how_far_it_got(corpus, tmp_path):
    start = time.monotonic()
    code, out, _ = conform(engine("misbehaves", "sleep"), corpus, tmp_path, "--timeout", "1")
    assert code == 3 and time.monotonic() - start < 10
    assert out.splitlines()[-1] == (
        "conform: the time limit ran out after 0 of 6 corpus files (0 asks); random combats "
        "not begun (--timeout SECONDS raises it)"
    )


# The protocol's answers


@pytest.mark.parametrize(
    "ask, raw, answer",
    [
        (
            "check",
            b'{"legal": false, "rules": ["702.19b"]}',
            {"legal": False, "rules": ["702.19b"]},
        ),
        ("check", b'\xef\xbb\xbf{"legal": true, "note": "fields it adds are ignored"}\n', None),
        ("assign", b'{"assignment": []}', {"assignment": []}),
        ("deal", b'{"life": {"D": 17}, "graveyard": ["wall"]}', None),
        ("deal", b'{"unsupported": "no effects yet"}', Unsupported("no effects yet")),
        ("deal", b'{"life": {"D": 17}, "poison": {"D": 3}, "graveyard": []}', None),
    ],
)
def test_answers_of_the_protocol_are_read(ask, raw, answer):
    read = read_answer(ask, raw)
    assert read == answer if answer is not None else isinstance(read, dict)


@pytest.mark.parametrize(
    "ask, raw, says",
    [
        ("check", b"[true]", "answered a list; expected a JSON object"),
        ("check", b'{"legal": NaN}', "not one JSON value"),
        ("check", b'{"legal": true, "rules": "702.19b"}', "expected 'rules', when given"),
        ("assign", b'{"assignment": [{"source": "a", "to": "D", "amount": "2"}]}', "assignment[0]"),
        ("deal", b'{"life": {"D": 17.5}, "graveyard": []}', "expected 'life'"),
        ("deal", b'{"unsupported": true}', "expected a string saying why"),
        ("deal", b'{"unsupported": " "}', "expected a string saying why, found an empty string"),
        (
            "check",
            b'{"legal": true, "unsupported": "not sure"}',
            "answered check with both 'unsupported' and 'legal': expected one of them",
        ),
        ("deal", b'{"life": {}, "poison": {"D": -1}, "graveyard": []}', "expected 'poison'"),
        ("deal", b'{"life": {}, "poison": [3], "graveyard": []}', "expected 'poison'"),
        ("check", b"\xff", "not UTF-8 text (byte 0)"),
        (
            "check",
            b'{"legal": true, "legal": false}',
            "wrote an answer lethal cannot read: the key 'legal' is given twice in one object",
        ),
        (
            "deal",
            b'{"life": {"D": ' + b"9" * 5000 + b'}, "graveyard": []}',
            "wrote an answer lethal cannot read: an integer of 5,000 digits",
        ),
    ],
)
def test_answers_outside_the_protocol_are_engine_failures(ask, raw, says):
    with pytest.raises(EngineFailure, match=None) as failure:
        read_answer(ask, raw)
    assert says in str(failure.value)


def test_an_assignment_that_names_no_such_creature_is_a_disagreement(one_file, tmp_path):
    from lethal.conformance.judging import judge_assign

    data = json.loads((one_file / "trample-short-of-lethal.json").read_text())
    del data["assignment"]
    wrong = {"assignment": [{"source": "rhino", "to": "nobody", "amount": 3}]}
    judged = judge_assign(data, wrong, {})
    assert not judged.agrees
    assert judged.message.startswith("engine's assignment is not one a scenario can hold: ")
    assert "nobody" in judged.message


def test_dealing_matches_any_outcome_a_player_could_choose():
    from lethal.conformance.judging import judge_deal

    data = json.loads((EXAMPLES / "shield-and-doubler-on-a-trampler.json").read_text())
    scenario = lethal.parse(data, warn=False)
    outcomes = deal(scenario)
    assert len(outcomes) > 1  # the defending player orders the shield and the doubler
    for o in outcomes:
        answer = {
            "life": {p: n for p, n in o.life.items() if n is not None},
            "graveyard": [r.id for r in o.removed],
        }
        assert judge_deal(data, scenario, answer).agrees
    wrong = judge_deal(data, scenario, {"life": {"A": 20, "D": 20}, "graveyard": []})
    assert not wrong.agrees and f"lethal says one of {len(outcomes)}: " in wrong.message


def test_dealing_compares_poison_counters():
    """Toxic and infect change only poison counters: an engine that ignores them, or does
    not say its counters, gives the wrong ones."""
    from lethal.conformance.judging import judge_deal

    data = {
        "format": "lethal/1",
        "players": [{"id": "A", "life": 20}, {"id": "D", "life": 20, "poison": 1}],
        "active_player": "A",
        "permanents": [
            {"id": "a0", "controller": "A", "types": ["creature"], "power": 1,
             "toughness": 1, "keywords": ["toxic 2"], "attacking": "D"}
        ],
        "assignment": [{"source": "a0", "to": "D", "amount": 1}],
    }  # fmt: skip
    scenario = lethal.parse(data, warn=False)
    right = {"life": {"A": 20, "D": 19}, "poison": {"D": 3}, "graveyard": []}
    assert judge_deal(data, scenario, right).agrees
    for poison in ({"D": 1}, {}, {"D": 3, "A": 1}):
        wrong = judge_deal(data, scenario, {**right, "poison": poison})
        assert not wrong.agrees
        assert wrong.message.endswith("lethal says life A 20, D 19, poison D 3, graveyard empty")
    said = judge_deal(data, scenario, {"life": right["life"], "graveyard": []}).message
    assert said.startswith("engine said life A 20, D 19, graveyard empty;")


# Bad usage and bad corpora: exit 2, one line each, before any engine runs


@pytest.mark.parametrize(
    "argv, says",
    [
        ([], "the following arguments are required: --engine"),
        (["--engine", "python3 x.py", "--asks", "chek"], "--asks: expected some of check, "),
        (["--engine", "python3 x.py", "--random", "-1"], "--random: expected a whole number"),
        (["--engine", "python3 x.py", "--engine-timeout", "0"], "--engine-timeout: expected"),
        (["--engine", ""], "lethal: --engine: an empty command"),
        (["--engine", "'unclosed"], "cannot split it into words: No closing quotation"),
        (["--engine", "no-such-engine-anywhere --fast"], "'no-such-engine-anywhere' is neither"),
    ],
)
def test_bad_usage_is_exit_2_with_a_message(argv, says, corpus):
    code, out, err = run(*argv, "--corpus", str(corpus))
    assert code == 2 and out == ""
    assert says in err


def test_a_folder_without_a_manifest_is_a_bad_corpus(tmp_path):
    code, out, err = run("--engine", engine(TOTAL_ONLY), "--corpus", str(tmp_path))
    assert code == 2 and out == ""
    assert err.startswith(f"{tmp_path}: no manifest.json: a corpus is a folder of scenario files")


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda m: m.update(format="lethal-corpus/9"), "format: expected 'lethal-corpus/1'"),
        (lambda m: m.update(files={}), "files: expected a list of files, found {}"),
        (lambda m: m["files"][0].update(file="../x.json"), "files[0].file: expected a file name"),
        (lambda m: m["files"][0].update(file="gone.json"), "files[0].file: no such file"),
        (
            lambda m: m["files"][0]["expected"].update(legal="no"),
            'files[0].expected.legal: expected true, false or null, found "no"',
        ),
        (
            lambda m: m["files"][0]["expected"].update(legal=True),
            "files[0].expected.legal: is true, but this lethal says trample-short-of-lethal."
            "json's assignment is illegal (CR 702.19b); write the corpus again",
        ),
        (
            lambda m: m["files"][0]["expected"].update(damage={"D": {"most": "3"}}),
            "files[0].expected.damage.D: expected",
        ),
        (
            lambda m: m["files"][0]["expected"].update(deal=[]),
            "files[0].expected.deal: expects dealing, which needs a legal assignment",
        ),
        (
            lambda m: m["files"][2]["expected"]["deal"][0]["removed"].clear(),
            "files[2].expected.deal: this lethal deals deathtouch-trample-one-is-lethal.json's "
            "assignment otherwise",
        ),
    ],
)
def test_a_bad_manifest_names_the_place_the_value_and_what_was_expected(change, says, tmp_path):
    folder = write_corpus(tmp_path / "corpus", CORPUS[:3])
    manifest = json.loads((folder / "manifest.json").read_text())
    change(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = run("--engine", engine(TOTAL_ONLY), "--corpus", str(folder))
    assert code == 2 and out == ""
    assert err.startswith(f"{folder / 'manifest.json'}: ")
    assert says in err


def test_a_corpus_file_that_is_no_scenario_is_named(tmp_path):
    folder = write_corpus(tmp_path / "corpus", CORPUS[:1])
    (folder / "trample-short-of-lethal.json").write_text('{"players": []}')
    code, _, err = run("--engine", engine(TOTAL_ONLY), "--corpus", str(folder))
    assert code == 2
    assert err.startswith(f"{folder / 'trample-short-of-lethal.json'}: ")


def test_with_no_corpus_and_no_generator_the_run_says_what_to_give(monkeypatch, tmp_path):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "lethal.proving.corpus" else found(name, *rest),
    )
    code, out, err = run("--engine", engine(TOTAL_ONLY), "--random", "0")
    assert code == 2 and out == ""
    assert err == (
        "lethal: no --corpus given, and this lethal cannot write one (lethal.proving.corpus "
        "is missing); give --corpus DIR, a folder 'lethal corpus DIR' wrote\n"
    )


def test_hypothesis_is_imported_only_for_random_combats(one_file, tmp_path):
    program = (
        "import io, sys\nfrom lethal.cli import main\n"
        f"main(['conform', '--engine', {engine(TOTAL_ONLY)!r}, '--corpus', {str(one_file)!r}, "
        f"'--random', '0', '--out', {str(tmp_path)!r}], io.StringIO(), io.StringIO())\n"
        "print('hypothesis' in sys.modules)"
    )
    ran = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert ran.stdout == "False\n", ran.stderr
