"""The damage assignment order of the editions before 2024-11-08: CR 509.2-509.3, 510.1c-d.

A creature may assign combat damage to a creature in its order only if every creature before
that one in the order is assigned lethal damage once the step's assignments are complete
(510.1c-d; the whole step is judged, docs/readings.md A1). Three things lift the order: the
editions that have none, M10's deathtouch (702.2b of 2009-2010), and banding, whose chooser
divides as they choose (702.22j-k, an exception to 510.1c-d). And a creature that assigns as
though it weren't blocked (Thorn Elemental) follows none in doing so.

When a file gives no order for a creature that needs one, the order is open: some order must
make the assignment legal, and every order is tried, up to a stated limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import permutations
from math import factorial, log10

from ..amounts import Amounts
from ..errors import TooManyOrders
from ..keywords import DEATHTOUCH
from ..limits import ORDERS
from ..ops import Term, all_of, any_of, implies, negate
from . import banding, division, steps, unblocked
from .constraint import Constraint
from .deathtouch import lethal_damage_assigned

Precedes = Callable[[str, str], Term]  # x comes before y in the order


def in_order(view, s: str, x: str) -> Term:
    """x is in s's order: it blocks s (509.2), or s blocks it (509.3)."""
    return any_of((view.blocks(x, s), view.blocks(s, x)))


def freed(view, s: str) -> Term:
    """The order does not bind s's division."""
    return any_of(
        (
            # M10's 702.2b: a deathtouch creature divides as its player chooses.
            all_of((view.edition.deathtouch_divides_freely, view.has(s, DEATHTOUCH))),
            # 702.22j-k: whoever banding hands the division to divides as they choose.
            banding.defending_player_divides(view, s),
            banding.active_player_divides(view, s),
        )
    )


def bound(view, s: str) -> Term:
    """s assigns combat damage this step, following its order. A creature whose damage to
    assign is 0 or less assigns none (510.1a), so no order of it is ever chosen between, or
    tried."""
    if not view.edition.has_order:
        return False
    return all_of(
        (
            steps.assigns_this_step(view, s),
            division.damage_to_assign(view, s) > 0,
            negate(freed(view, s)),
        )
    )


def candidates(view, s: str) -> list[str]:
    """Those that may be in s's order, in the order of the creatures: those blocking it and
    those it blocks (a creature in a file is one or the other, never both)."""
    near = dict.fromkeys((*view.blockers_of(s), *view.blocked_by(s)))
    return [x for x in near if x != s and in_order(view, s, x) is not False]


def _orders_of(n: int) -> str:
    """How many orders n creatures have, in words: n! itself only while it is short (that of
    a few thousand creatures has more digits than Python writes out)."""
    return f"{factorial(n):,}" if n <= 20 else f"{n}!, a number of {_digits(n)} digits"


def _digits(n: int) -> int:
    """The number of digits of n!, from the sum of the logarithms of its factors."""
    return int(sum(log10(k) for k in range(2, n + 1))) + 1


def rule_of(view, s: str) -> tuple[str, str]:
    """The rules of s's order: 510.1c and 509.2 for an attacker, 510.1d and 509.3 for a
    blocker."""
    return ("510.1c", "509.2") if view.is_attacking(s) is not False else ("510.1d", "509.3")


def ranked(order: tuple[str, ...]) -> Precedes:
    position = {x: i for i, x in enumerate(order)}
    return lambda x, y: position[x] < position[y]


def constraints(view, amounts: Amounts) -> Iterator[Constraint]:
    if not view.edition.has_order:  # no order binds anyone: nothing to ask of each creature
        return
    budget = ORDERS.value()
    for s in view.creatures:
        premise = bound(view, s)
        if premise is False:
            continue
        members = candidates(view, s)
        if len(members) < 2:
            continue
        precedes = view.order(s)
        if precedes is not None:
            yield from _in_order(view, amounts, s, premise, members, precedes)
            continue
        # An open order (only a concrete combat leaves one open): some order must work.
        tried = factorial(len(members))
        budget -= tried
        if budget < 0:
            raise TooManyOrders(
                f"{s}'s damage assignment order is not given, and trying every order of the "
                f"step's open orders would take more than {ORDERS.value()} orders ({s} alone "
                f"has {_orders_of(len(members))}); give the orders in the file, or raise "
                "--order-limit"
            )
        rule, announce = rule_of(view, s)
        holds = any_of(
            all_of(c.holds for c in _in_order(view, amounts, s, premise, members, ranked(o)))
            for o in permutations(members)
        )
        if holds is True:  # constrains nothing (rules.constraints)
            continue
        yield Constraint(
            (rule, announce),
            s,
            holds,
            lambda s=s: f"{s} assigns in some damage assignment order (its order is not given)",
            lambda s=s, rule=rule: (rule, _why_no_order(view, amounts, s)),
        )


def _in_order(view, amounts, s, premise, members, precedes: Precedes) -> Iterator[Constraint]:
    rule, announce = rule_of(view, s)
    # Assigning as though unblocked (Thorn Elemental), s follows no order: it assigns as an
    # unblocked creature, to what it attacks.
    premise = all_of((premise, negate(unblocked.taken(view, amounts, s))))
    for y in members:
        sent = amounts.get(s, y)
        for x in members:
            if x == y:
                continue
            earlier = all_of(
                (premise, in_order(view, s, x), in_order(view, s, y), precedes(x, y), sent > 0)
            )
            if earlier is False:
                continue
            holds = implies(earlier, lethal_damage_assigned(view, amounts, x))
            if holds is True:  # constrains nothing (rules.constraints)
                continue
            yield Constraint(
                (rule, announce),
                s,
                holds,
                lambda s=s, x=x, y=y: (
                    f"{s} assigns to {y} only once {x}, before it in {s}'s order, has lethal damage"
                ),
                lambda s=s, x=x, y=y, rule=rule: (rule, _why_not_in_order(view, amounts, s, x, y)),
            )


def orders_that_work(view, amounts: Amounts, s: str) -> tuple[tuple[str, ...], ...]:
    """Every order of s's open order under which s's assignment is legal."""
    premise, members = bound(view, s), candidates(view, s)
    return tuple(
        o
        for o in permutations(members)
        if all(c.holds for c in _in_order(view, amounts, s, premise, members, ranked(o)))
    )


def open_orders(view) -> list[str]:
    """The creatures whose order binds them and is left open by the file."""
    if not view.edition.has_order:
        return []
    return [
        s
        for s in view.creatures
        if bound(view, s) is True and len(candidates(view, s)) >= 2 and view.order(s) is None
    ]


def _shortfall(view, amounts: Amounts, x: str) -> str:
    marked, assigned, toughness = view.marked(x), amounts.received_by(x), view.toughness(x)
    return (
        f"{x} has {marked + assigned} of the {toughness} damage it needs ({marked} marked + "
        f"{assigned} assigned), {max(0, toughness - marked - assigned)} short"
    )


def _why_not_in_order(view, amounts: Amounts, s: str, x: str, y: str) -> str:
    lethal_by_deathtouch = view.edition.deathtouch_is_lethal and view.has(s, DEATHTOUCH)
    return (
        f"{s} sends {amounts.get(s, y)} to {y}, but {x} comes before {y} in {s}'s damage "
        f"assignment order and {_shortfall(view, amounts, x)}"
        + (f" (with deathtouch, 1 from {s} would do)" if lethal_by_deathtouch else "")
    )


def _why_no_order(view, amounts: Amounts, s: str) -> str:
    short = [
        y
        for y in candidates(view, s)
        if amounts.get(s, y) > 0 and lethal_damage_assigned(view, amounts, y) is not True
    ]
    return (
        f"no damage assignment order for {s} makes this legal: it sends damage to "
        f"{' and '.join(short)}, and whichever comes first in its order lacks lethal damage ("
        + "; ".join(_shortfall(view, amounts, y) for y in short)
        + ")"
    )
