"""The keywords a scenario may give a creature, and how their text is read.

Quality-carrying keywords ("bands with other <quality>", "protection from <quality>") keep
the quality as written; `quality_key` is how qualities are compared.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .errors import quoted

TRAMPLE = "trample"
TRAMPLE_OVER_PLANESWALKERS = "trample over planeswalkers"
DEATHTOUCH = "deathtouch"
BANDING = "banding"
FIRST_STRIKE = "first strike"
DOUBLE_STRIKE = "double strike"
INDESTRUCTIBLE = "indestructible"

PLAIN = (
    TRAMPLE,
    TRAMPLE_OVER_PLANESWALKERS,
    DEATHTOUCH,
    BANDING,
    FIRST_STRIKE,
    DOUBLE_STRIKE,
    INDESTRUCTIBLE,
)
_PLAIN = frozenset(PLAIN)
BANDS_WITH_OTHER = "bands with other "
PROTECTION_FROM = "protection from "
WITH_QUALITY = (BANDS_WITH_OTHER, PROTECTION_FROM)

# What a user sees in messages as the list of known keywords.
VOCABULARY = PLAIN + tuple(prefix + "<quality>" for prefix in WITH_QUALITY)


@dataclass(frozen=True)
class Keywords:
    """A creature's keywords: the plain ones, and the qualities of the two parametrised ones."""

    plain: frozenset[str] = frozenset()
    bands_with_other: frozenset[str] = frozenset()  # quality keys
    protection_from: frozenset[str] = frozenset()  # quality keys

    def __contains__(self, keyword: str) -> bool:
        return keyword in self.plain


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


class UnknownKeyword(ValueError):
    def __init__(self, text: str, suggestion: str | None):
        self.text = text
        self.suggestion = suggestion
        hint = f" (did you mean '{suggestion}'?)" if suggestion else ""
        super().__init__(
            f"unknown keyword {quoted(text)}{hint}; known keywords: " + ", ".join(VOCABULARY)
        )


def parse_keywords(texts: list[str]) -> Keywords:
    """Reads keyword texts; raises UnknownKeyword for the first it does not know."""
    plain: set[str] = set()
    bands: set[str] = set()
    protection: set[str] = set()
    for text in texts:
        if text in PLAIN:
            plain.add(text)
        elif text.startswith(BANDS_WITH_OTHER) and text[len(BANDS_WITH_OTHER) :].strip():
            bands.add(quality_key(text[len(BANDS_WITH_OTHER) :]))
        elif text.startswith(PROTECTION_FROM) and text[len(PROTECTION_FROM) :].strip():
            protection.add(quality_key(text[len(PROTECTION_FROM) :]))
        else:
            raise UnknownKeyword(text, _suggest(text))
    return Keywords(frozenset(plain), frozenset(bands), frozenset(protection))


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
    close = difflib.get_close_matches(lowered, PLAIN + tuple(p.strip() for p in WITH_QUALITY), n=1)
    if not close:
        return None
    return close[0] if close[0] in PLAIN else close[0] + " <quality>"
