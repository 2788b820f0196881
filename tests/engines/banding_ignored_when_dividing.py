"""A wrong adapter that only says who divides: lethal's own answer, but of the combat with
banding and "bands with other" taken out (as an engine that forgets 702.22j-k), so that
each creature's controller divides its damage. It declines the other asks."""

import json
import sys

import lethal

request = json.load(sys.stdin)
if request["ask"] != "divide":
    json.dump({"unsupported": "this engine only says who divides"}, sys.stdout)
    sys.exit(0)
data = request["scenario"]
data.pop("bands", None)
for p in data["permanents"]:
    if "keywords" in p:
        p["keywords"] = [k for k in p["keywords"] if "band" not in k]
verdict = lethal.check(lethal.parse(data, warn=False), ())
json.dump({"divides": {c.source: c.player for c in verdict.choosers}}, sys.stdout)
