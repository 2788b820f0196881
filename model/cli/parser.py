"""The commands and their options, each value checked as it is read (bad usage: exit 2)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from importlib import import_module
from types import SimpleNamespace
from typing import TYPE_CHECKING

from .. import __version__
from ..conformance import ASKS
from ..limits import ASSIGNMENTS, COUNT_STANDINGS, CREATURES, EFFECT_ORDERS, ORDERS, Limit

if TYPE_CHECKING:
    import argparse

COMMAND_TIMEOUT = 600  # seconds a scenario command may take, unless told otherwise

SCENARIO_LIMITS = (ORDERS,)  # the limits every scenario command takes

SHORTEST, LONGEST = 0.001, 7 * 24 * 3600  # the time limits that mean something

MESSAGE = 300  # the most characters of a usage message, which may quote what was typed

LISTED = 1000  # the assignments count --list prints unless --limit says
OUT = "counterexamples"  # where prove and diff write the combats they find
DIFF_BOUNDS = {"attackers": 2, "blockers": 2, "values": 4}  # diff's, without FILE
QUERY_LIMITS = (CREATURES, ASSIGNMENTS, COUNT_STANDINGS)  # the last two: with --combat


def build(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command or, when `argv` names a command, of that one alone: each
    command's parser costs argparse a millisecond (a help formatter per option, a translation
    looked up per message), and a command should start fast. The top-level options take no
    values, so the first word that is not an option names the command."""
    import argparse  # here, not above: the plainest `lethal check` never builds a parser

    wanted = next((word for word in argv or () if not word.startswith("-")), None)
    parser = _suggesting(argparse)(
        prog="lethal",
        description="Magic: The Gathering's combat damage assignment rules, checked exactly.",
    )
    parser.add_argument("--version", action="version", version=f"lethal {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="on an internal error, show its traceback too"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add_parser(name: str, **details) -> argparse.ArgumentParser | _Unused:
        return commands.add_parser(name, **details) if wanted in (None, name) else _Unused()

    def command(
        name: str, run: Callable, help: str, description: str, limits=(), many: bool = False
    ):
        sub = add_parser(name, help=help, description=description)
        if many:
            sub.add_argument(
                "file", nargs="+", metavar="FILE", help="scenario files, or folders of them"
            )
        else:
            sub.add_argument("file", help="a scenario file (format lethal/1)")
        sub.add_argument("--json", action="store_true", help="print the answer as JSON")
        _limit_options(sub, (*SCENARIO_LIMITS, *limits))
        sub.add_argument(
            "--timeout",
            dest="limit_seconds",
            type=_seconds,
            default=COMMAND_TIMEOUT,
            metavar="SECONDS",
            help=f"the limit for the whole command (default {COMMAND_TIMEOUT}); beyond it, exit 3",
        )
        sub.set_defaults(run=lambda args: _command("scenario", "scenario_command")(run, args))
        return sub

    checking = command(
        "check",
        _command("scenario", "judge"),
        "is the file's assignment legal, and if not, every rule it breaks",
        "Judge the scenario's assignment of its combat damage step. "
        "Exit 0 legal, 1 illegal, 2 bad input. Given several files or a folder (its *.json "
        "files), one line each, the file's verdict, then a summary; with --json, JSON Lines: "
        "an object per file, then the summary. Every file is judged, even after a bad one; "
        "exit 2 if any file is bad input, else 3 if any is undecided, else 1 if any is "
        "illegal, else 0.",
        many=True,
    )
    checking.set_defaults(run=_CHECK)
    command(
        "deal",
        _command("scenario", "deal"),
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
        _command("scenario", "possible"),
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
            _command("scenario", "optimum", most),
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
        _command("scenario", "count"),
        "how many legal assignments the step has",
        "Count the legal assignments of the step exactly." + partial,
        limits=(CREATURES, COUNT_STANDINGS),
    )
    counting.add_argument("--list", action="store_true", help="list the assignments too")
    counting.add_argument(
        "--limit",
        type=_whole_number(0, 10**9),
        metavar="N",
        help=f"with --list, list at most N (default {LISTED:,})",
    )
    sure = command(
        "guarantee",
        _command("scenario", "guarantee"),
        "the damage to ID its wanter can be sure of, whatever the other side chooses",
        "The combat damage to ID that the player who wants it can be sure of when every "
        "division the other side chooses is chosen against them (CR 510.1, 702.22j-k)." + partial,
        limits=QUERY_LIMITS,
    )
    sure.add_argument("--to", required=True, metavar="ID", help="the recipient")
    sure.add_argument("--combat", action="store_true", help=whole)
    proving = add_parser(
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
    _jobs_option(proving)
    proving.set_defaults(run=_command("proofs", "prove"), file=None)
    differ = add_parser(
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
    differ.add_argument("--from", dest="before", required=True, metavar="DATE", type=_rules)
    differ.add_argument("--to", dest="after", required=True, metavar="DATE", type=_rules)
    differ.add_argument("--json", action="store_true", help="print the answer as JSON")
    _timeout_option(differ, "question (with FILE, the verdict and each maximum, each edition's)")
    # Each flag of diff serves one of its two ways, with FILE or without: unset, not set to
    # its default, so that one given to the other way is refused rather than ignored.
    _limit_options(differ, (ORDERS, CREATURES), ", with FILE", unset=True)
    _out_option(differ, "where the combats found are written, without FILE", unset=True)
    for bound, default in DIFF_BOUNDS.items():
        differ.add_argument(
            f"--{bound}",
            type=_bound("power" if bound == "values" else bound),
            metavar="N",
            help=f"without FILE, at most N {bound} (default {default})"
            if bound != "values"
            else f"without FILE, powers, toughnesses and loyalties up to N (default {default})",
        )
    differ.set_defaults(run=_command("proofs", "diff"))
    biting = add_parser(
        "teeth",
        help="remove each kind of rule constraint in turn and show what catches it",
        description="Remove each kind of rule constraint in turn, prove the property library "
        "again, up to the first property that notices, and check every bundled example again, "
        "and show which notice; a property with no definite verdict (the solver could not "
        "decide it, or it failed) notices nothing. Exit 0 when every kind is caught, 1 when one "
        "is not, 3 when nothing caught one but a property with no definite verdict might have.",
    )
    biting.add_argument("--json", action="store_true", help="print the table as JSON")
    _timeout_option(biting, "property")
    _jobs_option(biting)
    biting.set_defaults(run=_command("proofs", "teeth"), file=None)
    corpus = add_parser(
        "corpus",
        help="write a conformance corpus: the smallest combat where each rule decides",
        description="Write to DIR, for each kind of rule constraint, each keyword and each "
        "pair of keywords, the smallest combat (within small bounds) where it decides "
        "whether the file's assignment is legal, or who divides a creature's damage, found "
        "by the solver and re-checked; with manifest.json, which gives each file's expected "
        "answers (verdict and rules broken, who divides each creature's damage, the most "
        "and least damage to each player, planeswalker and battle) and the corpus's "
        "coverage. The same version and edition always write the same files. DIR is made "
        "if missing; an earlier corpus there is replaced. Exit 0 written, 3 when a target "
        "was left undecided, 2 for a DIR that holds other files.",
    )
    corpus.add_argument("dir", metavar="DIR", help="the folder to write the corpus to")
    corpus.add_argument(
        "--rules",
        default="current",
        type=_rules,
        metavar="DATE",
        help="the edition: 'current' (default) or a date, the rules in force that day",
    )
    corpus.add_argument("--json", action="store_true", help="print the manifest as JSON")
    _timeout_option(corpus, "target")
    corpus.set_defaults(run=_command("proofs", "corpus"), file=None)
    mutating = add_parser(
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
        type=_jobs,
        default=2,
        metavar="N",
        help="mutants run at once (default 2; auto: one for each CPU this process may use)",
    )
    mutating.add_argument(
        "--timeout",
        type=_seconds,
        default=900,
        metavar="SECONDS",
        help="the limit for one net on one mutant (default 900)",
    )
    mutating.set_defaults(run=_command("proofs", "mutants"), file=None)
    showing = add_parser(
        "examples",
        help="list the bundled example scenarios, or print one to copy out",
        description="With no NAME, every bundled example, with what lethal check says of it "
        "and under which rules; the combats under combats/ have no assignment, for the "
        "queries. With NAME, that file's text, so that 'lethal examples NAME > combat.json' "
        "copies it out. Exit 2 for a NAME not bundled.",
    )
    showing.add_argument("name", nargs="?", metavar="NAME", help="an example's name")
    # The answers are scenario files or plain lines: no --json to ask for.
    showing.set_defaults(run=_command("bundled", "examples"), file=None, json=False)
    describing = add_parser(
        "schema",
        help="print the JSON Schema of scenario files",
        description="Print the JSON Schema that scenario files (format lethal/1) follow.",
    )
    describing.set_defaults(run=_command("bundled", "schema"), file=None, json=False)
    conforming = add_parser(
        "conform",
        help="run a rules engine against lethal: a corpus, then random combats",
        description="Ask a rules engine (COMMAND, run once per question, one JSON request on "
        "its standard input, one JSON answer on its standard output: docs/conformance.md) "
        "about each file of a corpus (check its assignment, make an assignment, deal it), "
        "then about random combats, and compare each answer with lethal's. A disagreement "
        "is printed with the rules that decide it and saved as a scenario file in --out; "
        "one among random combats is first shrunk to the smallest combat that still shows "
        "it. Exit 0 when every answer agrees, 1 on any disagreement or engine failure (a "
        "timeout, a crash, an unreadable answer), or when nothing was compared, 2 for bad "
        "usage or a bad corpus, 3 when --timeout ran out first.",
    )
    conforming.add_argument(
        "--engine", required=True, metavar="COMMAND", help="the command that runs the engine"
    )
    conforming.add_argument(
        "--corpus",
        metavar="DIR",
        help="a corpus folder, as 'lethal corpus DIR' writes it (default: one written now)",
    )
    conforming.add_argument(
        "--asks",
        type=_asks,
        default=ASKS,
        metavar="ASKS",
        help=f"what to ask, separated by commas (default {','.join(ASKS)})",
    )
    conforming.add_argument(
        "--random",
        type=_whole_number(0, 10**6),
        default=100,
        metavar="N",
        help="random combats for each ask, after the corpus (default 100; 0: none)",
    )
    conforming.add_argument(
        "--seed",
        type=_whole_number(0, 10**9),
        default=0,
        metavar="S",
        help="the seed random combats are drawn from (default 0)",
    )
    conforming.add_argument(
        "--out",
        default="conform-failures",
        metavar="DIR",
        help="where disagreements are saved as scenario files (default conform-failures)",
    )
    conforming.add_argument("--json", action="store_true", help="print the report as JSON")
    conforming.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    conforming.add_argument(
        "--engine-timeout",
        type=_seconds,
        default=10,
        metavar="SECONDS",
        help="the limit for one answer (default 10); beyond it, an engine failure",
    )
    conforming.add_argument(
        "--timeout",
        dest="seconds",
        type=_seconds,
        default=3600,
        metavar="SECONDS",
        help="the limit for the whole run (default 3600); beyond it, exit 3",
    )
    conforming.set_defaults(run=_command("conform", "conform"), file=None)
    if wanted is not None and wanted not in commands.choices:  # argparse lists them all
        return build()
    return parser


def plain_check(argv: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of the plainest check, `lethal [--debug] check [--json] FILE...
    [--json]`, as `build(argv).parse_args(argv)` gives them, read without argparse: importing
    it and building one parser (its help formatter measures the terminal, its messages look
    for translations) cost each start of `lethal check` nearly a tenth of its time. None for
    any other line, which argparse reads (tests/test_start_check.py holds the two to agreeing)."""
    words = list(argv)
    debug = False
    while words and words[0] == "--debug":
        debug = True
        words.pop(0)
    if words[:1] != ["check"]:
        return None
    words.pop(0)
    json = False
    while words and words[0] == "--json":
        json = True
        words.pop(0)
    while words and words[-1] == "--json":
        json = True
        words.pop()
    # Anything else that argparse would read as an option ('-' alone is standard input, a
    # file) leaves the line to argparse, which can say what is wrong with it.
    if not words or any(word[:1] == "-" and word != "-" for word in words):
        return None
    return SimpleNamespace(
        debug=debug,
        command="check",
        file=words,
        json=json,
        **{limit.dest: limit.default for limit in SCENARIO_LIMITS},
        limit_seconds=COMMAND_TIMEOUT,
        limits=SCENARIO_LIMITS,
        run=_CHECK,
    )


def _suggesting(argparse):
    """argparse's parser, whose message for a mistyped command or option says which was
    meant, where one is close."""

    class Parser(argparse.ArgumentParser):
        def error(self, message: str):
            from ..errors import printable

            shown = message if len(message) <= MESSAGE else message[:MESSAGE] + "..."
            super().error(printable(shown) + _meant(self, message))

    return Parser


def _meant(parser: argparse.ArgumentParser, message: str) -> str:
    """' (did you mean ...?)' for the first word the message says is wrong, if one is close
    to a command (an invalid choice) or to an option of the command (an unrecognized
    argument; argparse reports those from the top-level parser, after the command's)."""
    import argparse
    import re

    from ..reading.problems import did_you_mean

    choice = re.search(r"invalid choice: '([^']*)' \(choose from", message)
    if choice:
        wrong = [a for a in parser._actions if a.choices and choice[1] not in a.choices]
        return did_you_mean(choice[1], list(wrong[0].choices)) if wrong else ""
    if not message.startswith("unrecognized arguments: "):
        return ""
    parsers = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            parsers += action.choices.values()
    options = [o for p in parsers for a in p._actions for o in a.option_strings]
    own = {o for a in parser._actions for o in a.option_strings} - {"-h", "--help"}
    for word in message.removeprefix("unrecognized arguments: ").split():
        if word in own:
            return f" ({word} is lethal's own option: give it before the command)"
        if word.startswith("--"):
            return did_you_mean(word.split("=")[0], options)
    return ""


class _Unused:
    """The parser of a command that is not running: what is added to it is never read."""

    def add_argument(self, *names, **details) -> None:
        pass

    def set_defaults(self, **values) -> None:
        pass


def _command(module: str, name: str, *made_with) -> Callable:
    """A command's function in `lethal.cli.<module>`, imported only when that command runs,
    so that `lethal check` loads nothing of the proofs. With `made_with`, the function is
    made by calling `name` with them first."""

    def run(*args):
        found = getattr(import_module(f"{__package__}.{module}"), name)
        return (found(*made_with) if made_with else found)(*args)

    return run


_CHECK = _command("scenario", "check_files")  # one function, so that both readings agree


def _bound(name: str) -> Callable[[str], int]:
    """A bound of `lethal diff`, in the range a property's bound of that name allows."""

    def number(text: str) -> int:
        from ..proving import RANGES

        least, most = RANGES[name]
        return _whole_number(max(1, least), most)(text)

    return number


def _rules(text: str) -> str:
    """An edition lethal models: 'current', or a date from 2009-07-11 on."""
    import argparse

    from ..editions import EditionError, in_force

    try:
        in_force(text)
    except EditionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _seconds(text: str) -> float:
    """A time limit: a finite number of seconds, long enough to mean something."""
    import argparse

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
        import argparse

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


def _jobs_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="properties proved at once, each in a process of its own (default 1; auto: one "
        "for each CPU this process may use); the results are the same, in the same order",
    )


MOST_JOBS = 64


def _jobs(text: str) -> int:
    """Processes at once: a whole number, or `auto` for the CPUs this process may run on
    (a CI runner's container may allow fewer than the machine has), at most MOST_JOBS."""
    import argparse
    import os

    if text.strip().lower() != "auto":
        try:
            return _whole_number(1, MOST_JOBS)(text)
        except argparse.ArgumentTypeError:
            expected = f"expected a whole number from 1 to {MOST_JOBS}, or auto"
            raise argparse.ArgumentTypeError(f"{expected}; found {text[:40]!r}") from None
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return max(1, min(MOST_JOBS, len(usable) if usable else os.cpu_count() or 1))


def _limit_options(
    parser: argparse.ArgumentParser, limits: tuple[Limit, ...], where: str = "", unset=False
) -> None:
    """`unset`: a flag not given is None, for the command to tell from one given."""
    for limit in limits:
        parser.add_argument(
            limit.flag,
            type=_whole_number(1, 10**9),
            default=None if unset else limit.default,
            metavar="N",
            help=f"{limit.what}{where} (default {limit.default}); beyond it, exit 3",
        )
    parser.set_defaults(limits=limits)


def _timeout_option(parser: argparse.ArgumentParser, each: str) -> None:
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=120,
        metavar="SECONDS",
        help=f"the limit for each {each}, solving and lethal's own work (default 120); "
        "beyond it, that one is undecided",
    )


def _out_option(parser: argparse.ArgumentParser, what: str, unset=False) -> None:
    default = None if unset else OUT
    parser.add_argument("--out", default=default, metavar="DIR", help=f"{what} (default {OUT})")


def _asks(text: str) -> tuple[str, ...]:
    """`lethal conform --asks`: some of its asks, separated by commas."""
    import argparse

    asks = tuple(dict.fromkeys(word.strip() for word in text.split(",")))
    wrong = [a for a in asks if a not in ASKS]
    if wrong or not asks:
        from ..reading.problems import did_you_mean

        hint = did_you_mean(wrong[0], ASKS) if wrong else ""
        raise argparse.ArgumentTypeError(
            f"expected some of {', '.join(ASKS)}, separated by commas, found {text[:40]!r}" + hint
        )
    return asks
