"""The keyword action "double": CR 701.10a-g.

Each function says what doubling *does*, in the rule's own terms (a +X/+0 effect, life
gained or lost, counters or mana added, damage replaced), written with `ops` so it works on
plain numbers and on solver terms alike: the properties in proofs/doubling.py prove what
doubling *gives* (twice the value) from these definitions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ops import Term, ite


@dataclass(frozen=True)
class PowerToughnessChange:
    """701.10a: a continuous effect that modifies power and toughness, setting neither."""

    power: Term  # the X of +X/+0 (negative for -X/-0)
    toughness: Term


def _change(value: Term) -> Term:
    """701.10b-c: +X where X is the value; for a value below 0, -X where X is 0 minus it."""
    return ite(value < 0, -(0 - value), value)


def double_power_and_toughness(
    power: Term, toughness: Term, *, power_too: bool = True, toughness_too: bool = True
) -> PowerToughnessChange:
    """701.10b-c: doubling power gives +X/+0, toughness +0/+X, both +X/+Y (mixed signs as
    701.10c says)."""
    return PowerToughnessChange(
        _change(power) if power_too else 0, _change(toughness) if toughness_too else 0
    )


@dataclass(frozen=True)
class LifeChange:
    gained: Term
    lost: Term


def double_life(life: Term) -> LifeChange:
    """701.10d: the player gains or loses the life that makes their total twice what it was."""
    return LifeChange(gained=ite(life > 0, life, 0), lost=ite(life < 0, 0 - life, 0))


def double_counters(count: Term) -> Term:
    """701.10e: the counters to put on: as many as there already are."""
    return count


def double_mana(amount: Term) -> Term:
    """701.10f: the mana of that type to add: as much as the pool already holds."""
    return amount


def double_damage(amount: Term) -> Term:
    """701.10g: a replacement effect: the source deals twice that damage instead."""
    return 2 * amount
