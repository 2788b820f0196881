"""Running a command: its time limit, progress on a terminal, its answer written, and
every failure turned into its exit code, never a traceback unasked."""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from typing import TextIO

from .. import progress
from ..deadline import interruptible, timeout
from ..errors import (
    LethalError,
    LimitReached,
    ScenarioError,
    ScenarioWarning,
    SolverUnknown,
    printable,
)
from . import parser
from .codes import (
    BAD_INPUT,
    CLOSED_PIPE,
    INTERNAL,
    INTERRUPTED,
    OUTPUT_FAILED,
    UNDECIDED,
    YES,
)
from .output import JsonLines, Messages, Output, lines_on, silence, write_json, written


def main(
    argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    stdout = Output(stdout or sys.stdout)  # None: started with standard output closed
    if stderr is None and sys.stderr is None:  # started with standard error closed (`2>&-`)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    stderr = Messages(stderr or sys.stderr)
    try:
        with interruptible():
            return _main(argv, stdout, stderr)
    except KeyboardInterrupt:
        stderr.write("lethal: interrupted\n")
        return INTERRUPTED
    except BrokenPipeError:
        silence(stdout)  # whoever read the output has gone (`lethal ... | head`): quietly
        return CLOSED_PIPE


def _origin(args) -> str | None:
    """How lines and JSON name the file an error that ends the command is about, if it is
    one file's: check's list of files (its time may run out before it has looked at them)
    names one only if alone, and '-' is <stdin>, as everywhere."""
    from ..reading import origin_of

    file = getattr(args, "file", None)
    if isinstance(file, list):
        file = file[0] if len(file) == 1 else None
    return origin_of(file) if file else None


def _main(argv: list[str] | None, stdout: TextIO, stderr: TextIO) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser.plain_check(argv)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = args or parser.build(argv).parse_args(argv)
    except SystemExit as exit:  # argparse has printed its usage message, help or version
        return BAD_INPUT if exit.code else written(stdout, stderr, YES)
    try:
        with (
            timeout(getattr(args, "limit_seconds", None)),  # over all of the command
            progress.shown_by(lines_on(stderr) if stderr.isatty() else None),
            _warnings_on(stderr),
        ):
            answer_text, answer_json, code = args.run(args)
    except ScenarioError as error:
        for problem in error.problems:
            stderr.write(printable(f"{error.origin}: {problem}") + "\n")
        if args.json:  # an answer like any other, which may fail to be written
            problems = [{"place": p.place, "message": p.message} for p in error.problems]
            write_json(stdout, {"file": error.origin, "errors": problems})
            return written(stdout, stderr, BAD_INPUT)
        return BAD_INPUT
    except (SolverUnknown, LimitReached) as error:
        origin = _origin(args)
        stderr.write(printable(f"{origin or 'lethal'}: undecided: {error}") + "\n")
        if getattr(args, "json", False):  # a pipeline reading JSON reads why, as for bad input
            # On one line, as valid to a JSON Lines reader (a check of several files, cut
            # short before it judged any) as to a JSON one.
            write_json(stdout, JsonLines([{"file": origin, "undecided": str(error)}]))
            return written(stdout, stderr, UNDECIDED)
        return UNDECIDED
    except LethalError as error:
        stderr.write(printable(f"{_origin(args) or 'lethal'}: {error}") + "\n")
        return BAD_INPUT
    except OSError as error:  # a file of the answer's (a report, a combat found) unwritten
        where = f" {error.filename}" if error.filename else ""
        stderr.write(
            printable(f"lethal: the answer could not be written{where}: {error.strerror or error}")
            + "\n"
        )
        return OUTPUT_FAILED
    except Exception as error:  # a bug in lethal: never a verdict, never a traceback unasked
        if args.debug:
            import traceback  # only for a bug, and only when asked

            traceback.print_exc(file=stderr)
        stderr.write(
            printable(f"lethal: internal error: {type(error).__name__}: {error}")
            + " (a bug in lethal, not a verdict; --debug shows where)\n"
        )
        return INTERNAL
    if args.json:
        write_json(stdout, answer_json)
    else:
        stdout.write(answer_text)
    return written(stdout, stderr, code)


@contextlib.contextmanager
def _warnings_on(stderr: TextIO):
    """A file's warnings, one line each on standard error, each time they are found: they
    never change the answer or the exit code."""
    shown = warnings.showwarning

    def show(message, category, *rest, **named):
        if isinstance(message, ScenarioWarning):
            stderr.write(printable(f"{message.origin}: warning: {message.problem}") + "\n")
        else:
            shown(message, category, *rest, **named)

    with warnings.catch_warnings():
        warnings.simplefilter("always", ScenarioWarning)
        warnings.showwarning = show
        yield
