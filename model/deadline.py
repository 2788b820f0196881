"""Time limits that cover lethal's own Python work as well as the solver's.

Z3's timeout only bounds a query; a command can also spend its time building constraints,
enumerating orders or running a user's property. A deadline interrupts all of it: an
interval timer (SIGALRM) raises `TimedOut` in the main thread once the time is up. Deadlines
nest, and the earliest one still pending is the one armed, so a per-property limit inside
a whole-command limit never outlives it.

Python runs signal handlers between bytecodes, so a long call into Z3 is interrupted only
when it returns; `remaining()` lets a solver query take no more than the time left. Ctrl-C
is handled the same way (`interruptible`), so that neither ever breaks a Z3 object.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from collections.abc import Iterator

from .errors import LimitReached

# The deadlines pending, outermost first: (the moment it ends, what it limits).
_pending: list[tuple[float, str]] = []
# A frame left to raise at its next line, and the tracing it replaced.
_traced: list[tuple[object, object]] = []


class TimedOut(LimitReached):
    """A stated time limit ran out."""


@contextlib.contextmanager
def deadline(seconds: float | None, what: str) -> Iterator[None]:
    """Within the block, raise `TimedOut(what)` once `seconds` have passed (None: no limit
    of its own). Outside the main thread, where no signal can reach, only the solver's
    limits hold."""
    if seconds is None or not _in_main_thread():
        yield
        return
    entry = (time.monotonic() + seconds, what)
    _pending.append(entry)
    previous = signal.signal(signal.SIGALRM, _expire)
    hook = sys.unraisablehook
    sys.unraisablehook = _raising_again(hook)
    try:
        _arm()
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _untrace()
        _pending.remove(entry)
        sys.unraisablehook = hook
        signal.signal(signal.SIGALRM, previous)
        _arm()


def timeout(seconds: float | None):
    """A deadline set by `--timeout SECONDS`, whose message says how to raise it (None: no
    limit)."""
    if seconds is None:
        return deadline(None, "")
    return deadline(
        seconds, f"the time limit of {seconds:g} s was reached (--timeout SECONDS raises it)"
    )


def remaining() -> float | None:
    """Seconds left before the earliest pending deadline, or None when none is set."""
    if not _pending:
        return None
    return max(0.0, min(end for end, _ in _pending) - time.monotonic())


def _arm() -> None:
    left = remaining()
    if left is not None:
        # A zero would disarm the timer: a deadline already past fires at once instead.
        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-4))


def _expire(signum, frame) -> None:
    end, what = min(_pending)
    if end > time.monotonic():  # an earlier deadline's alarm, after that one was left
        _arm()
        return
    _raise_outside_z3(frame, TimedOut(what))


def _raising_again(hook):
    """sys.unraisablehook, but a `TimedOut` raised where Python cannot pass it on (in a gc
    callback, such as Hypothesis keeps, or a destructor) is not lost: the timer is armed
    again, past due, so that it fires once the interrupted code runs on."""

    def unraisable(report) -> None:
        if isinstance(report.exc_value, TimedOut):
            _arm()
        else:
            hook(report)

    return unraisable


def overdue() -> None:
    """Raises the earliest pending deadline's `TimedOut` if its time is up: for a solver
    whose own limit, taken from `remaining()`, ran out first."""
    if _pending and min(_pending)[0] <= time.monotonic():
        raise TimedOut(min(_pending)[1])


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Within the block, Ctrl-C raises KeyboardInterrupt as Python's own handler does, but
    never inside Z3's Python layer (see `_raise_outside_z3`)."""
    if not _in_main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _untrace()


def _in_main_thread() -> bool:
    """Whether signals reach this thread. Until threading is imported, no thread but the main
    one can have been started with it; importing it would cost a command's start 1 ms."""
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


def _interrupt(signum, frame) -> None:
    _raise_outside_z3(frame, KeyboardInterrupt())


def _raise_outside_z3(frame, error: BaseException) -> None:
    outside = _outside_z3(frame)
    if outside is not frame:
        # Raised inside Z3's Python layer, the exception could leave one of its objects
        # half built, whose destructor then fails noisily: raise it in the caller instead,
        # at its next line, once Z3 has returned.
        _raise_at_next_line(outside, error)
        return
    raise error


# lethal's own layer over Z3's C API, whose terms an exception must not leave half built
# either (solver/terms.py), named without importing it: the concrete check never loads Z3.
_TERMS = __name__.rpartition(".")[0] + ".solver.terms"


def _outside_z3(frame):
    """The innermost frame that is not Z3's own, nor lethal's layer over it."""
    inner = frame
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.split(".")[0] == "z3" or module == _TERMS:
            inner = frame.f_back
        frame = frame.f_back
    return inner


def _raise_at_next_line(frame, error: BaseException) -> None:
    before = sys.gettrace()

    def at_line(traced, event, arg):
        _untrace()
        raise error

    frame.f_trace = at_line
    frame.f_trace_lines = True
    # A frame's own trace function runs only while some tracing is on; this one traces
    # nothing else.
    sys.settrace(before or (lambda *args: None))
    _traced.append((frame, before))


def _untrace() -> None:
    """Forgets a raise left for a frame's next line (when its block ends first, or it ran)."""
    while _traced:
        frame, before = _traced.pop()
        frame.f_trace = None
        sys.settrace(before)
