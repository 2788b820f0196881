"""Writing an answer: as text, JSON or JSON Lines, and what happens when it cannot be
written."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Callable
from typing import TextIO

from .codes import OUTPUT_FAILED

# What one write to a pipe delivers whole or not at all (PIPE_BUF on Linux): see Output.write.
PIECE = 4096


class Output(io.TextIOBase):
    """Standard output as the commands write it. A write that fails for another reason than
    a closed pipe (a full disk; no standard output at all, `>&-`) is remembered rather than
    raised, and the rest dropped, so that the command ends with its own exit code (5) and
    one line, not a traceback."""

    def __init__(self, stream: TextIO | None):
        self.stream = stream
        self.failure = None if stream is not None else "standard output is closed"

    def write(self, text: str) -> int:
        # In pieces: one large write goes to the pipe at once, and when the reader leaves
        # partway (`| head`) the system writes part of it, which Python takes for the whole,
        # dropping the rest with no error (exit 0 for a cut answer). A piece is written
        # whole or not at all, and the write that meets the closed pipe raises.
        for start in range(0, len(text), PIECE):
            piece = text[start : start + PIECE]
            self._attempt(lambda stream, piece=piece: stream.write(piece))
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
            silence(self.stream)
        except UnicodeEncodeError as error:
            self.failure = (
                f"it has characters its encoding, {error.encoding}, cannot hold (an id of "
                "the file's, say); set PYTHONIOENCODING=utf-8, or ask for --json"
            )
            silence(self.stream)


class Messages(io.TextIOBase):
    """Standard error as the commands write it: a message that cannot be written (a full
    disk) goes nowhere and leaves the exit code as it is; one whose characters its encoding
    cannot hold is written with escapes."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            try:
                self.stream.write(text)
            except UnicodeEncodeError:
                encoding = getattr(self.stream, "encoding", None) or "ascii"
                self.stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
        except (OSError, ValueError):  # ValueError: written to after it was closed
            silence(self.stream)
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.flush()

    def isatty(self) -> bool:
        with contextlib.suppress(OSError, ValueError):
            return self.stream.isatty()
        return False


def written(stdout: TextIO, stderr: TextIO, code: int) -> int:
    """The command's exit code once its answer is out, or OUTPUT_FAILED when it could not be
    written: flushed here, so that a full disk is found while lethal can still say so."""
    stdout.flush()
    failure = getattr(stdout, "failure", None)
    if failure is None:
        return code
    stderr.write(f"lethal: the answer could not be written: {failure}\n")
    return OUTPUT_FAILED


class JsonLines(list):
    """An answer given as JSON Lines, one compact object a line, as a stream of results is
    read: each file of a multi-file check, then the summary."""


def write_json(stdout: TextIO, data: dict | list) -> None:
    if isinstance(data, JsonLines):
        text = "".join(json.dumps(item) + "\n" for item in data)
    else:
        text = json.dumps(data, indent=2) + "\n"
    stdout.write(text)
    stdout.flush()  # a full disk is found now, not at exit (see Output)


def lines_on(stream: TextIO) -> Callable[[str], None]:
    """Progress lines for a person watching the terminal."""

    def show(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return show


def silence(stream) -> None:
    """Points the stream's file at nothing, so that what is still buffered for an output
    that failed (or whose reader has gone) does not fail again in Python's flush at exit."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
