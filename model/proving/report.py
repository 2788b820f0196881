"""How proof results are shown: a line per property, JSON, and JUnit XML for CI."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from ..cli import BAD_INPUT, INTERNAL, NO, UNDECIDED, YES
from .prover import ERROR, LETHAL, PROVED, THE_PROPERTY, UNKNOWN

# Verdicts that are not an answer about the property: JUnit calls them errors, not failures.
_UNANSWERED = (UNKNOWN, ERROR)


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
    if prop.expected == "imports":  # a file that does not: it has no bounds
        return f"{_verdict(result):<8} {prop.name}  {result.seconds:.1f}s  <- expected to import"
    if not result.as_expected:
        expected = {"holds": "hold", "fails": "fail", "agrees": "agree"}[prop.expected]
        mark = f"  <- expected to {expected}"
    else:
        mark = "  (a false claim, as expected)" if prop.expected == "fails" else ""
    cites = f"  [CR {', '.join(prop.cites)}]" if prop.cites else ""
    rules = "" if prop.editions == ("current",) else f"; rules of {', '.join(prop.editions)}"
    return (
        f"{_verdict(result):<8} {prop.name}{cites}  ({prop.bounds}{rules})  "
        f"{result.seconds:.1f}s{mark}"
    )


def text(results) -> str:
    lines = []
    for result in results:
        lines.append(_line(result))
        if result.counterexamples:
            lines.append(f"  counterexample: {', '.join(result.counterexamples)}")
            lines += ["  " + row for row in result.table.splitlines()]
        if result.reason:
            lines.append(f"  {result.reason}")
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
            name=r.property.name,
            time=f"{r.seconds:.3f}",
        )
        if r.as_expected:
            continue
        kind = "error" if r.verdict in _UNANSWERED else "failure"
        detail = ET.SubElement(
            case, kind, message=f"{r.verdict}, expected to {r.property.expected}"
        )
        detail.text = "\n".join(filter(None, [r.reason, r.table]))
    return ET.tostring(suite, encoding="unicode") + "\n"
