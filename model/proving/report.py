"""How proof results are shown: a line per property, JSON, and JUnit XML for CI."""

from __future__ import annotations

import os
from pathlib import Path
from xml.etree import ElementTree as ET

from ..cli import BAD_INPUT, INTERNAL, NO, UNDECIDED, YES
from ..errors import LethalError, printable, shown
from .prover import ERROR, LETHAL, PROVED, THE_PROPERTY, UNKNOWN

# Verdicts that are not an answer about the property: JUnit calls them errors, not failures.
_UNANSWERED = (UNKNOWN, ERROR)


class ReportError(LethalError, ValueError):
    """A place to write results (--junit FILE, --out DIR) that cannot be written."""


def check_writable(option: str, given: str, folder: bool) -> None:
    """Refuses, before any property is proved, a file (or, with `folder`, a folder, made
    when first needed) that could not be written at the end, naming the option and path."""
    path = Path(given)
    if not given:
        problem = "an empty path" + ("; name a folder" if folder else "; name a file")
    elif folder and path.exists() and not path.is_dir():
        problem = "not a folder (counterexamples and queries are written in it)"
    elif not folder and path.is_dir():
        problem = "a folder; name the file to write"
    else:
        above = path if folder else path.parent
        while folder and not above.exists() and above != above.parent:
            above = above.parent  # the folder it would be made in
        if not above.exists():  # only a file's folder: an --out folder's is made
            problem = f"its folder {shown(str(above))} does not exist"
        elif not above.is_dir():
            problem = f"{shown(str(above))} is a file, not a folder"
        elif not os.access(above, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            problem = "not writable"
        else:
            return
    raise ReportError(f"{option} {shown(given) if given else repr(given)}: {problem}")


def _verdict(result) -> str:
    """The verdict in capitals, and the solvers behind a certified proof: PROVED (z3, cvc5)."""
    label = result.verdict.upper()
    if len(result.certified_by) > 1:
        label += f" ({', '.join(result.certified_by)})"
    return label


def exit_code(results, beyond=()) -> int:
    """The run's exit code: 4 when lethal failed on a property (a bug); else 2 when a
    property's file is broken, since then no verdict of the run can be trusted; else 1 when a
    verdict is not the one expected (the unbounded invariants `beyond` included), 3 when the
    only such verdicts are unknown, and 0 when every verdict is as expected."""
    faults = {r.fault for r in results}
    if LETHAL in faults:
        return INTERNAL
    if THE_PROPERTY in faults:
        return BAD_INPUT
    missed = [r.verdict for r in results if not r.as_expected]
    missed += [r.verdict for r in beyond if r.verdict != PROVED]
    if not missed:
        return YES
    return UNDECIDED if all(verdict == UNKNOWN for verdict in missed) else NO


def _line(result) -> str:
    prop = result.property
    # A name comes from the user (Property(name=...), a file's path): no character of it
    # may forge a line or clear the screen.
    name = shown(prop.name)
    if prop.expected == "imports":  # a file that does not: it has no bounds
        return f"{_verdict(result):<8} {name}  {result.seconds:.1f}s  <- expected to import"
    if not result.as_expected:
        expected = {"holds": "hold", "fails": "fail", "agrees": "agree"}[prop.expected]
        mark = f"  <- expected to {expected}"
    else:
        mark = "  (a false claim, as expected)" if prop.expected == "fails" else ""
    cites = f"  [CR {', '.join(prop.cites)}]" if prop.cites else ""
    rules = "" if prop.editions == ("current",) else f"; rules of {', '.join(prop.editions)}"
    return (
        f"{_verdict(result):<8} {name}{cites}  ({prop.bounds}{rules})  {result.seconds:.1f}s{mark}"
    )


def text(results) -> str:
    lines = []
    for result in results:
        lines.append(_line(result))
        if result.counterexamples:
            files = ", ".join(map(shown, result.counterexamples))
            lines.append(f"  counterexample: {files}")
            lines += ["  " + printable(row) for row in result.table.splitlines()]
        if result.reason:
            lines.append(f"  {printable(result.reason)}")
    counts = {}
    for result in results:
        counts[result.verdict] = counts.get(result.verdict, 0) + 1
    missed = sum(not r.as_expected for r in results)
    summary = ", ".join(f"{n} {verdict}" for verdict, n in counts.items())
    lines.append(f"{len(results)} properties: {summary}; {missed} not as expected")
    return "\n".join(lines) + "\n"


def as_json(results) -> list[dict]:
    return [
        {
            "name": r.property.name,
            "statement": r.property.statement,
            "expected": r.property.expected,
            "verdict": r.verdict,
            "as_expected": r.as_expected,
            "citations": list(r.property.cites),
            "bounds": r.property.bounds.as_json(),
            "editions": list(r.property.editions),
            "seconds": round(r.seconds, 3),
            "counterexample": list(r.counterexamples),
            "reason": r.reason,
            "certified_by": list(r.certified_by),
        }
        for r in results
    ]


def junit(results) -> str:
    suite = ET.Element(
        "testsuite",
        name="lethal prove",
        tests=str(len(results)),
        failures=str(sum(not r.as_expected and r.verdict not in _UNANSWERED for r in results)),
        errors=str(sum(not r.as_expected and r.verdict in _UNANSWERED for r in results)),
        time=f"{sum(r.seconds for r in results):.3f}",
    )
    for r in results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname="lethal.proofs",
            name=printable(r.property.name),  # XML holds no terminal escape
            time=f"{r.seconds:.3f}",
        )
        if r.as_expected:
            continue
        kind = "error" if r.verdict in _UNANSWERED else "failure"
        detail = ET.SubElement(
            case, kind, message=f"{r.verdict}, expected to {r.property.expected}"
        )
        lines = "\n".join(filter(None, [r.reason, r.table])).splitlines()
        detail.text = "\n".join(map(printable, lines))
    return ET.tostring(suite, encoding="unicode") + "\n"
