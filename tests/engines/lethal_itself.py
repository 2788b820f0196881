"""A correct adapter: lethal answering for itself (its check, a legal assignment its solver
finds, the first outcome of its deal), so that a conformance run on it must agree on all."""

import json
import sys

import lethal
from lethal.rules.dealing import deal

request = json.load(sys.stdin)
scenario = lethal.parse(request["scenario"], warn=False)
if request["ask"] == "check":
    verdict = lethal.check(scenario)
    answer = {"legal": verdict.legal, "rules": [v.rule for v in verdict.violations]}
elif request["ask"] == "divide":
    answer = {"divides": {c.source: c.player for c in lethal.check(scenario, ()).choosers}}
elif request["ask"] == "assign":
    found = lethal.possible(scenario, [])
    answer = {"assignment": [e.__dict__ for e in found.assignment]}
else:
    outcome = deal(scenario)[0]
    answer = {
        "life": {p: n for p, n in outcome.life.items() if n is not None},
        "poison": {p: n for p, n in outcome.poison.items() if n},
        "graveyard": [r.id for r in outcome.removed if not r.exiled],
    }
json.dump(answer, sys.stdout)
