"""The command line: `lethal check`, and the queries `possible`, `max`, `min`, `count` and
`guarantee`.

Exit codes: 0 legal or possible (or an answer found), 1 illegal or impossible, 2 bad input or
bad usage, 3 when the solver could not decide (or a stated limit was reached), 4 an internal
error of lethal (never read as a verdict; `--debug` shows its traceback), 5 when the answer
could not be written (no standard output, a full disk), 130 interrupted, 141 when whoever read
the output stopped reading (a closed pipe). With no standard error, messages go nowhere and
the exit code still says what happened.
Streams are arguments so tests can read them; nothing here prints a traceback unasked.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import math
import os
import sys
import traceback
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TextIO

from . import __version__, progress
from .deadline import deadline, interruptible
from .errors import (
    LethalError,
    LimitReached,
    Problem,
    ScenarioError,
    SolverUnknown,
    printable,
    shown,
)
from .limits import ASSIGNMENTS, COUNT_ROWS, CREATURES, EFFECT_ORDERS, ORDERS

# The rest of lethal is imported by the commands that use it, when they run: `--version`,
# `--help` and bad usage load none of it, and `check` nothing of Z3.

YES, NO, BAD_INPUT, UNDECIDED, INTERNAL = 0, 1, 2, 3, 4
OUTPUT_FAILED = 5  # the answer could not be written: no standard output, a full disk
INTERRUPTED = 130  # what a shell reports for Ctrl-C
CLOSED_PIPE = 141  # what a shell reports for a command whose output pipe was closed
COMMAND_TIMEOUT = 600  # seconds a scenario command may take, unless told otherwise
SHORTEST, LONGEST = 0.001, 7 * 24 * 3600  # the time limits that mean something
QUERY_LIMITS = (CREATURES, ASSIGNMENTS, COUNT_ROWS)  # the last two: with --combat


def main(
    argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    stdout = _Output(stdout or sys.stdout)  # None: started with standard output closed
    if stderr is None and sys.stderr is None:  # started with standard error closed (`2>&-`)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    stderr = stderr or sys.stderr
    try:
        with interruptible():
            return _main(argv, stdout, stderr)
    except KeyboardInterrupt:
        stderr.write("lethal: interrupted\n")
        return INTERRUPTED
    except BrokenPipeError:
        # Whoever read the output has gone (`lethal ... | head`): end quietly, and keep
        # Python's own flush at exit from complaining about the same pipe.
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        return CLOSED_PIPE


def _main(argv: list[str] | None, stdout: TextIO, stderr: TextIO) -> int:
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = _parser().parse_args(argv)
    except SystemExit as exit:  # argparse has printed its usage message
        return BAD_INPUT if exit.code else YES
    try:
        with (
            _time_limit(getattr(args, "limit_seconds", None)),
            progress.shown_by(_lines_on(stderr) if stderr.isatty() else None),
        ):
            answer_text, answer_json, code = args.run(args)
    except ScenarioError as error:
        for problem in error.problems:
            stderr.write(printable(f"{error.origin}: {problem}") + "\n")
        if args.json:
            problems = [{"place": p.place, "message": p.message} for p in error.problems]
            _write_json(stdout, {"file": error.origin, "errors": problems})
        return BAD_INPUT
    except (SolverUnknown, LimitReached) as error:
        where = getattr(args, "file", None) or "lethal"
        stderr.write(printable(f"{where}: undecided: {error}") + "\n")
        return UNDECIDED
    except LethalError as error:
        where = f"{args.file}: " if getattr(args, "file", None) else ""
        stderr.write(printable(f"{where or 'lethal: '}{error}") + "\n")
        return BAD_INPUT
    except Exception as error:  # a bug in lethal: never a verdict, never a traceback unasked
        if args.debug:
            traceback.print_exc(file=stderr)
        stderr.write(
            printable(f"lethal: internal error: {type(error).__name__}: {error}")
            + " (a bug in lethal, not a verdict; --debug shows where)\n"
        )
        return INTERNAL
    if args.json:
        _write_json(stdout, answer_json)
    else:
        stdout.write(answer_text)
    return _written(stdout, stderr, code)


class _Output(io.TextIOBase):
    """Standard output as the commands write it. A write that fails for another reason than
    a closed pipe (a full disk; no standard output at all, `>&-`) is remembered rather than
    raised, and the rest dropped, so that the command ends with its own exit code (5) and
    one line, not a traceback."""

    def __init__(self, stream: TextIO | None):
        self.stream = stream
        self.failure = None if stream is not None else "standard output is closed"

    def write(self, text: str) -> int:
        self._attempt(lambda stream: stream.write(text))
        return len(text)

    def flush(self) -> None:
        self._attempt(lambda stream: stream.flush())

    def fileno(self) -> int:
        if self.stream is None:
            raise io.UnsupportedOperation("no standard output")
        return self.stream.fileno()

    def _attempt(self, act: Callable[[TextIO], object]) -> None:
        if self.failure is not None:
            return
        try:
            act(self.stream)
        except BrokenPipeError:
            raise  # whoever read the output has gone: `main` ends quietly
        except OSError as error:
            self.failure = error.strerror or str(error)
            # What is still buffered goes nowhere, so that Python's own flush at exit does
            # not fail on it again.
            with contextlib.suppress(AttributeError, OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())


def _written(stdout: TextIO, stderr: TextIO, code: int) -> int:
    """The command's exit code once its answer is out, or OUTPUT_FAILED when it could not be
    written: flushed here, so that a full disk is found while lethal can still say so."""
    stdout.flush()
    failure = getattr(stdout, "failure", None)
    if failure is None:
        return code
    stderr.write(f"lethal: the answer could not be written: {failure}\n")
    return OUTPUT_FAILED


def _time_limit(seconds: float | None):
    """A scenario command's --timeout, over all of the command."""
    if seconds is None:
        return contextlib.nullcontext()
    return deadline(
        seconds, f"the time limit of {seconds:g} s was reached (--timeout SECONDS raises it)"
    )


class JsonLines(list):
    """An answer given as JSON Lines, one compact object a line, as a stream of results is
    read: each file of a multi-file check, then the summary."""


def _write_json(stdout: TextIO, data: dict | list) -> None:
    if isinstance(data, JsonLines):
        text = "".join(json.dumps(item) + "\n" for item in data)
    else:
        text = json.dumps(data, indent=2) + "\n"
    stdout.write(text)
    stdout.flush()  # a full disk is found now, not at exit (see _Output)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lethal",
        description="Magic: The Gathering's combat damage assignment rules, checked exactly.",
    )
    parser.add_argument("--version", action="version", version=f"lethal {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="on an internal error, show its traceback too"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(
        name: str, run: Callable, help: str, description: str, limits=(), many: bool = False
    ):
        sub = commands.add_parser(name, help=help, description=description)
        if many:
            sub.add_argument(
                "file", nargs="+", metavar="FILE", help="scenario files, or folders of them"
            )
        else:
            sub.add_argument("file", help="a scenario file (format lethal/1)")
        sub.add_argument("--json", action="store_true", help="print the answer as JSON")
        limits = (ORDERS, *limits)
        for limit in limits:
            sub.add_argument(
                limit.flag,
                type=_whole_number(1, 10**9),
                default=limit.default,
                metavar="N",
                help=f"{limit.what} (default {limit.default}); beyond it, exit 3",
            )
        sub.set_defaults(limits=limits)
        sub.add_argument(
            "--timeout",
            dest="limit_seconds",
            type=_seconds,
            default=COMMAND_TIMEOUT,
            metavar="SECONDS",
            help=f"the limit for the whole command (default {COMMAND_TIMEOUT}); beyond it, exit 3",
        )
        sub.set_defaults(run=lambda args: _scenario_command(run, args))
        return sub

    checking = command(
        "check",
        _check,
        "is the file's assignment legal, and if not, every rule it breaks",
        "Judge the scenario's assignment of its combat damage step. "
        "Exit 0 legal, 1 illegal, 2 bad input. Given several files or a folder (its *.json "
        "files), one line each, the file's verdict, then a summary; with --json, JSON Lines: "
        "an object per file, then the summary. Every file is judged, even after a bad one; "
        "exit 2 if any file is bad input, else 3 if any is undecided, else 1 if any is "
        "illegal, else 0.",
        many=True,
    )
    checking.set_defaults(run=_check_files)
    command(
        "deal",
        _deal,
        "deal the file's legal assignment: damage dealt, what is left, what dies",
        "Deal the scenario's assignment: the damage each recipient is dealt after "
        "protection, prevention, doubling and other effects (in every order the affected "
        "player may choose, CR 616.1), life, loyalty and defense left, damage marked, and "
        "the permanents state-based actions then remove. Exit 0 dealt, 1 the assignment "
        "is illegal, 2 bad input.",
        limits=(EFFECT_ORDERS,),
    )
    partial = (
        " The file's 'assignment', if any, is a partial assignment: the pairs it lists are "
        "fixed, every other pair is free."
    )
    possible = command(
        "possible",
        _possible,
        "can a legal assignment meet these requirements?",
        "Find a legal assignment of the step that meets every requirement, or name what "
        "stands in the way. Exit 0 possible, 1 impossible." + partial,
        limits=QUERY_LIMITS,
    )
    whole = (
        "the whole combat damage phase: the first-strike step, its damage dealt and "
        "state-based actions, then the second step; counts damage dealt (the file names no "
        "step and gives no assignment)"
    )
    possible.add_argument("--combat", action="store_true", help=whole)
    possible.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="EXPR",
        help="a requirement such as 'rhino->D >= 3', '*->D >= 5' or 'rhino->* == 3' "
        "(comparisons >= <= == > <, sums with +); repeat for more",
    )
    for name, most in (("max", True), ("min", False)):
        extreme = command(
            name,
            _optimum(most),
            f"the {'most' if most else 'least'} combat damage a legal assignment gives to ID",
            f"The {'most' if most else 'least'} combat damage a legal assignment of the step "
            "gives to ID, with an assignment that reaches it." + partial,
            limits=QUERY_LIMITS,
        )
        extreme.add_argument("--to", required=True, metavar="ID", help="the recipient")
        extreme.add_argument("--combat", action="store_true", help=whole)
        extreme.add_argument("--from", dest="source", metavar="ID", help="only this source")
    counting = command(
        "count",
        _count,
        "how many legal assignments the step has",
        "Count the legal assignments of the step exactly." + partial,
        limits=(CREATURES, COUNT_ROWS),
    )
    counting.add_argument("--list", action="store_true", help="list the assignments too")
    counting.add_argument(
        "--limit",
        type=_whole_number(0, 10**9),
        default=1000,
        metavar="N",
        help="list at most N (default 1000)",
    )
    sure = command(
        "guarantee",
        _guarantee,
        "the damage to ID its wanter can be sure of, whatever the other side chooses",
        "The combat damage to ID that the player who wants it can be sure of when every "
        "division the other side chooses is chosen against them (CR 510.1, 702.22j-k)." + partial,
        limits=QUERY_LIMITS,
    )
    sure.add_argument("--to", required=True, metavar="ID", help="the recipient")
    sure.add_argument("--combat", action="store_true", help=whole)
    proving = commands.add_parser(
        "prove",
        help="prove properties of the rules, or refute them with a counterexample",
        description="Prove each property over every combat within its bounds, or refute it "
        "with the smallest counterexample. With no path, lethal's own library. Exit 0 when "
        "every property has its expected verdict, 1 when one does not (solvers that disagree "
        "included), 3 when the only problem is a property left undecided (the solver could "
        "not decide it, or it did not finish within --timeout), 2 when a property file is "
        "broken (it does not import, or a property raises, exits, returns no claim, or "
        "declares citations or bounds that mean nothing), whatever the other verdicts, and "
        "4 on an internal error of lethal.",
    )
    proving.add_argument("paths", nargs="*", metavar="PATH", help="property files or folders")
    proving.add_argument(
        "-k",
        dest="pattern",
        metavar="PATTERN",
        help="only properties whose name contains PATTERN or matches it as a glob",
    )
    proving.add_argument("--json", action="store_true", help="print the results as JSON")
    proving.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    _timeout_option(proving, "property")
    _out_option(proving, "where counterexamples and undecided queries are written")
    proving.add_argument(
        "--certify",
        action="store_true",
        help="re-check every proof with a second solver, cvc5, on the same query exported "
        "as SMT-LIB 2: a proof stands only if both find the negated claim unsatisfiable "
        "(needs lethal[certify])",
    )
    proving.add_argument(
        "--jobs",
        type=_whole_number(1, 64),
        default=1,
        metavar="N",
        help="properties proved at once, each in a process of its own (default 1); the "
        "results are the same, in the same order",
    )
    proving.set_defaults(run=_prove, file=None)
    differ = commands.add_parser(
        "diff",
        help="what differs between two editions of the rules",
        description="Between two editions of the rules (each 'current' or a date, the "
        "edition in force that day): the smallest combats, within the bounds, where an "
        "assignment is legal under one and illegal under the other, or where the most "
        "combat damage a player, planeswalker or battle can be given differs, each way; "
        "each written as a scenario file per edition, re-checked under both. A question "
        "answered 'none' is proved within the bounds. With FILE, that file's verdict and "
        "maxima under both editions. Exit 0 when nothing differs, 1 when something does "
        "(or the two sides of lethal disagree), 3 when the solver could not decide.",
    )
    differ.add_argument("file", nargs="?", metavar="FILE", help="a scenario file to compare")
    differ.add_argument("--from", dest="before", required=True, metavar="DATE")
    differ.add_argument("--to", dest="after", required=True, metavar="DATE")
    differ.add_argument("--json", action="store_true", help="print the answer as JSON")
    _timeout_option(differ, "question")
    _out_option(differ, "where the combats found are written")
    for bound, default in (("attackers", 2), ("blockers", 2), ("values", 4)):
        differ.add_argument(
            f"--{bound}",
            type=_whole_number(1, 10 if bound != "values" else 1000),
            default=default,
            metavar="N",
            help=f"at most N {bound} (default {default})"
            if bound != "values"
            else f"powers, toughnesses and loyalties up to N (default {default})",
        )
    differ.set_defaults(run=_diff)
    biting = commands.add_parser(
        "teeth",
        help="remove each kind of rule constraint in turn and show what catches it",
        description="Remove each kind of rule constraint in turn, prove the property library "
        "again and check every bundled example again, and show which notice. Exit 0 when "
        "every kind is caught, 1 when one is not.",
    )
    biting.add_argument("--json", action="store_true", help="print the table as JSON")
    _timeout_option(biting, "property")
    biting.set_defaults(run=_teeth, file=None)
    mutating = commands.add_parser(
        "mutants",
        help="apply each semantic mutant of the rules and show which nets kill it",
        description="Apply each mutant listed in lethal/proving/mutants.py to a copy of the "
        "package and run the nets on it: the bundled examples (a verdict changes), the property "
        "library (a verdict changes between proved, refuted and vacuous, or agrees and "
        "mismatch; unknown, error, a crash or a timeout is an unclean kill) and the tests "
        "(one fails). Exit 0 when the library "
        "kills at least 90% of the mutants cleanly and every mutant that survives every "
        "net run is marked equivalent, 1 otherwise.",
    )
    mutating.add_argument(
        "--nets",
        default="examples,library,tests",
        metavar="NETS",
        help="the nets to run, separated by commas (default examples,library,tests)",
    )
    mutating.add_argument(
        "-k",
        dest="patterns",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only mutants whose id contains PATTERN or matches it as a glob; repeat for more",
    )
    mutating.add_argument("--json", action="store_true", help="print the table as JSON")
    mutating.add_argument(
        "--jobs",
        type=_whole_number(1, 64),
        default=2,
        metavar="N",
        help="mutants run at once (default 2)",
    )
    mutating.add_argument(
        "--timeout",
        type=_seconds,
        default=900,
        metavar="SECONDS",
        help="the limit for one net on one mutant (default 900)",
    )
    mutating.set_defaults(run=_mutants, file=None)
    showing = commands.add_parser(
        "examples",
        help="list the bundled example scenarios, or print one to copy out",
        description="With no NAME, every bundled example, with what lethal check says of it "
        "and under which rules; the combats under combats/ have no assignment, for the "
        "queries. With NAME, that file's text, so that 'lethal examples NAME > combat.json' "
        "copies it out. Exit 2 for a NAME not bundled.",
    )
    showing.add_argument("name", nargs="?", metavar="NAME", help="an example's name")
    # The answers are scenario files or plain lines: no --json to ask for.
    showing.set_defaults(run=_examples, file=None, json=False)
    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of scenario files",
        description="Print the JSON Schema that scenario files (format lethal/1) follow.",
    )
    schema.set_defaults(run=_schema, file=None, json=False)
    return parser


def _seconds(text: str) -> float:
    """A time limit: a finite number of seconds, long enough to mean something."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not SHORTEST <= seconds <= LONGEST:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds from {SHORTEST:g} to {LONGEST:g}, found {text!r}"
        )
    return seconds


def _whole_number(least: int, most: int) -> Callable[[str], int]:
    """A count the command can honour: an integer from `least` to `most`."""

    def number(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected a whole number, found {text[:40]!r}")
        # Length first: Python refuses to read an integer of thousands of digits.
        if len(digits) > 12 or not least <= int(text) <= most:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {least} to {most}, found {text[:40]}"
            )
        return int(text)

    return number


def _timeout_option(parser: argparse.ArgumentParser, each: str) -> None:
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=120,
        metavar="SECONDS",
        help=f"the limit for each {each}, solving and lethal's own work (default 120); "
        "beyond it, that one is undecided",
    )


def _out_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--out", default="counterexamples", metavar="DIR", help=what)


def _check_timeout(timeout: float) -> None:
    if timeout <= 0:
        raise LethalError(f"--timeout: expected a positive number of seconds, found {timeout}")


def _prove(args):
    from .proving import report as proof_report
    from .proving import unbounded
    from .proving.certify import require_cvc5
    from .proving.library import LibraryError, collect
    from .proving.prover import prove_all, symbolic_combat_answers_as_lethal_check_does
    from .proving.unbounded import prove_unbounded

    _check_timeout(args.timeout)
    # Where the results go is looked at before any work, so that none is lost at the end.
    if args.junit is not None:
        proof_report.check_writable("--junit", args.junit, folder=False)
    proof_report.check_writable("--out", args.out, folder=True)
    if args.certify:
        require_cvc5()  # before any proving, so a missing solver costs no time
    found = collect(args.paths, args.pattern, args.timeout)
    if not found:
        raise LibraryError("no property matches" + (f" '{args.pattern}'" if args.pattern else ""))
    # First, that the combat the proofs speak of is the combat lethal check judges.
    results = [symbolic_combat_answers_as_lethal_check_does()]
    proving = prove_all(found, args.timeout, Path(args.out), args.certify, args.jobs)
    with contextlib.closing(proving):  # on Ctrl-C, no process is left proving
        for done, result in enumerate(proving, 1):
            results.append(result)
            name = shown(result.property.name)
            progress.say(f"prove: {done} of {len(found)}, {name} {result.verdict}")
    # The library's two headline invariants, for combats of any size.
    beyond = (
        []
        if args.paths or args.pattern
        else prove_unbounded(args.timeout, Path(args.out), args.certify)
    )
    if args.junit is not None:
        Path(args.junit).write_text(proof_report.junit(results))
    code = proof_report.exit_code(results, beyond)
    text = proof_report.text(results)
    if beyond:
        text += "beyond the bounds:\n" + unbounded.text(beyond) + "\n"
    data = proof_report.as_json(results) + unbounded.as_json(beyond)
    return text, data, code


def _diff(args):
    from .editions import EditionError, in_force
    from .proving import Bounds, diff
    from .reading import origin_of

    _check_timeout(args.timeout)
    if args.file == "":
        raise LethalError(EMPTY_PATH)
    path, args.file = args.file, args.file and origin_of(args.file)  # '-' is <stdin>
    editions = (args.before, args.after)
    for flag, rules in zip(("--from", "--to"), editions, strict=True):
        try:
            in_force(rules)  # a date lethal does not model: exit 2, before any work
        except EditionError as error:
            raise EditionError(f"{flag}: {error}") from None
    if path:
        pair = diff.compare_file(path, editions)
        same = (pair[0].verdict is None or pair[0].verdict.legal == pair[1].verdict.legal) and pair[
            0
        ].maxima == pair[1].maxima
        data = {"file": args.file, "editions": [diff.replayed_json(r) for r in pair]}
        return diff.file_text(args.file, pair), data, YES if same else NO
    if os.path.lexists(args.out) and not os.path.isdir(args.out):
        raise LethalError(
            f"--out: {args.out!r} is a file, not a folder; name a folder for the combats "
            "found (made if missing)"
        )
    values = args.values
    bounds = Bounds(2, args.attackers, args.blockers, 1, values, values, values)
    findings = diff.synthesize(*editions, bounds, args.timeout, Path(args.out))
    verdicts = [f.result.verdict for f in findings]
    if all(v == "proved" for v in verdicts):
        code = YES
    elif all(v in ("proved", "unknown") for v in verdicts):
        code = UNDECIDED
    else:
        code = NO
    return diff.text(*editions, bounds, findings), diff.as_json(*editions, bounds, findings), code


def _teeth(args):
    from .proving import teeth

    _check_timeout(args.timeout)
    bites = teeth.bite(args.timeout)
    data = [
        {
            "rule": b.kind,
            "what": b.what,
            "properties": list(b.properties),
            "examples": list(b.examples),
            "caught": b.caught,
        }
        for b in bites
    ]
    return teeth.table(bites), data, YES if all(b.caught for b in bites) else NO


def _mutants(args):
    from .proving import mutation

    _check_timeout(args.timeout)
    nets = mutation.parse_nets(args.nets)
    chosen = mutation.select(args.patterns)
    measured = mutation.measure(chosen, nets, args.jobs, args.timeout, progress.current())
    code = YES if mutation.passes(measured) else NO
    return mutation.table(measured), mutation.as_json(measured), code


def _lines_on(stream: TextIO) -> Callable[[str], None]:
    """Progress lines for a person watching the terminal."""

    def show(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return show


def _examples(args):
    examples = _bundled()
    if args.name is None:
        width = max(len(name) for name in examples)
        lines = [f"{name:<{width}}  {_what_it_shows(name, p)}" for name, p in examples.items()]
        return "\n".join(lines) + "\n", None, YES
    name = args.name.removesuffix(".json")
    if name not in examples:
        close = difflib.get_close_matches(name, list(examples), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise LethalError(f"no bundled example '{args.name}'{hint}; 'lethal examples' lists them")
    return examples[name].read_text(encoding="utf-8"), None, YES


def _bundled() -> dict:
    """Every bundled scenario by the name `lethal examples` knows it by: the examples, then
    the combats the README asks its queries of, as combats/NAME."""
    from .reading import bundled_examples

    combats = resources.files("lethal") / "examples" / "combats"
    found = {p.name.removesuffix(".json"): p for p in bundled_examples()}
    for path in sorted(combats.iterdir(), key=lambda p: p.name):
        if path.name.endswith(".json"):
            found[f"combats/{path.name.removesuffix('.json')}"] = path
    return found


def _what_it_shows(name: str, path) -> str:
    """What lethal check says of a bundled scenario and under which rules, in a few words:
    the files carry no description, and their names already say what they are about."""
    from .reading import loads
    from .verdict import check

    # The combats are asked about as a whole combat damage phase too, so may name no step.
    scenario = loads(path.read_text(encoding="utf-8"), name, name.startswith("combats/"))
    rules = scenario.edition.called
    if scenario.assignment is None:
        return f"no assignment: a combat for the queries ({rules})"
    verdict = check(scenario)
    where = rules if verdict.step == "only" else f"{verdict.step} step; {rules}"
    if verdict.legal:
        return f"legal ({where})"
    broken = ", ".join(dict.fromkeys(v.rule for v in verdict.violations))
    return f"illegal, CR {broken} ({where})"


def _schema(args):
    text = (resources.files("lethal") / "scenario.schema.json").read_text(encoding="utf-8")
    return text, None, YES


def _check_files(args):
    """One file: its whole verdict, as ever. Several files or folders: each file's verdict
    line and a summary, every file judged even after a bad one."""
    from .reading import STDIN

    paths = args.file
    if "" in paths or paths.count(STDIN) > 1:
        args.file = None  # bad usage, no one file's
        twice = f"'{STDIN}' given twice: standard input can be read only once"
        raise LethalError(EMPTY_PATH if "" in paths else twice)
    if len(args.file) == 1 and not Path(args.file[0]).is_dir():
        args.file = args.file[0]
        return _scenario_command(_check, args)
    paths, args.file = args.file, None  # an error that stops the run is no one file's
    files = _scenario_files(paths)
    kinds, lines, objects = zip(*(_check_one(args, *file) for file in files), strict=True)
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
        if not Path(path).is_dir():
            files.append((path, None))
        elif not os.access(path, os.R_OK | os.X_OK):
            files.append((path, "permission denied: a folder lethal cannot list"))
        else:
            found = sorted(str(p) for p in Path(path).glob("*.json"))
            files += [(file, None) for file in found] or [
                (path, "a folder without scenario files (*.json)")
            ]
    return files


def _check_one(args, file: str, unjudged: str | None = None) -> tuple[str, str, dict]:
    """One file of several: its outcome, its line and its JSON; a bad file is reported by
    its first problem (checking it alone shows them all)."""
    from .reading import origin_of

    name = origin_of(file)
    try:
        if unjudged is not None:
            raise ScenarioError(name, [Problem("", unjudged)])
        one = argparse.Namespace(**{**vars(args), "file": file})
        text, data, code = _scenario_command(_check, one)
    except ScenarioError as error:
        more = len(error.problems) - 1
        line = f"{shown(name)}: bad input: {printable(str(error.problems[0]))}" + (
            f" (and {more} more)" if more else ""
        )
        problems = [{"place": p.place, "message": p.message} for p in error.problems]
        return "bad input", line, {"file": name, "errors": problems}
    except (SolverUnknown, LimitReached) as error:
        line = f"{shown(name)}: undecided: {printable(str(error))}"
        return "undecided", line, {"file": name, "undecided": str(error)}
    return "legal" if code == YES else "illegal", text.splitlines()[0], data


def _scenario_command(run: Callable, args):
    """Runs a command on the file's scenario, under the edition the file names, which every
    answer names too."""
    from .reading import load, origin_of

    if args.file == "":
        raise LethalError(EMPTY_PATH)
    scenario = load(args.file, getattr(args, "combat", False))
    # Exact, as JSON gives it ('-' is <stdin>); text shows it with shown().
    args.file = origin_of(args.file)
    if getattr(args, "combat", False):
        from .whole_combat import starts_the_phase

        starts_the_phase(scenario, args.file)
    with contextlib.ExitStack() as limited:
        for limit in args.limits:
            limited.enter_context(limit.set_to(getattr(args, limit.dest)))
        text, data, code = run(args, scenario)
    edition = scenario.edition
    if isinstance(data, dict) and "edition" not in data:
        data = {"rules": edition.asked, "edition": edition.describe(), **data}
        text += f"under the {edition.describe()}\n"
    return text, data, code


def _check(args, scenario):
    from . import report
    from .verdict import check

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


def _deal(args, scenario):
    from . import report
    from .rules.dealing import deal

    checked = _check(args, scenario)
    if checked[2] != YES:
        return checked
    outcomes = deal(scenario)
    text = report.outcomes_text(shown(args.file), scenario, outcomes)
    data = {"legal": True, "outcomes": [report.outcome_json(o) for o in outcomes]}
    return text, data, YES


def _possible(args, scenario):
    from . import queries, report
    from .answers import Impossible

    answer = queries.possible(scenario, args.require, args.combat)
    wanted = "that meets " + " and ".join(args.require) if args.require else "exists"
    code = NO if isinstance(answer, Impossible) else YES
    return (
        report.possible_text(shown(args.file), wanted, answer),
        report.possible_json(answer),
        code,
    )


def _optimum(most: bool):
    def run(args, scenario):
        from . import queries, report
        from .answers import Impossible

        find = queries.maximum if most else queries.minimum
        answer = find(scenario, args.to, args.source, args.combat)
        if isinstance(answer, Impossible):
            text = report.impossible_text(
                shown(args.file), "completes the file's assignment", answer
            )
            return text, report.optimum_json(answer), NO
        text = report.optimum_text(shown(args.file), most, args.to, args.source, answer)
        return text, report.optimum_json(answer), YES

    return run


def _count(args, scenario):
    from . import queries, report

    answer = queries.count(scenario, args.limit if args.list else None)
    return report.count_text(shown(args.file), answer), report.count_json(answer), YES


def _guarantee(args, scenario):
    from . import queries, report
    from .answers import Impossible

    answer = queries.guarantee(scenario, args.to, args.combat)
    if isinstance(answer, Impossible):
        text = report.impossible_text(shown(args.file), "completes the file's assignment", answer)
        return text, report.guarantee_json(answer), NO
    return report.guarantee_text(shown(args.file), answer), report.guarantee_json(answer), YES
