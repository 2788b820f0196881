"""What a query counts. A single step's queries count damage assigned; the whole combat's
count damage dealt: what the earlier step dealt, plus this step's assignment as protection
(702.16e) and the file's effects (615, 701.10g) change it, when dealing leaves no choice
(`rules.dealing.leaves_no_choice`). Written with `ops`, for plain amounts and solver
terms."""

from __future__ import annotations

from dataclasses import dataclass, field

from .amounts import Amounts
from .rules.dealing import apply


@dataclass(frozen=True)
class Tally:
    before: dict = field(default_factory=dict)  # (source, to) -> damage dealt earlier
    # (source, to) -> what changes its damage (`rules.dealing.changes`: protection, the
    # file's effects), which give the same in any order
    changed: dict = field(default_factory=dict)

    def of(self, amounts: Amounts) -> Amounts:
        pairs = set(amounts.pairs()) | set(self.before)
        return Amounts(
            {
                pair: self.dealt(pair, amounts.get(*pair)) + self.before.get(pair, 0)
                for pair in pairs
            }
        )

    def dealt(self, pair: tuple[str, str], amount):
        """What is dealt of `amount` assigned to the pair, this step."""
        for change in self.changed.get(pair, ()):
            amount, _ = apply(change, amount)
        return amount


ASSIGNED = Tally()  # what the single-step queries count
