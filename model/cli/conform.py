"""`lethal conform`: a rules engine's answers compared with lethal's, over a corpus and
random combats (docs/conformance.md)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import shlex
import shutil
import tempfile
from pathlib import Path

from .. import progress
from ..errors import LethalError, quoted


def conform(args):
    from ..conformance import report, runner
    from ..conformance.manifest import read_corpus
    from ..conformance.protocol import Engine

    engine = Engine(_engine_argv(args.engine), args.engine_timeout)
    _writable("--out", args.out, folder=True)
    if args.junit is not None:
        _writable("--junit", args.junit, folder=False)
    if args.random:
        _can_draw()
    options = runner.Options(
        engine, args.asks, args.random, args.seed, Path(args.out), args.seconds
    )
    clock = runner.Clock(args.seconds)
    with contextlib.ExitStack() as stack:
        if args.corpus is not None:
            folder, name = Path(args.corpus), args.corpus
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="lethal-")))
            name = "written for this run by lethal.proving.corpus"
            _write_corpus(folder, clock)
        run = runner.run(options, read_corpus(folder), name, clock)
    if args.junit is not None:
        Path(args.junit).write_text(report.junit(run), encoding="utf-8")
    return report.text(run), report.as_json(run), report.exit_code(run)


def _engine_argv(command: str) -> tuple[str, ...]:
    """The engine's command, split as a shell splits words (no shell runs it); its program
    must be found before any work."""
    try:
        argv = tuple(shlex.split(command))
    except ValueError as error:
        raise LethalError(
            f"--engine {quoted(command)}: cannot split it into words: {error}"
        ) from None
    if not argv:
        raise LethalError("--engine: an empty command; give the command that runs your engine")
    if shutil.which(argv[0]) is None:
        raise LethalError(
            f"--engine: {quoted(argv[0])} is neither a program on PATH nor an executable "
            "file; give the command that runs your engine, such as 'python3 adapter.py'"
        )
    return argv


def _writable(option: str, given: str, folder: bool) -> None:
    """Refuses, before any engine is asked, a place the results could not be written to."""
    from ..proving.report import check_writable

    check_writable(option, given, folder)


def _can_draw() -> None:
    """Random combats need Hypothesis and lethal's strategies; said before any work."""
    if importlib.util.find_spec("hypothesis") is None:
        raise LethalError(
            "--random: random combats are drawn with Hypothesis, which is not installed "
            "(pip install hypothesis); --random 0 runs the corpus alone"
        )
    if importlib.util.find_spec("lethal.strategies") is None:
        raise LethalError(
            "--random: this lethal has no lethal.strategies to draw combats with; "
            "--random 0 runs the corpus alone"
        )


def _write_corpus(folder: Path, clock) -> None:
    """The corpus lethal writes itself, when none is given, within the run's time."""
    from ..deadline import deadline

    if importlib.util.find_spec("lethal.proving.corpus") is None:
        raise LethalError(
            "no --corpus given, and this lethal cannot write one (lethal.proving.corpus is "
            "missing); give --corpus DIR, a folder 'lethal corpus DIR' wrote"
        )
    from ..proving import corpus

    progress.say("conform: writing the corpus (give --corpus DIR to use one written before)")
    said = io.StringIO()  # what it prints is progress, not the run's answer
    limit = f"the time limit of {clock.seconds:g} s ran out while the corpus was written"
    with deadline(clock.left(), f"{limit} (--timeout SECONDS raises it)"):
        with contextlib.redirect_stdout(said):
            corpus.write(folder)
    for line in said.getvalue().splitlines():
        progress.say(f"conform: {line}")
