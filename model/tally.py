"""What a query counts. A single step's queries count damage assigned; the whole combat's
count damage dealt: what the earlier step dealt, plus this step's assignment less what
protection prevents (702.16e). Written with `ops`, for plain amounts and solver terms."""

from __future__ import annotations

from dataclasses import dataclass, field

from .amounts import Amounts


@dataclass(frozen=True)
class Tally:
    before: dict = field(default_factory=dict)  # (source, to) -> damage dealt earlier
    prevented: frozenset = frozenset()  # (source, to) pairs whose damage is all prevented

    def of(self, amounts: Amounts) -> Amounts:
        pairs = set(amounts.pairs()) | set(self.before)
        return Amounts(
            {
                pair: (0 if pair in self.prevented else amounts.get(*pair))
                + self.before.get(pair, 0)
                for pair in pairs
            }
        )


ASSIGNED = Tally()  # what the single-step queries count
