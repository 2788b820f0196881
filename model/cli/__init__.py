"""The command line: `lethal check`, `deal`, the queries `possible`, `max`, `min`, `count`
and `guarantee`, and `prove`, `diff`, `teeth`, `mutants`, `corpus`, `conform`, `examples`,
`schema`.

Exit codes (`codes`): 0 legal or possible (or an answer found), 1 illegal or impossible, 2
bad input or bad usage, 3 when the solver could not decide (or a stated limit was reached),
4 an internal error of lethal (never read as a verdict; `--debug` shows its traceback), 5
when the answer could not be written (no standard output, a full disk), 130 interrupted, 141
when whoever read the output stopped reading (a closed pipe). With no standard error,
messages go nowhere and the exit code still says what happened. Streams are arguments so
tests can read them; nothing here prints a traceback unasked.
"""

from .codes import (
    BAD_INPUT,
    CLOSED_PIPE,
    INTERNAL,
    INTERRUPTED,
    NO,
    OUTPUT_FAILED,
    UNDECIDED,
    YES,
)
from .parser import COMMAND_TIMEOUT
from .run import main

__all__ = [
    "BAD_INPUT",
    "CLOSED_PIPE",
    "COMMAND_TIMEOUT",
    "INTERNAL",
    "INTERRUPTED",
    "NO",
    "OUTPUT_FAILED",
    "UNDECIDED",
    "YES",
    "main",
]
