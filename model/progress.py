"""How far long work has got, for a person watching it: a line now and then on a terminal,
nothing when the output is piped or captured. The command decides where lines go (or that
none do); the work only says how far it is."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

Item = TypeVar("Item")
EVERY = 1.0  # seconds between two lines about the same piece of work

_shown: ContextVar[Callable[[str], None] | None] = ContextVar("progress", default=None)


@contextmanager
def shown_by(show: Callable[[str], None] | None) -> Iterator[None]:
    """Within the block, progress lines go to `show` (None: nowhere)."""
    token = _shown.set(show)
    try:
        yield
    finally:
        _shown.reset(token)


def current() -> Callable[[str], None] | None:
    """Where lines go now, for work done in other threads (they do not inherit it)."""
    return _shown.get()


def say(line: str) -> None:
    show = _shown.get()
    if show:
        show(line)


def counted(items: Sequence[Item], what: str) -> Iterator[Item]:
    """The items, saying "what: i of n" as they are taken, at most once every EVERY
    seconds, so that a fast loop does not flood the terminal."""
    last = time.monotonic()
    for done, item in enumerate(items):
        if _shown.get() and time.monotonic() - last >= EVERY:
            say(f"{what}: {done:,} of {len(items):,}")
            last = time.monotonic()
        yield item
