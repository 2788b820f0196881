"""A wrong adapter that only deals: lethal's own dealing, but of the combat with every
toxic keyword taken out (as an engine that forgets 702.164c deals it), so that its players
get no poison counters from toxic. It declines the other asks."""

import json
import sys

import lethal
from lethal.rules.dealing import deal

request = json.load(sys.stdin)
if request["ask"] != "deal":
    json.dump({"unsupported": "this engine only deals"}, sys.stdout)
    sys.exit(0)
data = request["scenario"]
for p in data["permanents"]:
    if "keywords" in p:
        p["keywords"] = [k for k in p["keywords"] if not k.startswith("toxic")]
outcome = deal(lethal.parse(data, warn=False))[0]
answer = {
    "life": {p: n for p, n in outcome.life.items() if n is not None},
    "poison": {p: n for p, n in outcome.poison.items() if n},
    "graveyard": [r.id for r in outcome.removed if not r.exiled],
}
json.dump(answer, sys.stdout)
