"""`lethal prove --jobs N`: properties proved in parallel processes give what one process
gives, in the same order: the text, the JSON and the counterexample files alike."""

from __future__ import annotations

import io
import json
import re

import pytest

from lethal.cli import main
from lethal.proving import prover

# Library properties that take a fraction of a second each, one of them refuted (so a
# counterexample file is written), the rest proved, from two files of proofs/.
PATTERN = "*doubl*_give*"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def model_check():
    """The model check, run once: every run below would otherwise start with it."""
    return prover.symbolic_combat_answers_as_lethal_check_does()


@pytest.fixture
def once(monkeypatch, model_check):
    monkeypatch.setattr(prover, "symbolic_combat_answers_as_lethal_check_does", lambda: model_check)


def _times_and_paths(text: str, out: str) -> str:
    """The output without what differs between runs by design: seconds and the --out path."""
    return re.sub(r"\b\d+\.\ds\b", "_s", text.replace(out, "OUT"))


@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
def test_jobs_give_the_same_output_in_the_same_order(tmp_path, once, json_output):
    runs = []
    for jobs in ("1", "2", "4"):
        out = str(tmp_path / jobs)
        argv = ["prove", "-k", PATTERN, "--jobs", jobs, "--out", out]
        code, text, err = run(*argv, *(["--json"] if json_output else []))
        if json_output:
            results = json.loads(text.replace(out, "OUT"))
            text = json.dumps([{**r, "seconds": 0} for r in results])
        files = {p.name: p.read_text() for p in sorted((tmp_path / jobs).iterdir())}
        runs.append((code, _times_and_paths(text, out), err, files))
    code, text, err, files = runs[0]
    assert code == 0 and err == ""
    assert len(files) == 1  # the refuted claim's counterexample
    if json_output:
        verdicts = [r["verdict"] for r in json.loads(text)]
        assert verdicts.count("refuted") == 1 and verdicts.count("proved") >= 5
    assert runs[1] == runs[0] and runs[2] == runs[0]
