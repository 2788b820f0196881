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
            # `in` before each list is made: most pairs add to one already there.
            if source in self._from:
                self._from[source].append(amount)
            else:
                self._from[source] = [amount]
            if to in self._into:
                self._into[to].append((source, amount))
            else:
                self._into[to] = [(source, amount)]
        # Each sum is asked for by every constraint that counts it: made once, so that a
        # check stays linear and a solver query holds one term per sum.
        self._sent: dict[str, Term] = {}
        self._received: dict[str, Term] = {}

    def pairs(self) -> Iterable[tuple[str, str]]:
        return self._amounts.keys()

    def items(self) -> Iterable[tuple[tuple[str, str], Term]]:
        """Each pair with its amount."""
        return self._amounts.items()

    def get(self, source: str, to: str) -> Term:
        return self._amounts.get((source, to), 0)

    def sent_by(self, source: str) -> Term:
        if source not in self._sent:
            self._sent[source] = total(self._from.get(source, ()))
        return self._sent[source]

    def into(self, to: str) -> list[tuple[str, Term]]:
        """Each source assigning to `to`, with its amount."""
        return self._into.get(to, [])

    def everything(self) -> Term:
        return total(self._amounts.values())

    def received_by(self, to: str) -> Term:
        if to not in self._received:
            self._received[to] = total(amount for _, amount in self.into(to))
        return self._received[to]
