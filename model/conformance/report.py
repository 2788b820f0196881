"""A conformance run as people read it (one compiler-style line per disagreement, engine
failure or skipped ask, then a summary), as JSON, and as JUnit XML for CI; and its exit
code."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from ..cli.codes import NO, UNDECIDED, YES
from ..errors import printable, shown
from . import AGREED, DISAGREED, FAILED, OUTCOMES, SKIPPED
from .runner import Finding, Run, Search


def exit_code(run: Run) -> int:
    """1 for any disagreement or engine failure (a finding stands even if the time then
    ran out), else 3 when the time ran out, else 1 when nothing was compared (every ask
    skipped: a pass would be vacuous), else 0."""
    counts = _counts(_all(run))
    if counts[DISAGREED] or counts[FAILED]:
        return NO
    if run.stopped:
        return UNDECIDED
    return YES if _compared(run) else NO


def text(run: Run) -> str:
    lines = []
    for finding in _all(run):
        if finding.outcome in (DISAGREED, FAILED):
            lines += _finding_lines(finding, _search_of(run, finding))
    lines += _skipped_lines(run.findings)
    lines += summary(run)
    return "".join(line + "\n" for line in lines)


def _finding_lines(finding: Finding, search: Search | None) -> list[str]:
    where = shown(finding.where)
    if search is None:
        saved = f" (saved as {shown(finding.saved)})" if finding.saved else ""
        about = [f"  {finding.about}"] if finding.about else []
        return [f"{where}: ask {finding.ask}{saved}: {finding.message}", *about]
    if finding.outcome == FAILED:
        how = f"a random combat, the {_nth(search.compared + search.declined)} asked, not shrunk"
    else:
        how = (
            f"a random combat, the {_nth(search.compared)} compared, shrunk in "
            f"{search.shrinks} steps"
        )
        if search.stopped:
            how += ", cut short by --timeout"
    lines = [f"{where}: ask {finding.ask} ({how}): {finding.message}"]
    return lines + [f"  {line}" for line in combat_lines(finding.combat or {})]


def _skipped_lines(findings: list[Finding]) -> list[str]:
    """The asks skipped, a line for each reason the engine gave (JSON and JUnit list each
    ask): an engine that declines a family of rules declines many files."""
    by_reason: dict[str, list[str]] = {}
    for f in findings:
        if f.outcome == SKIPPED:
            by_reason.setdefault(f.message, []).append(f"{shown(f.file)} {f.ask}")
    lines = []
    for reason, asks in by_reason.items():
        listed = ", ".join(asks[:SKIPS_SHOWN]) + (
            f", and {len(asks) - SKIPS_SHOWN} more" if len(asks) > SKIPS_SHOWN else ""
        )
        lines.append(f"skipped {_many(len(asks), 'ask')}: {reason} ({listed})")
    return lines


SKIPS_SHOWN = 3


def summary(run: Run) -> list[str]:
    counts = _counts(run.findings)
    asked = sum(counts.values())
    lines = [
        f"conform: {_many(run.files, 'file')}, {_many(asked, 'ask')}: {counts[AGREED]} agreed, "
        f"{counts[DISAGREED]} disagreed, {counts[SKIPPED]} skipped, "
        f"{_many(counts[FAILED], 'engine failure')}"
    ]
    if run.random:
        compared = sum(s.compared for s in run.searches)
        found = [s.finding.outcome for s in run.searches if s.finding]
        declined = sum(s.declined for s in run.searches)
        per = ", ".join(f"{s.ask} {s.compared}" for s in run.searches) or "none"
        lines.append(
            f"random combats (seed {run.seed}): {compared} compared ({per}), {declined} "
            f"declined, {found.count(DISAGREED)} disagreed, "
            f"{_many(found.count(FAILED), 'engine failure')}"
        )
    engine = printable(" ".join(run.engine))
    lines.append(f"engine: {engine}; corpus: {printable(run.corpus)}; {run.seconds:.1f}s")
    if run.stopped:
        lines.append(
            f"conform: the time limit ran out after {run.stopped} (--timeout SECONDS raises it)"
        )
    elif not _compared(run) and not counts[FAILED]:
        lines.append(
            "conform: nothing was compared: the engine answered no ask (every one skipped, "
            "or none asked); a pass would say nothing"
        )
    return lines


def as_json(run: Run) -> dict:
    counts = _counts(run.findings)
    return {
        "engine": list(run.engine),
        "corpus": run.corpus,
        "asks": list(run.asks),
        "seed": run.seed,
        "results": [_finding_json(f) for f in run.findings],
        "random": [
            {
                "ask": s.ask,
                "compared": s.compared,
                "declined": s.declined,
                "shrink_steps": s.shrinks,
                "stopped": s.stopped,
                "finding": _finding_json(s.finding) if s.finding else None,
            }
            for s in run.searches
        ],
        "summary": {
            "files": run.files,
            "asks": sum(counts.values()),
            "agreed": counts[AGREED],
            "disagreed": counts[DISAGREED],
            "skipped": counts[SKIPPED],
            "engine_failures": counts[FAILED],
            "random_compared": sum(s.compared for s in run.searches),
            "random_declined": sum(s.declined for s in run.searches),
            "random_disagreed": sum(
                s.finding is not None and s.finding.outcome == DISAGREED for s in run.searches
            ),
            "random_engine_failures": sum(
                s.finding is not None and s.finding.outcome == FAILED for s in run.searches
            ),
            "seconds": round(run.seconds, 3),
            "stopped": run.stopped or None,
        },
    }


def _finding_json(finding: Finding) -> dict:
    judgement = finding.reply.judgement
    data = {
        "where": finding.where,
        "file": finding.file or None,
        "ask": finding.ask,
        "outcome": finding.outcome,
        "message": finding.message,
        "rules": list(judgement.rules) if judgement else [],
        "answer": finding.reply.answer,
        "saved": finding.saved or None,
        "seconds": round(finding.reply.seconds, 3),
    }
    if judgement is not None and judgement.rules_agree is not None:
        data["engine_cited_a_rule_lethal_cites"] = judgement.rules_agree
    if finding.drawn:
        data["combat"] = finding.combat
    if finding.about:
        data["about"] = finding.about
    return data


def junit(run: Run) -> str:
    """A testcase per corpus file and ask, and one per random disagreement or failure."""
    cases = _all(run)
    counts = _counts(cases)
    suite = ET.Element(
        "testsuite",
        name="lethal conform",
        tests=str(len(cases)),
        failures=str(counts[DISAGREED]),
        errors=str(counts[FAILED]),
        skipped=str(counts[SKIPPED]),
        time=f"{run.seconds:.3f}",
    )
    for f in cases:
        case = ET.SubElement(
            suite,
            "testcase",
            classname="random" if f.drawn else printable(f.file),
            name=printable(f.ask),
            time=f"{f.reply.seconds:.3f}",
        )
        if f.outcome == AGREED:
            continue
        tag = {DISAGREED: "failure", FAILED: "error", SKIPPED: "skipped"}[f.outcome]
        detail = ET.SubElement(case, tag, message=printable(f.message))
        if f.saved:
            detail.text = f"saved as {printable(f.saved)}"
    return ET.tostring(suite, encoding="unicode") + "\n"


def combat_lines(data: dict) -> list[str]:
    """A scenario in a few lines: its players, each permanent, and the assignment."""
    if not data:
        return []
    lines = []
    heading = [f"rules {data['rules']}"] if "rules" in data else []
    heading += [f"step {data['step']}"] if data.get("step", "only") != "only" else []
    players = ", ".join(
        shown(p["id"]) + (f" (life {p['life']})" if "life" in p else "")
        for p in data.get("players", [])
    )
    lines.append("; ".join([f"players {players}", *heading]))
    for p in data.get("permanents", []):
        lines.append(_permanent_line(p))
    if "assignment" in data:
        entries = ", ".join(
            f"{shown(e['source'])}->{shown(e['to'])} {e['amount']}" for e in data["assignment"]
        )
        lines.append(f"assignment: {entries or 'nothing'}")
    return lines


def _permanent_line(p: dict) -> str:
    """`a0: A's creature 3/3, trample, attacking D`."""
    words = [f"{shown(p['controller'])}'s {'/'.join(p.get('types', []))}"]
    if "power" in p:
        words[0] += f" {p['power']}/{p['toughness']}"
    words += [f"{what} {p[what]}" for what in ("damage", "loyalty", "defense") if p.get(what)]
    words += [printable(k) for k in p.get("keywords", [])]
    if "attacking" in p:
        words.append(
            f"attacking {shown(p['attacking'])}" + (" (blocked)" if p.get("blocked") else "")
        )
    if "blocking" in p:
        words.append(f"blocking {' and '.join(map(shown, p['blocking'])) or 'nothing'}")
    if "order" in p:
        words.append(f"order {' then '.join(map(shown, p['order']))}")
    if p.get("removed_from_combat"):
        words.append("removed from combat")
    return f"{shown(p['id'])}: " + ", ".join(words)


def _counts(findings: list[Finding]) -> dict[str, int]:
    return {o: sum(f.outcome == o for f in findings) for o in OUTCOMES}


def _compared(run: Run) -> bool:
    """Whether any answer was judged: in the corpus, or among the random combats (those
    the engine did not decline, nor fail on)."""
    failed = [s.finding is not None and s.finding.outcome == FAILED for s in run.searches]
    return any(f.outcome in (AGREED, DISAGREED) for f in run.findings) or any(
        s.compared - f > 0 for s, f in zip(run.searches, failed, strict=True)
    )


def _all(run: Run) -> list[Finding]:
    return list(run.findings) + [s.finding for s in run.searches if s.finding]


def _search_of(run: Run, finding: Finding) -> Search | None:
    return next((s for s in run.searches if s.finding is finding), None)


def _many(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _nth(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
