"""Whatever the file holds, lethal answers with one of its exit codes and never a traceback:
the bundled examples with random values put in, keys taken out and added, entries given
twice; random bytes and random text. Bad input is exit 2 with lines that each name the file,
never 4 (an internal error) and never an exception out of `main`."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lethal.cli import main
from lethal.reading import bundled_examples, shape

EXAMPLES = [json.loads(p.read_text()) for p in bundled_examples()]
DOCUMENTED = {0, 1, 2, 3}  # 4 is an internal error: a bug, whatever the input

# Cheap commands, each a question any well-formed file can be asked.
COMMANDS = [
    ["check"],
    ["check", "--json"],
    ["deal"],
    ["possible"],
    ["possible", "--require", "*->D >= 1"],
    ["count"],
    ["max", "--to", "D"],
    ["min", "--to", "D", "--json"],
]

# JSON the decoder reads but Python's numbers can't hold, or that JSON itself does not have;
# put in the text as written, since json.dumps can't write them.
RAW = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "9" * 5000, "-" + "1" * 4400, "1e-400"]
WORDS = [
    "creature",
    "planeswalker",
    "battle",
    "trample",
    "deathtouch",
    "banding",
    "first strike",
    "double strike",
    "first-strike",
    "second",
    "current",
    "2015-03-01",
    "A",
    "D",
    "",
    "\u001b[2J",
    "a\nlegal",
    "\ud800",
    "\u202e",
    "x" * 10_000,
]
FIELDS = sorted({*shape.TOP_FIELDS, *shape.PERMANENT_FIELDS})  # the names a file may use

leaves = (
    st.none()
    | st.booleans()
    | st.integers(-3, 10)
    | st.integers()
    | st.sampled_from([2**63, -(2**63), 10**100, -(10**4000)])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(WORDS)
    | st.text(max_size=20)
    | st.sampled_from(RAW).map(lambda raw: _Raw(raw))
)
effects = st.fixed_dictionaries(
    {"id": st.text(max_size=3), "kind": st.sampled_from(["double", "prevent", "add"])},
    optional={
        "amount": st.integers(-1, 3),
        "to": st.sampled_from(WORDS),
        "sources": st.lists(st.sampled_from(WORDS), max_size=2),
    },
)
values = st.recursive(
    leaves | effects,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


class _Raw(str):
    """A JSON literal written into the text as it is."""


def _nodes(data, path=()):
    """Every place in the decoded file, as a path of keys and indexes."""
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _nodes(value, (*path, i))


def _at(data, path):
    for step in path:
        data = data[step]
    return data


@st.composite
def mutated_examples(draw) -> str:
    """A bundled example, changed in one to four places, as JSON text."""
    data = json.loads(json.dumps(draw(st.sampled_from(EXAMPLES))))
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(list(_nodes(data))))
        target = _at(data, path)
        how = draw(st.sampled_from(["nudge", "nudge", "replace", "delete", "add", "duplicate"]))
        if how == "nudge" and path and isinstance(target, (int, str)):
            _at(data, path[:-1])[path[-1]] = draw(_alike(target, data))
        elif how == "replace" and path:
            _at(data, path[:-1])[path[-1]] = draw(values)
        elif how == "replace":
            data = draw(values)
        elif how == "delete" and path:
            del _at(data, path[:-1])[path[-1]]
        elif how == "add" and isinstance(target, dict):
            target[draw(st.sampled_from(FIELDS) | st.text(max_size=8))] = draw(values)
        elif how in ("add", "duplicate") and isinstance(target, list) and target:
            target.append(json.loads(json.dumps(draw(st.sampled_from(target)))))
    return _written(data)


def _alike(value, data):
    """A value of the same kind, to go deeper than the reader: another id of the file for a
    string, an extreme or a near one for an integer."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        near = st.integers(value - 3, value + 3)
        return near | st.sampled_from([0, -1, 10**6, 2**31, 2**63, 10**18, 10**4299])
    ids = sorted({v for path in _nodes(data) if isinstance(v := _at(data, path), str)})
    return st.sampled_from(ids) | st.sampled_from(WORDS)


def _written(data) -> str:
    raws: list[str] = []

    def placeholder(value):
        raws.append(value)
        return f"@@{len(raws) - 1}@@"

    def marked(value):
        if isinstance(value, _Raw):
            return placeholder(str(value))
        if isinstance(value, dict):
            return {k: marked(v) for k, v in value.items()}
        if isinstance(value, list):
            return [marked(v) for v in value]
        return value

    text = json.dumps(marked(data))
    for i, raw in enumerate(raws):
        text = text.replace(f'"@@{i}@@"', raw)
    return text


def assert_answers_in_a_documented_way(path: Path, command: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    # A slow input (many effects to order) ends in exit 3 at the time limit, not in a stall.
    code = main([*command[:1], str(path), *command[1:], "--timeout", "10"], out, err)
    assert code in DOCUMENTED, err.getvalue()
    if code == 2:  # every line a located message, no line forged by the file
        lines = err.getvalue().splitlines()
        assert lines and all(line.startswith(f"{path}: ") for line in lines), err.getvalue()
    if "--json" in command and out.getvalue():
        json.loads(out.getvalue())


# About ten seconds in all: the campaign of tens of thousands of inputs is run outside the suite.
def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )


@fuzz(150)
@given(text=mutated_examples(), command=st.sampled_from(COMMANDS))
def test_a_mutated_example_gets_an_answer_or_a_located_error(tmp_path, text, command):
    path = tmp_path / "mutated.json"
    path.write_text(text, encoding="utf-8")
    assert_answers_in_a_documented_way(path, ["check"])
    assert_answers_in_a_documented_way(path, command)


@fuzz(100)
@given(content=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_random_bytes_are_an_error_not_a_crash(tmp_path, content):
    path = tmp_path / "random.json"
    path.write_bytes(content)
    assert_answers_in_a_documented_way(path, ["check"])
