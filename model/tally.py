"""What a query counts. A single step's queries count damage assigned; the whole combat's
count damage dealt: what the earlier step dealt, plus this step's assignment less what
protection prevents (702.16e), as the file's effects change it (615, 701.10g) when dealing
leaves no choice (`rules.dealing.leaves_no_choice`). Written with `ops`, for plain amounts
and solver terms."""

from __future__ import annotations

from dataclasses import dataclass, field

from .amounts import Amounts
from .rules.dealing import apply


@dataclass(frozen=True)
class Tally:
    before: dict = field(default_factory=dict)  # (source, to) -> damage dealt earlier
    prevented: frozenset = frozenset()  # (source, to) pairs whose damage is all prevented
    # (source, to) -> the file's effects that change its damage (`rules.dealing.Change`),
    # which give the same in any order
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
        if pair in self.prevented:
            return 0
        for change in self.changed.get(pair, ()):
            amount, _ = apply(change, amount)
        return amount


ASSIGNED = Tally()  # what the single-step queries count
