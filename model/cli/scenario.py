"""The commands on scenario files: check (one file or many), deal and the queries."""

from __future__ import annotations

import os
from collections.abc import Callable

from ..errors import (
    LethalError,
    LimitReached,
    Problem,
    ScenarioError,
    SolverUnknown,
    printable,
    shown,
)
from ..limits import as_given
from .codes import BAD_INPUT, NO, UNDECIDED, YES
from .output import JsonLines


def check_files(args):
    """One file: its whole verdict, as ever. Several files or folders: each file's verdict
    line and a summary, every file judged even after a bad one."""
    from ..reading import STDIN, origin_of

    paths = args.file
    if "" in paths or paths.count(STDIN) > 1:
        args.file = None  # bad usage, no one file's
        twice = f"'{STDIN}' given twice: standard input can be read only once"
        raise LethalError(EMPTY_PATH if "" in paths else twice)
    if len(args.file) == 1 and not os.path.isdir(args.file[0]):
        args.file = args.file[0]
        return scenario_command(judge, args)
    paths, args.file = args.file, None  # an error that stops the run is no one file's
    files, judged = [(path, None) for path in paths], []
    try:
        files = _scenario_files(paths)
        for file in files:
            judged.append(_check_one(args, *file))
    except LimitReached as error:  # the time ran out between files: the rest are undecided
        judged += [_undecided(origin_of(file), error) for file, _ in files[len(judged) :]]
    kinds, lines, objects = zip(*judged, strict=True)
    counts = {kind: kinds.count(kind) for kind in CHECK_OUTCOMES}
    if counts["bad input"]:
        code = BAD_INPUT
    elif counts["undecided"]:
        code = UNDECIDED
    else:
        code = NO if counts["illegal"] else YES
    tally = {"files": len(files), **{k.replace(" ", "_"): n for k, n in counts.items()}}
    shown = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
    summary = f"{len(files)} file{'s' if len(files) != 1 else ''}: {shown}"
    text = "".join(line + "\n" for line in (*lines, summary))
    return text, JsonLines([*objects, tally]), code


CHECK_OUTCOMES = ("legal", "illegal", "undecided", "bad input")

EMPTY_PATH = "empty path: give a scenario file, or '-' to read standard input"


def _scenario_files(paths: list[str]) -> list[tuple[str, str | None]]:
    """The paths given, each folder replaced by its *.json files in name order; with each,
    why it cannot be judged, if it is a folder that gives no file (None otherwise)."""
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files.append((path, None))
        elif not os.access(path, os.R_OK | os.X_OK):
            files.append((path, "permission denied: a folder lethal cannot list"))
        else:
            from pathlib import Path  # only for a folder: it costs a one-file check 5 ms

            found = sorted(str(p) for p in Path(path).glob("*.json"))
            files += [(file, None) for file in found] or [
                (path, "a folder without scenario files (*.json)")
            ]
    return files


def _check_one(args, file: str, unjudged: str | None = None) -> tuple[str, str, dict]:
    """One file of several: its outcome, its line and its JSON; a bad file is reported by
    its first problem (checking it alone shows them all)."""
    from ..deadline import overdue
    from ..reading import origin_of

    name = origin_of(file)
    try:
        if unjudged is not None:
            raise ScenarioError(name, [Problem("", unjudged)])
        # The command's time limit covers every file: once it has run out on one, the rest
        # are undecided too, not judged with no limit at all.
        overdue()
        one = type(args)(**{**vars(args), "file": file})  # argparse's namespace, or plain_check's
        text, data, code = scenario_command(judge, one)
    except ScenarioError as error:
        more = len(error.problems) - 1
        line = f"{shown(name)}: bad input: {printable(str(error.problems[0]))}" + (
            f" (and {more} more)" if more else ""
        )
        problems = [{"place": p.place, "message": p.message} for p in error.problems]
        return "bad input", line, {"file": name, "errors": problems}
    except (SolverUnknown, LimitReached) as error:
        return _undecided(name, error)
    return "legal" if code == YES else "illegal", text.splitlines()[0], data


def _undecided(name: str, error: Exception) -> tuple[str, str, dict]:
    line = f"{shown(name)}: undecided: {printable(str(error))}"
    return "undecided", line, {"file": name, "undecided": str(error)}


def scenario_command(run: Callable, args):
    """Runs a command on the file's scenario, under the edition the file names, which every
    answer names too."""
    from ..reading import load, origin_of

    if args.file == "":
        raise LethalError(EMPTY_PATH)
    scenario = load(args.file, getattr(args, "combat", False))
    # Exact, as JSON gives it ('-' is <stdin>); text shows it with shown().
    args.file = origin_of(args.file)
    if getattr(args, "combat", False):
        from ..whole_combat import starts_the_phase

        starts_the_phase(scenario, args.file)
    with as_given(args):
        text, data, code = run(args, scenario)
    edition = scenario.edition
    if isinstance(data, dict) and "edition" not in data:
        data = {"rules": edition.asked, "edition": edition.describe(), **data}
        text += f"under the {edition.describe()}\n"
    return text, data, code


def judge(args, scenario):
    from .. import report
    from ..verdict import check

    if scenario.assignment is None:
        missing = Problem(
            "assignment",
            "missing: the file proposes no assignment to check; add an 'assignment' list "
            "of {source, to, amount} entries, or ask 'lethal possible'",
        )
        raise ScenarioError(args.file, [missing])
    verdict = check(scenario)
    return (
        report.verdict_text(shown(args.file), scenario, verdict),
        report.verdict_json(args.file, verdict),
        YES if verdict.legal else NO,
    )


def deal(args, scenario):
    from .. import report
    from ..rules.dealing import deal

    checked = judge(args, scenario)
    if checked[2] != YES:
        return checked
    outcomes = deal(scenario)
    text = report.outcomes_text(shown(args.file), scenario, outcomes)
    data = {"legal": True, "outcomes": [report.outcome_json(o, scenario) for o in outcomes]}
    return text, data, YES


def possible(args, scenario):
    from .. import queries, report
    from ..answers import Impossible

    answer = queries.possible(scenario, args.require, args.combat)
    # The file's own pairs are fixed: when they stand in the way, the headline says so.
    asked = ["completes the file's assignment"] if scenario.assignment else []
    asked += ["meets " + " and ".join(args.require)] if args.require else []
    wanted = "that " + " and ".join(asked) if asked else "exists"
    code = NO if isinstance(answer, Impossible) else YES
    return (
        report.possible_text(shown(args.file), wanted, answer),
        report.possible_json(answer),
        code,
    )


def optimum(most: bool):
    def run(args, scenario):
        from .. import queries, report
        from ..answers import Bounds, Impossible

        find = queries.maximum if most else queries.minimum
        answer = find(scenario, args.to, args.source, args.combat)
        if isinstance(answer, Bounds):  # the time limit cut the search short
            text = report.bounds_text(shown(args.file), most, args.to, args.source, answer)
            return text, report.bounds_json(answer), UNDECIDED
        if isinstance(answer, Impossible):
            text = report.impossible_text(
                shown(args.file), "completes the file's assignment", answer
            )
            return text, report.optimum_json(answer), NO
        text = report.optimum_text(shown(args.file), most, args.to, args.source, answer)
        return text, report.optimum_json(answer), YES

    return run


def count(args, scenario):
    from .. import queries, report
    from .parser import LISTED

    if args.limit is not None and not args.list:  # else it would bound nothing, silently
        raise LethalError("--limit bounds what --list prints: give --list too, or no --limit")
    listed = LISTED if args.limit is None else args.limit
    answer = queries.count(scenario, listed if args.list else None)
    return report.count_text(shown(args.file), answer), report.count_json(answer), YES


def guarantee(args, scenario):
    from .. import queries, report
    from ..answers import Impossible

    answer = queries.guarantee(scenario, args.to, args.combat)
    if isinstance(answer, Impossible):
        text = report.impossible_text(shown(args.file), "completes the file's assignment", answer)
        return text, report.guarantee_json(answer), NO
    text = report.guarantee_text(shown(args.file), answer, scenario.edition)
    return text, report.guarantee_json(answer), YES
