"""Mutation testing: apply each semantic mutant of `lethal.mutants` to a copy of the package,
and see which nets notice it: the bundled examples, the property library, the tests.

Teeth removes a whole kind of constraint; a mutant is a smaller, plausible bug, so a net
that kills mutants tests the rules' details. Each mutant runs on a copy of its own (the
package as `lethal`, its proofs as `lethal.proofs`, and the checkout's tests), imported
first in a subprocess, so a mutant that breaks the import crashes instead of surviving, and
the package the command runs from is never changed.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from ..errors import LethalError
from .mutants import MUTANTS, Mutant
from .prover import DECIDED

NETS = ("examples", "library", "tests")
KILLED, UNCLEAN, SURVIVED = "killed", "unclean", "survived"
GOAL = 0.9  # the share of mutants the library alone must kill cleanly
# Each property's solver limit in the library net. Unmutated, the slowest takes under 3 s; a
# mutant that makes one hard gives `unknown` for it, not a timeout of the whole net.
PROPERTY_TIMEOUT = 30.0
COPY = "LETHAL_MUTANT_COPY"  # tells the subprocess where its package must come from
IMPORT_FAILED, WRONG_COPY = 70, 71  # the subprocess's exit codes for the harness itself

# Run in the subprocess with the copy first on PYTHONPATH: import the copy, then the net.
_LAUNCHER = f"""\
import sys, traceback
try:
    from lethal.proving.mutation import run_net
except Exception:
    traceback.print_exc()
    sys.exit({IMPORT_FAILED})
sys.exit(run_net(sys.argv[1:]))
"""


class MutationError(LethalError, RuntimeError):
    """The mutants cannot be measured: a stale mutant, no tests to run, a net that fails
    without any mutant, or a copy that is not the package imported."""


@dataclass(frozen=True)
class Catch:
    """What one net made of one mutant."""

    net: str
    outcome: str  # KILLED, UNCLEAN (a crash, timeout or undecided verdict) or SURVIVED
    how: str = ""  # for UNCLEAN: "crash", "timeout", or the library's verdicts ("unknown")
    by: tuple[
        str, ...
    ] = ()  # what noticed: examples, properties, the failed test; a crash's last line
    seconds: float = 0.0

    @property
    def cell(self) -> str:
        return self.how if self.outcome == UNCLEAN else self.outcome


@dataclass(frozen=True)
class Report:
    mutant: Mutant
    catches: tuple[Catch, ...]

    @property
    def survived(self) -> bool:
        """No net run noticed it: an unclean kill is still noticed."""
        return all(c.outcome == SURVIVED for c in self.catches)

    def catch(self, net: str) -> Catch | None:
        return next((c for c in self.catches if c.net == net), None)


@dataclass(frozen=True)
class Measured:
    nets: tuple[str, ...]
    reports: tuple[Report, ...]
    baseline_seconds: dict[str, float]
    seconds: float


@dataclass(frozen=True)
class Tree:
    """Where the installed package's parts are."""

    package: Path  # the folder imported as `lethal`
    proofs: Path  # the folder imported as `lethal.proofs`
    checkout: Path | None  # the repository holding tests/, when running from a checkout


def installed() -> Tree:
    import lethal
    import lethal.proofs

    package = Path(lethal.__file__).parent
    proofs = Path(lethal.proofs.__file__).parent
    root = package.parent
    checkout = root if (root / "tests").is_dir() and (root / "pyproject.toml").is_file() else None
    return Tree(package, proofs, checkout)


def select(patterns: Sequence[str] = ()) -> list[Mutant]:
    """The mutants whose id contains one of `patterns` or matches it as a glob; all without
    any. Every pattern must match some mutant, so a mistyped id is not silently skipped."""
    if not patterns:
        return list(MUTANTS)
    for pattern in patterns:
        if not any(_matches(m, pattern) for m in MUTANTS):
            raise MutationError(f"no mutant matches '{pattern}'")
    return [m for m in MUTANTS if any(_matches(m, pattern) for pattern in patterns)]


def _matches(mutant: Mutant, pattern: str) -> bool:
    return pattern in mutant.id or fnmatch.fnmatchcase(mutant.id, pattern)


def parse_nets(text: str) -> tuple[str, ...]:
    nets = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in nets if n not in NETS]
    if unknown or not nets:
        raise MutationError(
            f"--nets: expected some of {', '.join(NETS)} separated by commas, found '{text}'"
        )
    return tuple(n for n in NETS if n in nets)


def stale(mutants: Sequence[Mutant], package: Path) -> list[str]:
    """Why each mutant that does not fit the source cannot be applied: its original snippet
    must occur exactly once in its file."""
    problems = []
    for m in mutants:
        path = package / m.file
        found = path.read_text().count(m.original) if path.is_file() else None
        if found is None:
            problems.append(f"mutant {m.id}: no file {m.file} in the package")
        elif found != 1:
            problems.append(
                f"mutant {m.id}: its original snippet occurs {found} times in {m.file}, "
                "expected once; update lethal/proving/mutants.py to the source"
            )
    return problems


def mutate(root: Path, mutant: Mutant) -> None:
    """Applies the mutant to the copy of the package under `root`."""
    path = root / "lethal" / mutant.file
    path.write_text(path.read_text().replace(mutant.original, mutant.replacement, 1))


def snapshot(tree: Tree, root: Path, with_tests: bool) -> Path:
    """A copy of the package (and, for the tests net, the checkout's tests) at `root`."""
    leave_out = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(tree.package, root / "lethal", ignore=leave_out)
    if not (root / "lethal" / "proofs").exists():  # an editable install keeps them apart
        shutil.copytree(tree.proofs, root / "lethal" / "proofs", ignore=leave_out)
    if with_tests:
        if tree.checkout is None:
            raise MutationError(
                f"the tests net needs a source checkout: no tests/ beside {tree.package}"
            )
        shutil.copytree(tree.checkout / "tests", root / "tests", ignore=leave_out)
        # The tests read the docs' examples and draw the benchmarks' combats (issue 12's).
        for name in ("docs", "benchmarks"):
            shutil.copytree(tree.checkout / name, root / name, ignore=leave_out)
        for name in ("README.md", "pyproject.toml"):  # the tests read the README
            shutil.copy2(tree.checkout / name, root / name)
        # Tests may name files where the checkout keeps them (model/examples/...): the same
        # names here lead into the copy, so they read what the mutant runs on.
        for part, inside in ((tree.package, "lethal"), (tree.proofs, "lethal/proofs")):
            if part.parent == tree.checkout and not (root / part.name).exists():
                (root / part.name).symlink_to(inside, target_is_directory=True)
    return root


def measure(
    mutants: Sequence[Mutant],
    nets: Sequence[str],
    jobs: int = 2,
    timeout: float = 900,
    progress: Callable[[str], None] | None = None,
    tree: Tree | None = None,
) -> Measured:
    """Runs every net on the unmutated copy, then on each mutant's copy. The library net
    on the unmutated copy, which runs before any mutant, proves `jobs` properties at once."""
    start = time.perf_counter()
    tree = tree or installed()
    with TemporaryDirectory(prefix="lethal-mutants-") as scratch:
        # One snapshot, taken once: the source may change while the mutants run.
        pristine = snapshot(tree, Path(scratch) / "pristine", "tests" in nets)
        problems = stale(mutants, pristine / "lethal")
        if problems:
            raise MutationError("\n".join(problems))
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            baselines = dict(
                zip(
                    nets,
                    pool.map(lambda n: _baseline(pristine, n, timeout, jobs), nets),
                    strict=True,
                )
            )
            # What the library net on a mutant compares its verdicts with, as it goes.
            unmutated = Path(scratch) / "library-verdicts.json"
            if "library" in baselines:
                unmutated.write_text(json.dumps(baselines["library"][0]))
            done = []

            def one(mutant: Mutant) -> Report:
                report = _report(pristine, mutant, nets, baselines, timeout, unmutated)
                done.append(report)
                if progress:
                    progress(_progress(report, len(done), len(mutants)))
                return report

            reports = tuple(pool.map(one, mutants))
    seconds = {net: ran.seconds for net, (_, ran) in baselines.items()}
    return Measured(tuple(nets), reports, seconds, time.perf_counter() - start)


def _report(
    pristine: Path, mutant: Mutant, nets, baselines, timeout: float, unmutated: Path
) -> Report:
    with TemporaryDirectory(prefix=f"lethal-{mutant.id}-") as scratch:
        root = Path(scratch) / "copy"
        shutil.copytree(pristine, root, symlinks=True)
        mutate(root, mutant)
        # The mutants run `jobs` at once already: one property at a time in each.
        given = {"library": ("1", str(unmutated))}
        catches = tuple(
            _JUDGES[net](baselines[net][0], _launch(root, net, timeout, *given.get(net, ())))
            for net in nets
        )
    return Report(mutant, catches)


def _progress(report: Report, n: int, of: int) -> str:
    nets = ", ".join(f"{c.net} {c.cell}" for c in report.catches)
    seconds = sum(c.seconds for c in report.catches)
    return f"[{n}/{of}] {report.mutant.id}: {nets} ({seconds:.1f}s)"


# Running a net in a subprocess.


@dataclass(frozen=True)
class Ran:
    code: int | None  # None when it timed out
    stdout: str
    stderr: str
    seconds: float

    @property
    def last_words(self) -> tuple[str, ...]:
        """The last line of what it printed on stderr, to say why it crashed."""
        lines = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        return (lines[-1][:200],) if lines else ()


def _launch(root: Path, net: str, timeout: float, *given: str) -> Ran:
    """Runs `net` on the copy at `root`; `given` are the library net's: the properties
    proved at once, and the file of the unmutated verdicts, if any."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    env[COPY] = str(root)
    env["CI"] = "1"  # Hypothesis derandomized (tests/conftest.py): the same verdict each run
    argv = [sys.executable, "-c", _LAUNCHER, net, str(root / "counterexamples"), *given]
    start = time.perf_counter()
    # A session of its own, so that a timeout ends whatever the net started too.
    child = subprocess.Popen(
        argv,
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=timeout)
        code = child.returncode
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        out, err = child.communicate()
        code = None
    if code == WRONG_COPY:
        raise MutationError(f"the copy was not the package imported: {err.strip()}")
    return Ran(code, out, err, time.perf_counter() - start)


def run_net(argv: list[str]) -> int:
    """In the subprocess: runs one net on the package imported, which must be the copy."""
    import lethal

    copy = Path(os.environ[COPY]).resolve()
    if not Path(lethal.__file__).resolve().is_relative_to(copy):
        sys.stderr.write(f"lethal was imported from {lethal.__file__}, not from {copy}\n")
        return WRONG_COPY
    net, out, *given = argv
    if net == "examples":
        json.dump(_example_verdicts(), sys.stdout)
        return 0
    if net == "library":
        jobs, *unmutated = given
        expected = json.loads(Path(unmutated[0]).read_text()) if unmutated else {}
        found = []
        verdicts = _library_verdicts(Path(out), int(jobs))
        with closing(verdicts):  # no process is left proving once the mutant is killed
            for name, verdict in verdicts:
                found.append({"name": name, "verdict": verdict})
                # A clean kill whatever the rest say, as the judge reads it: they are not
                # proved, as the tests net stops at the first failure.
                if _cleanly_changed(expected.get(name), verdict):
                    break
        json.dump(found, sys.stdout)
        return 0
    import pytest

    # The harness's own tests check each mutant against the source, so they fail on every
    # mutated copy by design, and would run mutants within mutants: not part of the net.
    own = "--ignore=tests/test_mutants.py"
    return pytest.main(["-x", "-q", "-p", "no:cacheprovider", own, "tests"])


def _library_verdicts(out: Path, jobs: int) -> Iterator[tuple[str, str]]:
    """The name and verdict of each result of `lethal prove` on the library, in its order:
    the model check, each property (`jobs` at once), the invariants beyond the bounds."""
    from .library import collect
    from .processes import prove_all
    from .prover import symbolic_combat_answers_as_lethal_check_does
    from .unbounded import prove_unbounded

    out.mkdir(parents=True, exist_ok=True)
    model = symbolic_combat_answers_as_lethal_check_does()
    yield model.property.name, model.verdict
    proving = prove_all(collect([]), PROPERTY_TIMEOUT, out, jobs=jobs)
    with closing(proving):
        for result in proving:
            yield result.property.name, result.verdict
    for theorem in prove_unbounded(PROPERTY_TIMEOUT, out):
        yield theorem.name, theorem.verdict


def _example_verdicts() -> dict[str, bool]:
    from ..reading import bundled_examples, load
    from ..verdict import check

    return {path.name: check(load(path)).legal for path in bundled_examples()}


# Judging a net's run against the unmutated one.


def _baseline(pristine: Path, net: str, timeout: float, jobs: int):
    ran = _launch(pristine, net, timeout, *((str(jobs),) if net == "library" else ()))
    if ran.code is None:
        raise MutationError(
            f"the {net} net does not finish within {timeout:g}s without any mutant; "
            "give a larger --timeout"
        )
    expected = _READERS[net](ran)
    if expected is None:
        raise MutationError(
            f"the {net} net fails without any mutant (exit {ran.code}): "
            + " ".join(ran.last_words or (ran.stdout.strip()[-300:],))
        )
    return expected, ran


def _read_examples(ran: Ran) -> dict[str, bool] | None:
    return _json(ran.stdout) if ran.code == 0 else None


def _read_library(ran: Ran) -> dict[str, str] | None:
    results = _json(ran.stdout)
    if not isinstance(results, list):
        return None
    return {r["name"]: r["verdict"] for r in results}


def _read_tests(ran: Ran) -> bool | None:
    return True if ran.code == 0 else None


def _json(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None


def _unclean(net: str, ran: Ran) -> Catch:
    how = "timeout" if ran.code is None else "crash"
    return Catch(net, UNCLEAN, how, ran.last_words, ran.seconds)


def _judge_examples(verdicts: dict[str, bool], ran: Ran) -> Catch:
    found = _read_examples(ran)
    if found is None:
        return _unclean("examples", ran)
    changed = tuple(name for name, legal in verdicts.items() if found.get(name) != legal)
    outcome = KILLED if changed else SURVIVED
    return Catch("examples", outcome, by=changed, seconds=ran.seconds)


def _judge_library(verdicts: dict[str, str], ran: Ran) -> Catch:
    found = _read_library(ran)
    if found is None:
        return _unclean("library", ran)
    changed, undecided = [], {}
    for name, verdict in verdicts.items():
        now = found.get(name, "missing")
        if now == verdict:
            continue
        if _cleanly_changed(verdict, now):
            changed.append(name)
        else:  # unknown, error, a model check's mismatch, or a result gone missing
            undecided[name] = now
    if changed:
        return Catch("library", KILLED, by=tuple(changed), seconds=ran.seconds)
    if undecided:
        how = ",".join(sorted(set(undecided.values())))
        return Catch("library", UNCLEAN, how, tuple(undecided), ran.seconds)
    return Catch("library", SURVIVED, seconds=ran.seconds)


def _cleanly_changed(before: str | None, now: str) -> bool:
    """The verdict moved between definite ones (a mismatch is the symbolic combat found to
    disagree with lethal check: definite): the mutant is killed cleanly."""
    return before != now and before in DECIDED and now in DECIDED


def _judge_tests(_: bool, ran: Ran) -> Catch:
    if ran.code == 0:
        return Catch("tests", SURVIVED, seconds=ran.seconds)
    if ran.code != 1:  # 2 and up: collection errors, internal errors, no tests
        return _unclean("tests", ran)
    failed = tuple(
        line.split(" ", 1)[1].split(" - ", 1)[0]
        for line in ran.stdout.splitlines()
        if line.startswith(("FAILED ", "ERROR "))
    )
    return Catch("tests", KILLED, by=failed, seconds=ran.seconds)


_READERS = {"examples": _read_examples, "library": _read_library, "tests": _read_tests}
_JUDGES = {"examples": _judge_examples, "library": _judge_library, "tests": _judge_tests}


# The score and how it is shown.


def library_score(measured: Measured) -> tuple[int, int] | None:
    """(mutants the library kills cleanly, mutants not marked equivalent), when it ran."""
    if "library" not in measured.nets:
        return None
    counted = [r for r in measured.reports if not r.mutant.equivalent]
    killed = sum(r.catch("library").outcome == KILLED for r in counted)
    return killed, len(counted)


def unexplained(measured: Measured) -> list[Report]:
    """Survivors of every net not marked equivalent, and mutants marked equivalent that a
    net kills after all: the mark is then wrong."""
    return [r for r in measured.reports if r.survived != bool(r.mutant.equivalent)]


def passes(measured: Measured) -> bool:
    score = library_score(measured)
    rate_met = score is None or score[1] == 0 or score[0] >= GOAL * score[1]
    return rate_met and not unexplained(measured)


def table(measured: Measured) -> str:
    width = max(len(r.mutant.id) for r in measured.reports)
    header = f"{'mutant':<{width}}  " + "  ".join(f"{n:<9}" for n in measured.nets)
    lines = [header.rstrip()]
    for r in measured.reports:
        cells = "  ".join(f"{r.catch(n).cell:<9}" for n in measured.nets)
        mark = "  (equivalent)" if r.mutant.equivalent else ""
        lines.append(f"{r.mutant.id:<{width}}  {cells}".rstrip() + mark)
    score = library_score(measured)
    if score is not None:
        killed, of = score
        share = f"{killed / of:.0%}" if of else "n/a"
        lines.append(
            f"library: {killed} of {of} mutants killed cleanly ({share}); the goal is {GOAL:.0%}"
        )
    survivors = [r for r in measured.reports if r.survived]
    lines.append(f"survivors of every net run ({', '.join(measured.nets)}): {len(survivors)}")
    for r in survivors:
        lines.append(f"  {r.mutant.id}  {r.mutant.file}: {r.mutant.description}")
        if r.mutant.equivalent:
            lines.append(f"    equivalent: {r.mutant.equivalent}")
    for r in unexplained(measured):
        if not r.survived:
            killers = ", ".join(c.net for c in r.catches if c.outcome != SURVIVED)
            lines.append(f"  {r.mutant.id} is marked equivalent, but {killers} noticed it")
    took = ", ".join(f"{n} {s:.1f}s" for n, s in measured.baseline_seconds.items())
    lines.append(f"unmutated: {took}; all in {measured.seconds:.0f}s")
    return "\n".join(lines) + "\n"


def as_json(measured: Measured) -> dict:
    score = library_score(measured)
    return {
        "nets": list(measured.nets),
        "mutants": [
            {
                "id": r.mutant.id,
                "file": r.mutant.file,
                "description": r.mutant.description,
                "equivalent": r.mutant.equivalent or None,
                "survived": r.survived,
                "nets": {
                    c.net: {
                        "outcome": c.outcome,
                        "how": c.how or None,
                        "by": list(c.by),
                        "seconds": round(c.seconds, 3),
                    }
                    for c in r.catches
                },
            }
            for r in measured.reports
        ],
        "library": None
        if score is None
        else {
            "killed": score[0],
            "of": score[1],
            "rate": score[0] / score[1] if score[1] else None,
            "goal": GOAL,
        },
        "survivors": [r.mutant.id for r in measured.reports if r.survived],
        "unexplained": [r.mutant.id for r in unexplained(measured)],
        "baseline_seconds": {n: round(s, 3) for n, s in measured.baseline_seconds.items()},
        "seconds": round(measured.seconds, 3),
        "passed": passes(measured),
    }
