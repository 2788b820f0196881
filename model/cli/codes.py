"""Exit codes: a contract with the scripts and pipelines that run lethal."""

from __future__ import annotations

YES, NO, BAD_INPUT, UNDECIDED, INTERNAL = 0, 1, 2, 3, 4

OUTPUT_FAILED = 5  # the answer could not be written: no standard output, a full disk

INTERRUPTED = 130  # what a shell reports for Ctrl-C

CLOSED_PIPE = 141  # what a shell reports for a command whose output pipe was closed
