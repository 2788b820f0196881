"""The stated limits on lethal's work, in one place: each with the flag that raises it, its
default and what it limits. Reaching one is never a verdict: the command says which limit
and how to raise it, and exits 3 (`errors.LimitReached`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar


class Limit:
    """A limit's flag, default and meaning, and its value here: a context variable, so that
    a command sets it for its own run. Each limit is made once, below, and is its own
    identity (a plain class: a dataclass costs a command's start a millisecond to make)."""

    __slots__ = ("flag", "default", "what", "_value")

    def __init__(self, flag: str, default: int, what: str):
        self.flag = flag
        self.default = default
        self.what = what  # the help text, finished by "(default N); beyond it, exit 3"
        self._value = ContextVar(flag, default=default)

    def __repr__(self) -> str:
        return f"Limit({self.flag!r}, {self.default!r})"

    @property
    def dest(self) -> str:
        """The name argparse gives the flag's value."""
        return self.flag.removeprefix("--").replace("-", "_")

    def value(self) -> int:
        return self._value.get()

    @contextmanager
    def set_to(self, value: int) -> Iterator[None]:
        token = self._value.set(value)
        try:
            yield
        finally:
            self._value.reset(token)


@contextmanager
def as_given(args) -> Iterator[None]:
    """Within the block, each limit a command takes (`args.limits`) at the value its flag
    gave."""
    with ExitStack() as limits:
        for limit in args.limits:
            limits.enter_context(limit.set_to(getattr(args, limit.dest)))
        yield


# Every order of every creature whose damage assignment order a file leaves open (510.1c-d).
ORDERS = Limit(
    "--order-limit",
    5040,
    "under rules with a damage assignment order, the most orders to try for those the file "
    "leaves open",
)
# Enough to rule out a runaway count (a few seconds of the programme's work, and its memory
# under 200 MB): a group whose count would follow more standings than this is refused before
# it follows them. Counted in standings (`dynamic.Programme._layers`), not partial divisions
# alone, so that time and memory stay bounded however many constraints a board keeps open:
# every token blocking every trampler refuses in 2-5 s, where 5,000,000 divisions took up to
# 72 s and 4.6 GB; the random combats of 256x128 need under 50,000.
COUNT_STANDINGS = Limit(
    "--count-limit",
    20_000_000,
    "the most standings count follows for creatures whose divisions depend on each other "
    "(each partial division tried, counted once and once more for each constraint it leaves "
    "open)",
)
# Far more than any board has, few enough to be done in seconds.
EFFECT_ORDERS = Limit(
    "--effect-order-limit",
    100_000,
    "the most orders of effects (CR 616.1) dealing tries for one recipient, and the most "
    "outcomes it gives",
)
# A query solves each independent part of a combat apart, so its time grows about as the
# combat does (a max on 1,500 creatures takes about 2 s): the limit is there to name what a
# command refuses, not to spare the solver. It takes 1,000 attackers and 500 blockers, and a
# board of tokens ten times larger than any game's.
CREATURES = Limit("--creature-limit", 2000, "the most creatures a query takes")
# Each legal assignment of the first step is followed by what comes after it.
ASSIGNMENTS = Limit(
    "--assignment-limit",
    20_000,
    "with --combat, the most legal assignments of the first step to try",
)
