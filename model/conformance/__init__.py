"""Conformance: a rules engine's answers compared with lethal's, over a corpus and random
combats (`lethal conform`; the protocol is docs/conformance.md).

Each question is one request to one run of the engine (`protocol`): is this assignment
legal (`check`), what would you assign (`assign`), what happens once it is dealt (`deal`),
who divides each creature's combat damage (`divide`).
What lethal says of each answer is in `judging`; the corpus and its expected answers are
read by `manifest`; `runner` asks the corpus's files, then random combats (`drawn`, with
Hypothesis, which shrinks a disagreement to the smallest combat that still shows it);
`report` gives the run as lines, JSON and JUnit XML.
"""

from __future__ import annotations

PROTOCOL = "lethal-conform/1"

CHECK, ASSIGN, DEAL, DIVIDE = "check", "assign", "deal", "divide"
ASKS = (CHECK, ASSIGN, DEAL, DIVIDE)

# How an ask ended: the engine's answer and lethal's agree or not, the engine declined to
# answer (or lethal could not decide), or the engine gave no answer that can be read.
AGREED, DISAGREED, SKIPPED, FAILED = "agreed", "disagreed", "skipped", "engine failure"
OUTCOMES = (AGREED, DISAGREED, SKIPPED, FAILED)
