"""The keywords a scenario may give a creature or a player, and how their text is read.

Quality-carrying keywords ("bands with other <quality>", "protection from <quality>") keep
the quality as written; `quality_key` is how qualities are compared. A card type is a
quality too (702.16a): "protection from creatures" is protected from every creature, so a
quality that names a card type, singular or plural, is kept as that type.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .errors import quoted

TRAMPLE = "trample"
TRAMPLE_OVER_PLANESWALKERS = "trample over planeswalkers"
DEATHTOUCH = "deathtouch"
BANDING = "banding"
FIRST_STRIKE = "first strike"
DOUBLE_STRIKE = "double strike"
INDESTRUCTIBLE = "indestructible"
LIFELINK = "lifelink"  # 702.15
INFECT = "infect"  # 702.90
WITHER = "wither"  # 702.80
PROTECTION_FROM_EVERYTHING = "protection from everything"  # 702.16j
# 510.1a's exception, as Doran, the Siege Tower grants it.
ASSIGNS_TOUGHNESS = "assigns combat damage equal to its toughness"
# Thorn Elemental and its kind.
AS_THOUGH_UNBLOCKED = "may assign combat damage as though it weren't blocked"

PLAIN = (
    TRAMPLE,
    TRAMPLE_OVER_PLANESWALKERS,
    DEATHTOUCH,
    BANDING,
    FIRST_STRIKE,
    DOUBLE_STRIKE,
    INDESTRUCTIBLE,
    LIFELINK,
    INFECT,
    WITHER,
    PROTECTION_FROM_EVERYTHING,
    ASSIGNS_TOUGHNESS,
    AS_THOUGH_UNBLOCKED,
)
_PLAIN = frozenset(PLAIN)
BANDS_WITH_OTHER = "bands with other "
PROTECTION_FROM = "protection from "
WITH_QUALITY = (BANDS_WITH_OTHER, PROTECTION_FROM)
TOXIC = "toxic"  # 702.164: "toxic N", N 1 or more; instances add up (702.164b)

# Keywords that change nothing once blockers are declared: accepted so that engines' fixtures
# need no editing, and dropped. Ward carries a cost ("ward {2}").
IGNORED = frozenset(
    (
        "flying",
        "reach",
        "vigilance",
        "haste",
        "menace",
        "defender",
        "hexproof",
        "shroud",
        "ward",
        "shadow",
        "horsemanship",
        "fear",
        "intimidate",
        "skulk",
        "flash",
        "prowess",
    )
)

# What a player may have of those (Leyline of Sanctity, True Believer): accepted on a player
# and dropped, as on a creature. The others are a permanent's only.
IGNORED_ON_PLAYERS = frozenset(("hexproof", "shroud"))

# The card types of permanents (300.1, 110.4), which a protection quality may name.
CARD_TYPES = ("artifact", "battle", "creature", "enchantment", "kindred", "land", "planeswalker")

# What a user sees in messages as the list of known keywords.
# (The ignored keywords are left out: each is suggested when it is misspelt.)
VOCABULARY = PLAIN + tuple(prefix + "<quality>" for prefix in WITH_QUALITY) + (f"{TOXIC} <N>",)


@dataclass(frozen=True)
class Keywords:
    """A creature's or player's keywords: the plain ones, the qualities of the two
    parametrised ones, and the total of its toxic values."""

    plain: frozenset[str] = frozenset()
    bands_with_other: frozenset[str] = frozenset()  # quality keys
    protection_from: frozenset[str] = frozenset()  # quality keys, card types as the type
    toxic: int = 0  # 702.164b: the sum of its toxic values

    def __contains__(self, keyword: str) -> bool:
        return keyword in self.plain


@functools.lru_cache(maxsize=1024)  # asked of the same few qualities for every creature
def quality_key(quality: str) -> str:
    """The form qualities are compared in: case-folded, without a trailing "creature(s)".

    Cards say "bands with other legendary creatures" of creatures that are "legendary", so
    the noun is not part of the quality.
    """
    key = " ".join(quality.casefold().split())
    for noun in (" creatures", " creature"):
        if key.endswith(noun) and len(key) > len(noun):
            return key[: -len(noun)]
    return key


def card_type(quality: str) -> str | None:
    """The card type a quality names, singular or plural ("creatures", "Artifact"), if any."""
    key = " ".join(quality.casefold().split())
    for name in CARD_TYPES:
        if key in (name, name + "s"):
            return name
    return None


def protection_key(quality: str) -> str:
    """How a protection quality is kept: a card type as the type, so it matches a source's
    `types` (702.16a); any other quality as its quality key."""
    return card_type(quality) or quality_key(quality)


class UnknownKeyword(ValueError):
    def __init__(self, text: str, suggestion: str | None):
        self.text = text
        self.suggestion = suggestion
        hint = f" (did you mean '{suggestion}'?)" if suggestion else ""
        super().__init__(
            f"unknown keyword {quoted(text)}{hint}; known keywords: " + ", ".join(VOCABULARY)
        )


class BadToxic(ValueError):
    """A toxic keyword whose N is missing or not a whole number of 1 or more."""

    def __init__(self, text: str):
        super().__init__(
            f"{quoted(text)} needs a whole number of 1 or more after it, as the card says "
            f"(CR 702.164a): write 'toxic 1', 'toxic 2', ..."
        )


_TOXIC = re.compile(r"toxic(?: (\S*))?")


def parse_keywords(texts: list[str]) -> Keywords:
    """Reads keyword texts; raises UnknownKeyword for the first it does not know, and
    BadToxic for a toxic without its number."""
    plain: set[str] = set()
    bands: set[str] = set()
    protection: set[str] = set()
    toxic = 0
    for text in texts:
        if text in _PLAIN:
            plain.add(text)
        elif text in IGNORED or text.startswith("ward "):
            continue
        elif text.startswith(BANDS_WITH_OTHER) and text[len(BANDS_WITH_OTHER) :].strip():
            bands.add(quality_key(text[len(BANDS_WITH_OTHER) :]))
        elif text.startswith(PROTECTION_FROM) and text[len(PROTECTION_FROM) :].strip():
            protection.update(protected_from(text))
        elif _TOXIC.fullmatch(text):
            number = _TOXIC.fullmatch(text).group(1) or ""
            if not (number.isascii() and number.isdigit() and 1 <= int(number) <= 10**6):
                raise BadToxic(text)
            toxic += int(number)
        else:
            raise UnknownKeyword(text, _suggest(text))
    return Keywords(frozenset(plain), frozenset(bands), frozenset(protection), toxic)


COLORS = ("white", "blue", "black", "red", "green")  # 105.1
_AND_FROM = re.compile(r"\s+and from\s+")


def protected_from(text: str) -> list[str]:
    """The protection keys of "protection from ...": "from A and from B" is protection from
    each (702.16g), and "from each color" (older cards: "all colors") from each of the five
    (702.16h)."""
    found = []
    for quality in _AND_FROM.split(text[len(PROTECTION_FROM) :].strip()):
        if " ".join(quality.casefold().split()) in ("each color", "all colors"):
            found += COLORS
        else:
            found.append(protection_key(quality))
    return found


def plain_keyword(text: str) -> str:
    """`text`, if it names a keyword without a quality; raises UnknownKeyword otherwise."""
    if text in _PLAIN:  # asked for each creature and keyword a check reads: a set
        return text
    raise UnknownKeyword(text, _suggest(text) if isinstance(text, str) else None)


def _suggest(text: str) -> str | None:
    lowered = text.casefold().strip()
    for prefix in WITH_QUALITY:
        # "Bands with other Wolves", "protection from: red": keep the quality as written.
        bare = prefix.strip()
        if lowered.startswith(bare) and lowered != bare:
            rest = text.strip()[len(bare) :].lstrip(" :")
            return prefix + rest if rest else None
    if lowered.startswith(TOXIC):
        spaced = " ".join(lowered.split())
        numbered = spaced[len(TOXIC) + 1 :].isdigit() and spaced.startswith(TOXIC + " ")
        return spaced if numbered else f"{TOXIC} 1"
    import difflib  # only for a keyword lethal does not know: it costs a command's start 1 ms

    known = PLAIN + tuple(p.strip() for p in WITH_QUALITY) + tuple(IGNORED)
    close = difflib.get_close_matches(lowered, known, n=1)
    if not close:
        return None
    return close[0] if close[0] in PLAIN or close[0] in IGNORED else close[0] + " <quality>"
