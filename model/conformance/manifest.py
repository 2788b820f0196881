"""Reading a conformance corpus: a folder of scenario files and the `manifest.json` that
lists them with the answers lethal gave for each (format lethal-corpus/1, written by
`lethal corpus DIR`).

Everything is read and checked before any engine is run: the manifest's shape, each file it
lists, and that lethal still says of each file what the manifest expects (a corpus written
by another version of lethal may not), so that a run never blames an engine for a stale
corpus. Every problem names its place, what was found and what was expected.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..combat import Scenario
from ..errors import Problem, ScenarioError, quoted, shown
from ..reading import loads, read

FORMAT = "lethal-corpus/1"
MANIFEST = "manifest.json"


class CorpusError(ScenarioError):
    """A corpus that cannot be run: its folder, its manifest or one of its files, each
    problem at its place (reported as a bad file is: exit 2)."""


@dataclass(frozen=True)
class Bounds:
    """The least and most combat damage a legal assignment gives one recipient (None: not
    known)."""

    least: int | None
    most: int | None


@dataclass(frozen=True)
class CorpusFile:
    """A file of the corpus and the answers the manifest expects of it."""

    name: str  # as the manifest lists it, inside the corpus folder
    path: Path
    data: dict  # the scenario as its file gives it, sent to the engine as it is
    scenario: Scenario
    legal: bool | None  # None: the file has no assignment to check
    damage: dict[str, Bounds]  # recipient -> the bounds of the damage it can be assigned
    deal: bool  # the manifest expects dealing to be asked
    catches: str = ""  # what an engine that fails the file does, in words
    decides: tuple[str, ...] = ()  # the rules that decide the file


@dataclass(frozen=True)
class Corpus:
    folder: Path
    files: tuple[CorpusFile, ...]
    rules: str = ""  # the edition the manifest says it was written for
    written_by: str = ""  # the version of lethal that wrote it


def read_corpus(folder: Path) -> Corpus:
    """The corpus in `folder`; CorpusError naming every problem of the manifest, or the
    first file that is not a well-formed scenario or whose answers lethal no longer gives."""
    origin = str(folder / MANIFEST)
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "no such folder"
        raise CorpusError(str(folder), [Problem("", f"{what}; --corpus names a corpus folder")])
    if not (folder / MANIFEST).is_file():
        raise CorpusError(
            str(folder),
            [
                Problem(
                    "",
                    f"no {MANIFEST}: a corpus is a folder of scenario files and the {MANIFEST} "
                    "that lists them with their expected answers, as 'lethal corpus DIR' "
                    "writes it",
                )
            ],
        )
    text = read(folder / MANIFEST)  # ScenarioError naming the file if it cannot be read
    try:
        manifest = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        where = (
            f"line {error.lineno}, column {error.colno}"
            if isinstance(error, json.JSONDecodeError)
            else ""
        )
        raise CorpusError(origin, [Problem(where, "not valid JSON")]) from None
    problems: list[Problem] = []
    listed = _listed(folder, manifest, problems)
    if problems:
        raise CorpusError(origin, problems)
    files = tuple(_read_file(folder, origin, n, row) for n, row in listed)
    return Corpus(
        folder,
        files,
        str(manifest.get("rules", "")),
        str(manifest.get("lethal", "")),
    )


def _listed(folder: Path, manifest, problems: list[Problem]) -> list[tuple[int, dict]]:
    """The manifest's rows, each with its index, once their shape is known to be right."""
    if not isinstance(manifest, dict):
        problems.append(Problem("", f"expected a JSON object, found {_found(manifest)}"))
        return []
    if manifest.get("format") != FORMAT:
        found = _found(manifest.get("format"))
        problems.append(Problem("format", f"expected {FORMAT!r}, found {found}"))
    rows = manifest.get("files")
    if not isinstance(rows, list):
        problems.append(Problem("files", f"expected a list of files, found {_found(rows)}"))
        return []
    seen: set[str] = set()
    good = []
    for n, row in enumerate(rows):
        before = len(problems)
        place = f"files[{n}]"
        if not isinstance(row, dict):
            problems.append(Problem(place, f"expected an object, found {_found(row)}"))
            continue
        name = row.get("file")
        if not isinstance(name, str) or not name:
            problems.append(Problem(f"{place}.file", f"expected a file name, found {_found(name)}"))
        elif Path(name).name != name or name in (".", ".."):
            inside = f"expected a file name inside the folder, found {quoted(name)}"
            problems.append(Problem(f"{place}.file", inside))
        elif not (folder / name).is_file():
            missing = f"no such file {quoted(name)} in {shown(str(folder))}"
            problems.append(Problem(f"{place}.file", missing))
        elif name in seen:
            problems.append(Problem(f"{place}.file", f"{quoted(name)} is listed twice"))
        else:
            seen.add(name)
        _expected_shape(place, row.get("expected"), problems)
        if len(problems) == before:
            good.append((n, row))
    return good


def _expected_shape(place: str, expected, problems: list[Problem]) -> None:
    place += ".expected"
    if not isinstance(expected, dict):
        problems.append(Problem(place, f"expected an object of answers, found {_found(expected)}"))
        return
    if "legal" not in expected or not isinstance(expected["legal"], (bool, type(None))):
        found = _found(expected["legal"]) if "legal" in expected else "nothing"
        problems.append(Problem(f"{place}.legal", f"expected true, false or null, found {found}"))
    damage = expected.get("damage", {})
    if not isinstance(damage, dict):
        by_id = f"expected an object of bounds by id, found {_found(damage)}"
        problems.append(Problem(f"{place}.damage", by_id))
        return
    for to, bounds in damage.items():
        ok = isinstance(bounds, dict) and all(
            bounds.get(k) is None or _is_integer(bounds.get(k)) for k in ("least", "most")
        )
        if not ok:
            problems.append(
                Problem(
                    f"{place}.damage.{to}",
                    'expected {"most": N, "least": N} (integers or null), '
                    f"found {_found(bounds)}",
                )
            )
    if expected.get("deal") is not None and expected.get("legal") is not True:
        problems.append(
            Problem(
                f"{place}.deal",
                "expects dealing, which needs a legal assignment, but expected.legal is "
                f"{_found(expected.get('legal'))}",
            )
        )


def _read_file(folder: Path, origin: str, n: int, row: dict) -> CorpusFile:
    from ..verdict import check

    name, expected = row["file"], row["expected"]
    path = folder / name
    text = read(path)
    scenario = loads(text, str(path), warn=False)  # ScenarioError naming the file
    data = json.loads(text)
    place = f"files[{n}].expected"
    legal = expected["legal"]
    stale = []
    if (legal is None) != (scenario.assignment is None):
        has = "has" if scenario.assignment is not None else "has no"
        stale.append(Problem(f"{place}.legal", f"is {_found(legal)}, but {name} {has} assignment"))
    elif legal is not None:
        verdict = check(scenario)
        if verdict.legal != legal:
            broken = ", ".join(dict.fromkeys(v.rule for v in verdict.violations))
            says = "legal" if verdict.legal else f"illegal (CR {broken})"
            stale.append(
                Problem(
                    f"{place}.legal",
                    f"is {_found(legal)}, but this lethal says {name}'s assignment is {says}; "
                    "write the corpus again with this lethal ('lethal corpus DIR')",
                )
            )
    if expected.get("deal") is not None and not stale:
        stale += _stale_deal(f"{place}.deal", name, scenario, expected["deal"])
    ids = {p.id for p in scenario.players} | {p.id for p in scenario.permanents}
    damage = {}
    for to, bounds in expected.get("damage", {}).items():
        if to not in ids:
            stale.append(Problem(f"{place}.damage", f"{quoted(to)} is no id of {name}"))
        damage[to] = Bounds(bounds.get("least"), bounds.get("most"))
    if stale:
        raise CorpusError(origin, stale)
    return CorpusFile(
        name,
        path,
        data,
        scenario,
        legal,
        damage,
        expected.get("deal") is not None,
        row.get("catches", "") if isinstance(row.get("catches"), str) else "",
        tuple(r for r in row.get("decides", ()) if isinstance(r, str)),
    )


def _stale_deal(place: str, name: str, scenario: Scenario, outcomes) -> list[Problem]:
    """The outcomes the manifest expects of dealing (as `lethal deal --json` gives them),
    against lethal's now: each outcome's life totals and what is put into the graveyard."""
    from ..rules.dealing import deal

    try:
        expected = {
            (
                frozenset((p["id"], p["life"]) for p in o["players"] if p["life"] is not None),
                frozenset(r["id"] for r in o["removed"]),
            )
            for o in outcomes
        }
    except (TypeError, KeyError):
        return [
            Problem(
                place,
                "expected null, or the outcomes 'lethal deal --json' gives (each with "
                f"'players' and 'removed'), found {_found(outcomes)}",
            )
        ]
    now = {
        (
            frozenset((p, n) for p, n in o.life.items() if n is not None),
            frozenset(r.id for r in o.removed),
        )
        for o in deal(scenario)
    }
    if expected == now:
        return []
    return [
        Problem(
            place,
            f"this lethal deals {name}'s assignment otherwise (life totals, or what is put "
            "into the graveyard); write the corpus again with this lethal ('lethal corpus DIR')",
        )
    ]


def _is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _found(value) -> str:
    text = json.dumps(value)
    return quoted(text) if len(text) > 40 else text
