"""Proving each property in a process of its own, several at once, so that whatever one
property does (ends its process, closes its streams, raises what no `except Exception`
catches, spends its time in C where no deadline reaches) only that process ends; the
results come back in the properties' order whatever the number of processes. A user's file
is listed the same way, in a process of its own (`apart`)."""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import math
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NoReturn

from .. import progress
from . import Property
from .prover import ERROR, THE_PROPERTY, UNKNOWN, Result, declared_at, prove

# Seconds a process proving one property is given past its limits to report its own verdict
# (an unknown, with the query it was solving saved) before it is stopped from outside.
GRACE = 1.0
# Seconds between looks at whether a process has ended, when its pipes do not say so.
POLL = 0.05
# Why a process still running once its time is up was stopped from outside.
IN_C = "in code the timeout could not interrupt (a long call into C, say)"


def prove_all(
    props: Sequence[Property], timeout: float, out: Path, certify: bool = False, jobs: int = 1
) -> Iterator[Result]:
    """The verdict on each property, in their order, as `prove` gives it, each found in a
    process of its own, `jobs` at once: whatever a property does there (ends the process,
    closes its streams, raises what no `except Exception` catches, spends its time in C
    where no deadline reaches), only that process ends, and one still running once its time
    is up is stopped. What a property prints goes to standard error. Where processes cannot
    be forked, each is proved here, one after the other."""
    if not hasattr(os, "fork"):
        for prop in props:
            yield prove(prop, timeout, out, certify)
        return
    limit = timeout * (2 if certify else 1) + GRACE  # cvc5 has a timeout of its own
    waiting = list(enumerate(props))
    running: dict[int, _Child] = {}
    finished: dict[int, Result] = {}
    shown = 0
    try:
        while shown < len(props):
            while waiting and len(running) < jobs:
                index, prop = waiting.pop(0)
                running[index] = _Child(_fields_of(prop, timeout, out, certify), limit)
            _wait_for(list(running.values()))
            for index, child in list(running.items()):
                ending = child.ending()
                if ending is not None:
                    finished[index] = _result(props[index], timeout, ending)
                    del running[index]
            while shown in finished:
                yield finished.pop(shown)
                shown += 1
    finally:  # Ctrl-C, or whoever asked stopped asking: no process is left proving
        for child in running.values():
            child.stop()
            child.close()


def apart(work: Callable[[], object], limit: float | None) -> Ending:
    """How `work` ended, done in a process of its own for at most `limit` seconds (None: no
    limit), all it writes going to standard error; where no process can be forked, done
    here."""
    if not hasattr(os, "fork"):
        return Ending(returned=True, value=work())
    child = _Child(work, limit)
    try:
        while (ending := child.ending()) is None:
            _wait_for([child])
    finally:
        child.stop()
        child.close()
    return ending


@dataclasses.dataclass(frozen=True)
class Ending:
    """How work done in a process of its own ended: it returned `value`; or its process
    ended first, as `how` says ("exit code 0", "killed by SIGKILL"), or was stopped once its
    time was up (`how` empty)."""

    returned: bool
    value: object = None
    how: str = ""
    seconds: float = 0.0


def _fields_of(prop: Property, *args) -> Callable[[], dict]:
    """The work of proving `prop`: the fields of its Result, but the property itself, whose
    functions need not pickle and which stays with the parent."""

    def work() -> dict:
        result = prove(prop, *args)
        return {
            f.name: getattr(result, f.name)
            for f in dataclasses.fields(Result)
            if f.name != "property"
        }

    return work


def _result(prop: Property, timeout: float, ending: Ending) -> Result:
    if ending.returned:
        return Result(prop, **ending.value)
    if not ending.how:
        reason = (
            f"did not finish within --timeout {timeout:g} s; stopped after "
            f"{ending.seconds:.1f} s, {IN_C} ({declared_at(prop)})"
        )
        return Result(prop, UNKNOWN, ending.seconds, reason=reason)
    reason = (
        f"it ended the process proving it ({ending.how}) before giving its verdict "
        f"({declared_at(prop)}); a property returns its claim, and the run goes on"
    )
    return Result(prop, ERROR, ending.seconds, reason=reason, fault=THE_PROPERTY)


class _Child:
    """A process doing one piece of work: it sends back what the work returns, pickled,
    and what the work prints."""

    def __init__(self, work: Callable[[], object], limit: float | None):
        self.started = time.monotonic()
        self.ends = self.started + (math.inf if limit is None else limit)
        sent, self.sending = os.pipe()
        said, self.saying = os.pipe()
        for stream in (sys.stdout, sys.stderr):  # nothing of the parent's written twice
            with contextlib.suppress(Exception):
                stream.flush()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(sent)
            os.close(said)
            _child(work, self.sending, self.saying)
        os.close(self.sending)
        os.close(self.saying)
        os.set_blocking(sent, False)
        os.set_blocking(said, False)
        self.sent, self.said = sent, said
        self.data = bytearray()
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.open = {sent, said}
        self.status: int | None = None  # how it ended, once it has
        self.stopped = False

    def read(self, fd: int) -> bool:
        """What is there to read on `fd`: the result, kept; or what the property printed,
        passed on to standard error. Whether more may come at once."""
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return False
        if not chunk:
            self.open.discard(fd)
            return False
        if fd == self.sent:
            self.data += chunk
        else:
            sys.stderr.write(self.decoder.decode(chunk))
        return True

    def ending(self) -> Ending | None:
        """How the work ended, once its process has (stopped, if its time is up); None
        while it runs."""
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == 0 and time.monotonic() < self.ends:
                return None
            if pid == 0:  # its time is up, and it never came back to where a deadline fires
                self.stop()
            else:
                self.status = status
                self._end_what_it_started()
        # The process has ended: the rest of what it sent and said, unless something it
        # started holds the pipes open.
        while self.read(self.sent) or self.read(self.said):
            pass
        sys.stderr.write(self.decoder.decode(b"", final=True))
        self.close()
        seconds = time.monotonic() - self.started
        try:
            return Ending(returned=True, value=pickle.loads(bytes(self.data)), seconds=seconds)
        except Exception:  # nothing, or not all of it, came back
            pass
        if self.status is None:
            return Ending(returned=False, seconds=seconds)
        code = os.waitstatus_to_exitcode(self.status)
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
        return Ending(returned=False, how=how, seconds=seconds)

    def stop(self) -> None:
        """Kills the process, if it still runs, and all it started; a stopped one has no
        status of its own."""
        if self.status is None and not self.stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.stopped = True
            self._end_what_it_started()

    def _end_what_it_started(self) -> None:
        """Kills the processes the work started (its process group), which would otherwise
        hold its pipes open and outlive the run."""
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)

    def close(self) -> None:
        for fd in (self.sent, self.said):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.open.clear()


def _wait_for(children: list[_Child]) -> None:
    """Until one of the processes has something to read, or may have ended: it has closed
    its end of the result's pipe, or its time is up."""
    readers = {fd: child for child in children for fd in child.open}
    if any(child.sent not in child.open for child in children):
        wait = 0.005  # it is ending: soon to be reaped
    else:
        # Not past its time; nor long past its end, should a process it started hold its
        # pipes open.
        ends = min(child.ends for child in children)
        wait = min(POLL, max(0.0, ends - time.monotonic()))
    ready, _, _ = select.select(list(readers), [], [], wait)
    for fd in ready:
        readers[fd].read(fd)


def _child(work: Callable[[], object], sent: int, says: int) -> NoReturn:
    """Does `work` in the forked process and sends back what it returns; never returns. A
    Ctrl-C is the parent's to act on; the work reads nothing, and all it writes, to any
    stream, goes back to the parent's standard error."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        os.setpgid(0, 0)  # a group of its own, whose processes the parent ends with it
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(says, 1)
        os.dup2(says, 2)
        stream = open(says, "w", buffering=1, errors="backslashreplace", closefd=False)
        sys.stdin = open(os.devnull)
        sys.stdout = sys.stderr = stream
        with progress.shown_by(None):
            value = work()
        with open(sent, "wb", closefd=False) as pipe:
            pipe.write(pickle.dumps(value))
        code = 0
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
        os._exit(code)
