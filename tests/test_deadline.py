"""Deadlines interrupt Python work, nest with the earliest winning, and leave no timer."""

from __future__ import annotations

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
    with pytest.raises(TimedOut, match="outer"), deadline(0.3, "outer"):
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
