"""The two headline invariants, proved for combats of any size.

`lethal prove` reasons about every combat within bounds. These proofs have none: any number
of creatures, players, planeswalkers and battles, and no bound on power, toughness, damage
marked or loyalty. They rest on locality.

Legality is the conjunction of the rules' constraints, and each constraint restricts one
creature's row, its `source`. A constraint of a source S asks about a few objects (S, a
recipient, a blocker, the planeswalker S attacks) and sees the rest of the combat only through
what a recipient is assigned in all (`Amounts.received_by`) and whether some deathtouch source
assigned it any (`Amounts.into`). So the rules code `lethal check` runs, `rules.constraints`,
is evaluated on an *open combat*: eight named objects in the roles below, every fact about
them an unknown with no bound, and the unnamed rest of the combat in three kinds of unknowns:

- `x(Y, elsewhere)`: what a named creature Y assigns to all the unnamed recipients together;
- `x(others->Y, Y)`: what all the unnamed creatures assign to a named recipient Y;
- `has(others->Y, deathtouch)`: whether one of them with deathtouch assigns Y some.

The rules write per-pair constraints only for S's pairs with named objects (`OpenAmounts`);
the unnamed appear inside the sums alone. Only the constraints whose source is S are kept.

The roles, for a real combat and a creature S of it, are distinct real objects, or *absent*:
a role nobody fills has every fact false and every number and amount 0.

- T: what S attacks (a player, planeswalker or battle, perhaps also a creature); P: T's
  controller, when T is a permanent;
- B1: the first creature other than T blocking S; B2: any other creature blocking S;
- A1: the first attacker S blocks; A2: any other attacker S blocks;
- R: any other player or permanent.

*The mapping.* Each fact of a named object is the real object's (a player filling T or R has
none of a creature's); `x(Y, Z)` is the real amount; `x(Y, elsewhere)` is the sum of Y's
amounts to the objects no role names; `x(others->Y, Y)` the sum of the amounts the unnamed
creatures assign Y, and `has(others->Y, deathtouch)` whether one of them with deathtouch
assigns Y some. Under it, each kept constraint evaluates exactly as the real constraint it is
an instance of: `received_by` and the deathtouch test are the real ones, `sent_by` counts the
unnamed recipients, and the disjunctions over all recipients (`has_recipient`) and over all
planeswalkers (`over_planeswalker`) are decided by named objects, because whatever S may
assign to is T, P, a creature blocking S (then B1 or T is one) or an attacker S blocks (then
A1 is one). Every `Fact` holds under the mapping too. One sum is not local: what S assigns to
all the creatures blocking it (`unblocked.to_blockers`), asked only of a creature that may
assign as though it weren't blocked (Thorn Elemental), which the open combat takes over the
named blockers alone, so a blocker in no role hides in `x(S, elsewhere)`. The mapping is
therefore exact when S lacks that ability or assigns nothing to a creature blocking it that
no role names, and that is all the theorems need. tests/test_unbounded.py checks all of this
on drawn combats and assignments, against `lethal check`'s own constraints.

*Theorem 1* assumes the constraints of S and concludes about the named objects, of an S
without Thorn Elemental's ability. A real combat, legal assignment, such an attacker, a
blocker and a recipient map to a valuation that meets the assumptions (they evaluate as the
real constraints, which hold), so the conclusion holds there, and it evaluates as the real
conclusion. The real constraints the open combat does not name are dropped, which only
weakens what is assumed.

*Theorem 2* claims that every constraint of S holds on the witness row, whatever every other
row and sum is. In a real combat every creature takes its witness row. Each real constraint
of a creature S is an instance of a kept one under the mapping with B2 (or A2, or R) set to
the object it names, so it holds: the witness chooses from S, B1, T, P and A1 alone, so its
row is the same under every such choice and assigns nothing to a blocker no role names; and a
pair with no amount constrains nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import z3

from .. import rules
from ..amounts import Amounts
from ..editions import CURRENT
from ..keywords import AS_THOUGH_UNBLOCKED, DEATHTOUCH
from ..ops import Term, all_of, any_of, implies, ite, negate, total
from ..rules import division
from ..rules.constraint import Constraint
from ..solver.encoding import SEED
from . import certify as certification
from .prover import CVC5, PROVED, REFUTED, UNKNOWN, Z3
from .symbolic import as_formula

S, T, P = "S", "T", "P"
B1, B2, A1, A2, R = "B1", "B2", "A1", "A2", "R"
NAMED = (S, T, P, B1, B2, A1, A2, R)
ELSEWHERE = "elsewhere"  # every recipient no role names, as one

# The witness puts all of S's damage on the first of these it may assign to: a blocker
# first, so that nothing goes past a blocker while one blocks S (702.19b); then what S
# attacks; then T's controller (trample over planeswalkers, 702.19e); then what S blocks.
PREFERENCE = (B1, T, P, A1)

SCOPE = "any number of creatures, players and permanents; no bound on any number"

ASSUMPTIONS = (
    "Legality is the conjunction of the rules' constraints, and each constraint restricts the "
    "row of one creature, its source.",
    "A creature's constraints see other creatures only through the total damage assigned to "
    "a recipient and whether some source with deathtouch assigned it damage.",
    "The constraints are those lethal check evaluates (rules.constraints), evaluated on an "
    "open combat whose facts and numbers are all unknowns with no bound.",
    "The named roles cover every instance: any combat, creature and choice of the other "
    "objects maps to a valuation of the open combat under which every fact below holds and "
    "each kept constraint evaluates as the real one, when the creature cannot assign as "
    "though it weren't blocked or assigns nothing to a blocker no role names: the first "
    "theorem is of creatures without that ability, the second's witness assigns only to "
    "named objects (argued in "
    "lethal/proving/unbounded.py; checked by tests/test_unbounded.py on drawn combats of up to "
    "six creatures, not proved).",
    "Damage amounts are whole numbers, 0 or more, so the unnamed creatures' sum for a "
    "recipient is more than 0 when any of them assigns it damage.",
)

LEAVES_OUT = (
    "rules editions other than the current one",
    "what changes the damage dealt (prevention, doubling, protection), which assignment ignores",
    "who divides a creature's damage (banding, 702.22j-k), which changes who chooses, not "
    "what is legal",
    "the whole combat phase: each step is proved on its own",
)


def others(y: str) -> str:
    """The pseudo-source standing for every unnamed creature that assigns damage to y."""
    return f"others->{y}"


class OpenCombat:
    """The questions the rules ask, about the named objects, each answered by an unknown of
    its own, made when first asked, keyed by the question and its arguments."""

    creatures = tuple(n for n in NAMED if n != P)  # T and R may be creatures: P is a player
    planeswalkers = creatures
    recipients = NAMED
    qualities: tuple[str, ...] = ()  # only banding's who-divides asks, never a constraint
    edition = CURRENT  # these proofs are of today's rules; no order is asked for
    built = None  # each question an unknown of its own (`ops.built_once`)

    def __init__(self, context: z3.Context):
        self.context = context
        self.unknowns: dict[tuple[str, ...], z3.ExprRef] = {}

    def _unknown(self, sort, question: str, *args: str) -> z3.ExprRef:
        key = (question, *args)
        if key not in self.unknowns:
            self.unknowns[key] = sort(f"{question}({', '.join(args)})", self.context)
        return self.unknowns[key]

    def _bool(self, question: str, *args: str) -> z3.BoolRef:
        return self._unknown(z3.Bool, question, *args)

    def _int(self, question: str, *args: str) -> z3.ArithRef:
        return self._unknown(z3.Int, question, *args)

    def amount(self, source: str, recipient: str) -> z3.ArithRef:
        return self._int("x", source, recipient)

    def is_planeswalker(self, x: str) -> Term:
        return self._bool("is_planeswalker", x)

    def controls(self, player: str, x: str) -> Term:
        return self._bool("controls", player, x)

    def power(self, c: str) -> Term:
        return self._int("power", c)

    def toughness(self, c: str) -> Term:
        return self._int("toughness", c)

    def marked(self, c: str) -> Term:
        return self._int("marked", c)

    def loyalty(self, p: str) -> Term:
        return self._int("loyalty", p)

    def has(self, c: str, keyword: str) -> Term:
        return self._bool("has", c, keyword)

    def attacks(self, a: str, target: str) -> Term:
        return self._bool("attacks", a, target)

    def is_attacking(self, c: str) -> Term:
        return self._bool("is_attacking", c)

    def removed(self, target: str) -> Term:
        return self._bool("removed", target)

    def is_blocked(self, a: str) -> Term:
        return self._bool("is_blocked", a)

    def blocks(self, b: str, a: str) -> Term:
        return self._bool("blocks", b, a)

    def is_blocking(self, c: str) -> Term:
        return self._bool("is_blocking", c)

    def step_is(self, step: str) -> Term:
        return self._bool("step_is", step)

    # Whom a rule ranges over: here, as nothing is known of the structure, every named object
    # (the rules still ask `blocks` and `attacks` of each).
    def reachable(self, s: str) -> tuple[str, ...]:
        return self.recipients

    def blockers_of(self, a: str) -> tuple[str, ...]:
        return self.creatures

    def blocked_by(self, b: str) -> tuple[str, ...]:
        return self.creatures

    def targets_of(self, a: str) -> tuple[str, ...]:
        return self.planeswalkers

    def struck_first(self, c: str) -> Term:
        return self._bool("struck_first", c)


class OpenAmounts(Amounts):
    """Amounts among the named objects, with the unnamed inside the sums only: a named
    source's `sent_by` counts what it sends elsewhere, a named recipient's `into` and
    `received_by` count what the unnamed send it. `pairs` and `items`, over which the rules
    write their per-pair constraints, are the studied creature's pairs with named objects
    alone: `elsewhere` and `others->Y` are sums, not objects, so a per-pair constraint on
    them would be no real one (and would ask of them what the mapping does not define), and
    no other creature's constraints are kept, so writing them would only take time."""

    def __init__(self, named: Mapping, elsewhere: Mapping, unnamed: Mapping, studied: str):
        super().__init__(
            {
                **named,
                **{(s, ELSEWHERE): x for s, x in elsewhere.items()},
                **{(others(y), y): x for y, x in unnamed.items()},
            }
        )
        self._studied = tuple((pair, x) for pair, x in named.items() if pair[0] == studied)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        return tuple(pair for pair, _ in self._studied)

    def items(self) -> tuple[tuple[tuple[str, str], Term], ...]:
        return self._studied


def open_amounts(combat: OpenCombat, row: Mapping[str, Term] | None = None) -> OpenAmounts:
    """Every amount an unknown; with `row`, S sends exactly that to the named recipients,
    and nothing elsewhere."""

    def amount(s: str, r: str) -> Term:
        if s == S and row is not None:
            return row.get(r, 0)
        return combat.amount(s, r)

    named = {(s, r): amount(s, r) for s in combat.creatures for r in combat.recipients}
    elsewhere = {s: amount(s, ELSEWHERE) for s in combat.creatures}
    unnamed = {y: combat.amount(others(y), y) for y in combat.recipients}
    return OpenAmounts(named, elsewhere, unnamed, studied=S)


def kept(combat: OpenCombat, amounts: Amounts, source: str) -> list[Constraint]:
    """The constraints of the rules that restrict `source`'s row."""
    return [c for c in rules.constraints(combat, amounts) if c.source == source]


def witness(view, s: str, preference: Sequence[str]) -> dict[str, Term]:
    """s's row in an assignment that always exists: all its power on the first of
    `preference` it may assign to, if it assigns combat damage at all (510.1a-d, 510.4).
    Written with `ops`, so that it is the same row on a scenario and on an open combat."""
    power = ite(division.assigns_combat_damage(view, s), division.damage_to_assign(view, s), 0)
    row: dict[str, Term] = {}
    taken: Term = False
    for r in preference:
        chosen = all_of((negate(taken), division.may_receive(view, s, r)))
        row[r] = ite(chosen, power, 0)
        taken = any_of((taken, chosen))
    return row


@dataclass(frozen=True)
class Fact:
    """What every real combat satisfies under the mapping, said of the open combat."""

    name: str
    sentence: str
    holds: Callable[[OpenCombat], list[Term]]


BLOCKED_ATTACKERS = Fact(
    "blocked attackers",
    "A creature that is blocked by another is attacking and is blocked (CR 509.1h).",
    lambda c: [
        implies(c.blocks(x, y), all_of((c.is_attacking(y), c.is_blocked(y))))
        for x in c.creatures
        for y in c.creatures
    ],
)
ATTACKERS_BLOCK_NOTHING = Fact(
    "attackers block nothing",
    "An attacking creature blocks nothing.",
    lambda c: [
        implies(c.is_attacking(x), negate(c.blocks(x, y))) for x in c.creatures for y in NAMED
    ],
)
ONE_TARGET = Fact(
    "T is what S attacks",
    "S attacks T and nothing else: a creature attacks one thing.",
    lambda c: [negate(c.attacks(S, x)) for x in NAMED if x != T],
)
ONE_CONTROLLER = Fact(
    "P controls T",
    "Nothing but P controls T: P is T's controller, a permanent has one, and only players "
    "control anything.",
    lambda c: [negate(c.controls(x, T)) for x in NAMED if x != P],
)
FIRST_BLOCKER = Fact(
    "B1 is the first blocker",
    "B1 blocks S if any creature other than T does: B1 is chosen so.",
    lambda c: [implies(c.blocks(x, S), c.blocks(B1, S)) for x in c.creatures if x not in (T, B1)],
)
FIRST_BLOCKED = Fact(
    "A1 is the first attacker S blocks",
    "S blocks A1 if it blocks any creature: A1 is chosen so.",
    lambda c: [implies(c.blocks(S, x), c.blocks(S, A1)) for x in c.creatures],
)
# Each theorem assumes only the facts it needs: without any one of them, it is refuted.
PAST_BLOCKERS_FACTS = (BLOCKED_ATTACKERS, ATTACKERS_BLOCK_NOTHING)
ASSIGNMENT_FACTS = (
    ATTACKERS_BLOCK_NOTHING,
    ONE_TARGET,
    ONE_CONTROLLER,
    FIRST_BLOCKER,
    FIRST_BLOCKED,
)


def lethal_by_the_text(combat: OpenCombat, amounts: OpenAmounts, b: str) -> Term:
    """702.19b, 702.2c, from the rule text rather than the rules model: damage marked plus
    all damage assigned to b reaches its toughness, or a deathtouch source assigned it some.
    All damage: every named creature's, and the unnamed creatures' in their sum."""
    sources = [*combat.creatures, others(b)]
    assigned = total(amounts.get(s, b) for s in sources)
    deathtouch = any_of(all_of((combat.has(s, DEATHTOUCH), amounts.get(s, b) > 0)) for s in sources)
    return any_of((combat.marked(b) + assigned >= combat.toughness(b), deathtouch))


@dataclass(frozen=True)
class Query:
    """What Z3 is asked: labelled assumptions and a negated claim; unsat proves the claim."""

    combat: OpenCombat
    assumptions: list[tuple[str, Term]]  # (label, formula); the labels name the unsat core
    negated: Term
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class Theorem:
    name: str
    statement: str
    cites: tuple[str, ...]
    query: Callable[[z3.Context], Query]


def past_blockers_theorem(facts: Sequence[Fact] = PAST_BLOCKERS_FACTS) -> Theorem:
    """No damage goes past a blocker without lethal damage on every blocker (702.19b,
    702.2c). If S's constraints hold, S assigns damage to a named recipient that is not a
    creature blocking it, and a named creature blocks S, then that blocker has lethal damage
    by the rule text. The recipient is R, or S, T or P when it is one of them; the blocker
    B1, B2 or T."""

    def query(context: z3.Context) -> Query:
        combat = OpenCombat(context)
        amounts = open_amounts(combat)
        # Thorn Elemental's ability may send all of S's damage past its blockers, as though
        # it weren't blocked: the claim is of creatures without it.
        breaks = any_of(
            all_of(
                (
                    negate(combat.has(S, AS_THOUGH_UNBLOCKED)),
                    amounts.get(S, r) > 0,
                    negate(combat.blocks(r, S)),
                    combat.blocks(b, S),
                    negate(lethal_by_the_text(combat, amounts, b)),
                )
            )
            for r in combat.recipients
            for b in combat.creatures
        )
        # Labelled by kind, so that the unsat core says which rules the proof needed.
        constraints = [
            (f"{rules.KINDS[c.rules[0]]} #{n}", c.holds)
            for n, c in enumerate(kept(combat, amounts, S))
        ]
        return Query(combat, constraints + _assumed(combat, facts), breaks, tuple(facts))

    return Theorem(
        "no_damage_past_blockers_without_lethal_to_every_blocker",
        "A blocked creature assigns damage to anything but the creatures blocking it only if "
        "each of them is assigned lethal damage: damage marked plus every creature's damage "
        "assigned reaches its toughness, or a deathtouch source assigned it some (unless it "
        "may assign as though it weren't blocked).",
        ("702.19b", "702.2c"),
        query,
    )


def assignment_exists_theorem(
    facts: Sequence[Fact] = ASSIGNMENT_FACTS, preference: Sequence[str] = PREFERENCE
) -> Theorem:
    """Every combat damage step has a legal assignment (510.1): S's witness row, all its
    power on the first of `preference` it may assign to, meets every constraint of S,
    whatever every other creature assigns, named or not."""

    def query(context: z3.Context) -> Query:
        combat = OpenCombat(context)
        row = witness(combat, S, preference)
        amounts = open_amounts(combat, row)
        breaks = any_of(
            (
                *(negate(c.holds) for c in kept(combat, amounts, S)),
                *(x < 0 for x in row.values()),
            )
        )
        return Query(combat, _assumed(combat, facts), breaks, tuple(facts))

    return Theorem(
        "a_legal_assignment_always_exists_at_any_size",
        "Every combat damage step has a legal assignment: each creature that assigns combat "
        "damage puts all its power (or toughness, 510.1a) on one recipient it may assign to.",
        ("510.1",),
        query,
    )


def _assumed(combat: OpenCombat, facts: Sequence[Fact]) -> list[tuple[str, Term]]:
    return [(f"fact: {f.name}", all_of(f.holds(combat))) for f in facts]


THEOREMS = (past_blockers_theorem, assignment_exists_theorem)


@dataclass(frozen=True)
class UnboundedResult:
    name: str
    statement: str
    verdict: str  # proved, refuted or unknown
    seconds: float
    assumptions: tuple[str, ...]
    cites: tuple[str, ...]
    used: tuple[str, ...] = ()  # an unsat core: the rules and facts the proof needed
    smt2: str | None = None  # the query, when a solver could not decide it
    reason: str = ""  # why it is unknown
    model: tuple[str, ...] = ()  # a refutation: the open combat's values that break it
    certified_by: tuple[str, ...] = ()


def prove_unbounded(timeout: float, out: Path, certify: bool = False) -> list[UnboundedResult]:
    """The verdict on each theorem, each solver call limited to `timeout` seconds; a query
    Z3 cannot decide is written to `out`. With `certify`, a proof stands only if cvc5 also
    finds the negated claim unsatisfiable."""
    if certify:
        certification.require_cvc5()  # says how to install it, before any time is spent
    return [decide(theorem(), timeout, out, certify) for theorem in THEOREMS]


def decide(theorem: Theorem, timeout: float, out: Path, certify: bool = False) -> UnboundedResult:
    """The verdict Z3 gives on one theorem: every answer leads somewhere, and unknown is
    never read as either of the others."""
    start = time.perf_counter()
    context = z3.Context()
    query = theorem.query(context)
    solver = _solver(query, context, timeout, track=True)
    answer = solver.check()
    if answer == z3.unsat:
        found = {"verdict": PROVED, "used": _core(solver), "certified_by": (Z3,)}
        if certify:
            found.update(_certified(query, context, theorem.name, timeout, out))
    elif answer == z3.sat:
        found = {"verdict": REFUTED, "model": _shown(solver.model(), query.combat)}
    else:
        path = _save(out, theorem.name, _solver(query, context, timeout).to_smt2())
        found = {"verdict": UNKNOWN, "reason": f"Z3: {solver.reason_unknown()}", "smt2": str(path)}
    return UnboundedResult(
        name=theorem.name,
        statement=theorem.statement,
        seconds=time.perf_counter() - start,
        assumptions=ASSUMPTIONS + tuple(f.sentence for f in query.facts) + _trusted(certify),
        cites=theorem.cites,
        **found,
    )


def _trusted(certify: bool) -> tuple[str, ...]:
    if certify:
        return ("Z3 and cvc5 are right when both find the negated claim unsatisfiable.",)
    return ("Z3 is right when it finds the negated claim unsatisfiable.",)


def _solver(query: Query, context: z3.Context, timeout: float, track: bool = False) -> z3.Solver:
    """The query as a solver; with `track`, each assumption under its label, so that an
    unsat core names what the proof needed (the exported query has no labels)."""
    solver = z3.Solver(ctx=context)
    solver.set("random_seed", SEED)
    solver.set("timeout", max(1, round(timeout * 1000)))  # 0 would mean no limit at all
    for label, formula in query.assumptions:
        if track:
            solver.assert_and_track(as_formula(formula, context), z3.Bool(label, context))
        else:
            solver.add(as_formula(formula, context))
    solver.add(as_formula(query.negated, context))
    return solver


def _core(solver: z3.Solver) -> tuple[str, ...]:
    """The subrules and facts in the unsat core, each once."""
    used = {str(label).split(" #")[0] for label in solver.unsat_core()}
    return tuple(sorted(used))


def _certified(query: Query, context: z3.Context, name: str, timeout: float, out: Path) -> dict:
    """Z3 found the negated claim unsatisfiable; the proof stands if cvc5, reading the same
    query as exported, does too. Otherwise it is not proved, and the query is kept."""
    exported = certification.export(_solver(query, context, timeout))
    answer = certification.ask_cvc5(exported, f"{name}.smt2", timeout)
    if answer.verdict == certification.UNSAT:
        return {"certified_by": (Z3, CVC5)}
    path = _save(out, name, exported)
    said = "finds it satisfiable" if answer.verdict == certification.SAT else answer.reason
    return {
        "verdict": UNKNOWN,
        "reason": f"not certified: Z3 proved it, but cvc5 {said}",
        "smt2": str(path),
    }


def _save(out: Path, name: str, query: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.smt2"
    path.write_text(query)
    return path


def _shown(model: z3.ModelRef, combat: OpenCombat) -> tuple[str, ...]:
    """The open combat's values in the model: its true facts and nonzero numbers."""
    shown = []
    for unknown in sorted(combat.unknowns.values(), key=str):
        value = model.eval(unknown, model_completion=True)
        if z3.is_true(value):
            shown.append(str(unknown))
        elif z3.is_int_value(value) and value.as_long() != 0:
            shown.append(f"{unknown} = {value.as_long()}")
    return tuple(shown)


def text(results: Sequence[UnboundedResult]) -> str:
    """One line per theorem, as `lethal prove` prints a property, then what it rests on."""
    lines = []
    for r in results:
        verdict = r.verdict.upper()
        if len(r.certified_by) > 1:
            verdict += f" ({', '.join(r.certified_by)})"
        cites = ", ".join(r.cites)
        lines.append(f"{verdict:<8} {r.name}  [CR {cites}]  ({SCOPE})  {r.seconds:.1f}s")
        lines.append(f"  {r.statement}")
        if r.model:
            lines.append("  counterexample, in the open combat: " + ", ".join(r.model))
        if r.reason:
            lines.append(f"  {r.reason}")
        if r.smt2:
            lines.append(f"  the query is in {r.smt2}")
        if r.used:
            lines.append(f"  the proof needed: {'; '.join(r.used)}")
        lines.append("  it assumes:")
        lines += [f"    - {a}" for a in r.assumptions]
    if results:
        lines.append(f"not covered: {'; '.join(LEAVES_OUT)}")
    return "\n".join(lines)


def as_json(results: Sequence[UnboundedResult]) -> list[dict]:
    return [
        {
            "name": r.name,
            "statement": r.statement,
            "expected": "holds",
            "verdict": r.verdict,
            "as_expected": r.verdict == PROVED,
            "seconds": round(r.seconds, 3),
            "scope": SCOPE,
            "citations": list(r.cites),
            "assumptions": list(r.assumptions),
            "not_covered": list(LEAVES_OUT),
            "used": list(r.used),
            "counterexample": list(r.model),
            "reason": r.reason,
            "smt2": r.smt2,
            "certified_by": list(r.certified_by),
        }
        for r in results
    ]
