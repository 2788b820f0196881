"""Combat damage assigned to each (source, recipient) pair, as plain ints or solver terms.

The concrete check fills it from a file's assignment; the solver fills it with one integer
variable per pair that could receive damage. Pairs that are absent are 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .ops import Term, total


class Amounts:
    def __init__(self, amounts: Mapping[tuple[str, str], Term]):
        self._amounts = dict(amounts)
        self._from: dict[str, list[Term]] = {}
        self._into: dict[str, list[tuple[str, Term]]] = {}
        for (source, to), amount in self._amounts.items():
            self._from.setdefault(source, []).append(amount)
            self._into.setdefault(to, []).append((source, amount))

    def pairs(self) -> Iterable[tuple[str, str]]:
        return self._amounts.keys()

    def get(self, source: str, to: str) -> Term:
        return self._amounts.get((source, to), 0)

    def sent_by(self, source: str) -> Term:
        return total(self._from.get(source, ()))

    def into(self, to: str) -> list[tuple[str, Term]]:
        """Each source assigning to `to`, with its amount."""
        return self._into.get(to, [])

    def everything(self) -> Term:
        return total(self._amounts.values())

    def received_by(self, to: str) -> Term:
        return total(amount for _, amount in self.into(to))
