"""Reading scenario files (format lethal/1): JSON in, a validated `Scenario` out.

Every problem found is reported at once, each with its place in the file, the value found
and what was expected. Reading happens in two passes: the shape of each value (types, known
fields), then what the values say together (ids, who attacks and blocks what, bands, the
step), so that a file with a typo does not also bury the user in follow-on complaints.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import rulesets
from .combat import (
    BATTLE,
    CREATURE,
    FIRST_STRIKE_STEP,
    ONLY,
    PERMANENT_TYPES,
    PLANESWALKER,
    SECOND,
    STEPS,
    Entry,
    Permanent,
    Player,
    Scenario,
)
from .errors import Problem, ScenarioError
from .keywords import (
    DOUBLE_STRIKE,
    FIRST_STRIKE,
    INDESTRUCTIBLE,
    UnknownKeyword,
    parse_keywords,
    quality_key,
)
from .rules import banding
from .view import ScenarioView

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
)
PLAYER_FIELDS = ("id", "life")
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
)
ENTRY_FIELDS = ("source", "to", "amount")

# Fields that only some kinds of permanent may carry.
CREATURE_ONLY = (
    "power",
    "toughness",
    "damage",
    "keywords",
    "attacking",
    "blocked",
    "blocking",
    "struck_first",
)
PLANESWALKER_ONLY = ("loyalty",)
BATTLE_ONLY = ("defense", "protector")


def load(path: str | Path) -> Scenario:
    """Reads a scenario file; raises ScenarioError naming every problem."""
    origin = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(origin, [Problem("", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError(origin, [Problem("", "is a folder, not a scenario file")]) from None
    except UnicodeDecodeError as error:
        problem = Problem("", f"not UTF-8 text (byte {error.start})")
        raise ScenarioError(origin, [problem]) from None
    except OSError as error:
        raise ScenarioError(origin, [Problem("", error.strerror or str(error))]) from None
    return loads(text, origin)


def loads(text: str, origin: str = "<scenario>") -> Scenario:
    try:
        data = json.loads(text, object_pairs_hook=_JsonObject)
    except json.JSONDecodeError as error:
        place = f"line {error.lineno}, column {error.colno}"
        raise ScenarioError(origin, [Problem(place, f"not valid JSON: {error.msg}")]) from None
    return parse(data, origin)


def parse(data: Any, origin: str = "<scenario>") -> Scenario:
    """Validates decoded JSON (or an equivalent dict) and builds the scenario."""
    reader = _Reader()
    shaped = reader.shape(data)
    if reader.problems:
        raise ScenarioError(origin, reader.problems)
    scenario = reader.meaning(shaped)
    if reader.problems:
        raise ScenarioError(origin, reader.problems)
    return scenario


class _JsonObject(dict):
    """A decoded JSON object that remembers keys given twice (plain dicts keep the last)."""

    def __init__(self, pairs: list[tuple[str, Any]]):
        super().__init__(pairs)
        seen: set[str] = set()
        self.repeated = [k for k, _ in pairs if k in seen or seen.add(k)]


def did_you_mean(value: object, candidates: list[str] | tuple[str, ...]) -> str:
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _show(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else repr(value)


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if value is None:
        return "null"
    if isinstance(value, (dict, _JsonObject)):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return names.get(type(value), type(value).__name__)


class _Reader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, place: str, message: str) -> None:
        self.problems.append(Problem(place, message))

    # The first pass: the shape of every value.

    def fields(self, value: Any, place: str, known: tuple[str, ...]) -> dict | None:
        if not isinstance(value, dict):
            what = "an object" if place else "the scenario to be one JSON object"
            self.problem(place, f"expected {what}, found {_kind(value)} {_show(value)}")
            return None
        for key in getattr(value, "repeated", ()):
            self.problem(_join(place, key), "given twice in the same object")
        for key in value:
            if key not in known:
                self.problem(
                    _join(place, key),
                    f"unknown field{did_you_mean(key, known)}; known fields: {', '.join(known)}",
                )
        return value

    def expect(self, value: Any, place: str, check: Callable[[Any], bool], what: str) -> Any:
        if check(value):
            return value
        self.problem(place, f"expected {what}, found {_kind(value)} {_show(value)}")
        return None

    def integer(self, value: Any, place: str, minimum: int | None = None, why: str = "") -> Any:
        number = self.expect(value, place, _is_int, "an integer")
        if number is not None and minimum is not None and number < minimum:
            self.problem(place, f"expected an integer {minimum} or more{why}, found {number}")
            return None
        return number

    def string(self, value: Any, place: str) -> Any:
        return self.expect(
            value, place, lambda v: isinstance(v, str) and v != "", "a non-empty string"
        )

    def boolean(self, value: Any, place: str) -> Any:
        return self.expect(value, place, lambda v: isinstance(v, bool), "true or false")

    def list_of(self, value: Any, place: str, item: Callable[[Any, str], Any]) -> list | None:
        if self.expect(value, place, lambda v: isinstance(v, list), "a list") is None:
            return None
        return [item(v, f"{place}[{i}]") for i, v in enumerate(value)]

    def shape(self, data: Any) -> dict:
        top = self.fields(data, "", TOP_FIELDS)
        if top is None:
            return {}
        for field in ("players", "active_player", "permanents"):
            if field not in top:
                self.problem(field, "missing: every scenario needs it")
        shaped: dict[str, Any] = {}
        if "format" in top and top["format"] != FORMAT:
            self.problem("format", f"expected '{FORMAT}', found {_show(top['format'])}")
        if "rules" in top:
            name = top["rules"]
            if name not in rulesets.KNOWN:
                self.problem(
                    "rules",
                    f"unknown rules edition {_show(name)}{did_you_mean(name, rulesets.names())}"
                    f"; known: {', '.join(rulesets.names())}",
                )
            shaped["rules"] = name
        if "step" in top:
            step = top["step"]
            if step not in STEPS:
                self.problem(
                    "step",
                    f"unknown step {_show(step)}{did_you_mean(step, STEPS)}; "
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
        if "assignment" in top:
            shaped["assignment"] = self.list_of(top["assignment"], "assignment", self.entry)
        return shaped

    def player(self, value: Any, place: str) -> dict | None:
        fields = self.fields(value, place, PLAYER_FIELDS)
        if fields is None:
            return None
        if "id" not in fields:
            self.problem(_join(place, "id"), "missing: every player needs an id")
        else:
            self.string(fields["id"], _join(place, "id"))
        if "life" in fields:
            self.integer(fields["life"], _join(place, "life"))
        return fields

    def permanent(self, value: Any, place: str) -> dict | None:
        fields = self.fields(value, place, PERMANENT_FIELDS)
        if fields is None:
            return None
        for required in ("id", "controller", "types"):
            if required not in fields:
                self.problem(_join(place, required), "missing: every permanent needs it")
        at = lambda field: _join(place, field)  # noqa: E731
        for field in ("id", "controller", "attacking", "protector"):
            if field in fields:
                self.string(fields[field], at(field))
        for field in ("power", "toughness", "loyalty", "defense"):
            if field in fields:
                self.integer(fields[field], at(field))
        if "damage" in fields:
            self.integer(fields["damage"], at("damage"), minimum=0)
        for field in ("blocked", "removed_from_combat", "struck_first"):
            if field in fields:
                self.boolean(fields[field], at(field))
        if "types" in fields:
            types = self.list_of(fields["types"], at("types"), self.string) or []
            for i, name in enumerate(types):
                if name is not None and name not in PERMANENT_TYPES:
                    self.problem(
                        f"{at('types')}[{i}]",
                        f"unknown type {_show(name)}{did_you_mean(name, PERMANENT_TYPES)}; "
                        f"expected one of {', '.join(PERMANENT_TYPES)}",
                    )
            if isinstance(fields["types"], list) and not fields["types"]:
                self.problem(at("types"), "expected one or more of " + ", ".join(PERMANENT_TYPES))
        for field in ("qualities", "blocking"):
            if field in fields:
                self.list_of(fields[field], at(field), self.string)
        if "keywords" in fields:
            texts = self.list_of(fields["keywords"], at("keywords"), self.string) or []
            for i, text in enumerate(texts):
                if text is None:
                    continue
                try:
                    parse_keywords([text])
                except UnknownKeyword as error:
                    self.problem(f"{at('keywords')}[{i}]", str(error))
        return fields

    def entry(self, value: Any, place: str) -> dict | None:
        fields = self.fields(value, place, ENTRY_FIELDS)
        if fields is None:
            return None
        for field in ENTRY_FIELDS:
            if field not in fields:
                self.problem(_join(place, field), "missing: every assignment entry needs it")
        for field in ("source", "to"):
            if field in fields:
                self.string(fields[field], _join(place, field))
        if "amount" in fields:
            self.integer(
                fields["amount"],
                _join(place, "amount"),
                minimum=1,
                why=" (leave out pairs that are assigned nothing)",
            )
        return fields

    # The second pass: what the values say together.

    def meaning(self, shaped: dict) -> Scenario:
        players = [Player(p["id"], p.get("life")) for p in shaped["players"]]
        raw = shaped["permanents"]
        if len(players) < 2:
            self.problem("players", f"expected at least two players, found {len(players)}")
        where: dict[str, str] = {}
        for i, player in enumerate(players):
            self.unique(where, player.id, f"players[{i}].id")
        for i, fields in enumerate(raw):
            self.unique(where, fields["id"], f"permanents[{i}].id")
        if self.problems:  # with ids in doubt, what refers to them can't be judged
            return Scenario((), "", ())
        player_ids = [p.id for p in players]
        ids = list(where)
        by_id = {fields["id"]: fields for fields in raw}

        active = shaped["active_player"]
        self.known(active, player_ids, "active_player", "a player id")
        step = shaped.get("step", ONLY)

        for i, fields in enumerate(raw):
            self.permanent_meaning(fields, f"permanents[{i}]", player_ids, ids, by_id, active, step)
        if self.problems:
            return Scenario((), "", ())

        permanents = tuple(self.build(fields, raw, step) for fields in raw)
        scenario = Scenario(
            players=tuple(players),
            active_player=active,
            permanents=permanents,
            step=step,
            rules=shaped.get("rules", rulesets.CURRENT.name),
            bands=tuple(tuple(band) for band in shaped.get("bands", ())),
        )
        view = ScenarioView(scenario)
        self.blocking_meaning(scenario, view)
        self.step_meaning(scenario, "step" in shaped)
        self.bands_meaning(scenario, view)
        entries = self.assignment_meaning(shaped.get("assignment"), scenario, ids)
        if entries is not None:
            scenario = Scenario(**{**scenario.__dict__, "assignment": entries})
        return scenario

    def unique(self, where: dict[str, str], id: str, place: str) -> None:
        if id in where:
            self.problem(place, f"duplicate id '{id}' (already used at {where[id]})")
        else:
            where[id] = place

    def known(
        self,
        value: str,
        candidates: list[str],
        place: str,
        what: str,
        fitting: list[str] | None = None,
    ) -> bool:
        """Whether value is one of candidates; if not, says so, suggesting from `fitting`
        (the candidates that would make sense here), when given."""
        if value in candidates:
            return True
        fitting = candidates if fitting is None else fitting
        self.problem(
            place,
            f"unknown id {_show(value)}{did_you_mean(value, fitting)}; expected {what}"
            + (f" ({', '.join(fitting)})" if 0 < len(fitting) <= 8 else ""),
        )
        return False

    def permanent_meaning(self, fields, place, player_ids, ids, by_id, active, step) -> None:
        at = lambda field: _join(place, field)  # noqa: E731
        types = set(fields["types"])
        keywords = parse_keywords(fields.get("keywords", []))
        self.known(fields["controller"], player_ids, at("controller"), "a player id")
        for kind, only in (
            (CREATURE, CREATURE_ONLY),
            (PLANESWALKER, PLANESWALKER_ONLY),
            (BATTLE, BATTLE_ONLY),
        ):
            for field in only:
                if field in fields and kind not in types:
                    self.problem(
                        at(field),
                        f"only a {kind} has {field}, and this is a {' and '.join(sorted(types))}",
                    )
        if CREATURE in types:
            for field in ("power", "toughness"):
                if field not in fields:
                    self.problem(at(field), "missing: every creature needs it")
            toughness = fields.get("toughness")
            if toughness is not None and toughness <= 0:
                self.problem(
                    at("toughness"),
                    f"expected 1 or more, found {toughness}: a "
                    "creature with toughness 0 or less is already in the graveyard "
                    "(CR 704.5f)",
                )
            damage = fields.get("damage", 0)
            if (
                toughness is not None
                and toughness > 0
                and damage >= toughness
                and INDESTRUCTIBLE not in keywords
            ):
                self.problem(
                    at("damage"),
                    f"{damage} damage marked is lethal for toughness "
                    f"{toughness}: the creature would have been destroyed (CR 704.5g); "
                    "give it 'indestructible' if it survived",
                )
        if PLANESWALKER in types:
            if "loyalty" not in fields:
                self.problem(at("loyalty"), "missing: every planeswalker needs it")
            elif fields["loyalty"] <= 0:
                self.problem(
                    at("loyalty"),
                    f"expected 1 or more, found {fields['loyalty']}: a "
                    "planeswalker with no loyalty is already gone (CR 704.5i)",
                )
        if BATTLE in types:
            for field in ("defense", "protector"):
                if field not in fields:
                    self.problem(at(field), "missing: every battle needs it")
            if fields.get("defense", 1) <= 0:
                self.problem(
                    at("defense"),
                    f"expected 1 or more, found {fields['defense']}: a "
                    "battle with no defense is already gone (CR 704.5v)",
                )
            if "protector" in fields:
                self.known(fields["protector"], player_ids, at("protector"), "a player id")
            for field in ("attacking", "blocking"):
                if field in fields:
                    self.problem(
                        at(field),
                        "a battle can't attack or block, even when it is "
                        "also a creature (March of the Machine rulings)",
                    )
        if "removed_from_combat" in fields and not types & {PLANESWALKER, BATTLE}:
            self.problem(
                at("removed_from_combat"),
                "only an attacked planeswalker or battle is "
                "removed from combat this way (CR 506.4c)",
            )

        target = fields.get("attacking")
        targets = [i for i in ids if i in player_ids and i != active] + [
            i for i, f in by_id.items() if set(f["types"]) & {PLANESWALKER, BATTLE}
        ]
        if target is not None and self.known(
            target, ids, at("attacking"), "the id of a player, planeswalker or battle", targets
        ):
            attacked = by_id.get(target)
            if target == active:
                self.problem(
                    at("attacking"), f"'{target}' is the active player, who can't be attacked"
                )
            elif attacked is not None and not set(attacked["types"]) & {PLANESWALKER, BATTLE}:
                self.problem(
                    at("attacking"),
                    f"'{target}' is a {' and '.join(attacked['types'])}; "
                    "a creature attacks a player, a planeswalker or a battle",
                )
            elif (
                attacked is not None
                and PLANESWALKER in attacked["types"]
                and attacked["controller"] == active
            ):
                self.problem(
                    at("attacking"),
                    f"'{target}' is the active player's own planeswalker, which can't be attacked",
                )
            elif (
                attacked is not None
                and BATTLE in attacked["types"]
                and attacked.get("protector") == active
            ):
                self.problem(
                    at("attacking"),
                    f"'{target}' is protected by the active player, "
                    "who can't attack it (CR 310.8b)",
                )
            if fields["controller"] != active:
                self.problem(
                    at("attacking"),
                    f"attacking creatures are the active player's, "
                    f"but its controller is '{fields['controller']}'",
                )
        if "blocking" in fields:
            if target is not None:
                self.problem(at("blocking"), "a creature can't both attack and block")
            seen: set[str] = set()
            for i, attacker in enumerate(fields["blocking"]):
                spot = f"{at('blocking')}[{i}]"
                if attacker in seen:
                    self.problem(spot, f"'{attacker}' is listed twice")
                seen.add(attacker)
                attackers = [i for i, f in by_id.items() if f.get("attacking") is not None]
                if not self.known(attacker, ids, spot, "an attacking creature", attackers):
                    continue
                if by_id.get(attacker, {}).get("attacking") is None:
                    self.problem(spot, f"'{attacker}' is not attacking, so it can't be blocked")
        if "blocked" in fields and target is None:
            self.problem(at("blocked"), "only an attacking creature is blocked or unblocked")
        if "struck_first" in fields and CREATURE in types:
            if fields.get("attacking") is None and "blocking" not in fields:
                self.problem(at("struck_first"), "only an attacking or blocking creature strikes")
            elif step != SECOND:
                self.problem(
                    at("struck_first"),
                    f"only for step 'second', and the step is '{step}' (CR 510.4)",
                )

    def build(self, fields: dict, raw: list[dict], step: str) -> Permanent:
        keywords = parse_keywords(fields.get("keywords", []))
        blocked_by = [p["id"] for p in raw if fields["id"] in p.get("blocking", ())]
        return Permanent(
            id=fields["id"],
            controller=fields["controller"],
            types=frozenset(fields["types"]),
            power=fields.get("power"),
            toughness=fields.get("toughness"),
            damage=fields.get("damage", 0),
            loyalty=fields.get("loyalty"),
            defense=fields.get("defense"),
            protector=fields.get("protector"),
            keywords=keywords,
            qualities=frozenset(quality_key(q) for q in fields.get("qualities", [])),
            attacking=fields.get("attacking"),
            blocked=fields.get("blocked", bool(blocked_by)) if "attacking" in fields else False,
            blocking=tuple(fields["blocking"]) if "blocking" in fields else None,
            removed_from_combat=fields.get("removed_from_combat", False),
            # CR 510.4: by default, what it has now is what it had as the first step began.
            struck_first=fields.get(
                "struck_first", FIRST_STRIKE in keywords or DOUBLE_STRIKE in keywords
            ),
        )

    def blocking_meaning(self, scenario: Scenario, view: ScenarioView) -> None:
        for i, blocker in enumerate(scenario.permanents):
            for j, attacker in enumerate(blocker.blocking or ()):
                defender = view.defending_player(attacker)
                if blocker.controller != defender:
                    self.problem(
                        f"permanents[{i}].blocking[{j}]",
                        f"'{attacker}' attacks '{scenario.permanent(attacker).attacking}', so only "
                        f"creatures of its defending player '{defender}' can block it, and "
                        f"'{blocker.id}' is controlled by '{blocker.controller}' (CR 509.1a, "
                        "310.8c)",
                    )
        for i, permanent in enumerate(scenario.permanents):
            if (
                permanent.attacking is not None
                and not permanent.blocked
                and view.blockers_of(permanent.id)
            ):
                self.problem(
                    f"permanents[{i}].blocked",
                    f"false, but {', '.join(view.blockers_of(permanent.id))} blocks it (CR 509.1h)",
                )

    def step_meaning(self, scenario: Scenario, given: bool) -> None:
        strikers = [
            p.id
            for p in scenario.permanents
            if p.in_combat and (FIRST_STRIKE in p.keywords or DOUBLE_STRIKE in p.keywords)
        ]
        if strikers and scenario.step == ONLY:
            said = "no step is given" if not given else "the step is 'only'"
            self.problem(
                "step",
                f"{', '.join(strikers)} has first strike or double strike, so "
                f"the phase has two combat damage steps (CR 510.4), but {said}; expected "
                "'first-strike' or 'second'",
            )
        if not strikers and scenario.step == FIRST_STRIKE_STEP:
            self.problem(
                "step",
                "'first-strike', but no attacking or blocking creature has "
                "first strike or double strike, so there is no such step (CR 510.4)",
            )

    def bands_meaning(self, scenario: Scenario, view: ScenarioView) -> None:
        band_of: dict[str, str] = {}
        for i, band in enumerate(scenario.bands):
            place = f"bands[{i}]"
            if len(band) < 2:
                self.problem(
                    place, f"a band has two or more creatures, found {len(band)} (CR 702.22c)"
                )
            members_ok = True
            for j, member in enumerate(band):
                spot = f"{place}[{j}]"
                attackers = [c for c in view.creatures if view.is_attacking(c)]
                if not self.known(
                    member, list(view.creatures), spot, "an attacking creature", attackers
                ):
                    members_ok = False
                elif not view.is_attacking(member):
                    self.problem(
                        spot,
                        f"'{member}' is not attacking; bands are of attacking "
                        "creatures (CR 702.22c)",
                    )
                    members_ok = False
                elif member in band_of:
                    self.problem(
                        spot,
                        f"'{member}' is already in {band_of[member]}; a creature "
                        "is in one band at most (CR 702.22c)",
                    )
                else:
                    band_of[member] = place
            if not members_ok or len(band) < 2:
                continue
            targets = {scenario.permanent(m).attacking for m in band}
            if len(targets) > 1:
                self.problem(
                    place,
                    "its members attack different things "
                    f"({', '.join(sorted(targets))}); a band attacks one player, "
                    "planeswalker or battle (CR 702.22d)",
                )
            if banding.band_allowed(view, band) is not True:
                self.problem(
                    place,
                    "banding does not allow this band: it needs one or more "
                    "creatures with banding and at most one without, or creatures "
                    "that all have a quality one of them 'bands with other' (CR 702.22c)",
                )
            for blocker in view.creatures:
                blocking = [m for m in band if view.blocks(blocker, m)]
                if blocking and len(blocking) < len(band):
                    missing = [m for m in band if m not in blocking]
                    self.problem(
                        place,
                        f"'{blocker}' blocks {', '.join(blocking)} but not "
                        f"{', '.join(missing)}; a creature blocking one member of a band "
                        "blocks them all (CR 702.22h)",
                    )

    def assignment_meaning(self, entries, scenario: Scenario, ids: list[str]):
        if entries is None:
            return None
        creatures = [p.id for p in scenario.permanents if p.is_creature]
        seen: dict[tuple[str, str], int] = {}
        result = []
        for i, entry in enumerate(entries):
            place = f"assignment[{i}]"
            source_ok = self.known(entry["source"], ids, f"{place}.source", "a creature", creatures)
            if source_ok and entry["source"] not in creatures:
                self.problem(
                    f"{place}.source",
                    f"'{entry['source']}' is not a creature; only "
                    "creatures assign combat damage (CR 510.1)",
                )
            to_ok = self.known(entry["to"], ids, f"{place}.to", "a player or permanent id")
            pair = (entry["source"], entry["to"])
            if pair in seen:
                self.problem(
                    place,
                    f"'{pair[0]}' to '{pair[1]}' is already given at "
                    f"assignment[{seen[pair]}]; give each pair once, with its whole "
                    "amount",
                )
            seen.setdefault(pair, i)
            if source_ok and to_ok:
                result.append(Entry(entry["source"], entry["to"], entry["amount"]))
        return tuple(result)


def _join(place: str, field: str) -> str:
    return f"{place}.{field}" if place else field


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
