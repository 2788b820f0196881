"""The commands that prove things of the rules: prove, diff, teeth and mutants, and the
corpus, whose files the solver finds."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from .. import progress
from ..errors import (
    LethalError,
    shown,
)
from ..limits import as_given
from .codes import NO, UNDECIDED, YES
from .parser import DIFF_BOUNDS, OUT
from .scenario import EMPTY_PATH


def prove(args):
    from ..proving import report as proof_report
    from ..proving import unbounded
    from ..proving.certify import require_cvc5
    from ..proving.library import LibraryError, collect
    from ..proving.processes import prove_all
    from ..proving.prover import symbolic_combat_answers_as_lethal_check_does
    from ..proving.unbounded import prove_unbounded

    # Where the results go is looked at before any work, so that none is lost at the end.
    if args.junit is not None:
        proof_report.check_writable("--junit", args.junit, folder=False)
    proof_report.check_writable("--out", args.out, folder=True)
    if args.certify:
        require_cvc5()  # before any proving, so a missing solver costs no time
    found = collect(args.paths, args.pattern, args.timeout)
    if not found:
        raise LibraryError("no property matches" + (f" '{args.pattern}'" if args.pattern else ""))
    # First, that the combat the proofs speak of is the combat lethal check judges.
    results = [symbolic_combat_answers_as_lethal_check_does()]
    proving = prove_all(found, args.timeout, Path(args.out), args.certify, args.jobs)
    with contextlib.closing(proving):  # on Ctrl-C, no process is left proving
        for done, result in enumerate(proving, 1):
            results.append(result)
            name = shown(result.property.name)
            progress.say(f"prove: {done} of {len(found)}, {name} {result.verdict}")
    # The library's two headline invariants, for combats of any size.
    beyond = (
        []
        if args.paths or args.pattern
        else prove_unbounded(args.timeout, Path(args.out), args.certify)
    )
    if args.junit is not None:
        Path(args.junit).write_text(proof_report.junit(results))
    code = proof_report.exit_code(results, beyond)
    text = proof_report.text(results)
    if beyond:
        text += "beyond the bounds:\n" + unbounded.text(beyond) + "\n"
    data = proof_report.as_json(results) + unbounded.as_json(beyond)
    return text, data, code


def diff(args):
    from ..proving import Bounds, diff
    from ..proving.report import check_writable
    from ..reading import origin_of

    if args.file == "":
        raise LethalError(EMPTY_PATH)
    path, args.file = args.file, args.file and origin_of(args.file)  # '-' is <stdin>
    editions = (args.before, args.after)  # each one lethal models (the parser's `_rules`)
    _given_to_its_way(args, bool(path))
    if path:
        with as_given(args):
            pair = diff.compare_file(path, editions, args.timeout)
        data = {"file": args.file, "editions": [diff.replayed_json(r) for r in pair]}
        code = {False: YES, True: NO, None: UNDECIDED}[diff.differs(pair)]
        return diff.file_text(args.file, pair), data, code
    if os.path.lexists(args.out) and not os.path.isdir(args.out):
        raise LethalError(
            f"--out: {args.out!r} is a file, not a folder; name a folder for the combats "
            "found (made if missing)"
        )
    check_writable("--out", args.out, folder=True)  # before any work
    values = args.values
    bounds = Bounds(2, args.attackers, args.blockers, 1, values, values, values)
    findings = diff.synthesize(*editions, bounds, args.timeout, Path(args.out))
    verdicts = [f.result.verdict for f in findings]
    if all(v == "proved" for v in verdicts):
        code = YES
    elif all(v in ("proved", "unknown") for v in verdicts):
        code = UNDECIDED
    else:
        code = NO
    return diff.text(*editions, bounds, findings), diff.as_json(*editions, bounds, findings), code


def _given_to_its_way(args, with_file: bool) -> None:
    """diff's bounds and --out serve its search, without FILE; its limits, the judging of a
    FILE. A flag given to the way not taken is refused rather than ignored; then each flag
    not given takes its default."""
    searching = {**{f"--{b}": b for b in DIFF_BOUNDS}, "--out": "out"}
    judging = {limit.flag: limit.dest for limit in args.limits}
    unused = searching if with_file else judging
    stray = " and ".join(flag for flag, dest in unused.items() if getattr(args, dest) is not None)
    if stray and with_file:
        raise LethalError(
            f"{stray}: used only by diff's search, without FILE; with FILE, diff judges that "
            f"file's combat: leave out {stray}, or FILE"
        )
    if stray:
        raise LethalError(
            f"{stray}: used only by diff's judging of a FILE, and no FILE was given: give "
            f"FILE, or leave out {stray}"
        )
    defaults = {**DIFF_BOUNDS, "out": OUT, **{x.dest: x.default for x in args.limits}}
    for dest, default in defaults.items():
        if getattr(args, dest) is None:
            setattr(args, dest, default)


def corpus(args):
    from ..proving import corpus
    from ..proving.report import check_writable

    check_writable("DIR", args.dir, folder=True)  # before minutes of work
    out, start = Path(args.dir), time.perf_counter()
    manifest = corpus.write(out, args.rules, timeout=args.timeout)
    text = corpus.text(manifest, out, time.perf_counter() - start)
    undecided = any(
        why.startswith(corpus.UNDECIDED) for why in manifest["coverage"]["not_covered"].values()
    )
    return text, manifest, UNDECIDED if undecided else YES


def teeth(args):
    from ..proving import teeth

    bites = teeth.bite(args.timeout, args.jobs)
    data = [
        {
            "rule": b.kind,
            "what": b.what,
            "properties": list(b.properties),
            "not_proved": b.not_proved,
            "examples": list(b.examples),
            "undecided": [{"property": name, "verdict": v} for name, v in b.undecided],
            "caught": b.caught,
            "status": b.status,
        }
        for b in bites
    ]
    codes = {"caught": YES, "undecided": UNDECIDED, "not caught": NO}
    return teeth.table(bites), data, codes[teeth.exit_status(bites)]


def mutants(args):
    from ..proving import mutation

    nets = mutation.parse_nets(args.nets)
    chosen = mutation.select(args.patterns)
    measured = mutation.measure(chosen, nets, args.jobs, args.timeout, progress.current())
    code = YES if mutation.passes(measured) else NO
    return mutation.table(measured), mutation.as_json(measured), code
