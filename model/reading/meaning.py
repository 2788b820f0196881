"""The second reading pass: what the values say together.

Ids must refer to what they name, attackers and blockers must fit CR 506-509 and 310.8,
bands CR 702.22c-h, the step CR 510.4, the assignment the scenario format.
"""

from __future__ import annotations

from dataclasses import replace

from .. import editions
from ..combat import (
    BATTLE,
    CREATURE,
    FIRST_STRIKE_STEP,
    ONLY,
    PLANESWALKER,
    PREVENT,
    SECOND,
    Effect,
    Entry,
    Permanent,
    Player,
    Scenario,
)
from ..errors import Problem
from ..keywords import (
    DOUBLE_STRIKE,
    FIRST_STRIKE,
    INDESTRUCTIBLE,
    TOXIC,
    parse_keywords,
    quality_key,
)
from ..rules import banding
from ..view import ScenarioView
from .problems import Problems, join, names, show

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
    "order",
    "regeneration_shields",
)
PLANESWALKER_ONLY = ("loyalty",)
BATTLE_ONLY = ("defense", "protector")


class Meaning(Problems):
    def __init__(self, whole_combat: bool = False):
        super().__init__()
        self.whole_combat = whole_combat  # the file starts the phase: it may name no step
        self.warnings: list[Problem] = []  # what reads, but is likely not what was meant

    def cr(self, rule: str) -> str:
        return self.edition.cr(rule)

    def build(self, shaped: dict) -> Scenario:
        """The scenario the well-shaped fields describe, if they make sense together."""
        players = [
            Player(
                p["id"],
                p.get("life"),
                p.get("poison", 0),
                parse_keywords(p.get("keywords", [])),
            )
            for p in shaped["players"]
        ]
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
        # Ids kept in dicts, in the file's order: a file may hold many thousands, and each is
        # looked up once per reference to it.
        self.player_ids = dict.fromkeys(p.id for p in players)
        self.ids = where
        self.by_id = {fields["id"]: fields for fields in raw}
        self.active = shaped["active_player"]
        self.targets = [i for i in self.player_ids if i != self.active] + [
            i for i, f in self.by_id.items() if set(f["types"]) & {PLANESWALKER, BATTLE}
        ]
        self.attackers = [i for i, f in self.by_id.items() if f.get("attacking") is not None]
        self.blocked = {attacker for f in raw for attacker in f.get("blocking", ())}
        self.edition = editions.in_force(shaped.get("rules") or editions.CURRENT_NAME)
        self.step = shaped.get("step", ONLY)
        self.known(self.active, self.player_ids, "active_player", "a player id")
        for i, fields in enumerate(raw):
            self.kinds(fields, f"permanents[{i}]")
            self.combat(fields, f"permanents[{i}]")
        if self.problems:
            return Scenario((), "", ())

        permanents = tuple(self.permanent(fields, raw) for fields in raw)
        scenario = Scenario(
            players=tuple(players),
            active_player=self.active,
            permanents=permanents,
            step=self.step,
            rules=shaped.get("rules") or editions.CURRENT_NAME,
            bands=tuple(tuple(band) for band in shaped.get("bands", ())),
        )
        view = ScenarioView(scenario)
        self.blockers(scenario, view)
        self.orders(scenario, view, raw)
        self.step_fits(scenario, "step" in shaped)
        self.bands(scenario, view)
        scenario = replace(scenario, effects=self.effects(shaped.get("effects", []), scenario))
        self.unmatched_protection(shaped, scenario)
        entries = self.assignment(shaped.get("assignment"), scenario)
        if entries is not None:
            scenario = replace(scenario, assignment=entries)
        return scenario

    def unique(self, where: dict[str, str], id: str, place: str) -> None:
        if id in where:
            self.problem(place, f"duplicate id {show(id)} (already used at {where[id]})")
        else:
            where[id] = place

    def kinds(self, fields: dict, place: str) -> None:
        """What a creature, a planeswalker and a battle each need, and may not have."""
        at = lambda field: join(place, field)  # noqa: E731
        types = set(fields["types"])
        keywords = parse_keywords(fields.get("keywords", []))
        self.exists_yet(fields, place)
        self.known(fields["controller"], self.player_ids, at("controller"), "a player id")
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
                    f"expected 1 or more, found {show(toughness)}: a "
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
                    f"{show(damage)} damage marked is lethal for toughness "
                    f"{show(toughness)}: the creature would have been destroyed (CR 704.5g); "
                    "give it 'indestructible' if it survived",
                )
        if PLANESWALKER in types:
            if "loyalty" not in fields:
                self.problem(at("loyalty"), "missing: every planeswalker needs it")
            elif fields["loyalty"] <= 0:
                self.problem(
                    at("loyalty"),
                    f"expected 1 or more, found {show(fields['loyalty'])}: a "
                    "planeswalker with no loyalty is already gone (CR 704.5i)",
                )
        if BATTLE in types:
            for field in ("defense", "protector"):
                if field not in fields:
                    self.problem(at(field), "missing: every battle needs it")
            if fields.get("defense", 1) <= 0:
                self.problem(
                    at("defense"),
                    f"expected 1 or more, found {show(fields['defense'])}: a "
                    "battle with no defense is already gone (CR 704.5v)",
                )
            if "protector" in fields:
                self.known(fields["protector"], self.player_ids, at("protector"), "a player id")
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
        elif fields.get("removed_from_combat") and not any(
            f.get("attacking") == fields["id"] for f in self.by_id.values()
        ):
            self.problem(
                at("removed_from_combat"),
                "no creature attacks it, so it was never in combat to be removed from (CR "
                "506.4c); leave the field out",
            )
        elif fields.get("removed_from_combat") and "blocking" in fields:
            self.problem(
                at("blocking"),
                "a permanent removed from combat is no longer blocking (CR 506.4)",
            )

    def exists_yet(self, fields: dict, place: str) -> None:
        """A keyword or a kind of permanent the edition in force does not have yet."""
        edition = self.edition
        for i, text in enumerate(fields.get("keywords", [])):
            keywords = parse_keywords([text])
            for name in (*keywords.plain, *((TOXIC,) if keywords.toxic else ())):
                if not edition.has_keyword(name):
                    since, rule = editions.KEYWORDS_SINCE[name]
                    then = editions.in_force(since).cite(rule)  # as that edition numbers it
                    self.problem(
                        f"{place}.keywords[{i}]",
                        f"{show(text)} does not exist yet in the {self.edition.called}: it "
                        f"exists from the edition of {since} on (CR {then})",
                    )
        if not edition.has_battles and BATTLE in fields["types"]:
            self.problem(
                f"{place}.types[{fields['types'].index(BATTLE)}]",
                f"'battle' does not exist yet in the {self.edition.called}: battles exist from the "
                f"edition of {editions.BATTLES} on (CR 310)",
            )

    def orders(self, scenario: Scenario, view: ScenarioView, raw: list[dict]) -> None:
        """509.2-509.3: an attacker's order is exactly the creatures blocking it now, a
        blocker's exactly the creatures it blocks; removed creatures are already out of it
        (509.2a, 509.3a). Only editions with a damage assignment order have one."""
        for i, fields in enumerate(raw):
            if "order" not in fields:
                continue
            place = f"permanents[{i}].order"
            order = fields["order"]
            if not self.edition.has_order:
                self.problem(
                    place,
                    f"the {self.edition.called} have no damage assignment order (it was "
                    f"removed on {editions.FOUNDATIONS}); leave 'order' out, or give 'rules' a "
                    "date before then",
                )
                continue
            permanent = scenario.permanent(fields["id"])
            if permanent.attacking is not None:
                members, rule = view.blockers_of(permanent.id), "509.2"
                what = "the creatures blocking it"
            elif permanent.blocking is not None:
                members, rule = permanent.blocking, "509.3"
                what = "the creatures it blocks"
            else:
                self.problem(
                    place,
                    "only an attacking or blocking creature has a damage assignment order "
                    "(CR 509.2, 509.3)",
                )
                continue
            members = dict.fromkeys(members)  # looked up once for each id of the order
            seen: set[str] = set()
            for j, id in enumerate(order):
                if id in seen:
                    self.problem(f"{place}[{j}]", f"{show(id)} is listed twice")
                elif id in self.ids and id not in members:
                    self.problem(
                        f"{place}[{j}]",
                        f"{show(id)} is not one of {what} ({names(members) or 'none'}); the "
                        f"order lists exactly those (CR {rule})",
                    )
                elif id not in members:
                    self.known(id, members, f"{place}[{j}]", f"one of {what} (CR {rule})")
                seen.add(id)
            missing = [m for m in members if m not in seen]
            if missing:
                self.problem(
                    place,
                    f"missing {names(missing)}: the order lists each of {what}, once (CR {rule})",
                )

    def combat(self, fields: dict, place: str) -> None:
        """Who attacks what and blocks whom: CR 506.2-506.4, 508.1, 509.1, 310.8."""
        at = lambda field: join(place, field)  # noqa: E731
        active, by_id = self.active, self.by_id
        target = fields.get("attacking")
        if target is not None and self.known(
            target,
            self.ids,
            at("attacking"),
            "the id of a player, planeswalker or battle",
            self.targets,
        ):
            attacked = by_id.get(target)
            if target == active:
                self.problem(
                    at("attacking"), f"{show(target)} is the active player, who can't be attacked"
                )
            elif attacked is not None and not set(attacked["types"]) & {PLANESWALKER, BATTLE}:
                self.problem(
                    at("attacking"),
                    f"{show(target)} is a {' and '.join(attacked['types'])}; "
                    "a creature attacks a player, a planeswalker or a battle",
                )
            elif (
                attacked is not None
                and PLANESWALKER in attacked["types"]
                and attacked["controller"] == active
            ):
                self.problem(
                    at("attacking"),
                    f"{show(target)} is the active player's own planeswalker, "
                    "which can't be attacked",
                )
            elif (
                attacked is not None
                and BATTLE in attacked["types"]
                and attacked.get("protector") == active
            ):
                self.problem(
                    at("attacking"),
                    f"{show(target)} is protected by the active player, "
                    "who can't attack it (CR 310.8b)",
                )
            if fields["controller"] != active:
                self.problem(
                    at("attacking"),
                    f"attacking creatures are the active player's, "
                    f"but its controller is {show(fields['controller'])}",
                )
        if "blocking" in fields:
            if target is not None:
                self.problem(at("blocking"), "a creature can't both attack and block")
            seen: set[str] = set()
            for i, attacker in enumerate(fields["blocking"]):
                spot = f"{at('blocking')}[{i}]"
                if attacker in seen:
                    self.problem(spot, f"{show(attacker)} is listed twice")
                seen.add(attacker)
                attackers = self.attackers
                if not self.known(attacker, self.ids, spot, "an attacking creature", attackers):
                    continue
                if by_id.get(attacker, {}).get("attacking") is None:
                    self.problem(spot, f"{show(attacker)} is not attacking, so it can't be blocked")
        if "blocked" in fields and target is None:
            self.problem(at("blocked"), "only an attacking creature is blocked or unblocked")
        if "struck_first" in fields and CREATURE in fields["types"]:
            if target is None and "blocking" not in fields:
                self.problem(at("struck_first"), "only an attacking or blocking creature strikes")
            elif self.step != SECOND:
                self.problem(
                    at("struck_first"),
                    f"only for step 'second', and the step is {show(self.step)} "
                    f"({self.cr('510.4')})",
                )

    def permanent(self, fields: dict, raw: list[dict]) -> Permanent:
        keywords = parse_keywords(fields.get("keywords", []))
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
            blocked=fields.get("blocked", fields["id"] in self.blocked)
            if "attacking" in fields
            else False,
            blocking=tuple(fields["blocking"]) if "blocking" in fields else None,
            order=tuple(fields["order"]) if "order" in fields else None,
            removed_from_combat=fields.get("removed_from_combat", False),
            regeneration_shields=fields.get("regeneration_shields", 0),
            # CR 510.4: by default, what it has now is what it had as the first step began.
            struck_first=fields.get(
                "struck_first", FIRST_STRIKE in keywords or DOUBLE_STRIKE in keywords
            ),
        )

    def blockers(self, scenario: Scenario, view: ScenarioView) -> None:
        for i, blocker in enumerate(scenario.permanents):
            for j, attacker in enumerate(blocker.blocking or ()):
                defender = view.defending_player(attacker)
                if blocker.controller != defender:
                    self.problem(
                        f"permanents[{i}].blocking[{j}]",
                        f"{show(attacker)} attacks {show(scenario.permanent(attacker).attacking)}, "
                        f"so only creatures of its defending player {show(defender)} can block "
                        f"it, and {show(blocker.id)} is controlled by {show(blocker.controller)} "
                        "(CR 509.1a, 310.8c)",
                    )
        for i, permanent in enumerate(scenario.permanents):
            if (
                permanent.attacking is not None
                and not permanent.blocked
                and view.blockers_of(permanent.id)
            ):
                self.problem(
                    f"permanents[{i}].blocked",
                    f"false, but {names(view.blockers_of(permanent.id))} blocks it (CR 509.1h)",
                )

    def step_fits(self, scenario: Scenario, given: bool) -> None:
        strikers = scenario.strikers()
        if strikers and scenario.step == ONLY and not (self.whole_combat and not given):
            said = "no step is given" if not given else "the step is 'only'"
            self.problem(
                "step",
                f"{names(strikers)} has first strike or double strike, so "
                f"the phase has two combat damage steps ({self.cr('510.4')}), but {said}; expected "
                "'first-strike' or 'second' (or, to ask about the whole phase, no step and "
                "a query with --combat)",
            )
        if strikers and self.whole_combat and len(scenario.players) > 2:
            # docs/readings.md, "A player who loses in the first-strike step".
            self.warnings.append(
                Problem(
                    "players",
                    f"{len(scenario.players)} players and a first-strike step: a player who "
                    "loses in it stays in the game for the second step here, its permanents "
                    "and the creatures attacking it as they were (what leaving the game "
                    "does, CR 800.4a, is not modelled), unless all but one player have lost, "
                    "which ends the game (CR 104.2a)",
                )
            )
        if not strikers and scenario.step == FIRST_STRIKE_STEP:
            self.problem(
                "step",
                "'first-strike', but no attacking or blocking creature has "
                f"first strike or double strike, so there is no such step ({self.cr('510.4')})",
            )

    def bands(self, scenario: Scenario, view: ScenarioView) -> None:
        band_of: dict[str, str] = {}
        creatures = dict.fromkeys(view.creatures)
        creatures_in_order = {c: i for i, c in enumerate(view.creatures)}
        attackers = [c for c in view.creatures if view.is_attacking(c)]
        for i, band in enumerate(scenario.bands):
            place = f"bands[{i}]"
            if len(band) < 2:
                self.problem(
                    place,
                    f"a band has two or more creatures, found {len(band)} ({self.cr('702.22c')})",
                )
            members_ok = True
            for j, member in enumerate(band):
                spot = f"{place}[{j}]"
                if not self.known(member, creatures, spot, "an attacking creature", attackers):
                    members_ok = False
                elif not view.is_attacking(member):
                    self.problem(
                        spot,
                        f"{show(member)} is not attacking; bands are of attacking "
                        f"creatures ({self.cr('702.22c')})",
                    )
                    members_ok = False
                elif member in band_of:
                    self.problem(
                        spot,
                        f"{show(member)} is already in {band_of[member]}; a creature "
                        f"is in one band at most ({self.cr('702.22c')})",
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
                    f"({names(sorted(targets))}); a band attacks one player, "
                    f"planeswalker or battle ({self.cr('702.22d')})",
                )
            if banding.band_allowed(view, band) is not True:
                self.problem(
                    place,
                    "banding does not allow this band: it needs one or more "
                    "creatures with banding and at most one without, or creatures that "
                    f"all have a quality one of them 'bands with other' ({self.cr('702.22c')})",
                )
            # Only the creatures that block some member can block some but not all.
            meeting = {b for m in band for b in view.blockers_of(m)}
            for blocker in sorted(meeting, key=creatures_in_order.__getitem__):
                blocking = [m for m in band if view.blocks(blocker, m)]
                if blocking and len(blocking) < len(band):
                    missing = [m for m in band if m not in blocking]
                    self.problem(
                        place,
                        f"{show(blocker)} blocks {names(blocking)} but not "
                        f"{names(missing)}; a creature blocking one member of a band "
                        f"blocks them all ({self.cr('702.22h')})",
                    )

    def unmatched_protection(self, shaped: dict, scenario: Scenario) -> None:
        """A protection keyword none of whose qualities a permanent of the file has, as a
        quality or a card type, or names a player (702.16k), prevents nothing here: likely a
        quality missing from the sources' `qualities`."""
        had = {t for p in scenario.permanents for t in p.types}
        had |= {q for p in scenario.permanents for q in p.qualities}
        had |= {quality_key(p.id) for p in scenario.players}
        for kind, items in (("players", shaped["players"]), ("permanents", shaped["permanents"])):
            for i, fields in enumerate(items):
                for j, text in enumerate(fields.get("keywords", [])):
                    qualities = parse_keywords([text]).protection_from
                    if not qualities or qualities & had:
                        continue
                    missing = sorted(qualities)
                    one = len(missing) == 1
                    said = show(missing[0]) if one else "any of " + names(missing)
                    self.warnings.append(
                        Problem(
                            f"{kind}[{i}].keywords[{j}]",
                            f"{show(text)} matches no permanent of the file: none has {said} "
                            f"among its qualities or types, so it prevents nothing "
                            f"({self.cr('702.16a')}); add {'it' if one else 'the right one'} "
                            "to the qualities of the sources it should match",
                        )
                    )

    def effects(self, effects: list[dict], scenario: Scenario) -> tuple[Effect, ...]:
        """Each effect's ids name what the scenario has; effect ids are unique; sources are
        creatures, the only sources of combat damage (510.1)."""
        creatures = dict.fromkeys(p.id for p in scenario.permanents if p.is_creature)
        found, seen = [], {}
        for i, fields in enumerate(effects):
            place = f"effects[{i}]"
            if fields["id"] in seen:
                self.problem(
                    f"{place}.id",
                    f"duplicate effect id {show(fields['id'])} "
                    f"(already used at {seen[fields['id']]})",
                )
            seen.setdefault(fields["id"], f"{place}.id")
            if "to" in fields:
                self.known(fields["to"], self.ids, f"{place}.to", "a player or permanent id")
            for j, id in enumerate(fields.get("recipients", ())):
                self.known(id, self.ids, f"{place}.recipients[{j}]", "a player or permanent id")
            if fields.get("sources") == []:
                self.problem(
                    f"{place}.sources",
                    "found an empty list, which names no creature, so the effect would apply "
                    "to nothing; leave out 'sources' for every source, or name the creatures",
                )
            if fields.get("recipients") == []:
                self.problem(
                    f"{place}.recipients",
                    "found an empty list, which names no player or permanent, so the effect "
                    "would apply to nothing; leave out 'recipients' for every recipient, or "
                    "name them",
                )
            for j, id in enumerate(fields.get("sources", ())):
                if self.known(id, self.ids, f"{place}.sources[{j}]", "a creature", creatures):
                    if id not in creatures:
                        self.problem(
                            f"{place}.sources[{j}]",
                            f"{show(id)} is not a creature, and only creatures deal combat "
                            f"damage (CR 510.1); name creatures ({names(list(creatures)[:8])})",
                        )
            all_of_it = fields["kind"] == PREVENT and "amount" not in fields
            found.append(
                Effect(
                    id=fields["id"],
                    kind=fields["kind"],
                    amount=None if all_of_it else fields.get("amount", 0),
                    to=fields.get("to"),
                    sources=frozenset(fields["sources"]) if "sources" in fields else None,
                    recipients=frozenset(fields["recipients"]) if "recipients" in fields else None,
                    once=fields.get("once", False),
                )
            )
        return tuple(found)

    def assignment(
        self, entries: list[dict] | None, scenario: Scenario
    ) -> tuple[Entry, ...] | None:
        """The proposed assignment's entries, each naming a creature and a recipient once."""
        if entries is None:
            return None
        creatures = dict.fromkeys(p.id for p in scenario.permanents if p.is_creature)
        seen: dict[tuple[str, str], int] = {}
        result = []
        for i, entry in enumerate(entries):
            place = f"assignment[{i}]"
            source_ok = self.known(
                entry["source"], self.ids, f"{place}.source", "a creature", creatures
            )
            if source_ok and entry["source"] not in creatures:
                self.problem(
                    f"{place}.source",
                    f"{show(entry['source'])} is not a creature; only "
                    "creatures assign combat damage (CR 510.1)",
                )
            to_ok = self.known(entry["to"], self.ids, f"{place}.to", "a player or permanent id")
            pair = (entry["source"], entry["to"])
            if pair in seen:
                self.problem(
                    place,
                    f"{show(pair[0])} to {show(pair[1])} is already given at "
                    f"assignment[{seen[pair]}]; give each pair once, with its whole "
                    "amount",
                )
            seen.setdefault(pair, i)
            if source_ok and to_ok:
                result.append(Entry(entry["source"], entry["to"], entry["amount"]))
        return tuple(result)
