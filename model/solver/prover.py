"""Proving properties of the rules over every combat within bounds, and refuting claims with
the smallest counterexample, re-checked on the concrete path before it is reported.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import z3

from ..check import check
from ..errors import ScenarioError
from ..proving import Claim, Property
from ..reading import parse
from .replay import ConcreteCombat
from .symbolic import KEYWORDS, QUALITY, STEPS, SymbolicCombat

SEED = 0

PROVED, REFUTED, UNKNOWN, VACUOUS = "proved", "refuted", "unknown", "vacuous"


@dataclass(frozen=True)
class Result:
    property: Property
    verdict: str
    seconds: float
    counterexamples: tuple[str, ...] = ()  # scenario files, one per combat
    table: str = ""  # the counterexample, readable
    reason: str = ""  # for unknown and vacuous: why; for a failed re-check: what

    @property
    def as_expected(self) -> bool:
        return self.verdict == (PROVED if self.property.expected == "holds" else REFUTED)


def prove(prop: Property, timeout: float, out: Path) -> Result:
    start = time.perf_counter()
    context = z3.Context()
    combats = [
        SymbolicCombat(prop.bounds, context, "" if n == 0 else f"c{n}.")
        for n in range(prop.combats)
    ]
    claim = prop.function(*combats)
    if not isinstance(claim, Claim):
        claim = Claim(True, claim)
    solver = z3.Solver(ctx=context)
    solver.set("random_seed", SEED)
    solver.set("timeout", int(timeout * 1000))
    for combat in combats:
        solver.add([_formula(f, context) for f in combat.well_formed()])
    solver.add(_formula(claim.assume, context))
    for combat in combats:  # every assignment the property names is one of amounts in range
        solver.add([f for x in combat.assignments for f in x.domain()])

    def done(verdict, **details) -> Result:
        return Result(prop, verdict, time.perf_counter() - start, **details)

    assumptions = solver.check()
    if assumptions == z3.unsat:
        return done(VACUOUS, reason="its assumptions can never hold within the bounds")
    if assumptions == z3.unknown:
        return done(UNKNOWN, reason=_unknown(solver, prop, out))
    solver.add(z3.Not(_formula(claim.conclude, context)))
    answer = solver.check()
    if answer == z3.unsat:
        return done(PROVED)
    if answer == z3.unknown:
        return done(UNKNOWN, reason=_unknown(solver, prop, out))
    model = _smallest(solver, combats)
    scenarios = [_scenario(combat, model) for combat in combats]
    problem = _recheck(prop, scenarios)
    if problem:
        return done(UNKNOWN, reason=f"the counterexample did not re-check: {problem}")
    files = _write(prop, scenarios, out)
    return done(REFUTED, counterexamples=files, table=_table(scenarios))


def _formula(term, context) -> z3.BoolRef:
    return z3.BoolVal(term, context) if isinstance(term, bool) else term


def _unknown(solver: z3.Solver, prop: Property, out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{prop.name}.smt2"
    path.write_text(solver.to_smt2())
    return f"Z3: {solver.reason_unknown()}; the query is in {path}"


def _smallest(solver: z3.Solver, combats: list[SymbolicCombat]) -> z3.ModelRef:
    """The counterexample with the fewest creatures, then the fewest keywords and other
    flags, then the plainest step, then the smallest numbers: each measure lowered while the
    solver still finds one."""
    context = combats[0].context
    size = z3.Sum([z3.If(p, 1, 0) for c in combats for p in c.present.values()])
    flags = z3.Sum(
        [
            z3.If(v, 1, 0)
            for c in combats
            for k, v in c.unknowns.items()
            if z3.is_bool(v) and not k.endswith(".present")
        ]
        + [z3.IntVal(0, context)]
    )
    steps = z3.Sum([c.step for c in combats])
    numbers = z3.Sum(
        [z3.If(v >= 0, v, -v) for c in combats for v in c.unknowns.values() if z3.is_int(v)]
        + [z3.If(v >= 0, v, -v) for c in combats for v in c.integers.values()]
        + [v for c in combats for x in c.assignments for v in x.variables.values()]
        + [z3.IntVal(0, context)]
    )
    model = solver.model()
    for measure in (size, flags, steps, numbers):
        best = model.eval(measure, model_completion=True).as_long()
        while best > 0:
            solver.push()
            solver.add(measure < best)
            if solver.check() != z3.sat:
                solver.pop()
                break
            model = solver.model()
            best = model.eval(measure, model_completion=True).as_long()
            solver.pop()
        solver.add(measure == best)
        solver.check()
        model = solver.model()
    return model


def _scenario(combat: SymbolicCombat, model: z3.ModelRef) -> dict:
    """The combat a model describes, as a scenario file."""

    def value(term):
        if isinstance(term, bool):
            return term
        evaluated = model.eval(term, model_completion=True)
        return z3.is_true(evaluated) if z3.is_bool(evaluated) else evaluated.as_long()

    step = STEPS[value(combat.step)]
    permanents = []
    for c in combat.creatures:
        if not value(combat.present[c]):
            continue
        permanent: dict = {"id": c}
        if c in combat.planeswalkers:
            battle = value(combat.battle[c])
            permanent["controller"] = "A" if battle else "D"
            permanent["types"] = ["battle"] if battle else ["planeswalker"]
            if value(combat.creature[c]):
                permanent["types"].insert(0, "creature")
            permanent["defense" if battle else "loyalty"] = value(combat.loyalty(c))
            if battle:
                permanent["protector"] = "D"
            if value(combat.removed(c)):
                permanent["removed_from_combat"] = True
        else:
            permanent["controller"] = "A" if c in combat.attackers else "D"
            permanent["types"] = ["creature"]
        if value(combat.is_creature(c)):
            power, toughness, damage = (value(t) for t in combat.stats[c])
            permanent.update(power=power, toughness=toughness)
            if damage:
                permanent["damage"] = damage
            keywords = [k for k in KEYWORDS if value(combat.has(c, k))]
            if value(combat.protected(c)):
                keywords.append(f"protection from {QUALITY}")
            if value(combat.bands_with_other(c, QUALITY)):
                keywords.append(f"bands with other {QUALITY}")
            if keywords:
                permanent["keywords"] = keywords
            if value(combat.has_quality(c, QUALITY)):
                permanent["qualities"] = [QUALITY]
        if c in combat.attackers:
            permanent["attacking"] = next(t for t in combat.targets if value(combat.attacks(c, t)))
            blocked = value(combat.is_blocked(c))
            if blocked and not any(value(combat.blocks(x, c)) for x in combat.creatures):
                permanent["blocked"] = True
        if value(combat.is_blocking(c)):
            permanent["blocking"] = [a for a in combat.attackers if value(combat.blocks(c, a))]
        if step == "second" and c in combat.creatures and value(combat.is_creature(c)):
            striker = any(value(combat.has(c, k)) for k in ("first strike", "double strike"))
            if value(combat.struck_first(c)) != striker:
                permanent["struck_first"] = value(combat.struck_first(c))
        permanents.append(permanent)
    scenario: dict = {
        "format": "lethal/1",
        "players": [{"id": "A"}, {"id": "D"}],
        "active_player": "A",
    }
    if step != "only":
        scenario["step"] = step
    scenario["permanents"] = permanents
    bands = _bands(combat, value)
    if bands:
        scenario["bands"] = bands
    effects = [
        {"id": f"double-{c}", "kind": "double", "sources": [c]}
        for c in combat.creatures
        if value(combat.present[c]) and value(combat.doubled(c))
    ] + [
        {"id": f"shield-{r}", "kind": "prevent", "amount": value(combat.shield(r)), "to": r}
        for r in combat.recipients
        if value(combat.shield(r)) and (r in combat.players or value(combat.present[r]))
    ]
    if effects:
        scenario["effects"] = effects
    assignments = [
        [
            {"source": s, "to": r, "amount": value(v)}
            for (s, r), v in x.variables.items()
            if value(v)
        ]
        for x in combat.assignments
    ]
    if assignments:
        scenario["assignment"] = assignments[0]
    scenario["_assignments"] = assignments  # every assignment the property named, for re-checks
    scenario["_integers"] = {name: value(v) for name, v in combat.integers.items()}
    return scenario


def _bands(combat: SymbolicCombat, value) -> list[list[str]]:
    bands: list[list[str]] = []
    for a in combat.attackers:
        if any(a in band for band in bands):
            continue
        band = [a] + [b for b in combat.attackers if b != a and value(combat.banded(a, b))]
        if len(band) > 1:
            bands.append(band)
    return bands


def _recheck(prop: Property, scenarios: list[dict]) -> str:
    """Reads each counterexample back as a file and evaluates the claim on it with plain
    values: it must be well formed, meet the assumptions and break the conclusion."""
    combats = []
    for data in scenarios:
        file = {k: v for k, v in data.items() if not k.startswith("_")}
        try:
            scenario = parse(file, prop.name)
        except ScenarioError as error:
            return f"it does not read as a scenario: {error}"
        combats.append(ConcreteCombat(scenario, data["_assignments"], data["_integers"]))
        if "assignment" in data and not check(scenario).legal:
            # The claim is broken elsewhere (say, nothing reaches a value); an illegal
            # assignment in the file would only mislead whoever replays it.
            del data["assignment"]
    claim = prop.function(*combats)
    if not isinstance(claim, Claim):
        claim = Claim(True, claim)
    if claim.assume is not True:
        return "its assumptions do not hold on the concrete scenario"
    if claim.conclude is not False:
        return "its conclusion holds on the concrete scenario"
    return ""


def _write(prop: Property, scenarios: list[dict], out: Path) -> tuple[str, ...]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for n, data in enumerate(scenarios):
        path = out / (f"{prop.name}.json" if n == 0 else f"{prop.name}.{n + 1}.json")
        file = {k: v for k, v in data.items() if not k.startswith("_")}
        path.write_text(_file_text(file))
        files.append(str(path))
    return tuple(files)


def _file_text(file: dict) -> str:
    """A scenario as people write them: one permanent, one entry to a line."""
    lines = ["{"]
    items = list(file.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict) and key != "players":
            rows = [f"    {json.dumps(row)}" for row in value]
            lines += [f'  "{key}": [', ",\n".join(rows), f"  ]{comma}"]
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    return "\n".join(lines + ["}"]) + "\n"


def _table(scenarios: list[dict]) -> str:
    lines = []
    for n, data in enumerate(scenarios):
        if len(scenarios) > 1:
            lines.append(f"combat {n + 1}:")
        if data.get("step"):
            lines.append(f"  step {data['step']}")
        for p in data["permanents"]:
            bits = [p["id"], "/".join(t for t in p["types"])]
            if "power" in p:
                bits.append(f"{p['power']}/{p['toughness']}")
            if p.get("damage"):
                bits.append(f"{p['damage']} marked")
            for key in ("loyalty", "defense"):
                if key in p:
                    bits.append(f"{key} {p[key]}")
            bits += p.get("keywords", [])
            if "attacking" in p:
                bits.append(f"attacking {p['attacking']}")
            if p.get("blocked"):
                bits.append("blocked, its blockers gone")
            if "blocking" in p:
                bits.append("blocking " + (", ".join(p["blocking"]) or "nothing"))
            if p.get("removed_from_combat"):
                bits.append("removed from combat")
            lines.append("  " + ", ".join(bits))
        for band in data.get("bands", []):
            lines.append("  band: " + ", ".join(band))
        for name, number in data["_integers"].items():
            lines.append(f"  {name} = {number}")
        for k, assignment in enumerate(data["_assignments"]):
            shown = ", ".join(f"{e['source']}->{e['to']} {e['amount']}" for e in assignment)
            lines.append(f"  assignment {k + 1}: {shown or 'nothing'}")
    return "\n".join(lines)
