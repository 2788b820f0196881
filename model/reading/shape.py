"""The first reading pass: the shape of every value (types, known and required fields)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .. import editions
from ..combat import ADD, CANT_BE_PREVENTED, DOUBLE, EFFECT_KINDS, PERMANENT_TYPES, PREVENT, STEPS
from ..keywords import (
    CARD_TYPES,
    IGNORED,
    IGNORED_ON_PLAYERS,
    PROTECTION_FROM_EVERYTHING,
    VOCABULARY,
    BadToxic,
    UnknownKeyword,
    parse_keywords,
)
from .problems import Problems, did_you_mean, found, join, name, show

FORMAT = "lethal/1"
TOP_FIELDS = (
    "format",
    "rules",
    "step",
    "players",
    "active_player",
    "permanents",
    "bands",
    "assignment",
    "effects",
)
EFFECT_FIELDS = ("id", "kind", "amount", "to", "sources", "recipients", "once")
PLAYER_FIELDS = ("id", "life", "poison", "keywords")
PERMANENT_FIELDS = (
    "id",
    "controller",
    "types",
    "power",
    "toughness",
    "damage",
    "loyalty",
    "defense",
    "protector",
    "keywords",
    "qualities",
    "attacking",
    "blocked",
    "blocking",
    "removed_from_combat",
    "struck_first",
    "order",
    "regeneration_shields",
)
ENTRY_FIELDS = ("source", "to", "amount")
# The integers every JSON reader holds exactly (RFC 8259, section 6); beyond them a file means
# different things to different tools, and sums of them could outgrow what Python prints.
LARGEST = 2**53 - 1


class Shape(Problems):
    def fields(self, value: Any, place: str, known: tuple[str, ...]) -> dict | None:
        if not isinstance(value, dict):
            what = "an object" if place else "the scenario to be one JSON object"
            self.problem(place, f"expected {what}, found {found(value)}")
            return None
        for key in getattr(value, "repeated", ()):
            self.problem(join(place, name(key)), "given twice in the same object")
        for key in value:
            if key not in known:
                self.problem(
                    join(place, name(key)),
                    f"unknown field{did_you_mean(key, known)}; known fields: {', '.join(known)}",
                )
        return value

    def expect(self, value: Any, place: str, check: Callable[[Any], bool], what: str) -> Any:
        if check(value):
            return value
        self.problem(place, f"expected {what}, found {found(value)}")
        return None

    def integer(self, value: Any, place: str, minimum: int | None = None, why: str = "") -> Any:
        number = self.expect(value, place, _is_int, "an integer")
        if number is not None and abs(number) > LARGEST:
            self.problem(
                place,
                f"expected an integer from -{LARGEST} to {LARGEST}, the integers every JSON "
                f"reader holds exactly (RFC 8259, section 6), found {show(number)}",
            )
            return None
        if number is not None and minimum is not None and number < minimum:
            self.problem(place, f"expected an integer {minimum} or more{why}, found {show(number)}")
            return None
        return number

    def string(self, value: Any, place: str) -> Any:
        text = self.expect(
            value, place, lambda v: isinstance(v, str) and v != "", "a non-empty string"
        )
        # JSON can write half of a UTF-16 pair ("\ud800") alone, which is no character: no
        # text output, file name or solver could take it. Sought only in text that is not
        # ASCII, so that a plain file never compiles the pattern (0.6 ms of a check).
        if text is not None and not text.isascii() and re.search(_LONE_SURROGATE, text):
            self.problem(
                place,
                f"expected text, found {show(text)}, which holds half of a UTF-16 surrogate "
                "pair (\\ud800-\\udfff) without its other half",
            )
            return None
        return text

    def boolean(self, value: Any, place: str) -> Any:
        return self.expect(value, place, lambda v: isinstance(v, bool), "true or false")

    def list_of(self, value: Any, place: str, item: Callable[[Any, str], Any]) -> list | None:
        if self.expect(value, place, lambda v: isinstance(v, list), "a list") is None:
            return None
        return [item(v, f"{place}[{i}]") for i, v in enumerate(value)]

    def check(self, data: Any) -> dict:
        """The fields of the file that are there, each checked for its type."""
        top = self.fields(data, "", TOP_FIELDS)
        if top is None:
            return {}
        for field in ("players", "active_player", "permanents"):
            if field not in top:
                self.problem(field, "missing: every scenario needs it")
        shaped: dict[str, Any] = {}
        if "format" in top and top["format"] != FORMAT:
            self.problem("format", f"expected '{FORMAT}', found {show(top['format'])}")
        if "rules" in top:
            shaped["rules"] = self.edition(top["rules"])
        if "step" in top:
            step = top["step"]
            if step not in STEPS:
                self.problem(
                    "step",
                    f"unknown step {show(step)}{did_you_mean(step, STEPS)}; "
                    f"expected one of {', '.join(STEPS)} (CR 510.4)",
                )
            shaped["step"] = step
        if "players" in top:
            shaped["players"] = self.list_of(top["players"], "players", self.player)
        if "active_player" in top:
            shaped["active_player"] = self.string(top["active_player"], "active_player")
        if "permanents" in top:
            shaped["permanents"] = self.list_of(top["permanents"], "permanents", self.permanent)
        if "bands" in top:
            shaped["bands"] = self.list_of(
                top["bands"], "bands", lambda v, p: self.list_of(v, p, self.string)
            )
        if "effects" in top:
            shaped["effects"] = self.list_of(top["effects"], "effects", self.effect)
        if "assignment" in top:
            shaped["assignment"] = self.list_of(top["assignment"], "assignment", self.entry)
        return shaped

    def edition(self, value: Any) -> str | None:
        """'current', or a date: the edition in force that day (see editions.py)."""
        # Longer than either, or unprintable, it is neither: said here, so that the message
        # shows it cut and escaped.
        if not isinstance(value, str) or len(value) > len("YYYY-MM-DD") or not value.isprintable():
            self.problem("rules", f"expected 'current' or a date YYYY-MM-DD, found {found(value)}")
            return None
        try:
            editions.in_force(value)
        except editions.EditionError as error:
            self.problem("rules", str(error))
            return None
        return value

    def player(self, value: Any, place: str) -> dict | None:
        if isinstance(value, dict) and "regeneration_shields" in value:
            self.problem(
                join(place, "regeneration_shields"),
                f"found {show(value['regeneration_shields'])} on a player, but a player is never "
                "destroyed, so it can't be regenerated (CR 701.19a); give regeneration_shields "
                "to the creature it should save",
            )
            value = {k: v for k, v in value.items() if k != "regeneration_shields"}
        fields = self.fields(value, place, PLAYER_FIELDS)
        if fields is None:
            return None
        if "id" not in fields:
            self.problem(join(place, "id"), "missing: every player needs an id")
        else:
            self.string(fields["id"], join(place, "id"))
        if "life" in fields:
            self.integer(fields["life"], join(place, "life"))
        if "poison" in fields:
            self.integer(
                fields["poison"],
                join(place, "poison"),
                minimum=0,
                why=" (the poison counters the player has now)",
            )
        if "keywords" in fields:
            for i, text in enumerate(self.keywords(fields["keywords"], join(place, "keywords"))):
                if text is None:
                    continue
                try:
                    parsed = parse_keywords([text])
                except ValueError:
                    continue  # said by self.keywords
                ignored = text in IGNORED or text.startswith("ward ")
                creatures_only = ignored and text not in IGNORED_ON_PLAYERS
                if parsed.plain - {PROTECTION_FROM_EVERYTHING} or parsed.toxic or creatures_only:
                    self.problem(
                        f"{join(place, 'keywords')}[{i}]",
                        f"{show(text)} is a creature's keyword; a player has only protection "
                        "('protection from everything', 'protection from <quality>', CR 702.16b), "
                        "or hexproof and shroud, which change nothing in combat damage",
                    )
        return fields

    def permanent(self, value: Any, place: str) -> dict | None:
        fields = self.fields(value, place, PERMANENT_FIELDS)
        if fields is None:
            return None
        for required in ("id", "controller", "types"):
            if required not in fields:
                self.problem(join(place, required), "missing: every permanent needs it")
        at = lambda field: join(place, field)  # noqa: E731
        for field in ("id", "controller", "attacking", "protector"):
            if field in fields:
                self.string(fields[field], at(field))
        for field in ("power", "toughness", "loyalty", "defense"):
            if field in fields:
                self.integer(fields[field], at(field))
        for field in ("damage", "regeneration_shields"):
            if field in fields:
                self.integer(fields[field], at(field), minimum=0)
        for field in ("blocked", "removed_from_combat", "struck_first"):
            if field in fields:
                self.boolean(fields[field], at(field))
        if "types" in fields:
            types = self.list_of(fields["types"], at("types"), self.string) or []
            for i, name in enumerate(types):
                if name is not None and name not in CARD_TYPES:
                    self.problem(
                        f"{at('types')}[{i}]",
                        f"unknown card type {show(name)}{did_you_mean(name, CARD_TYPES)}; "
                        f"expected the card types of a permanent: {', '.join(CARD_TYPES)} "
                        "(supertypes, subtypes and colours, such as 'legendary' or 'Elf', go "
                        "in 'qualities')",
                    )
            if isinstance(fields["types"], list) and not set(types) & set(PERMANENT_TYPES):
                self.problem(
                    at("types"),
                    "expected one or more of " + ", ".join(PERMANENT_TYPES) + ", besides any "
                    "other card types: only those are dealt combat damage",
                )
        for field in ("qualities", "blocking", "order"):
            if field in fields:
                self.list_of(fields[field], at(field), self.string)
        if "keywords" in fields:
            self.keywords(fields["keywords"], at("keywords"))
        return fields

    def keywords(self, value: Any, place: str) -> list:
        """Each keyword text is one lethal knows."""
        texts = self.list_of(value, place, self.string) or []
        for i, text in enumerate(texts):
            if text is None:
                continue
            try:
                parse_keywords([text])
            except UnknownKeyword as error:  # said here, to show a huge text cut
                hint = f" (did you mean {show(error.suggestion)}?)" if error.suggestion else ""
                self.problem(
                    f"{place}[{i}]",
                    f"unknown keyword {show(text)}{hint}; known keywords: " + ", ".join(VOCABULARY),
                )
            except BadToxic:
                number = text.partition(" ")[2]
                self.problem(
                    f"{place}[{i}]",
                    f"{show(text)}: toxic needs a whole number from 1 to 1,000,000 after it, "
                    f"the N of 'toxic N' on the card (CR 702.164a), and found "
                    f"{show(number) if number else 'none'}; write 'toxic 1', 'toxic 2', ...",
                )
        return texts

    def effect(self, value: Any, place: str) -> dict | None:
        fields = self.fields(value, place, EFFECT_FIELDS)
        if fields is None:
            return None
        for field in ("id", "kind"):
            if field not in fields:
                self.problem(join(place, field), "missing: every effect needs it")
        for field in ("id", "to"):
            if field in fields:
                self.string(fields[field], join(place, field))
        for field in ("sources", "recipients"):
            if field in fields:
                self.list_of(fields[field], join(place, field), self.string)
        kind = fields.get("kind")
        if "kind" in fields and kind not in EFFECT_KINDS:
            self.problem(
                join(place, "kind"),
                f"unknown effect {show(kind)}{did_you_mean(kind, EFFECT_KINDS)}; expected one "
                f"of {', '.join(EFFECT_KINDS)}",
            )
            return fields
        needs = {ADD: ("amount",)}.get(kind, ())
        allowed = {
            DOUBLE: ("sources", "recipients"),
            PREVENT: ("amount", "to", "sources", "once"),
            ADD: ("amount", "sources", "recipients"),
            CANT_BE_PREVENTED: ("sources",),
        }.get(kind, ())
        for field in needs:
            if field not in fields:
                self.problem(join(place, field), f"missing: a {kind} effect needs it")
        for field in ("amount", "to", "sources", "recipients", "once"):
            if field in fields and kind in EFFECT_KINDS and field not in allowed:
                self.problem(join(place, field), f"a {kind} effect has no {field}")
        if "amount" in fields:
            self.integer(fields["amount"], join(place, "amount"), minimum=1)
        if "once" in fields:
            self.boolean(fields["once"], join(place, "once"))
        if kind == PREVENT and "amount" in fields and "to" not in fields:
            self.problem(
                join(place, "to"),
                "missing: a prevention of the next N damage is a shield on one player or "
                "permanent, whose player chooses which damage it prevents (CR 615.7); give "
                "'to', or leave out 'amount' to prevent all the damage",
            )
        return fields

    def entry(self, value: Any, place: str) -> dict | None:
        fields = self.fields(value, place, ENTRY_FIELDS)
        if fields is None:
            return None
        for field in ENTRY_FIELDS:
            if field not in fields:
                self.problem(join(place, field), "missing: every assignment entry needs it")
        for field in ("source", "to"):
            if field in fields:
                self.string(fields[field], join(place, field))
        if "amount" in fields:
            self.integer(
                fields["amount"],
                join(place, "amount"),
                minimum=1,
                why=" (leave out pairs that are assigned nothing)",
            )
        return fields


_LONE_SURROGATE = "[\ud800-\udfff]"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
