"""Whether an engine's answer agrees with lethal, and if not, why, in one line that names
the rules deciding it (with their CR numbers, as the scenario's edition numbers them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import ScenarioError, printable, shown
from ..reading import parse
from ..verdict import Chooser, Verdict, Violation, check, choosers
from ..view import ScenarioView

if TYPE_CHECKING:
    from ..combat import Scenario
    from ..rules.dealing import Outcome
    from .manifest import Bounds


@dataclass(frozen=True)
class Judgement:
    agrees: bool
    message: str = ""  # why they disagree, in one line
    rules: tuple[str, ...] = ()  # what lethal cites for the scenario asked about
    # The scenario to save when they disagree: the one asked about, or for `assign` that
    # scenario with the engine's assignment, so that `lethal check` on it names each rule.
    shown: dict | None = None
    # For `check` on an illegal assignment: whether the engine cited one of lethal's rules
    # (None when it cited none, or either side called the assignment legal). Informative.
    rules_agree: bool | None = None


def judge_check(data: dict, scenario: Scenario, answer: dict) -> Judgement:
    """`{"legal": ...}` against lethal's verdict on the scenario's assignment."""
    verdict = check(scenario)
    cited = tuple(answer.get("rules", ()))
    rules = _cited(verdict)
    if answer["legal"] == verdict.legal:
        overlap = None
        if cited and not verdict.legal:
            overlap = any(c.startswith(r) or r.startswith(c) for c in cited for r in rules)
        return Judgement(True, rules=rules, rules_agree=overlap)
    said = "legal" if answer["legal"] else "illegal" + (f" ({', '.join(cited)})" if cited else "")
    says = "legal" if verdict.legal else f"illegal: {violations_text(verdict.violations)}"
    return Judgement(False, f"engine said {said}, lethal says {says}", rules, data)


def judge_assign(data: dict, answer: dict, damage: dict[str, Bounds]) -> Judgement:
    """The engine's assignment for the scenario `data` (which has none): legal by
    `lethal.check`, and within the bounds the corpus gives for each recipient's damage."""
    entries = answer["assignment"]
    proposed = {**data, "assignment": entries}
    try:
        scenario = parse(proposed, "the engine's assignment", warn=False)
    except ScenarioError as error:
        first = printable(str(error.problems[0]))
        more = len(error.problems) - 1
        return Judgement(
            False,
            f"engine's assignment is not one a scenario can hold: {first}"
            + (f" (and {more} more)" if more else ""),
            shown=data,
        )
    verdict = check(scenario)
    rules = _cited(verdict)
    if not verdict.legal:
        return Judgement(
            False,
            f"engine's assignment {_entries_text(entries)} is illegal: "
            f"{violations_text(verdict.violations)}",
            rules,
            proposed,
        )
    for to, bounds in damage.items():
        total = sum(e["amount"] for e in entries if e["to"] == to)
        low = bounds.least is not None and total < bounds.least
        if low or (bounds.most is not None and total > bounds.most):
            edge = f"least is {bounds.least}" if low else f"most is {bounds.most}"
            return Judgement(
                False,
                f"engine's assignment {_entries_text(entries)} gives {shown(to)} {total} "
                f"combat damage, but the corpus's {edge} (written by another lethal?)",
                rules,
                proposed,
            )
    return Judgement(True)


def judge_deal(data: dict, scenario: Scenario, answer: dict) -> Judgement:
    """The engine's life totals, poison counters and graveyard after dealing the scenario's
    (legal) assignment, against each outcome lethal's `deal` gives: any one of them matches,
    as the players' choices (616.1, 615.7) could lead to any."""
    from ..rules.dealing import deal

    outcomes = deal(scenario)
    theirs = [reported(scenario, o) for o in outcomes]
    said = _report(scenario, answer["life"], answer.get("poison", {}), answer["graveyard"])
    rules = tuple(sorted({r.rule for o in outcomes for r in o.removed}))
    if said in theirs:
        return Judgement(True, rules=rules)
    why = {r.id: r.rule for o in outcomes for r in o.removed}  # the rule each is removed by
    texts = list(dict.fromkeys(_outcome_text(t, why) for t in theirs))
    says = texts[0] if len(texts) == 1 else f"one of {len(texts)}: " + " | ".join(texts)
    message = f"engine said {_outcome_text(said, {})}; lethal says {says}"
    return Judgement(False, message, rules, data)


def divides(scenario: Scenario) -> tuple[Chooser, ...]:
    """Who divides the combat damage of each creature that assigns some this step (510.1,
    702.22j-k): what `divide` asks."""
    return choosers(ScenarioView(scenario))


def judge_divide(data: dict, scenario: Scenario, answer: dict) -> Judgement:
    """The engine's player dividing each creature's combat damage, against lethal's: the
    same creatures, each divided by the same player."""
    found = divides(scenario)
    theirs = {c.source: c.player for c in found}
    rules = tuple(dict.fromkeys(c.rule for c in found))
    said = answer["divides"]
    if said == theirs:
        return Judgement(True, rules=rules)
    why = {c.source: c.rule for c in found}
    wrong = []
    for c in dict.fromkeys([*theirs, *said]):
        if c not in said:
            wrong.append(f"{shown(c)} not named, lethal says {shown(theirs[c])} (CR {why[c]})")
        elif c not in theirs:
            wrong.append(f"{shown(c)} by {shown(said[c])}, but it assigns no combat damage")
        elif said[c] != theirs[c]:
            wrong.append(
                f"{shown(c)} by {shown(said[c])}, lethal says {shown(theirs[c])} (CR {why[c]})"
            )
    return Judgement(False, "engine said " + "; ".join(wrong), rules, data)


def reported(scenario: Scenario, outcome: Outcome) -> tuple:
    """What an engine answers of one outcome of dealing (the protocol's `deal`): the life
    of each player whose life the file gives, the poison counters of each player who has
    any, and the permanents put into a graveyard (not a Siege, which is exiled). The corpus
    counts a file as catching what changes the damage dealt only when this changes: what
    else changes, an engine does not say."""
    graveyard = [r.id for r in outcome.removed if not r.exiled]
    return _report(scenario, outcome.life, outcome.poison, graveyard)


def _report(scenario: Scenario, life: dict, poison: dict, graveyard) -> tuple:
    """Life, poison counters and graveyard, lethal's or an engine's, in one form to compare:
    life only of the players whose life the file gives, poison only where there is some."""
    return (
        tuple((p.id, life.get(p.id)) for p in scenario.players if p.life is not None),
        tuple(sorted((p, n) for p, n in poison.items() if n)),
        frozenset(graveyard),
    )


def _outcome_text(reported: tuple, why: dict[str, str]) -> str:
    """One outcome as reported, in words; each permanent removed with the rule that removes
    it when `why` names one."""
    life, poison, graveyard = reported
    lives = ", ".join(f"{shown(p)} {'none' if n is None else n}" for p, n in life)
    text = f"life {lives or '(none given)'}"
    if poison:
        text += ", poison " + ", ".join(f"{shown(p)} {n}" for p, n in poison)
    gone = ", ".join(shown(i) + (f" (CR {why[i]})" if i in why else "") for i in sorted(graveyard))
    return f"{text}, graveyard {gone or 'empty'}"


def violations_text(violations: tuple[Violation, ...]) -> str:
    """Every rule broken, each with its message, in one line."""
    return "; ".join(f"CR {v.rule}: {printable(v.message)}" for v in violations)


def _cited(verdict: Verdict) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v.rule for v in verdict.violations))


def _entries_text(entries: list[dict]) -> str:
    shown_entries = ", ".join(
        f"{shown(e['source'])}->{shown(e['to'])} {e['amount']}" for e in entries
    )
    return f"({shown_entries or 'nothing'})"
