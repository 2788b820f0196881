"""Hypothesis strategies for rules engines' property tests: scenario files, and assignments
that lethal judges legal or illegal.

`scenarios()` draws small combats as scenario dicts (`docs/scenario-format.md`): two or three
players, up to 3 attackers and 3 other creatures (blocking, or outside combat), powers up to
5, marked damage, the keywords that matter to assignment, two qualities, bands,
planeswalkers (some of them creatures), a battle and its protector, targets removed from
combat and blocked creatures whose blockers are gone. Each is judged by an edition: often
the current rules, else a day inside each span of editions or at its first or last day,
with only what exists that day; under the editions with a damage assignment order, most
attacking and blocking creatures are given one, and some are left open. Every count is
drawn first and every keyword list shrinks to empty, so a failing example shrinks to few
creatures, plain keywords, small numbers and the current rules.

`legal_assignments(scenario)` and `illegal_assignments(scenario)` draw assignments of its
step, each re-checked by `lethal.check` before it is handed out. See docs/strategies.md.

Hypothesis is imported here only: `pip install 'lethal[strategies]'`.
"""

from __future__ import annotations

try:
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument
except ImportError as missing:  # lethal itself needs no Hypothesis; only this module does
    raise ImportError(
        "lethal.strategies draws with Hypothesis, which is not installed: "
        "pip install 'lethal[strategies]'"
    ) from missing

import functools
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

from . import editions as ed
from .combat import FIRST_STRIKE_STEP, ONLY, SECOND, STEPS, Entry, Scenario
from .errors import LethalError
from .keywords import (
    AS_THOUGH_UNBLOCKED,
    ASSIGNS_TOUGHNESS,
    BANDING,
    DEATHTOUCH,
    DOUBLE_STRIKE,
    FIRST_STRIKE,
    INDESTRUCTIBLE,
    TRAMPLE,
    TRAMPLE_OVER_PLANESWALKERS,
    card_type,
    parse_keywords,
    quality_key,
)

__all__ = [
    "ASSIGNMENT_KEYWORDS",
    "BANDS_WITH_OTHER",
    "EFFECT_KINDS",
    "InvalidStrategyArgument",
    "KEYWORDS",
    "PROTECTIONS",
    "PROTECTION_FROM",
    "QUALITIES",
    "RESULT_KEYWORDS",
    "StrategyInternalError",
    "editions",
    "effect_lists",
    "illegal_assignments",
    "legal_assignments",
    "scenarios",
    "with_results",
]

# The keyword families, written as docs/scenario-format.md writes them; a drawn creature has
# one with a quality of QUALITIES.
BANDS_WITH_OTHER = "bands with other <quality>"
PROTECTION_FROM = "protection from <quality>"
# Every keyword that changes what a creature may assign, or to whom: the default.
ASSIGNMENT_KEYWORDS = (
    TRAMPLE,
    TRAMPLE_OVER_PLANESWALKERS,
    DEATHTOUCH,
    BANDING,
    BANDS_WITH_OTHER,
    FIRST_STRIKE,
    DOUBLE_STRIKE,
    INDESTRUCTIBLE,
    ASSIGNS_TOUGHNESS,
    AS_THOUGH_UNBLOCKED,
)
# What `keywords` may name: those, and protection from a quality (702.16).
KEYWORDS = (*ASSIGNMENT_KEYWORDS, PROTECTION_FROM)

# The qualities drawn: the symbolic combat's (`lethal.proving.symbolic.QUALITIES`, which a
# test keeps equal), so that `lethal prove` can pin any drawn file.
QUALITIES = ("wolves", "knights")
WOLVES = QUALITIES[0]

# By role, in the order they shrink to. Trample is drawn apart (TRAMPLES); a blocker is
# never "as though it weren't blocked".
_ATTACKER_KEYWORDS = (
    DEATHTOUCH,
    BANDING,
    FIRST_STRIKE,
    DOUBLE_STRIKE,
    INDESTRUCTIBLE,
    ASSIGNS_TOUGHNESS,
    AS_THOUGH_UNBLOCKED,
)
_BLOCKER_KEYWORDS = _ATTACKER_KEYWORDS[:-1]
# An attacker's trample, plain trample twice as often as the others; none first, to shrink to.
_TRAMPLES = (
    (),
    (TRAMPLE,),
    (TRAMPLE,),
    (TRAMPLE_OVER_PLANESWALKERS,),
    (TRAMPLE, TRAMPLE_OVER_PLANESWALKERS),
)
_STRIKES = (FIRST_STRIKE, DOUBLE_STRIKE)

# The first day of each span of editions that judge and number alike (lethal.editions), and
# a day after the newest for the current rules' span to end on.
_BEGINNINGS = (
    ed.M10,  # the damage assignment order; deathtouch ignores it
    ed.M11,  # deathtouch damage is lethal, and the order binds it
    ed.TRAMPLE_702_18,
    ed.TRAMPLE_702_19,
    ed.STEPS_510_4,
    ed.DEATHTOUCH_702_2C,
    ed.BANDING_702_22,
    ed.TRAMPLE_OVER_PLANESWALKERS,
    ed.BATTLES,
    ed.FOUNDATIONS,  # no order
)
_LAST_DAY = date(2030, 12, 31)


class InvalidStrategyArgument(LethalError, InvalidArgument, ValueError):
    """A strategy asked for with options it cannot honour; the message names the option,
    the value and what was expected."""


class StrategyInternalError(LethalError, AssertionError):
    """A drawn assignment that `lethal.check` judges otherwise than it was drawn to be: a bug
    in lethal, never handed to a test."""


def _spans() -> list[tuple[date, date]]:
    days = [date.fromisoformat(d) for d in _BEGINNINGS]
    ends = [d - timedelta(days=1) for d in days[1:]] + [_LAST_DAY]
    return list(zip(days, ends, strict=True))


@st.composite
def editions(draw, orders_only: bool = False) -> str:
    """A `rules` value: "current" a third of the time (and what it shrinks to), else the
    first or last day of a span of editions, or a day inside one. With `orders_only`, only
    days of the editions with a damage assignment order (before 2024-11-08)."""
    kind = draw(st.integers(0, 5))
    spans = [s for s in _spans() if not orders_only or ed.in_force(s[0].isoformat()).has_order]
    first, last = draw(st.sampled_from(spans))
    # Every draw is made whatever `kind` is, so that shrinking `kind` to "current" changes
    # that one choice and leaves the rest of the example where it was.
    edge, inside = draw(st.sampled_from([first, last])), draw(st.dates(first, last))
    if kind <= 1 and not orders_only:
        return ed.CURRENT_NAME
    return (edge if kind == 2 else inside).isoformat()


@dataclass(frozen=True)
class _Options:
    """What `scenarios` was asked for, checked."""

    keywords: frozenset[str]
    max_attackers: int
    max_others: int
    max_planeswalkers: int
    max_battles: int
    max_players: int
    max_power: int
    steps: tuple[str, ...]
    rules: st.SearchStrategy
    effects: bool
    open_orders: int
    crowded: bool


def scenarios(
    *,
    keywords: Iterable[str] = ASSIGNMENT_KEYWORDS,
    max_attackers: int = 3,
    max_others: int = 3,
    max_planeswalkers: int = 2,
    max_battles: int = 1,
    max_players: int = 3,
    max_power: int = 5,
    steps: Iterable[str] = STEPS,
    rules: st.SearchStrategy[str | date] | None = None,
    effects: bool = False,
    open_orders: int = 1,
    crowded: bool = False,
) -> st.SearchStrategy[dict[str, Any]]:
    """Scenario files as dicts (format lethal/1, no `assignment`), each read by
    `lethal.parse` without error or warning.

    - `keywords`: the keywords creatures may be drawn with, of `KEYWORDS` (default
      `ASSIGNMENT_KEYWORDS`, every one that matters to assignment; `PROTECTION_FROM` adds
      protection from a quality). Bands are drawn only with `banding`.
    - `max_attackers` (at least 1), `max_others` (creatures that block or are outside
      combat), `max_planeswalkers`, `max_battles`, `max_players` (at least 2) and
      `max_power` (powers are drawn from -1 to it; toughnesses from 1 to 5) bound the size.
    - `steps`: the combat damage steps to draw, of "only", "first-strike", "second";
      "first-strike" alone gives every combat a creature with first or double strike.
    - `rules`: a strategy of editions, "current" or a day (a `datetime.date` or
      "YYYY-MM-DD", on or after 2009-07-11); default `editions()`, any of them. Only what
      exists that day is drawn, and orders only under the editions that have them.
    - `effects`: also what damage does once dealt (lifelink, infect, wither, toxic,
      protection from a quality, a card type or everything, regeneration shields, players'
      life and poison) and `effects` that change the damage dealt (`with_results`,
      `effect_lists`). Off by default: a check ignores them.
    - `open_orders`: in how many cases of 5 an order a creature needs is left out of the
      file, for lethal to search (0: every order is written; 5: none is).
    - `crowded`: two or more other creatures, which often block every attacker they can, and
      banding a quarter as often, so that orders have two or three creatures and bind.
    """
    chosen = frozenset(_listed("keywords", keywords))
    unknown = sorted(chosen - set(KEYWORDS))
    if unknown:
        raise InvalidStrategyArgument(
            f"keywords: unknown {', '.join(map(repr, unknown))}; expected some of "
            + ", ".join(map(repr, KEYWORDS))
        )
    sizes = {
        "max_attackers": (max_attackers, 1),
        "max_others": (max_others, 2 if crowded else 0),
        "max_planeswalkers": (max_planeswalkers, 0),
        "max_battles": (max_battles, 0),
        "max_players": (max_players, 2),
        "max_power": (max_power, 0),
    }
    for name, (value, least) in sizes.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            why = " (crowded combats have two or more)" if name == "max_others" and crowded else ""
            raise InvalidStrategyArgument(
                f"{name}={value!r}; expected an integer of at least {least}{why}"
            )
    wanted = tuple(_listed("steps", steps))
    if not wanted or set(wanted) - set(STEPS):
        raise InvalidStrategyArgument(
            f"steps={wanted!r}; expected one or more of {', '.join(map(repr, STEPS))}"
        )
    if set(wanted) == {FIRST_STRIKE_STEP} and not chosen & set(_STRIKES):
        raise InvalidStrategyArgument(
            "steps=('first-strike',) needs a creature with first strike or double strike, "
            f"but keywords has neither: {sorted(chosen)!r}"
        )
    if rules is not None and not isinstance(rules, st.SearchStrategy):
        raise InvalidStrategyArgument(
            f"rules={rules!r}; expected a strategy of editions, such as st.just('current') "
            "or lethal.strategies.editions()"
        )
    if not isinstance(open_orders, int) or not 0 <= open_orders <= 5:
        raise InvalidStrategyArgument(f"open_orders={open_orders!r}; expected 0 to 5")
    options = _Options(
        keywords=chosen,
        max_attackers=max_attackers,
        max_others=max_others,
        max_planeswalkers=max_planeswalkers,
        max_battles=max_battles,
        max_players=max_players,
        max_power=max_power,
        steps=tuple(s for s in STEPS if s in wanted),
        rules=editions() if rules is None else rules,
        effects=bool(effects),
        open_orders=open_orders,
        crowded=bool(crowded),
    )
    return _scenarios(options)


def _listed(name: str, values: Iterable[str]) -> list[str]:
    try:
        found = None if isinstance(values, str) else list(values)
    except TypeError:  # not iterable
        found = None
    if found is None or not all(isinstance(v, str) for v in found):
        raise InvalidStrategyArgument(f"{name}={values!r}; expected a list of strings")
    return found


def _rules_value(value: str | date) -> str:
    """The `rules` field for a drawn edition, which must name one lethal models."""
    if isinstance(value, date):
        value = value.isoformat()[:10]  # a datetime's day
    if not isinstance(value, str):
        raise InvalidStrategyArgument(
            f"rules drew {value!r}; expected 'current', a datetime.date or 'YYYY-MM-DD'"
        )
    try:
        ed.in_force(value)
    except ed.EditionError as error:
        raise InvalidStrategyArgument(f"rules drew {value!r}: {error}") from None
    return value


def _one_in(draw, n: int) -> bool:
    """True once in n draws. False is what it shrinks to: the rare case is the one a failing
    example sheds, if it can."""
    return draw(st.integers(0, n - 1)) == n - 1


@st.composite
def _creature_stats(draw, plain: list[str], o: _Options) -> dict:
    """Power, toughness, marked damage, keywords and qualities. Crowded combats have banding
    and "bands with other" a quarter as often: they lift the damage assignment order."""
    chosen = draw(st.lists(st.sampled_from(plain), unique=True, max_size=3)) if plain else []
    if o.crowded and BANDING in chosen and not _one_in(draw, 4):
        chosen.remove(BANDING)
    if BANDS_WITH_OTHER in o.keywords and _one_in(draw, 24 if o.crowded else 6):
        chosen.append("bands with other " + draw(st.sampled_from(QUALITIES)))
    if PROTECTION_FROM in o.keywords and _one_in(draw, 6):
        chosen.append("protection from " + draw(st.sampled_from(QUALITIES)))
    toughness = draw(st.integers(1, 5))
    # A creature with lethal damage marked is destroyed, unless it is indestructible (704.5g).
    most = toughness + 1 if INDESTRUCTIBLE in chosen else toughness - 1
    damage = draw(st.integers(0, most))
    stats = {
        "power": draw(st.integers(-1, o.max_power)),
        "toughness": toughness,
        "keywords": chosen,
    }
    if damage:
        stats["damage"] = damage
    qualities = draw(st.lists(st.sampled_from(QUALITIES), unique=True))
    if qualities:
        stats["qualities"] = qualities
    return stats


@st.composite
def _scenarios(draw, o: _Options) -> dict:
    """Ids are the symbolic combat's slots: attackers a0.., other creatures b0..,
    planeswalkers and battles p0..; players A (the active player), D, E, then P3..."""
    rules = _rules_value(draw(o.rules))
    edition = ed.in_force(rules)
    # The counts first, so that shrinking one drops what it counted.
    attacker_count = draw(st.integers(1, o.max_attackers))
    other_count = draw(st.integers(2 if o.crowded else 0, o.max_others))
    planeswalker_count = draw(st.integers(0, o.max_planeswalkers))
    battle_count = draw(st.integers(0, o.max_battles)) if edition.has_battles else 0
    players = ["A", "D", "E", *(f"P{i}" for i in range(3, o.max_players))]
    players = players[: draw(st.integers(2, o.max_players))]
    defenders = players[1:]

    # With first or double strike, the phase has no "only" step (510.4).
    strikes = bool({FIRST_STRIKE_STEP, SECOND} & set(o.steps))
    role = {
        name: [k for k in keywords if k in o.keywords and (strikes or k not in _STRIKES)]
        for name, keywords in (("attacker", _ATTACKER_KEYWORDS), ("blocker", _BLOCKER_KEYWORDS))
    }

    planeswalkers = []
    for i in range(planeswalker_count):
        # Now and then the active player's own, which can't be attacked.
        owner = "A" if _one_in(draw, 6) else draw(st.sampled_from(defenders))
        pw = {
            "id": f"p{i}",
            "controller": owner,
            "types": ["planeswalker"],
            "loyalty": draw(st.integers(1, 5)),
        }
        if _one_in(draw, 4):
            pw["types"].append("creature")
            pw.update(draw(_creature_stats(role["blocker"], o)))
        planeswalkers.append(pw)
    battles = [
        {
            "id": f"p{planeswalker_count + i}",
            "controller": draw(st.sampled_from(players)),
            "types": ["battle"],
            "protector": draw(st.sampled_from(players)),
            "defense": draw(st.integers(1, 5)),
            **({"qualities": ["Siege"]} if draw(st.booleans()) else {}),
        }
        for i in range(battle_count)
    ]
    by_id = {p["id"]: p for p in planeswalkers + battles}
    targets = defenders + [
        p["id"]
        for p in planeswalkers + battles
        if p.get("protector", p["controller"]) != "A"  # 508.1b, 310.8b
    ]

    def defending(attacker: dict) -> str:
        target = attacker["attacking"]
        if target in players:
            return target
        return by_id[target].get("protector", by_id[target]["controller"])

    tramples = [
        t
        for t in _TRAMPLES
        if set(t) <= o.keywords
        and (edition.has_trample_over_planeswalkers or TRAMPLE_OVER_PLANESWALKERS not in t)
    ]
    attackers = []
    for i in range(attacker_count):
        attacker = {
            "id": f"a{i}",
            "controller": "A",
            "types": ["creature"],
            **draw(_creature_stats(role["attacker"], o)),
            "attacking": draw(st.sampled_from(targets)),
        }
        attacker["keywords"] += draw(st.sampled_from(tramples))
        attackers.append(attacker)
    for target in planeswalkers + battles:
        if any(a["attacking"] == target["id"] for a in attackers) and _one_in(draw, 4):
            target["removed_from_combat"] = True

    # Bands: attackers with the same target, made legal by giving them banding (702.22c).
    bands = []
    if BANDING in o.keywords and len(attackers) >= 2 and _one_in(draw, 4):
        target = attackers[0]["attacking"]
        band = [a for a in attackers if a["attacking"] == target]
        if len(band) >= 2:
            for a in band[:-1]:
                if BANDING not in a["keywords"]:
                    a["keywords"].append(BANDING)
            bands.append([a["id"] for a in band])

    blockers = [
        {
            "id": f"b{i}",
            "controller": draw(st.sampled_from(defenders)),
            "types": ["creature"],
            **draw(_creature_stats(role["blocker"], o)),
        }
        for i in range(other_count)
    ]
    creature_planeswalkers = [p for p in planeswalkers if "creature" in p["types"]]
    for blocker in blockers + creature_planeswalkers:
        if blocker.get("removed_from_combat"):
            continue  # 506.4: no longer a blocking creature
        if _one_in(draw, 6 if blocker in blockers else 2):
            if blocker in blockers:  # a creature outside combat, anyone's
                blocker["controller"] = draw(st.sampled_from(players))
            continue
        # 509.1a, 310.8c: it blocks only what attacks its controller or what they defend.
        can_block = [a["id"] for a in attackers if defending(a) == blocker["controller"]]
        at_least = 0 if _one_in(draw, 5) or not can_block else 1
        if o.crowded and draw(st.booleans()):
            at_least = len(can_block)
        chosen = draw(
            st.lists(
                st.sampled_from(can_block or ["none"]),
                unique=True,
                min_size=at_least,
                max_size=len(can_block),
            )
        )
        for band in bands:  # 702.22h: blocking one member blocks the whole band
            if set(chosen) & set(band):
                chosen = list(dict.fromkeys(chosen + band))
        blocker["blocking"] = chosen
    for attacker in attackers:
        blocked = any(attacker["id"] in b.get("blocking", ()) for b in blockers + planeswalkers)
        if not blocked and _one_in(draw, 4):
            attacker["blocked"] = True  # its blockers have left combat

    in_combat = attackers + [b for b in blockers + planeswalkers if "blocking" in b]
    step = _draw_step(draw, o, in_combat)
    if step == SECOND:
        for creature in in_combat:
            if _one_in(draw, 4):
                creature["struck_first"] = draw(st.booleans())

    if edition.has_order:
        _draw_orders(draw, attackers, blockers + planeswalkers, o.open_orders)

    data: dict[str, Any] = {
        "format": "lethal/1",
        "players": [{"id": p} for p in players],
        "active_player": "A",
        "permanents": attackers + blockers + planeswalkers + battles,
        "step": step,
    }
    if rules != ed.CURRENT_NAME or draw(st.booleans()):
        data["rules"] = rules
    if bands:
        data["bands"] = bands
    if o.effects:
        data = draw(with_results(data, keywords=o.keywords))
        creatures = [p["id"] for p in data["permanents"] if "creature" in p["types"]]
        recipients = [p["id"] for p in data["players"] + data["permanents"]]
        found = draw(effect_lists(creatures, recipients))
        if found:
            data["effects"] = found
    _match_protections(draw, data)
    return data


def _strikes(creature: dict) -> bool:
    return bool(set(_STRIKES) & set(creature.get("keywords", ())))


def _draw_step(draw, o: _Options, in_combat: list[dict]) -> str:
    """A step the combat has (510.4): the first-strike step only with a creature with first
    or double strike in combat, the only step only without. When `steps` asks only for the
    first-strike step, one is given first strike or double strike."""
    strikers = any(_strikes(c) for c in in_combat)
    possible = [FIRST_STRIKE_STEP, SECOND] if strikers else [ONLY, SECOND]
    chosen = [s for s in possible if s in o.steps]
    if not chosen:  # steps == ("first-strike",) and no creature in combat strikes first
        creature = draw(st.sampled_from(in_combat))
        keyword = draw(st.sampled_from([k for k in _STRIKES if k in o.keywords]))
        creature["keywords"].append(keyword)
        return FIRST_STRIKE_STEP
    return draw(st.sampled_from(chosen))


def _draw_orders(draw, attackers: list[dict], others: list[dict], open_orders: int) -> None:
    """509.2-509.3: an attacker's order is the creatures blocking it, a blocker's the
    creatures it blocks. With two or more, most are given a drawn order and some are left
    open; with one, now and then the one-creature order is written out."""
    for creature in attackers + others:
        if creature in attackers:
            members = [b["id"] for b in others if creature["id"] in b.get("blocking", ())]
        elif "blocking" in creature:
            members = list(creature["blocking"])
        else:
            continue
        if len(members) >= 2:
            if draw(st.integers(0, 4)) < 5 - open_orders:  # shrinks to 0: written out
                creature["order"] = draw(st.permutations(members))
        elif members and _one_in(draw, 6):
            creature["order"] = members


def _match_protections(draw, data: dict) -> None:
    """A protection from a quality or card type that no permanent has prevents nothing, and
    lethal warns of it (702.16a): such a quality is given to a drawn creature, a card type
    added to its types."""
    permanents = data["permanents"]
    creatures = [p for p in permanents if "creature" in p["types"]]
    for holder in data["players"] + permanents:
        for text in holder.get("keywords", ()):
            for key in parse_keywords([text]).protection_from:
                had = {t for p in permanents for t in p["types"]}
                had |= {quality_key(q) for p in permanents for q in p.get("qualities", ())}
                had |= {quality_key(p["id"]) for p in data["players"]}
                if key in had:
                    continue
                creature = draw(st.sampled_from(creatures))
                if card_type(key) is not None:
                    creature["types"].append(key)
                else:
                    creature.setdefault("qualities", []).append(key)


# What damage does once dealt (120.3, 702.15-16, 702.80, 702.90, 702.164, 701.19, 704.5).
# Assignment ignores all of it but deathtouch.
RESULT_KEYWORDS = (
    "lifelink",
    "infect",
    "wither",
    "toxic 1",
    "toxic 2",
    DEATHTOUCH,
    INDESTRUCTIBLE,
)
# A quality in any case, card types singular and plural (702.16a), two at once (702.16g),
# everything (702.16j) and a player (702.16k: the active player and the first defender, there
# in every combat).
PROTECTIONS = tuple(
    "protection from " + q
    for q in (
        WOLVES,
        WOLVES.title(),
        "creatures",
        "Creature",
        "artifacts",
        f"{WOLVES} and from artifacts",
        "everything",
        "A",
        "D",
    )
)


@st.composite
def with_results(draw, data: dict, keywords: Iterable[str] = KEYWORDS) -> dict:
    """`data` (a scenario's dict, changed in place and returned) with what changes what
    damage does: lifelink, infect, wither and toxic on its creatures (and deathtouch and
    indestructible, if `keywords` has them), protection from a quality, a card type or
    everything, some creatures also artifacts, regeneration shields; players with a small
    life total, poison counters and now and then protection. Infect and toxic only under an
    edition that has them (2010-10-01 and 2023-02-03 on)."""
    edition = ed.in_force(data.get("rules", ed.CURRENT_NAME))
    results = [
        k
        for k in RESULT_KEYWORDS
        if (k not in KEYWORDS or k in keywords)
        and edition.has_keyword("toxic" if k.startswith("toxic") else k)
    ]
    for p in data["permanents"]:
        if "creature" not in p["types"]:
            continue
        own = p.setdefault("keywords", [])
        for keyword in draw(st.lists(st.sampled_from(results), unique=True, max_size=2)):
            if keyword not in own:
                own.append(keyword)
        if _one_in(draw, 4):
            own.append(draw(st.sampled_from(PROTECTIONS)))
        if _one_in(draw, 4):
            p["types"].append("artifact")
        if _one_in(draw, 4):
            p["regeneration_shields"] = draw(st.integers(1, 2))
    for player in data["players"]:
        if draw(st.integers(0, 2)) > 0:
            player["life"] = draw(st.integers(1, 4))
        if _one_in(draw, 3):
            player["poison"] = draw(st.sampled_from([0, 1, 7, 8, 9]))
        if _one_in(draw, 7):
            player["keywords"] = [draw(st.sampled_from(PROTECTIONS))]
    _match_protections(draw, data)
    return data


EFFECT_KINDS = ("prevent", "prevent", "fog", "double", "add", "cant-be-prevented")


@st.composite
def effect_lists(
    draw,
    sources: list[str],
    recipients: list[str],
    most: int = 3,
    least: int = 0,
    kinds: Iterable[str] = EFFECT_KINDS,
) -> list[dict]:
    """`least` to `most` effects on the damage from `sources` (creatures) to `recipients`:
    shields (prevent the next N to one recipient, 615.7), preventions of all damage to one
    recipient or to anything, limited to a source or not, "once" (Circle of Protection),
    Fogs, doublers, "plus N" (701.10g) and damage that can't be prevented (615.12)."""
    kinds = list(kinds)
    found = []
    for n in range(draw(st.integers(least, most))):
        kind = draw(st.sampled_from(kinds))
        effect = {"id": f"e{n}", "kind": "prevent" if kind == "fog" else kind}
        if kind == "prevent":
            if draw(st.booleans()):
                effect["amount"] = draw(st.integers(1, 3))
                effect["to"] = draw(st.sampled_from(recipients))
            elif draw(st.booleans()):
                effect["to"] = draw(st.sampled_from(recipients))
            if draw(st.booleans()):
                effect["sources"] = [draw(st.sampled_from(sources))]
            if _one_in(draw, 3):
                effect["once"] = True
        elif kind in ("double", "add"):
            if kind == "add":
                effect["amount"] = draw(st.integers(1, 2))
            if draw(st.booleans()):
                effect["sources"] = [draw(st.sampled_from(sources))]
            if draw(st.booleans()):
                effect["recipients"] = [draw(st.sampled_from(recipients))]
        elif kind == "cant-be-prevented" and draw(st.integers(0, 3)) > 0:
            effect["sources"] = draw(st.lists(st.sampled_from(sources), min_size=1, unique=True))
        found.append(effect)
    return found


# The most legal rows of one independent group of creatures a draw chooses among: far more
# than a drawn combat's groups have; a larger group is drawn from its first rows only.
ROWS = 1000
Assignment = tuple[Entry, ...]


def legal_assignments(scenario: Scenario) -> st.SearchStrategy[Assignment]:
    """Assignments of the scenario's step that `lethal.check` judges legal (the file's own
    assignment, if any, is ignored). They shrink towards the first legal row of each group
    of creatures whose divisions depend on each other; an assignment with no entry is drawn
    when that is the only legal one."""
    step = _step_of(scenario)
    groups = _legal_rows(step)

    @st.composite
    def draw_legal(draw) -> Assignment:
        found = groups.draw(draw)
        verdict = _check(step, found)
        if not verdict.legal:
            raise StrategyInternalError(
                f"lethal.strategies drew {_shown(found)} as legal, but lethal.check finds "
                f"it breaks {[v.rule for v in verdict.violations]}: "
                f"{verdict.violations[0].message}; a bug in lethal, please report it "
                "with this scenario"
            )
        return found

    return draw_legal()


def illegal_assignments(scenario: Scenario) -> st.SearchStrategy[Assignment]:
    """Assignments of the scenario's step that `lethal.check` judges illegal: near misses,
    each a legal assignment changed in one place: one more or one less damage from a
    creature, one damage moved to another recipient, a trampler's one damage past its
    blockers too early, one damage to a recipient it can't assign to, or one damage from a
    creature that assigns none this step."""
    step = _step_of(scenario)
    groups = _legal_rows(step)

    @st.composite
    def draw_illegal(draw) -> Assignment:
        legal = groups.draw(draw)
        amounts = {(e.source, e.to): e.amount for e in legal}
        first = draw(st.sampled_from(_MISSES))
        start = _MISSES.index(first)
        for miss in _MISSES[start:] + _MISSES[:start]:  # the drawn one, else the next that fits
            changed = miss(draw, step, groups, dict(amounts))
            if changed is None:
                continue
            found = groups.entries(changed)
            if not _check(step, found).legal:
                return found
        raise InvalidStrategyArgument(
            "illegal_assignments found no near miss that lethal.check judges illegal: the "
            f"scenario has no creature whose damage can be changed by one "
            f"(creatures: {list(groups.creatures)!r})"
        )

    return draw_illegal()


def _step_of(scenario: Scenario) -> Scenario:
    if isinstance(scenario, dict):
        raise InvalidStrategyArgument(
            "expected a lethal.Scenario, got a dict: pass lethal.parse(data), which also "
            "checks that the dict is a scenario"
        )
    if not isinstance(scenario, Scenario):
        raise InvalidStrategyArgument(f"expected a lethal.Scenario, got {scenario!r}")
    return replace(scenario, assignment=None)


def _check(step: Scenario, found: Assignment):
    from .verdict import check

    return check(step, found)


def _shown(found: Assignment) -> str:
    return "[" + ", ".join(f"{e.source}->{e.to}={e.amount}" for e in found) + "]"


def _legal_rows(step: Scenario) -> _LegalRows:
    """One for each step, shared by both strategies: a test often draws a legal and an
    illegal assignment of the same scenario, and counting makes a Z3 context. A scenario
    built by hand with a list in it can't be a key, and is counted on its own."""
    try:
        return _shared_legal_rows(step)
    except TypeError:  # unhashable
        return _LegalRows(step)


@functools.lru_cache(maxsize=64)
def _shared_legal_rows(step: Scenario) -> _LegalRows:
    return _LegalRows(step)


class _LegalRows:
    """The step's legal assignments, as lethal counts them: the creatures fall into groups
    whose divisions depend on each other, and a legal assignment is one legal row of each
    group, so a draw takes a row of each without listing their product. Made when first
    drawn from: a strategy is made at a test's collection, and may never be drawn."""

    def __init__(self, step: Scenario):
        self.step = step
        self._groups: list | None = None
        self._rows: list[list[tuple[int, ...]]] = []
        self.creatures = tuple(p.id for p in step.permanents if p.is_creature)
        ids = [p.id for p in step.players] + [p.id for p in step.permanents]
        self._rank = {r: i for i, r in enumerate(ids)}
        self._creature_rank = {c: i for i, c in enumerate(self.creatures)}

    def _made(self) -> list:
        if self._groups is None:
            from .solver.counting import independent_groups
            from .whole_combat import silent_given

            groups = independent_groups(silent_given(self.step))
            rows = [list(itertools.islice(g.rows(), ROWS)) for g in groups]
            if any(not r for r in rows):
                raise InvalidStrategyArgument(
                    "the scenario's step has no legal assignment at all (lethal.count gives "
                    "0), so there is none to draw or to miss by one"
                )
            self._groups, self._rows = groups, rows
        return self._groups

    def draw(self, draw) -> Assignment:
        groups = self._made()
        chosen = {}
        for group, rows in zip(groups, self._rows, strict=True):
            row = rows[draw(st.integers(0, len(rows) - 1))] if len(rows) > 1 else rows[0]
            chosen.update({(e.source, e.to): e.amount for e in group.entries(row)})
        return self.entries(chosen)

    def entries(self, amounts: dict[tuple[str, str], int]) -> Assignment:
        """The amounts above 0 as entries, in the scenario's order of sources and then of
        recipients."""
        far = len(self._rank)
        pairs = sorted(
            (p for p, a in amounts.items() if a > 0),
            key=lambda p: (self._creature_rank.get(p[0], far), self._rank.get(p[1], far)),
        )
        return tuple(Entry(s, r, amounts[(s, r)]) for s, r in pairs)

    def reachable(self, source: str) -> tuple[str, ...]:
        from .view import ScenarioView

        return ScenarioView(self.step).reachable(source)

    def recipients(self) -> list[str]:
        return list(self._rank)


# Each near miss takes a legal assignment's amounts and changes them in one place, or gives
# None when it has nothing to change. The check decides whether the change is illegal.
def _one_more(draw, step, rows, amounts):
    """One more damage from a creature than it assigns (510.1a)."""
    if amounts:
        pair = draw(st.sampled_from(sorted(amounts)))
    else:
        source = draw(st.sampled_from(rows.creatures)) if rows.creatures else None
        reachable = rows.reachable(source) if source else ()
        if not reachable:
            return None
        pair = (source, draw(st.sampled_from(reachable)))
    amounts[pair] = amounts.get(pair, 0) + 1
    return amounts


def _one_less(draw, step, rows, amounts):
    """One less damage from a creature than it assigns (510.1a)."""
    if not amounts:
        return None
    pair = draw(st.sampled_from(sorted(amounts)))
    amounts[pair] -= 1
    return amounts


def _moved(draw, step, rows, amounts):
    """One damage moved to another recipient the creature may reach: where lethal damage,
    trample and orders decide (510.1c-d, 702.19b)."""
    if not amounts:
        return None
    source, to = draw(st.sampled_from(sorted(amounts)))
    others = [r for r in rows.reachable(source) if r != to]
    if not others:
        return None
    return _move(amounts, source, to, draw(st.sampled_from(others)))


def _too_early(draw, step, rows, amounts):
    """A blocked trampler's one damage taken from a blocker and put past its blockers:
    lethal damage to every blocker comes first (702.19b)."""
    blocks = {(b.id, a) for b in step.permanents for a in b.blocking or ()}
    moves = [
        (s, b, past)
        for s, b in sorted(amounts)
        if (b, s) in blocks
        for past in rows.reachable(s)
        if (past, s) not in blocks
    ]
    tramplers = [
        m
        for m in moves
        if {TRAMPLE, TRAMPLE_OVER_PLANESWALKERS} & step.permanent(m[0]).keywords.plain
    ]
    if not moves:
        return None
    moves = tramplers or moves
    source, blocker, past = draw(st.sampled_from(moves))
    return _move(amounts, source, blocker, past)


def _forbidden(draw, step, rows, amounts):
    """One damage moved (or, when none is assigned, given) to a player or permanent the
    creature can't assign to (510.1a-c)."""
    if amounts:
        source, to = draw(st.sampled_from(sorted(amounts)))
    elif rows.creatures:
        source, to = draw(st.sampled_from(rows.creatures)), None
    else:
        return None
    reachable = set(rows.reachable(source))
    others = [r for r in rows.recipients() if r not in reachable]
    if not others:
        return None
    if to is None:
        amounts[(source, draw(st.sampled_from(others)))] = 1
        return amounts
    return _move(amounts, source, to, draw(st.sampled_from(others)))


def _silent(draw, step, rows, amounts):
    """One damage from a creature that assigns none in this step (510.4: first strike)."""
    assigning = {s for s, _ in amounts}
    quiet = [c for c in rows.creatures if c not in assigning and rows.reachable(c)]
    if not quiet:
        return None
    source = draw(st.sampled_from(quiet))
    pair = (source, draw(st.sampled_from(rows.reachable(source))))
    amounts[pair] = amounts.get(pair, 0) + 1
    return amounts


def _move(amounts, source: str, start: str, end: str) -> dict:
    amounts[(source, start)] -= 1
    amounts[(source, end)] = amounts.get((source, end), 0) + 1
    return amounts


_MISSES = [_one_more, _one_less, _moved, _too_early, _forbidden, _silent]
