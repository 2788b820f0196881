"""The editions of the Comprehensive Rules that lethal models: from the M10 rewrite
(2009-07-11) to today, and what each change changed.

An edition is data. The rules ask it what it has (a damage assignment order, deathtouch that
makes damage lethal, trample over planeswalkers, battles, infect, toxic) and how it numbers a
rule; they never compare dates themselves. Every verdict cites the numbers of the edition it
judged by.
"""

from __future__ import annotations

import re
from collections import namedtuple

from .errors import LethalError, quoted

CURRENT_NAME = "current"
CHECKED_AGAINST = "2026-09-25"  # the newest CR text every constraint was checked against

# Days are written YYYY-MM-DD, which sort as the days do: the datetime module would cost the
# start of every command 2 ms, and only a file that names a date needs it.
M10 = "2009-07-11"  # damage assignment order; deathtouch divides freely (702.2b)
PREVENTION_615 = "2009-10-01"  # renumbering: prevention 614 -> 615, their interaction 616
M11 = "2010-07-16"  # nonzero deathtouch damage is lethal, and the order binds it; damage 119
TRAMPLE_702_18 = "2011-06-17"  # renumbering: trample 702.18, banding 702.20
TRAMPLE_702_19 = "2013-07-13"  # renumbering: trample 702.19, banding 702.21
STEPS_510_4 = "2016-09-30"  # the first-strike steps rule 510.5 becomes 510.4
DEATHTOUCH_702_2C = "2017-01-20"  # deathtouch's lethal rule 702.2b becomes 702.2c
DAMAGE_120 = "2019-07-12"  # renumbering: the damage rules 119 become 120
BANDING_702_22 = "2021-04-22"
INFECT = "2010-10-01"  # 702.87 then (702.90 today); 119.3b gives its poison counters, and
# the results that were 119.3b-e become c-f
TRAMPLE_OVER_PLANESWALKERS = "2021-06-18"  # 702.19c; old 702.19c-e become d-g
TOXIC = "2023-02-03"  # 702.164, 120.3g: the Phyrexia: All Will Be One update
BATTLES = "2023-04-14"
FOUNDATIONS = "2024-11-08"  # the damage assignment order is removed

# The keywords younger than M10, each with the first edition that has it and its rule today.
KEYWORDS_SINCE = {
    "infect": (INFECT, "702.90"),
    "trample over planeswalkers": (TRAMPLE_OVER_PLANESWALKERS, "702.19c"),
    "toxic": (TOXIC, "702.164"),
}


def not_in_all(editions) -> dict[str, str]:
    """What some of the editions have and some do not have yet: each keyword of
    KEYWORDS_SINCE and the battle, with the first day it exists."""
    missing = {
        name: since
        for name, (since, _) in KEYWORDS_SINCE.items()
        if not all(e.has_keyword(name) for e in editions)
    }
    if not all(e.has_battles for e in editions):
        missing["battle"] = BATTLES  # the type, combat.BATTLE (combat imports this module)
    return missing


class EditionError(LethalError, ValueError):
    """A `rules` value that names no edition lethal models."""


# A named tuple, not a frozen dataclass: making a dataclass costs a command's start 1 ms.
class Edition(namedtuple("Edition", ["asked", "since", "until"])):
    """The rules in force on one day: `asked` is what the file said, `since` the first day
    of the span of editions that all judge alike and number alike, `until` its last day
    (None: still in force); days as YYYY-MM-DD. (Regenerate, renumbered five times within
    spans, is numbered by the day asked.)"""

    __slots__ = ()

    asked: str
    since: str
    until: str | None

    # What the edition has.
    @property
    def has_order(self) -> bool:
        return self.since < FOUNDATIONS

    @property
    def deathtouch_divides_freely(self) -> bool:
        """M10's 702.2b: a deathtouch creature ignores its order, and makes nothing lethal."""
        return self.since < M11

    @property
    def deathtouch_is_lethal(self) -> bool:
        return self.since >= M11

    @property
    def has_trample_over_planeswalkers(self) -> bool:
        return self.has_keyword("trample over planeswalkers")

    def has_keyword(self, name: str) -> bool:
        """Whether the keyword exists in this edition (every one lethal knows but those of
        KEYWORDS_SINCE has since M10); a toxic keyword by its name, "toxic"."""
        first = KEYWORDS_SINCE.get(name)
        return first is None or self.since >= first[0]

    @property
    def has_battles(self) -> bool:
        return self.since >= BATTLES

    # How it names itself and its rules.
    @property
    def called(self) -> str:
        """What a sentence calls these rules: "current rules", "rules in force on 2015-06-01"."""
        return "current rules" if self.asked == CURRENT_NAME else f"rules in force on {self.asked}"

    def describe(self) -> str:
        """The edition in force, in one line: which span of editions, and what sets it apart."""
        if self.asked == CURRENT_NAME:
            return (
                f"{self.called} (editions of {self.since} on, checked against the CR of "
                f"{CHECKED_AGAINST})"
            )
        span = f"{self.since} to {self.until}" if self.until else f"{self.since} on"
        traits = "damage assignment order" if self.has_order else "no damage assignment order"
        if self.deathtouch_divides_freely:
            traits += ", M10 deathtouch"
        return f"{self.called} (editions of {span}: {traits})"

    def cite(self, rule: str) -> str | None:
        """Today's number of a rule, as this edition numbers it; None if it has no such rule."""
        match = _RULE.fullmatch(rule)
        if match is None:
            return rule
        return self._renumber(match)

    def cr(self, rule: str) -> str:
        """ "CR <today's rule>", as this edition numbers it."""
        return self.cite_in(f"CR {rule}")

    def cite_in(self, text: str) -> str:
        """A sentence with today's rule numbers, renumbered for this edition."""
        return _RULE.sub(lambda m: self._renumber(m) or m.group(0), text)

    def _renumber(self, match: re.Match) -> str | None:
        family, letter, last = match.group(1), match.group(2), match.group(3)
        since = self.since
        if family.startswith("702.") and int(family[4:]) >= _INSERTED[0][0]:  # keywords
            number = int(family[4:])
            if any(number == at and since < first for at, first in _INSERTED):
                return None  # a keyword not yet inserted
            number -= sum(number > at and since < first for at, first in _INSERTED)
            if family == "702.19" and since < TRAMPLE_OVER_PLANESWALKERS and letter:
                letter, last = _OLD_TRAMPLE[letter], _OLD_TRAMPLE.get(last)
                if letter is None:
                    return None
            family = f"702.{number}"
        elif family == "702.2" and letter in ("b", "c") and since < DEATHTOUCH_702_2C:
            # Until 2017-01-20, c was the destruction by deathtouch damage, b the rule that
            # makes it lethal (from M11: M10 has none, its b letting deathtouch divide freely).
            if letter == "c" and since < M11:
                return None
            letter = "c" if letter == "b" else "b"
        elif family == "510.4" and since < STEPS_510_4:
            family = "510.5"
        elif family.startswith("120."):  # damage
            section = "118" if since < M11 else "119" if since < DAMAGE_120 else "120"
            if family == "120.3" and letter:
                letter, last = _results_letter(letter, since), last and _results_letter(last, since)
                if letter is None:
                    return None
            family = section + family[3:]
        elif family[:4] in ("615.", "616.") and since < PREVENTION_615:
            family = f"{int(family[:3]) - 1}{family[3:]}"
        elif family == "701.19":  # regenerate, renumbered on days not all known
            return " or ".join(f"{number}{letter or ''}" for number in self._regenerate())
        return f"{family}{letter or ''}" + (f"-{last}" if last else "")

    def _regenerate(self) -> tuple[str, ...]:
        """Regenerate's number on the day asked; both, on a day between the last edition
        seen with the one and the first seen with the other."""
        day = "9999-12-31" if self.asked == CURRENT_NAME else self.asked
        before = ()
        for number, first_seen, last_seen in _REGENERATE:
            if last_seen is None or day <= last_seen:
                return (number,) if day >= first_seen else (*before, number)
            before = (number,)
        raise AssertionError("the last number of regenerate has no end")


def _results_letter(letter: str, since: str) -> str | None:
    """A result of damage (today's 120.3 letter) as an edition letters it: before infect,
    today's b (poison), g (toxic) and h (battles) did not exist, and c-f were b-e; toxic
    and battles added g and h."""
    if since < INFECT:
        return {"a": "a", "c": "b", "d": "c", "e": "d", "f": "e"}.get(letter)
    absent = (letter == "g" and since < TOXIC) or (letter == "h" and since < BATTLES)
    return None if absent else letter


# Regenerate's number, with the first and the last edition of the archive seen to have it
# (each number but today's): a renumbering fell between the two editions either side of it.
# 701.15 came with the keyword action mill, on 2020-07-03.
_REGENERATE = (
    ("701.11", M10, "2011-07-15"),
    ("701.12", "2012-02-01", "2015-09-26"),
    ("701.13", "2016-11-11", "2017-08-25"),
    ("701.14", "2018-07-13", "2020-07-02"),
    ("701.15", "2020-07-03", "2025-02-07"),
    ("701.19", "2025-06-06", None),
)


# The keywords inserted among 702's since M10, each moving those after it on by one: today's
# numbers with the first edition that has them. Hexproof (702.11) moved trample to 702.18,
# indestructible (702.12) to 702.19; the keyword at 702.21 moved banding to 702.22.
_INSERTED = ((11, TRAMPLE_702_18), (12, TRAMPLE_702_19), (21, BANDING_702_22))


# A rule number such as 702.19b, or a range such as 702.19b-f.
_RULE = re.compile(r"\b(\d{3}\.\d+)([a-z])?(?:-([a-z]))?\b")
# Trample's subrules before trample over planeswalkers: today's c and e did not exist.
_OLD_TRAMPLE = {"a": "a", "b": "b", "c": None, "d": "c", "e": None, "f": "d", "g": "e"}

_BOUNDARIES = tuple(
    sorted(
        {
            M10,
            PREVENTION_615,
            M11,
            INFECT,
            TRAMPLE_702_18,
            TRAMPLE_702_19,
            STEPS_510_4,
            DEATHTOUCH_702_2C,
            DAMAGE_120,
            BANDING_702_22,
            TRAMPLE_OVER_PLANESWALKERS,
            TOXIC,
            BATTLES,
            FOUNDATIONS,
        }
    )
)


def in_force(rules: str) -> Edition:
    """The edition a scenario's `rules` names: "current", or a date "YYYY-MM-DD" meaning the
    edition in force on that day (the latest whose own effective date is on or before it)."""
    if rules == CURRENT_NAME:
        return Edition(CURRENT_NAME, FOUNDATIONS, None)
    day = parse_date(rules)
    if day < M10:
        raise EditionError(
            f"{rules} is before the M10 rewrite of 2009-07-11; lethal models the rules from "
            "2009-07-11 on (before, combat damage used the stack, which it does not model)"
        )
    since = max(b for b in _BOUNDARIES if b <= day)
    later = [b for b in _BOUNDARIES if b > day]
    until = _day_before(later[0]) if later else None
    return Edition(rules, since, until)


def parse_date(text: str) -> str:
    """The day `text` names, written YYYY-MM-DD, once it is known to be a calendar date."""
    from datetime import date

    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):  # \d takes any script's digits
        from .reading.problems import did_you_mean

        hint = did_you_mean(text, (CURRENT_NAME,)) if text[:1].isalpha() else ""
        raise EditionError(
            f"{quoted(text)} is neither 'current' nor a date written YYYY-MM-DD (such as "
            f"2015-03-01){hint}"
        )
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError as error:
        raise EditionError(f"{quoted(text)} is not a calendar date: {error}") from None


def _day_before(day: str) -> str:
    from datetime import date

    return date.fromordinal(date.fromisoformat(day).toordinal() - 1).isoformat()


CURRENT = in_force(CURRENT_NAME)
