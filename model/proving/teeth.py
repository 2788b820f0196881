"""Teeth: remove each kind of rule constraint in turn and see what notices.

A property library or test suite that still passes with a rule gone does not test that rule.
Each kind is removed, the property library is proved again and every bundled example is
checked again; a property whose verdict changes to another definite one, or an example whose
verdict changes, has caught the removal. A property the solver cannot decide, or that fails,
catches nothing: it says nothing of whether the library tests the rule. The library is proved
in its order only until one property catches it: one is enough to say the library tests the
rule, and the rest would take minutes more.
"""

from __future__ import annotations

from collections import Counter
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from .. import progress, rules
from ..reading import bundled_examples, load
from ..verdict import check
from .library import collect
from .processes import prove_all
from .prover import DECIDED


@dataclass(frozen=True)
class Bite:
    kind: str
    what: str
    properties: tuple[str, ...]  # the first property whose verdict then changes
    examples: tuple[str, ...]  # bundled examples whose verdict then changes
    not_proved: int = 0  # properties after the one that caught it, not proved
    # Properties proved before it, or all of them when none caught it, whose verdict was then
    # no definite answer: each with it (unknown, error).
    undecided: tuple[tuple[str, str], ...] = ()

    @property
    def caught(self) -> bool:
        return bool(self.properties or self.examples)

    @property
    def status(self) -> str:
        """caught; undecided, when nothing caught it but some property could not say; or
        not caught, when every property said and none noticed."""
        if self.caught:
            return "caught"
        return "undecided" if self.undecided else "not caught"


def bite(timeout: float, jobs: int = 1) -> list[Bite]:
    """What notices each kind of constraint gone, the library proved `jobs` properties at
    once (each in a process of its own, which inherits the kind removed) up to the first
    property that notices: in order, so that it is the same one whatever `jobs`."""
    properties = collect([])
    scenarios = [(path.name, load(path)) for path in bundled_examples()]
    verdicts = {name: check(s).legal for name, s in scenarios}
    bites = []
    with TemporaryDirectory() as scratch:
        for kind, what in rules.KINDS.items():
            with rules.without(kind):
                missed, proved, undecided = (), 0, []
                proving = prove_all(properties, timeout, Path(scratch), jobs=jobs)
                # Closed on a catch, as on Ctrl-C: no process is left proving.
                with closing(proving):
                    for result in proving:
                        proved += 1
                        if result.verdict not in DECIDED:
                            undecided.append((result.property.name, result.verdict))
                        elif not result.as_expected:
                            missed = (result.property.name,)
                            break
                changed = tuple(n for n, s in scenarios if check(s).legal != verdicts[n])
            left = len(properties) - proved
            bites.append(Bite(kind, what, missed, changed, left, tuple(undecided)))
            status = bites[-1].status
            progress.say(
                f"teeth: {len(bites)} of {len(rules.KINDS)} kinds, CR {kind} "
                f"{status if status == 'caught' else status.upper()}"
            )
    return bites


def table(bites: list[Bite]) -> str:
    lines = []
    for b in bites:
        lines.append(f"CR {b.kind:<8} {b.what}")
        if b.properties:
            rest = f"; the {b.not_proved} after it not proved" if b.not_proved else ""
            lines.append(f"  caught by property: {b.properties[0]}{rest}")
        if b.examples:
            lines.append(f"  caught by examples: {', '.join(b.examples)}")
        if b.undecided:
            lines.append(f"  {_undecided(b.undecided)}")
        if not b.caught:
            lines.append(
                "  UNDECIDED: nothing caught it, but the properties above could not say"
                if b.undecided
                else "  NOT CAUGHT: nothing notices this rule gone"
            )
    caught = sum(b.caught for b in bites)
    lines.append(f"{caught} of {len(bites)} kinds of constraint caught")
    return "\n".join(lines) + "\n"


def _undecided(undecided: tuple[tuple[str, str], ...], shown: int = 3) -> str:
    """The properties with no definite verdict, counted by verdict, the first few named."""
    verdicts = Counter(verdict for _, verdict in undecided)
    counts = ", ".join(f"{n} {verdict}" for verdict, n in sorted(verdicts.items()))
    names = ", ".join(name for name, _ in undecided[:shown])
    more = f" and {len(undecided) - shown} more" if len(undecided) > shown else ""
    many = "property" if len(undecided) == 1 else "properties"
    return f"no definite verdict from {len(undecided)} {many} ({counts}): {names}{more}"


def exit_status(bites: list[Bite]) -> str:
    """The run's outcome: a kind that nothing notices is a finding; one that only undecided
    properties might have noticed is undecided; every kind caught is a pass."""
    statuses = {b.status for b in bites}
    for status in ("not caught", "undecided"):
        if status in statuses:
            return status
    return "caught"
