"""An engine that fails the protocol in the way its argument names: `sleep` (never answers),
`crash` (a traceback, exit 1), `garbage` (not JSON), `two` (two answers), `shape` (an
answer of the wrong shape), `silent` (exits 0 with no answer), `forks` (leaves a child
holding standard output open, then sleeps); or declines every question (`declines`)."""

import json
import os
import sys
import time

how = sys.argv[1]
request = json.load(sys.stdin)
if how == "sleep":
    time.sleep(60)
elif how == "crash":
    raise RuntimeError("the engine fell over")
elif how == "garbage":
    print("legal: yes")
elif how == "two":
    print('{"legal": true}\n{"legal": false}')
elif how == "shape":
    print('{"legal": "yes"}')
elif how == "declines":
    print(json.dumps({"unsupported": "this engine answers nothing"}))
elif how == "forks":
    if os.fork() == 0:
        time.sleep(60)
    time.sleep(60)
