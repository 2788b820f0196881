"""What a newcomer meets after `pip install`: `lethal examples` lists the bundled scenarios
and copies one out, `lethal schema` prints the format's JSON Schema, and `lethal check`
judges several files or a folder at once, one line each, with a summary and an exit code
that puts bad input first."""

from __future__ import annotations

import io
import json
import shutil
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from lethal.cli import main

PACKAGE = resources.files("lethal")
EXAMPLES = PACKAGE / "examples"
NAMES = sorted(p.name.removesuffix(".json") for p in EXAMPLES.iterdir() if p.name.endswith(".json"))
COMBATS = sorted(
    f"combats/{p.name.removesuffix('.json')}"
    for p in (EXAMPLES / "combats").iterdir()
    if p.name.endswith(".json")
)
LEGAL = str(EXAMPLES / "trample-counts-other-attackers-damage.json")
ILLEGAL = str(EXAMPLES / "trample-short-of-lethal.json")
OPEN_ORDERS = str(EXAMPLES / "order-left-open-is-searched.json")  # 2 orders to try


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def first_line(path: str) -> str:
    code, out, _ = run("check", path)
    assert code in (0, 1)
    return out.splitlines()[0]


# lethal examples


def test_examples_lists_every_bundled_example_then_every_combat_one_line_each():
    code, out, err = run("examples")
    assert (code, err) == (0, "")
    names = [line.split()[0] for line in out.splitlines()]
    assert names == NAMES + COMBATS


@pytest.mark.parametrize("name", NAMES)
def test_each_example_is_described_by_what_lethal_check_says_of_it(name):
    line = next(line for line in run("examples")[1].splitlines() if line.split()[0] == name)
    code = run("check", str(EXAMPLES / f"{name}.json"))[0]
    described = line.split(maxsplit=1)[1]
    assert described.startswith("legal (" if code == 0 else "illegal, CR ")


def test_an_illegal_example_names_the_rules_it_breaks_and_its_rules():
    lines = run("examples")[1].splitlines()
    assert "trample-short-of-lethal  " in lines[NAMES.index("trample-short-of-lethal")]
    assert lines[NAMES.index("trample-short-of-lethal")].endswith(
        "  illegal, CR 702.19b (current rules)"
    )
    assert lines[NAMES.index("order-vastwood-gorger")].endswith(
        "  illegal, CR 510.1c (rules in force on 2011-09-30)"
    )
    assert lines[NAMES.index("double-strike-second-step")].endswith(
        "  legal (second step; current rules)"
    )


def test_a_combat_is_described_as_having_no_assignment():
    lines = run("examples")[1].splitlines()
    for line in lines[len(NAMES) :]:
        assert line.endswith("  no assignment: a combat for the queries (current rules)")


@pytest.mark.parametrize(
    "name, file",
    [
        ("trample-short-of-lethal", "trample-short-of-lethal.json"),
        ("trample-short-of-lethal.json", "trample-short-of-lethal.json"),
        ("combats/trampler-blocked-by-banding", "combats/trampler-blocked-by-banding.json"),
        ("combats/trampler-blocked-by-banding.json", "combats/trampler-blocked-by-banding.json"),
    ],
)
def test_examples_name_prints_the_file_exactly(name, file):
    code, out, err = run("examples", name)
    assert (code, err) == (0, "")
    assert out == (EXAMPLES / file).read_text(encoding="utf-8")


def test_an_example_copied_out_is_judged_as_the_bundled_one(tmp_path):
    copy = tmp_path / "combat.json"
    copy.write_text(run("examples", "trample-short-of-lethal")[1], encoding="utf-8")
    code, out, _ = run("check", str(copy))
    assert code == 1
    assert out == run("check", ILLEGAL)[1].replace(ILLEGAL, str(copy))


@pytest.mark.parametrize("name", ["trample-short-of-letal", "TRAMPLE-SHORT-OF-LETHAL"])
def test_an_unknown_example_is_bad_usage_with_a_suggestion(name):
    code, out, err = run("examples", name)
    assert (code, out) == (2, "")
    assert err == (
        f"lethal: no bundled example '{name}' (did you mean "
        "'trample-short-of-lethal'?); 'lethal examples' lists them\n"
    )


def test_an_unknown_ask_gets_a_suggestion():
    code, _, err = run("conform", "--engine", "true", "--asks", "check,chek")
    assert code == 2 and err.rstrip().endswith("found 'check,chek' (did you mean 'check'?)")


def test_an_unknown_example_far_from_any_name_gets_no_suggestion():
    code, _, err = run("examples", "zzzz")
    assert code == 2
    assert err == "lethal: no bundled example 'zzzz'; 'lethal examples' lists them\n"


# lethal schema


def test_schema_prints_the_shipped_schema_exactly():
    code, out, err = run("schema")
    assert (code, err) == (0, "")
    assert out == (PACKAGE / "scenario.schema.json").read_text(encoding="utf-8")


def test_the_printed_schema_accepts_a_bundled_example_and_rejects_a_typo():
    schema = json.loads(run("schema")[1])
    example = json.loads(run("examples", "trample-short-of-lethal")[1])
    jsonschema.validate(example, schema)
    example["permanents"][0]["keywords"] = ["trampel"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(example, schema)


# lethal check on several files


@pytest.fixture
def bad(tmp_path) -> str:
    path = tmp_path / "bad.json"
    example = json.loads((EXAMPLES / "trample-short-of-lethal.json").read_text())
    example["permanents"][0]["keywords"] = ["trampel"]
    example["permanents"][1]["power"] = -1.5
    path.write_text(json.dumps(example))
    return str(path)


def test_a_single_file_keeps_its_whole_verdict():
    code, out, _ = run("check", ILLEGAL)
    assert code == 1
    assert out.splitlines()[1].startswith("  rhino sends 2 to D")
    assert "who divides each creature's combat damage:" in out


def test_several_files_give_one_verdict_line_each_and_a_summary():
    code, out, err = run("check", LEGAL, ILLEGAL, LEGAL)
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        first_line(LEGAL),
        first_line(ILLEGAL),
        first_line(LEGAL),
        "3 files: 2 legal, 1 illegal",
    ]


def test_every_legal_file_is_exit_0():
    assert run("check", LEGAL, LEGAL)[:2] == (
        0,
        f"{first_line(LEGAL)}\n" * 2 + "2 files: 2 legal\n",
    )


def test_a_bad_file_is_reported_by_its_first_problem_and_the_others_still_run(bad):
    code, out, err = run("check", bad, ILLEGAL, "no-such-file.json")
    assert (code, err) == (2, "")
    assert out.splitlines() == [
        f"{bad}: bad input: permanents[0].keywords[0]: unknown keyword 'trampel' (did you "
        "mean 'trample'?); known keywords: trample, trample over planeswalkers, deathtouch, "
        "banding, first strike, double strike, indestructible, lifelink, infect, wither, "
        "protection from everything, assigns combat damage equal to its toughness, may assign "
        "combat damage as though it weren't blocked, bands with other <quality>, protection "
        "from <quality>, toxic <N> (and 1 more)",
        first_line(ILLEGAL),
        "no-such-file.json: bad input: no such file",
        "3 files: 1 illegal, 2 bad input",
    ]


def test_a_file_without_an_assignment_is_bad_input_on_its_line():
    combat = str(EXAMPLES / "combats" / "trampler-blocked-by-a-1-1.json")
    code, out, _ = run("check", LEGAL, combat)
    assert code == 2
    assert out.splitlines()[1].startswith(f"{combat}: bad input: assignment: missing: ")


def test_an_undecided_file_is_exit_3_unless_a_file_is_bad(bad):
    code, out, _ = run("check", OPEN_ORDERS, ILLEGAL, "--order-limit", "1")
    assert code == 3
    assert out.splitlines()[0].startswith(f"{OPEN_ORDERS}: undecided: gorger's damage ")
    assert out.splitlines()[-1] == "2 files: 1 illegal, 1 undecided"
    assert run("check", OPEN_ORDERS, bad, "--order-limit", "1")[0] == 2


def test_a_folder_is_its_json_files_in_name_order(tmp_path, bad):
    for name in ("b.json", "a.json"):
        shutil.copy(LEGAL if name == "a.json" else ILLEGAL, tmp_path / name)
    (tmp_path / "notes.txt").write_text("not a scenario")
    code, out, _ = run("check", str(tmp_path))
    assert code == 2
    lines = out.splitlines()
    assert [line.split(": ")[0] for line in lines[:-1]] == [
        str(tmp_path / "a.json"),
        str(tmp_path / "b.json"),
        str(tmp_path / "bad.json"),
    ]
    assert lines[-1] == "3 files: 1 legal, 1 illegal, 1 bad input"


def test_a_folder_alone_is_still_judged_file_by_file():
    folder = EXAMPLES / "combats"
    code, out, _ = run("check", str(folder))
    assert code == 2
    assert out.splitlines()[-1] == f"{len(COMBATS)} files: {len(COMBATS)} bad input"


def test_a_folder_without_scenario_files_is_bad_input_on_its_line(tmp_path):
    code, out, err = run("check", str(tmp_path), LEGAL)
    assert (code, err) == (2, "")
    assert out.splitlines() == [
        f"{tmp_path}: bad input: a folder without scenario files (*.json)",
        first_line(LEGAL),
        "2 files: 1 legal, 1 bad input",
    ]


def test_json_gives_json_lines_each_as_the_file_alone_gives_it_then_the_counts(bad):
    code, out, _ = run("check", "--json", LEGAL, ILLEGAL, bad)
    assert code == 2
    objects = [json.loads(line) for line in out.splitlines()]
    for path, data in zip((LEGAL, ILLEGAL, bad), objects[:3], strict=True):
        assert data == json.loads(run("check", "--json", path)[1])
    assert objects[3] == {"files": 3, "legal": 1, "illegal": 1, "undecided": 0, "bad_input": 1}
    assert len(objects) == 4


def test_json_names_an_undecided_file():
    code, out, _ = run("check", "--json", OPEN_ORDERS, LEGAL, "--order-limit", "1")
    assert code == 3
    first = json.loads(out.splitlines()[0])
    assert first["file"] == OPEN_ORDERS and "would take more than 1 orders" in first["undecided"]


def test_check_help_documents_the_exit_codes_of_several_files():
    code, out, _ = run("check", "--help")
    assert code == 0
    assert "exit 2 if any file is bad input, else 3 if any is undecided" in " ".join(out.split())


def test_the_version_shown_is_the_version_installed():
    from importlib.metadata import version

    import lethal

    out = io.StringIO()
    assert main(["--version"], out, io.StringIO()) == 0
    assert out.getvalue() == f"lethal {lethal.__version__}\n" == f"lethal {version('lethal')}\n"


def test_pip_install_ships_every_package_of_the_tree():
    """`pip install .` ships the packages pyproject.toml lists, no others: a folder of modules
    left off the list would be missing from every install but an editable one."""
    tomllib = pytest.importorskip("tomllib")
    root = Path(__file__).resolve().parent.parent
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {
        ".".join((package, *init.parent.relative_to(root / folder).parts))
        for package, folder in setuptools["package-dir"].items()
        for init in (root / folder).rglob("__init__.py")
    }
    assert found == set(setuptools["packages"])


def test_a_count_limit_without_a_list_is_bad_usage_not_ignored():
    code, out, err = run("count", LEGAL, "--limit", "5")
    assert (code, out) == (2, "")
    assert err.endswith("--limit bounds what --list prints: give --list too, or no --limit\n")
    assert run("count", LEGAL, "--list", "--limit", "5")[0] == 0
