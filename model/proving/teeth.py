"""Teeth: remove each kind of rule constraint in turn and see what notices.

A property library or test suite that still passes with a rule gone does not test that rule.
Each kind is removed, the property library is proved again and every bundled example is
checked again; a property whose verdict changes, or an example whose verdict changes, has
caught the removal. The library is proved in its order only until one property catches it:
one is enough to say the library tests the rule, and the rest would take minutes more.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from .. import progress, rules
from ..reading import bundled_examples, load
from ..verdict import check
from .library import collect
from .processes import prove_all


@dataclass(frozen=True)
class Bite:
    kind: str
    what: str
    properties: tuple[str, ...]  # the first property whose verdict is then not as expected
    examples: tuple[str, ...]  # bundled examples whose verdict then changes
    not_proved: int = 0  # properties after the one that caught it, not proved

    @property
    def caught(self) -> bool:
        return bool(self.properties or self.examples)


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
                missed, proved = (), 0
                proving = prove_all(properties, timeout, Path(scratch), jobs=jobs)
                # Closed on a catch, as on Ctrl-C: no process is left proving.
                with closing(proving):
                    for result in proving:
                        proved += 1
                        if not result.as_expected:
                            missed = (result.property.name,)
                            break
                changed = tuple(n for n, s in scenarios if check(s).legal != verdicts[n])
            bites.append(Bite(kind, what, missed, changed, len(properties) - proved))
            verdict = "caught" if bites[-1].caught else "NOT CAUGHT"
            progress.say(f"teeth: {len(bites)} of {len(rules.KINDS)} kinds, CR {kind} {verdict}")
    return bites


def table(bites: list[Bite]) -> str:
    lines = []
    for b in bites:
        lines.append(f"CR {b.kind:<8} {b.what}")
        if b.caught:
            if b.properties:
                rest = f"; the {b.not_proved} after it not proved" if b.not_proved else ""
                lines.append(f"  caught by property: {b.properties[0]}{rest}")
            if b.examples:
                lines.append(f"  caught by examples: {', '.join(b.examples)}")
        else:
            lines.append("  NOT CAUGHT: nothing notices this rule gone")
    caught = sum(b.caught for b in bites)
    lines.append(f"{caught} of {len(bites)} kinds of constraint caught")
    return "\n".join(lines) + "\n"
