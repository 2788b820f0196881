"""How verdicts and answers are shown: one-line findings for people, plain data for scripts."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .combat import Entry, Scenario
from .editions import Edition
from .errors import printable, shown
from .verdict import Chooser, OrdersFound, Verdict

if TYPE_CHECKING:  # the queries' answers are loaded by the queries, not by `lethal check`
    from .answers import Bounds, Count, Guarantee, Impossible, Optimum, Possible


def entries_json(entries) -> list[dict]:
    """An assignment in the scenario format's shape, which `lethal check` accepts."""
    return [{"source": e.source, "to": e.to, "amount": e.amount} for e in entries]


def witness_json(answer) -> dict:
    """The answer's assignment, or for the whole combat each step's."""
    if answer.steps:
        return {"steps": [{"step": s, "assignment": entries_json(e)} for s, e in answer.steps]}
    return {"assignment": entries_json(answer.assignment)}


def witness_text(answer) -> list[str]:
    if not answer.steps:
        return assignment_text(answer.assignment)
    lines = []
    for step, entries in answer.steps:
        lines.append(f"step {step}:")
        lines += assignment_text(entries)
    return lines


def assignment_text(entries: tuple[Entry, ...]) -> list[str]:
    """An assignment as lines that paste into a scenario file."""
    rows = [json.dumps(entry) for entry in entries_json(entries)]
    body = [f"  {row}," for row in rows[:-1]] + [f"  {row}" for row in rows[-1:]]
    return ['"assignment": [', *body, "]"]


# lethal check


def verdict_json(file: str, verdict: Verdict) -> dict:
    return {
        "file": file,
        "legal": verdict.legal,
        "step": verdict.step,
        "rules": verdict.edition.asked,
        "edition": verdict.edition.describe(),
        "violations": [
            {"rule": v.rule, "source": v.source, "message": v.message} for v in verdict.violations
        ],
        "choosers": [_chooser_json(c) for c in verdict.choosers],
        "orders": [
            {
                "source": o.source,
                "announced_by": o.announcer,
                "rule": o.rule,
                "tried": o.tried,
                "legal": [list(order) for order in o.legal],
            }
            for o in verdict.orders
        ],
    }


def _chooser_json(chooser: Chooser) -> dict:
    """A creature's chooser; `as_though_unblocked` only for a creature that has that choice."""
    data = {"source": chooser.source, "player": chooser.player, "rule": chooser.rule}
    if chooser.as_though_unblocked:
        data["as_though_unblocked"] = True
    return data


def verdict_text(file: str, scenario: Scenario, verdict: Verdict) -> str:
    context = f"step {verdict.step}; {verdict.edition.describe()}"
    lines = []
    if verdict.legal:
        lines.append(f"{file}: legal ({context})")
    else:
        count = len(verdict.violations)
        lines.append(f"{file}: illegal, {count} violation{'s' if count != 1 else ''} ({context})")
        lines += [f"  {printable(v.message)}; CR {v.rule}" for v in verdict.violations]
    if verdict.choosers:
        lines.append("who divides each creature's combat damage:")
        width = max(len(shown(c.source)) for c in verdict.choosers)
        lines += [
            f"  {shown(c.source):<{width}}  {_chooser_words(scenario, verdict.edition, c)}"
            for c in verdict.choosers
        ]
    else:
        lines.append("no creature assigns combat damage in this step")
    if verdict.orders:
        lines.append("damage assignment orders the file leaves open, tried:")
        lines += [f"  {line}" for o in verdict.orders for line in _orders_words(o)]
    return "\n".join(lines) + "\n"


def _orders_words(found: OrdersFound) -> list[str]:
    head = (
        f"{shown(found.source)} (announced by {shown(found.announcer)}, CR {found.rule}): "
        f"{len(found.legal)} of {found.tried} orders let it divide its damage as the file does"
    )
    listed = [" then ".join(map(shown, order)) for order in found.legal[:ORDERS_SHOWN]]
    more = len(found.legal) - len(listed)
    return (
        [head + (":" if listed else "")]
        + [f"  {o}" for o in listed]
        + ([f"  and {more} more (--json lists them all)"] if more > 0 else [])
    )


ORDERS_SHOWN = 6


def _chooser_words(scenario: Scenario, edition: Edition, chooser: Chooser) -> str:
    why = {
        edition.cite("702.22j"): "the defending player, as banding blocks it",
        edition.cite("702.22k"): "the active player, as it blocks banding",
    }.get(chooser.rule)
    if why is None:
        attacking = scenario.permanent(chooser.source).attacking is not None
        why = "its controller, the active player" if attacking else "its controller"
    also = ""
    if chooser.as_though_unblocked:
        also = ", and whether it assigns as though it weren't blocked (Rhox ruling of 2018-04-27)"
    return f"{shown(chooser.player)}  {why} (CR {chooser.rule}){also}"


# The queries


def _impossible(answer) -> bool:
    from .answers import Impossible

    return isinstance(answer, Impossible)


def impossible_json(answer: Impossible) -> dict:
    return {
        "possible": False,
        # Not "rules", which is the edition's date in every answer of a file.
        "rules_in_the_way": list(answer.rules),
        "obstacles": [o.as_json() for o in answer.obstacles],
    }


def impossible_text(file: str, what: str, answer: Impossible) -> str:
    lines = [f"{file}: impossible: no legal assignment {printable(what)}", "in the way, together:"]
    for obstacle in answer.obstacles:
        label = f"CR {obstacle.rule}" if obstacle.rule else obstacle.kind
        lines.append(f"  {label}: {printable(obstacle.text)}")
    return "\n".join(lines) + "\n"


def possible_json(answer: Possible | Impossible) -> dict:
    if _impossible(answer):
        return impossible_json(answer)
    return {"possible": True, **witness_json(answer)}


def possible_text(file: str, wanted: str, answer: Possible | Impossible) -> str:
    if _impossible(answer):
        return impossible_text(file, wanted, answer)
    lines = [f"{file}: possible: a legal assignment {printable(wanted)}, for one:"]
    return "\n".join(lines + witness_text(answer)) + "\n"


def optimum_json(answer: Optimum | Impossible) -> dict:
    if _impossible(answer):
        return impossible_json(answer)
    return {"value": answer.value, **witness_json(answer)}


def optimum_text(file: str, most: bool, to: str, source: str | None, answer: Optimum) -> str:
    whose = f"from {shown(source)}" if source else "from every source"
    bound = "at most" if most else "at least"
    head = f"{file}: {bound} {answer.value} combat damage to {shown(to)} ({whose}), reached by:"
    return "\n".join([head, *witness_text(answer)]) + "\n"


def bounds_json(answer: Bounds) -> dict:
    """A max or min cut short: no `value`, but both bounds proved, and the limit reached."""
    return {
        "lower": answer.lower,
        "upper": answer.upper,
        "undecided": answer.limit,
        **witness_json(answer),
    }


def bounds_text(file: str, most: bool, to: str, source: str | None, answer: Bounds) -> str:
    whose = f"from {shown(source)}" if source else "from every source"
    reached = answer.lower if most else answer.upper
    head = (
        f"{file}: undecided: at least {answer.lower} and at most {answer.upper} combat damage "
        f"to {shown(to)} ({whose}), proved before {printable(answer.limit)}; {reached} is "
        "reached by:"
    )
    return "\n".join([head, *witness_text(answer)]) + "\n"


def count_json(answer: Count) -> dict:
    data: dict = {"count": answer.count}
    if answer.assignments is not None:
        data["assignments"] = [entries_json(a) for a in answer.assignments]
    return data


def count_text(file: str, answer: Count) -> str:
    noun = "assignment" if answer.count == 1 else "assignments"
    lines = [f"{file}: {answer.count} legal {noun}"]
    if answer.assignments is not None:
        shown = len(answer.assignments)
        if shown < answer.count:
            lines[0] += f", the first {shown} listed"
        lines += [json.dumps(entries_json(a)) for a in answer.assignments]
    return "\n".join(lines) + "\n"


def guarantee_json(answer: Guarantee | Impossible) -> dict:
    if _impossible(answer):
        return impossible_json(answer)
    orders = {c: list(o) for c, o in answer.orders}
    return {
        "value": answer.value,
        "player": answer.player,
        "orders": orders,
        **witness_json(answer),
    }


def guarantee_text(file: str, answer: Guarantee, edition: Edition) -> str:
    head = (
        f"{file}: {shown(answer.player)} can be sure of {answer.value} combat damage to "
        f"{shown(answer.to)}, whatever the other side chooses "
        f"({edition.cite_in('CR 510.1, 702.22j-k')}); when both choose best:"
    )
    announced = [f"  {shown(c)}: {' then '.join(map(shown, o))}" for c, o in answer.orders]
    orders = ["the orders the file leaves open, as announced (CR 509.2-509.3):", *announced]
    return "\n".join([head, *(orders if announced else []), *witness_text(answer)]) + "\n"


# lethal deal


def outcome_json(outcome, scenario: Scenario) -> dict:
    edition = scenario.edition
    return {
        "choices": list(outcome.choices),
        "dealt": entries_json(outcome.dealt),
        "players": [
            {
                "id": p,
                "life": life,
                "gained": outcome.gained[p],
                "poison": outcome.poison[p],
                "loses": p in outcome.loses,
                **({"rule": edition.cite(outcome.loses[p])} if p in outcome.loses else {}),
            }
            for p, life in outcome.life.items()
        ],
        "permanents": [
            {
                "id": c,
                "damage": d,
                "toughness": outcome.toughness[c],
                "counters": outcome.counters[c],
            }
            for c, d in outcome.damage.items()
        ]
        + [{"id": p, "loyalty": n} for p, n in outcome.loyalty.items()]
        + [{"id": b, "defense": n} for b, n in outcome.defense.items()],
        "removed": [
            {"id": r.id, "rule": edition.cite(r.rule), "why": r.why, "exiled": r.exiled}
            for r in outcome.removed
        ],
        "regenerated": [
            {
                "id": c,
                "rule": edition.cite("701.19a"),
                "why": _regenerated(scenario, c),
            }
            for c in outcome.regenerated
        ],
    }


def _regenerated(scenario: Scenario, c: str) -> str:
    """What regeneration does to c (701.19a): it leaves combat only if it was attacking or
    blocking (a creature planeswalker that was attacked stays attacked)."""
    fighting = scenario.permanent(c).in_combat
    return "tapped, all damage removed" + (", removed from combat" if fighting else "")


_LOSES = {"704.5a": "0 or less life", "704.5c": "ten or more poison counters"}


def outcomes_text(file: str, scenario: Scenario, outcomes) -> str:
    """Each outcome of dealing the step's damage, its rules cited as the scenario's edition
    numbers them."""
    cr = scenario.edition.cr
    dealt = scenario.edition.cite_in("CR 510.2, 120.3-120.4")
    lines = [f"{file}: the assignment is legal; dealt ({dealt})"]
    for n, outcome in enumerate(outcomes, 1):
        if len(outcomes) > 1:
            choices = "; ".join(map(printable, outcome.choices))
            lines.append(f"outcome {n} of {len(outcomes)}: {choices}")
        dealt = ", ".join(f"{shown(e.source)}->{shown(e.to)} {e.amount}" for e in outcome.dealt)
        lines.append(f"  dealt: {dealt or 'nothing'}")
        for p in scenario.players:
            lines += _player_lines(p, outcome, cr)
        for c, marked in outcome.damage.items():
            put = outcome.counters[c]
            if put:
                was = scenario.permanent(c).toughness
                lines.append(
                    f"  {shown(c)}: {put} -1/-1 counter{'s' if put > 1 else ''}, toughness "
                    f"{was} -> {outcome.toughness[c]}"
                )
            if marked:
                lines.append(f"  {shown(c)}: {marked} damage marked")
        for p, left in outcome.loyalty.items():
            lines.append(f"  {shown(p)}: loyalty {scenario.permanent(p).loyalty} -> {left}")
        for b, left in outcome.defense.items():
            lines.append(f"  {shown(b)}: defense {scenario.permanent(b).defense} -> {left}")
        for c in outcome.regenerated:
            lines.append(
                f"  {shown(c)} is regenerated: {_regenerated(scenario, c)} ({cr('701.19a')})"
            )
        for r in outcome.removed:
            why = printable(r.why)
            where = "is exiled" if r.exiled else "is put into the graveyard"
            lines.append(f"  {shown(r.id)} {where}: {why} ({cr(r.rule)})")
    return "\n".join(lines) + "\n"


def _player_lines(p, outcome, cr) -> list[str]:
    """A player's life (always, when the file gives it), life lost and gained, poison."""
    lost, gained = outcome.lost[p.id], outcome.gained[p.id]
    lines = []
    if p.life is not None:
        how = ", ".join(
            f"{verb} {n}" for verb, n in (("lost", lost), ("gained", gained)) if n and gained
        )
        more = f" ({how})" if how else ""
        lines.append(f"  {shown(p.id)}: life {p.life} -> {outcome.life[p.id]}{more}")
    else:
        lines += [f"  {shown(p.id)}: loses {lost} life"] if lost else []
        lines += [f"  {shown(p.id)}: gains {gained} life ({cr('120.3f')})"] if gained else []
    if outcome.poison[p.id] != p.poison:
        lines.append(f"  {shown(p.id)}: poison counters {p.poison} -> {outcome.poison[p.id]}")
    if p.id in outcome.loses:
        rule = outcome.loses[p.id]
        lines.append(f"  {shown(p.id)} loses the game: {_LOSES[rule]} ({cr(rule)})")
    return lines
