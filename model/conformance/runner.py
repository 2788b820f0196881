"""A conformance run: each file of the corpus asked each ask that applies to it, then random
combats, every answer judged against lethal. Each disagreement and each engine failure is
saved as a scenario file named for the file and the ask; the run stops, saying how far it
got, when its time is up."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import LimitReached, SolverUnknown, printable
from . import AGREED, ASSIGN, CHECK, DEAL, DISAGREED, DIVIDE, FAILED, SKIPPED
from .judging import Judgement, divides, judge_assign, judge_check, judge_deal, judge_divide
from .manifest import Corpus, CorpusFile
from .protocol import Engine, EngineFailure, Unsupported


class OutOfTime(BaseException):
    """The run's time is up: raised wherever the run is, a search by Hypothesis included,
    which takes any Exception for a disagreement to shrink."""


class Clock:
    """The time the whole run has (--timeout)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.start = time.monotonic()
        self.end = self.start + seconds

    def left(self) -> float:
        return self.end - time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.start


@dataclass(frozen=True)
class Reply:
    """An ask answered and judged."""

    outcome: str  # AGREED, DISAGREED, SKIPPED or FAILED
    message: str = ""  # why it disagreed, failed or was skipped
    answer: dict | None = None  # the engine's answer, as it gave it
    judgement: Judgement | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class Finding:
    """One ask of one scenario, and how the engine's answer compared with lethal's."""

    where: str  # the corpus file, or the file a random combat was saved to
    ask: str
    reply: Reply
    file: str = ""  # the corpus file's name, as the manifest lists it
    saved: str = ""  # where the scenario asked about was saved (a disagreement, a failure)
    combat: dict | None = None  # a random combat, to show
    about: str = ""  # a corpus file's rules and what it catches, in words
    drawn: bool = False  # a random combat

    @property
    def outcome(self) -> str:
        return self.reply.outcome

    @property
    def message(self) -> str:
        return self.reply.message


@dataclass(frozen=True)
class Search:
    """The random combats asked one ask."""

    ask: str
    compared: int  # combats answered and judged, up to the first disagreement or failure
    declined: int  # combats the engine declined meanwhile (or lethal could not decide)
    shrinks: int = 0  # combats asked while shrinking the disagreement found
    finding: Finding | None = None  # the smallest disagreement found, or the failure met
    seconds: float = 0.0
    stopped: bool = False  # the run's time ran out during this search


@dataclass
class Run:
    engine: tuple[str, ...]
    corpus: str  # its folder, or how it was made
    asks: tuple[str, ...]
    random: int  # random combats per ask
    seed: int
    files: int = 0  # corpus files asked about
    findings: list[Finding] = field(default_factory=list)  # the corpus's asks
    searches: list[Search] = field(default_factory=list)
    seconds: float = 0.0
    stopped: str = ""  # how far the run got when its time ran out; "" when it did not


@dataclass(frozen=True)
class Options:
    engine: Engine
    asks: tuple[str, ...]
    random: int
    seed: int
    out: Path
    seconds: float


def run(options: Options, corpus: Corpus, corpus_name: str, clock: Clock | None = None) -> Run:
    """Asks the corpus, then random combats, until done or out of time."""
    from .. import progress

    clock = clock or Clock(options.seconds)
    result = Run(options.engine.argv, corpus_name, options.asks, options.random, options.seed)
    try:
        for n, file in enumerate(corpus.files):
            progress.say(f"conform: corpus file {n + 1} of {len(corpus.files)}, {file.name}")
            for ask in options.asks:
                finding = _ask_file(options, clock, file, ask)
                if finding is not None:
                    result.findings.append(finding)
            result.files += 1
        if options.random:
            from . import drawn

            for ask in options.asks:
                progress.say(f"conform: {options.random} random combats, ask {ask}")
                respond = _responder(options, clock, ask)
                search = _saved_search(
                    options, drawn.search(ask, options.random, options.seed, respond)
                )
                result.searches.append(search)
                if search.stopped:
                    raise OutOfTime
    except OutOfTime:
        result.stopped = _how_far(result, corpus, clock)
    result.seconds = clock.elapsed()
    return result


def _ask_file(options: Options, clock: Clock, file: CorpusFile, ask: str) -> Finding | None:
    """One ask of one corpus file, or None when the ask does not apply to it."""
    if ask == CHECK and file.legal is None or ask == DEAL and not file.deal:
        return None
    if ask == DIVIDE and not divides(file.scenario):  # no creature assigns: nothing to ask
        return None
    data = without_assignment(file.data) if ask in (ASSIGN, DIVIDE) else file.data
    judges: dict[str, Callable[[dict], Judgement]] = {
        CHECK: lambda answer: judge_check(file.data, file.scenario, answer),
        ASSIGN: lambda answer: judge_assign(data, answer, file.damage),
        DEAL: lambda answer: judge_deal(file.data, file.scenario, answer),
        DIVIDE: lambda answer: judge_divide(data, file.scenario, answer),
    }
    reply = ask_engine(options.engine, clock, ask, data, judges[ask])
    saved = ""
    if reply.outcome in (DISAGREED, FAILED):
        shown = reply.judgement.shown if reply.judgement and reply.judgement.shown else data
        saved = save(options.out, f"{Path(file.name).stem}.{ask}.json", shown)
    about = ", ".join(file.decides)
    about = f"the file decides by CR {about}; " if about else ""
    about += f"it catches {file.catches}" if file.catches else ""
    return Finding(str(file.path), ask, reply, file=file.name, saved=saved, about=about)


def ask_engine(
    engine: Engine, clock: Clock, ask: str, data: dict, judge: Callable[[dict], Judgement]
) -> Reply:
    """The engine's answer about `data`, judged; OutOfTime when the run's time is up
    before it, or while the engine works on it (that is not the engine's failure)."""
    if clock.left() <= 0:
        raise OutOfTime
    start = time.monotonic()
    try:
        answer = engine.answer(ask, data, clock.left())
    except EngineFailure as failure:
        if failure.timed_out and clock.left() <= 0:
            raise OutOfTime from None
        return Reply(
            FAILED, f"engine failure: {printable(str(failure))}", None, None, _since(start)
        )
    seconds = _since(start)
    if isinstance(answer, Unsupported):
        return Reply(SKIPPED, f"unsupported: {printable(answer.why)}", None, None, seconds)
    try:
        judgement = judge(answer)
    except (LimitReached, SolverUnknown) as error:  # lethal's limit, not the engine's fault
        return Reply(SKIPPED, f"lethal could not decide: {printable(str(error))}", answer)
    if judgement.agrees:
        return Reply(AGREED, "", answer, judgement, seconds)
    return Reply(DISAGREED, judgement.message, answer, judgement, seconds)


def _responder(options: Options, clock: Clock, ask: str) -> Callable[[dict], Reply]:
    """Asks the engine about a random combat and judges its answer; the same combat twice
    (Hypothesis replays some) is asked once."""
    from ..reading import parse

    asked: dict[str, Reply] = {}

    def respond(data: dict) -> Reply:
        import json

        key = json.dumps(data, sort_keys=True)
        if key not in asked:
            if ask == ASSIGN:
                judge = lambda answer: judge_assign(data, answer, {})  # noqa: E731
            else:
                scenario = parse(data, "<random combat>", warn=False)
                judging = {CHECK: judge_check, DEAL: judge_deal, DIVIDE: judge_divide}[ask]
                judge = lambda answer: judging(data, scenario, answer)  # noqa: E731
            asked[key] = ask_engine(options.engine, clock, ask, data, judge)
        return asked[key]

    return respond


def _saved_search(options: Options, search: Search) -> Search:
    """The search, its finding saved as a scenario file named for the ask."""
    found = search.finding
    if found is None or found.outcome not in (DISAGREED, FAILED):
        return search
    judgement = found.reply.judgement
    shown = judgement.shown if judgement and judgement.shown else found.combat
    saved = save(options.out, f"random-{search.ask}.json", shown)
    finding = Finding(saved, found.ask, found.reply, saved=saved, combat=found.combat, drawn=True)
    return replace(search, finding=finding)


def save(out: Path, name: str, data: dict) -> str:
    """Writes a scenario as people write them; the path written."""
    from ..proving.counterexample import file_text

    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(file_text(data), encoding="utf-8")
    return str(path)


def without_assignment(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "assignment"}


def _how_far(result: Run, corpus: Corpus, clock: Clock) -> str:
    asked = len(result.findings)
    done = f"{result.files} of {len(corpus.files)} corpus files ({asked} asks)"
    if not result.random:
        return done
    compared = sum(s.compared for s in result.searches)
    if result.files < len(corpus.files):
        return f"{done}; random combats not begun"
    searched = f"{len(result.searches)} of {len(result.asks)} asks"
    return f"{done} and {compared} random combats compared, in {searched}"


def _since(start: float) -> float:
    return time.monotonic() - start
