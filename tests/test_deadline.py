"""Deadlines interrupt Python work, nest with the earliest winning, and leave no timer."""

from __future__ import annotations

import contextlib
import gc
import signal
import time

import pytest

from lethal.deadline import TimedOut, deadline, remaining
from lethal.errors import LimitReached


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_a_loop_in_python_is_interrupted_with_what_was_limited():
    with pytest.raises(TimedOut, match="the loop"), deadline(0.05, "the loop"):
        _spin(5)


def test_a_timeout_is_a_stated_limit_not_a_verdict():
    assert issubclass(TimedOut, LimitReached)


def test_work_within_the_limit_is_untouched_and_the_timer_is_disarmed():
    with deadline(5, "quick work"):
        assert 0 < remaining() <= 5
    assert remaining() is None
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_inner_deadline_never_outlives_the_outer_one():
    with pytest.raises(TimedOut, match="outer"), deadline(0.05, "outer"):
        with deadline(60, "inner"):
            assert remaining() <= 0.05
            _spin(5)


def test_an_earlier_inner_deadline_fires_and_the_outer_one_still_holds_after():
    # The outer is long enough for the inner to end first, however loaded the machine.
    with pytest.raises(TimedOut, match="outer"), deadline(1.5, "outer"):
        with pytest.raises(TimedOut, match="inner"), deadline(0.02, "inner"):
            _spin(5)
        _spin(5)


def test_no_limit_of_its_own_means_the_outer_one():
    with deadline(None, "unlimited"):
        assert remaining() is None


def test_z3_objects_are_never_left_half_built(monkeypatch):
    import gc

    import z3

    broken = []
    monkeypatch.setattr("sys.unraisablehook", broken.append)
    for _ in range(20):
        with pytest.raises(TimedOut), deadline(0.002, "building"):
            while True:
                z3.Int("x", z3.Context()) + 1
    gc.collect()
    assert broken == []


def test_lethals_own_z3_terms_are_never_left_half_built(monkeypatch):
    # solver/terms.py is a layer over Z3's C API of lethal's own: a deadline landing as one
    # of its terms is made or given back is raised in the caller, as one in z3py's layer is.
    # Before, a term could be left without its fields (its destructor failing noisily), or
    # the deadline swallowed in a destructor (the term's reference never given back).
    import gc
    import random

    import z3

    from lethal.solver import terms

    broken = []
    monkeypatch.setattr("sys.unraisablehook", broken.append)
    context = z3.Context()
    x, p = terms.constant("x", z3.IntSort(context)), terms.constant("p", z3.BoolSort(context))
    chance = random.Random(1)
    for _ in range(2000):
        kept = []
        with pytest.raises(TimedOut), deadline(chance.uniform(1e-5, 3e-4), "building"):
            for _ in range(20_000):  # a second or more: far past the deadline
                kept += [x > len(kept), terms.if_then_else(p, x, len(kept))]
                if len(kept) > 50:
                    kept.clear()
            pytest.fail("the deadline was lost")
    gc.collect()
    assert broken == []


def test_ctrl_c_never_leaves_a_z3_object_half_built(monkeypatch):
    import gc
    import os

    import z3

    from lethal.deadline import interruptible

    broken = []
    monkeypatch.setattr("sys.unraisablehook", broken.append)
    for _ in range(20):
        with pytest.raises(KeyboardInterrupt), interruptible():
            signal.setitimer(signal.ITIMER_REAL, 0.002)
            signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
            while True:
                z3.Int("x", z3.Context()) + 1
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    gc.collect()
    assert broken == []


class _Unknown:
    """A query Z3 answers unknown, for `reason`, once `taken` seconds have passed on the
    clock (in C, where no deadline fires); the timeout it was given is kept."""

    def __init__(self, reason: str, taken: float, clock: list[float]):
        self.reason, self.taken, self.clock, self.given = reason, taken, clock, None

    def set(self, key, value):
        assert key == "timeout"
        self.given = value

    def check(self):
        import z3

        self.clock[0] += self.taken
        return z3.unknown

    def reason_unknown(self):
        return self.reason


# Each: Z3's reason, the seconds its query took of the minute it was given (None: the
# command has no time limit), and what it is.
UNKNOWNS = {
    "a solver out of the command's time names the command's limit": ("timeout", 120, TimedOut),
    "Ctrl-C caught by Z3 mid-query is an interruption, not an unknown": (
        "interrupted from keyboard",
        None,
        KeyboardInterrupt,
    ),
    # Z3's optimizer says "canceled" for its timeout as for a Ctrl-C: ended once the time it
    # was given is up, it is the command's limit (exit 3), never an interruption (exit 130).
    "the optimizer's own timeout is the command's limit, not a Ctrl-C": ("canceled", 60, TimedOut),
    "an optimizer canceled before its time is up was interrupted": (
        "canceled",
        0,
        KeyboardInterrupt,
    ),
    # Only "canceled" is ambiguous: Z3 says "interrupted from keyboard" for Ctrl-C alone,
    # even when it comes as the query overruns its timeout.
    "Ctrl-C is an interruption even after the time given": (
        "interrupted from keyboard",
        61,
        KeyboardInterrupt,
    ),
}


@pytest.mark.parametrize("reason, taken, raised", UNKNOWNS.values(), ids=list(UNKNOWNS))
def test_an_unknown_answer_is_the_commands_limit_or_an_interruption(
    monkeypatch, reason, taken, raised
):
    from lethal.solver.encoding import decide

    # The clock stands still but for the query's time: on a loaded machine, real
    # milliseconds passing before the query is asked would leave less than the minute.
    start, clock = time.monotonic(), [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: start + clock[0])
    query = _Unknown(reason, taken or 0, clock)
    limit = contextlib.nullcontext() if taken is None else deadline(60, "the command's limit")
    with pytest.raises(raised, match="the command's limit" if raised is TimedOut else None):
        with limit:
            decide(query)
    if taken is not None:
        assert query.given >= 60_000  # never less than the time left


def test_a_real_optimizer_out_of_time_is_timed_out_at_every_limit():
    # Found by the test of a timed-out max on a loaded machine: Z3 was given the time left
    # rounded down, ended a millisecond before the command's limit, and its "canceled" read
    # as a Ctrl-C. Fourteen pigeons in thirteen holes: no answer within any of the limits.
    import z3

    from lethal.deadline import deadline
    from lethal.solver.encoding import decide

    for limit in (0.1, 0.15, 0.2, 0.25) * 2:
        context = z3.Context()
        optimizer = z3.Optimize(ctx=context)
        holes = [[z3.Bool(f"p{i}h{j}", context) for j in range(13)] for i in range(14)]
        for pigeon in holes:
            optimizer.add(z3.Or(pigeon))
        for j in range(13):
            for i in range(14):
                for k in range(i + 1, 14):
                    optimizer.add(z3.Or(z3.Not(holes[i][j]), z3.Not(holes[k][j])))
        optimizer.maximize(z3.Int("y", context))
        with pytest.raises(TimedOut), deadline(limit, "the command's limit"):
            decide(optimizer)


def test_a_deadline_swallowed_where_python_cannot_raise_is_raised_again():
    # A gc callback (Hypothesis keeps one) or a destructor cannot pass an exception on: the
    # alarm arriving there must not be lost, or the command runs on without a limit.
    def slow(phase, info):
        if phase == "start":
            time.sleep(0.2)  # the alarm arrives here

    gc.callbacks.append(slow)
    try:
        with pytest.raises(TimedOut, match="the work"), deadline(0.05, "the work"):
            gc.collect()
            gc.callbacks.remove(slow)
            _spin(2)
            pytest.fail("the deadline was lost in the gc callback")
    finally:
        if slow in gc.callbacks:
            gc.callbacks.remove(slow)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
