"""The command line: `lethal check FILE [--json]`.

Exit codes: 0 legal, 1 illegal, 2 bad input or bad usage. Streams are arguments so tests
can read them; nothing here prints a traceback for a user's mistake.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from importlib.metadata import version
from typing import TextIO

from .check import Chooser, Verdict, check
from .errors import Problem, ScenarioError
from .reading import load

LEGAL, ILLEGAL, BAD_INPUT = 0, 1, 2


def main(
    argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = _parser().parse_args(argv)
    except SystemExit as exit:  # argparse has printed its usage message
        return BAD_INPUT if exit.code else 0
    return args.run(args, stdout, stderr)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lethal",
        description="Magic: The Gathering's combat damage assignment rules, checked exactly.",
    )
    parser.add_argument("--version", action="version", version=f"lethal {version('lethal')}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check_ = commands.add_parser(
        "check",
        help="is the file's assignment legal, and if not, every rule it breaks",
        description="Judge the scenario's assignment of its combat damage step. "
        "Exit 0 legal, 1 illegal, 2 bad input.",
    )
    check_.add_argument("file", help="a scenario file (format lethal/1)")
    check_.add_argument("--json", action="store_true", help="print the verdict as JSON")
    check_.set_defaults(run=_check)
    return parser


def _check(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        scenario = load(args.file)
        if scenario.assignment is None:
            raise ScenarioError(
                args.file,
                [
                    Problem(
                        "assignment",
                        "missing: the file proposes no assignment to check; add an "
                        "'assignment' list of {source, to, amount} entries",
                    )
                ],
            )
    except ScenarioError as error:
        return _bad_input(error, args.json, stdout, stderr)
    verdict = check(scenario)
    if args.json:
        json.dump(_verdict_json(args.file, verdict), stdout, indent=2)
        stdout.write("\n")
    else:
        stdout.write(_verdict_text(args.file, scenario, verdict))
    return LEGAL if verdict.legal else ILLEGAL


def _bad_input(error: ScenarioError, as_json: bool, stdout: TextIO, stderr: TextIO) -> int:
    for problem in error.problems:
        stderr.write(f"{error.origin}: {problem}\n")
    if as_json:
        problems = [{"place": p.place, "message": p.message} for p in error.problems]
        json.dump({"file": error.origin, "errors": problems}, stdout, indent=2)
        stdout.write("\n")
    return BAD_INPUT


def _verdict_json(file: str, verdict: Verdict) -> dict:
    return {
        "file": file,
        "legal": verdict.legal,
        "step": verdict.step,
        "rules": verdict.ruleset.name,
        "edition": verdict.ruleset.checked_against,
        "violations": [
            {"rule": v.rule, "source": v.source, "message": v.message} for v in verdict.violations
        ],
        "choosers": [
            {"source": c.source, "player": c.player, "rule": c.rule} for c in verdict.choosers
        ],
    }


def _verdict_text(file: str, scenario, verdict: Verdict) -> str:
    context = (
        f"step {verdict.step}; {verdict.ruleset.name} rules, checked against the CR of "
        f"{verdict.ruleset.checked_against}"
    )
    lines = []
    if verdict.legal:
        lines.append(f"{file}: legal ({context})")
    else:
        count = len(verdict.violations)
        lines.append(f"{file}: illegal, {count} violation{'s' if count != 1 else ''} ({context})")
        lines += [f"  {v.message}; CR {v.rule}" for v in verdict.violations]
    if verdict.choosers:
        lines.append("who divides each creature's combat damage:")
        width = max(len(c.source) for c in verdict.choosers)
        lines += [f"  {c.source:<{width}}  {_chooser_words(scenario, c)}" for c in verdict.choosers]
    else:
        lines.append("no creature assigns combat damage in this step")
    return "\n".join(lines) + "\n"


def _chooser_words(scenario, chooser: Chooser) -> str:
    why = {
        "702.22j": "the defending player, as banding blocks it",
        "702.22k": "the active player, as it blocks banding",
    }.get(chooser.rule)
    if why is None:
        attacking = scenario.permanent(chooser.source).attacking is not None
        why = "its controller, the active player" if attacking else "its controller"
    return f"{chooser.player}  {why} (CR {chooser.rule})"
