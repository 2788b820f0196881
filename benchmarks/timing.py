"""CPU medians, the measure every benchmark prints: this process's CPU time, so that other
work on a shared machine does not count."""

from __future__ import annotations

import statistics
import time


def cpu_median(action, runs: int):
    """The median CPU seconds of `runs` calls of `action`, and the last call's answer."""
    times, answer = [], None
    for _ in range(runs):
        start = time.process_time()
        answer = action()
        times.append(time.process_time() - start)
    return statistics.median(times), answer
