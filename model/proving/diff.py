"""What a change of the rules changed: `lethal diff`.

Between two editions, four questions, each a property proved or refuted over every combat
within the bounds, with the smallest counterexample (fewest creatures, then plainest
keywords, then smallest numbers) re-checked on the concrete path: an assignment legal under
one edition and illegal under the other, each way; and a combat in which the most combat
damage some legal assignment gives a player, planeswalker or battle is more under one
edition than under the other, each way. A question proved is a proof that nothing of that
kind differs within the bounds. For one file, the verdict and the maxima side by side.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from pathlib import Path

import z3

from .. import rules
from ..amounts import Amounts
from ..answers import Bounds as Between
from ..answers import Optimum
from ..combat import Scenario
from ..deadline import TimedOut, deadline
from ..deadline import timeout as time_limit
from ..editions import Edition, in_force, not_in_all
from ..errors import SolverUnknown, printable, shown
from ..ops import all_of, implies, negate
from ..queries import maximum
from ..reading import load, loads, origin_of, parse, read
from ..solver import queries
from ..solver.encoding import SEED
from ..verdict import Verdict, check
from . import Bounds, Property, counterexample
from .prover import PROVED, REFUTED, UNKNOWN, Result, measures, prove
from .symbolic import SymbolicCombat, as_formula

# Small enough that the maxima, quantified over every assignment, stay quick to decide.
BOUNDS = Bounds(players=2, attackers=2, blockers=2, permanents=1, power=4, toughness=4, loyalty=4)
LEGAL, MOST = "legal", "most damage"


@dataclass(frozen=True)
class Finding:
    kind: str  # LEGAL or MOST
    more: Edition  # the edition that allows the assignment, or reaches more
    less: Edition
    result: Result
    replay: tuple[Replayed, ...] = ()  # the counterexample's files, judged by their editions


@dataclass(frozen=True)
class Replayed:
    file: str
    edition: Edition
    verdict: Verdict | None  # of the file's assignment; None when it has none
    # The most combat damage a legal assignment gives each target; the bounds proved, for
    # one whose question ran out of time.
    maxima: dict[str, int | Between]
    orders_dropped: bool = False  # the file's orders, under an edition that has none


def synthesize(a: str, b: str, bounds: Bounds, timeout: float, out: Path) -> list[Finding]:
    """The four questions between editions a and b, each proved or refuted (two, one each
    way being the same question, when a and b are the same date)."""
    first, second = in_force(a), in_force(b)
    ways = [(first, second)] if first == second else [(first, second), (second, first)]
    findings = []
    for kind in (LEGAL, MOST):
        for more, less in ways:
            if kind == LEGAL:
                result = prove(_stays_legal(more, less, bounds), timeout, out)
            else:
                result = _reaches_as_much(more, less, bounds, timeout, out)
            replay = _replayed(result) if result.verdict == REFUTED else ()
            findings.append(Finding(kind, more, less, result, replay))
    return findings


def _stays_legal(more: Edition, less: Edition, bounds: Bounds) -> Property:
    def claim(combat):
        x = combat.assignment()
        return implies(combat.legal(x), combat.under(less.asked).legal(x))

    return _question(
        "legal_under_{more}_is_legal_under_{less}",
        "Every assignment legal under the {more} is legal under the {less}.",
        more,
        less,
        bounds,
        claim,
    )


def _question(name: str, statement: str, more: Edition, less: Edition, bounds, claim=None):
    """One question as a property that judges its combat by both editions, `more` first
    (a question the prover does not answer itself needs no claim: it names the files)."""
    return Property(
        name=name.format(more=_name(more), less=_name(less)),
        statement=statement.format(more=more.called, less=less.called),
        cites=("510.1",),
        expected="holds",
        bounds=bounds,
        function=claim or (lambda combat: True),
        editions=(more.asked, less.asked),
    )


def _reaches_as_much(more: Edition, less: Edition, bounds: Bounds, timeout: float, out: Path):
    """Whether some combat has a legal assignment under `more` giving a player, planeswalker
    or battle more combat damage than any legal assignment under `less` can.

    A question of the form "some combat and assignment, such that every assignment of the
    other edition gives less", which Z3's quantifier reasoning does not settle here. So it
    is answered by counterexample-guided search: Z3 proposes a combat and an assignment; the
    concrete optimum under `less` (lethal max, on the combat written as a file) either
    confirms it or gives an assignment y reaching as much, and "wherever y is legal under
    `less`, beat it" is added; until Z3 finds no proposal (none within the bounds: proved)
    or one is confirmed. The smallest is then sought the same way, measure by measure."""
    prop = _question(
        "most_damage_under_{more}_is_reached_under_{less}",
        "Whatever combat damage a legal assignment gives a player, planeswalker or battle "
        "under the {more}, some legal assignment gives it as much under the {less}.",
        more,
        less,
        bounds,
    )
    start = time.perf_counter()
    try:
        # The whole search is limited, not each query: its rounds and the concrete
        # re-checks between them are work the solver's own limit never sees.
        with deadline(timeout, f"the question took longer than --timeout {timeout:g} s"):
            return _most_damage(prop, more, less, bounds, timeout, out, start)
    except (SolverUnknown, TimedOut) as error:
        return Result(prop, UNKNOWN, time.perf_counter() - start, reason=str(error))


def _most_damage(prop, more, less, bounds, timeout, out, start) -> Result:
    for target in (SymbolicCombat.player_names(bounds)[1], "p0"):
        found = _MostDamage(prop, more, less, target, timeout).smallest()
        if found is not None:
            scenarios = [found]
            files = counterexample.write(prop, scenarios, out)
            table = counterexample.table(scenarios)
            return Result(prop, REFUTED, time.perf_counter() - start, files, table)
    return Result(prop, PROVED, time.perf_counter() - start)


class _MostDamage:
    def __init__(self, prop: Property, more: Edition, less: Edition, target: str, timeout):
        self.context = context = z3.Context()
        self.combat = combat = SymbolicCombat(prop.bounds, context, "", (more, less))
        self.less, self.target = less, target
        self.x = combat.assignment()
        self.solver = solver = z3.Solver(ctx=context)
        solver.set("random_seed", SEED)
        solver.set("timeout", max(1, round(timeout * 1000)))
        solver.add([as_formula(f, context) for f in combat.well_formed()])
        solver.add(self.x.domain())
        solver.add(as_formula(combat.legal(self.x), context))
        self.damage = self.x.amounts.received_by(target)
        solver.add(self.damage > 0)
        # What reaches a player, planeswalker or battle is the attackers' to divide, and
        # blockers' constraints never involve attackers' amounts (a legal division of theirs
        # always exists): the attackers' rows are what the other edition must match. First,
        # x itself: a proposal's attackers' rows must be illegal there.
        self.attackers_legal = lambda amounts: all_of(
            c.holds
            for c in rules.constraints(combat.under(less.asked), amounts)
            if c.source in combat.attackers
        )
        solver.add(as_formula(negate(self.attackers_legal(self.x.amounts)), context))
        self.guards = 0
        self.rounds = 0

    def _check(self, *assumptions) -> z3.ModelRef | None:
        """A proposal the concrete optimum confirms, or None when there is none."""
        while True:
            self.rounds += 1
            if self.rounds > MAX_ROUNDS:
                raise SolverUnknown(f"no answer after {MAX_ROUNDS} rounds of the search")
            answer = self.solver.check(*assumptions)
            if answer == z3.unsat:
                return None
            if answer != z3.sat:
                raise SolverUnknown(f"Z3: {self.solver.reason_unknown()}")
            model = self.solver.model()
            data = counterexample.scenario(self.combat.under(self.less.asked), model)
            free = {k: v for k, v in counterexample.public(data).items() if k != "assignment"}
            best = queries.optimum(parse(free, warn=False), self.target, maximize=True)
            reached = best.value if isinstance(best, Optimum) else 0
            if reached < model.eval(self.damage, model_completion=True).as_long():
                return model
            # y reaches as much under `less` wherever it is legal there: a proposal must beat it.
            rows = getattr(best, "assignment", ())
            y = Amounts({(e.source, e.to): e.amount for e in rows if e.source[0] == "a"})
            legal_there = self.attackers_legal(y)
            self.solver.add(
                as_formula(
                    implies(legal_there, self.damage > y.received_by(self.target)), self.context
                )
            )

    def smallest(self) -> dict | None:
        model = self._check()
        if model is None:
            return None
        for measure in measures([self.combat]):
            best = measure.value(model)
            while best > 0:
                self.guards += 1
                guard = z3.Bool(f"smaller #{self.guards}", self.context)
                self.solver.add(z3.Implies(guard, measure.at_most(best - 1)))
                smaller = self._check(guard)
                if smaller is None:
                    break
                model, best = smaller, measure.value(smaller)
            self.solver.add(measure.exactly(best))
        return counterexample.scenario(self.combat, model)


# Enough rounds for the default bounds many times over; beyond, the answer is unknown.
MAX_ROUNDS = 5000


def _name(edition: Edition) -> str:
    return edition.asked.replace("-", "")


def _replayed(result: Result) -> tuple[Replayed, ...]:
    """Each file of the counterexample, checked and maximised under its own edition."""
    return tuple(replayed(load(file, warn=False), file) for file in result.counterexamples)


def replayed(scenario: Scenario, file: str, timeout: float | None = None) -> Replayed:
    """The scenario's verdict and maxima, each question within `timeout` seconds: a
    maximum cut short is the bounds proved by then; a verdict cut short, undecided."""
    with time_limit(timeout):
        verdict = check(scenario) if scenario.assignment is not None else None
    free = replace(scenario, assignment=None)
    maxima = {}
    for target in _targets(scenario):
        with time_limit(timeout):
            best = maximum(free, target)
        maxima[target] = best.value if isinstance(best, Optimum) else best
    return Replayed(file, scenario.edition, verdict, maxima)


def _targets(scenario: Scenario) -> list[str]:
    players = [p.id for p in scenario.players if p.id != scenario.active_player]
    return players + [p.id for p in scenario.permanents if p.is_planeswalker or p.is_battle]


# One file under two editions.


def compare_file(
    path: str, editions: tuple[str, str], timeout: float | None = None
) -> tuple[Replayed, Replayed]:
    """The file's verdict and maxima under each edition, each question within `timeout`
    seconds. Orders in the file apply only under an edition that has them; without them, a
    file under an order edition leaves its orders open. The path '-' reads standard input,
    once."""
    text, origin = read(path), origin_of(path)
    loads(text, origin)  # the file as it is must be a scenario, errors located in it
    data = json.loads(text)
    found = []
    for asked in editions:
        edition, judged = in_force(asked), json.loads(json.dumps(data))
        judged["rules"] = asked
        dropped = False
        if not edition.has_order:
            for permanent in judged.get("permanents", []):
                dropped |= permanent.pop("order", None) is not None
        found.append(
            replace(
                # Located in the file itself: an error only one edition finds says which (a
                # keyword or a kind of permanent that does not exist yet "in the rules in
                # force on" the date), and the JSON's `file` stays the file.
                replayed(parse(judged, origin, warn=False), origin, timeout),
                orders_dropped=dropped,
            )
        )
    return found[0], found[1]


def differs(pair: tuple[Replayed, Replayed]) -> bool | None:
    """Whether the verdict or a maximum differs between the two; None when only a maximum
    cut short by the time limit could tell."""
    a, b = pair
    if a.verdict is not None and a.verdict.legal != b.verdict.legal:
        return True
    undecided = False
    for target, most in a.maxima.items():
        lower, upper = zip(_range(most), _range(b.maxima[target]), strict=True)
        if max(lower) > min(upper):  # the two ranges do not meet
            return True
        undecided |= isinstance(most, Between) or isinstance(b.maxima[target], Between)
    return None if undecided else False


def _range(most: int | Between) -> tuple[int, int]:
    return (most.lower, most.upper) if isinstance(most, Between) else (most, most)


# Reports.

QUESTIONS = {
    LEGAL: "an assignment legal under {more} and illegal under {less}",
    MOST: "more combat damage to a player, planeswalker or battle under {more} than under {less}",
}


def left_out(a: str, b: str) -> dict[str, str]:
    """What only one of the two editions has, which no combat compared holds (the bounds
    are the combats both can state): each keyword or type, with the day it came."""
    one, other = in_force(a), in_force(b)
    neither = not_in_all((one,)).keys() & not_in_all((other,)).keys()
    return {what: since for what, since in not_in_all((one, other)).items() if what not in neither}


def text(a: str, b: str, bounds: Bounds, findings: list[Finding]) -> str:
    lines = [f"{a} against {b}, every combat within {bounds}:"]
    missing = left_out(a, b)
    if missing:
        shown_ = ", ".join(f"{what} (from {since})" for what, since in missing.items())
        lines.append(f"  left out, as only one of them has it: {shown_}")
    for f in findings:
        question = QUESTIONS[f.kind].format(more=f.more.asked, less=f.less.asked)
        r = f.result
        if r.verdict == PROVED:
            lines.append(f"  none: {question} (proved, {r.seconds:.1f}s)")
            continue
        if r.verdict != REFUTED:
            lines.append(f"  {r.verdict.upper()}: {question}: {r.reason}")
            continue
        lines.append(f"  FOUND: {question} ({r.seconds:.1f}s)")
        lines += ["    " + row for row in r.table.splitlines()]
        lines += ["    " + row for row in _replay_lines(f.replay)]
    return "\n".join(lines) + "\n"


def _replay_lines(replay: tuple[Replayed, ...]) -> list[str]:
    lines = []
    for r in replay:
        lines.append(f"{shown(r.file)} ({r.edition.asked}):")
        if r.verdict is not None:
            if r.verdict.legal:
                lines.append("  the assignment is legal")
            else:
                lines += [
                    f"  illegal: {printable(v.message)}; CR {v.rule}" for v in r.verdict.violations
                ]
        most = ", ".join(f"{shown(t)} {_most_text(n)}" for t, n in r.maxima.items())
        lines.append(f"  most damage: {most}")
    return lines


def _most_text(most: int | Between) -> str:
    if isinstance(most, int):
        return str(most)
    return f"at least {most.lower} and at most {most.upper} (undecided: {printable(most.limit)})"


def as_json(a: str, b: str, bounds: Bounds, findings: list[Finding]) -> dict:
    return {
        "from": a,
        "to": b,
        "bounds": bounds.as_json(),
        "left_out": [{"what": what, "since": since} for what, since in left_out(a, b).items()],
        "questions": [
            {
                "question": QUESTIONS[f.kind].format(more=f.more.asked, less=f.less.asked),
                "kind": f.kind,
                "more": f.more.asked,
                "less": f.less.asked,
                "verdict": f.result.verdict,
                "differs": f.result.verdict == REFUTED,
                "seconds": round(f.result.seconds, 3),
                "reason": f.result.reason,
                "replay": [replayed_json(r) for r in f.replay],
            }
            for f in findings
        ],
    }


def replayed_json(r: Replayed) -> dict:
    data: dict = {"file": r.file, "rules": r.edition.asked, "edition": r.edition.describe()}
    if r.verdict is not None:
        data["legal"] = r.verdict.legal
        data["violations"] = [
            {"rule": v.rule, "source": v.source, "message": v.message} for v in r.verdict.violations
        ]
    data["most_damage"] = {
        target: most
        if isinstance(most, int)
        else {"lower": most.lower, "upper": most.upper, "undecided": most.limit}
        for target, most in r.maxima.items()
    }
    data["orders_dropped"] = r.orders_dropped
    return data


def file_text(path: str, pair: tuple[Replayed, Replayed]) -> str:
    lines = [f"{shown(path)}:"]
    for r in pair:
        lines.append(f"under the {r.edition.describe()}:")
        if r.orders_dropped:
            lines.append(
                "  (the file's damage assignment orders do not apply: these rules have none)"
            )
        lines += _replay_lines((r,))[1:]
    return "\n".join(lines) + "\n"
