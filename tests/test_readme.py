"""The README's examples are what lethal prints today. Every fenced block whose first line
starts with `$ lethal ` is run from the repository root through `lethal.cli.main`, its
arguments split as a shell splits them, and what it prints (standard output and standard
error together, as a terminal shows them) must equal the rest of the block exactly, but for
times: `2.1s` in the README stands for any time, as no two runs take the same. In the Python
blocks that start `import lethal`, a line whose comment is a plain value (`# False`, `# 4`)
must give that value; a Python block followed at once by a bare block must print it, `...`
there standing for any text.

A block right after a line `<!-- not run: REASON -->` is skipped, for that reason: the
whole library, `teeth` and `mutants` take minutes, and a few blocks need a file of the
reader's own. `prove -k` blocks are never skipped.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import shlex
import tokenize
from pathlib import Path

import pytest

from lethal.cli import main

ROOT = Path(__file__).parent.parent
PROMPT = "$ lethal "
NOT_RUN = re.compile(r"<!-- not run: (.+) -->")
TIME = re.compile(r"(?<![\w.])\d+(?:\.\d+)?s\b")


def _blocks() -> list[tuple[int, str, str, str | None]]:
    """Each example block: its line in the README, its command, the output it shows, and
    why it is not run (None when it is)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    blocks = []
    start = None
    for number, line in enumerate(lines):
        if not line.startswith("```"):
            continue
        if start is None:
            start = number
            continue
        body, start_line = lines[start + 1 : number], start
        start = None
        if not body or not body[0].startswith(PROMPT):
            continue
        before = next((b for b in reversed(lines[:start_line]) if b.strip()), "")
        skipped = NOT_RUN.fullmatch(before.strip())
        output = "".join(f"{b}\n" for b in body[1:])
        blocks.append((start_line + 2, body[0], output, skipped and skipped.group(1)))
    return blocks


BLOCKS = _blocks()


def test_the_readme_has_examples_that_run():
    assert sum(reason is None for *_, reason in BLOCKS) >= 10


def test_prove_k_examples_are_run():
    pattern = [b for b in BLOCKS if b[1].startswith(f"{PROMPT}prove -k")]
    assert pattern and all(reason is None for *_, reason in pattern)


@pytest.mark.parametrize(
    "line, command, shown, reason", BLOCKS, ids=[f"README.md:{b[0]}" for b in BLOCKS]
)
def test_the_readme_example_prints_what_it_shows(line, command, shown, reason, monkeypatch):
    if reason:
        pytest.skip(reason)
    monkeypatch.chdir(ROOT)
    printed = io.StringIO()
    main(shlex.split(command.removeprefix("$ "))[1:], printed, printed)
    assert TIME.sub("<time>", printed.getvalue()) == TIME.sub("<time>", shown)


def _python_blocks() -> list[str]:
    """The Python blocks of the README that use lethal as a reader would, from the top."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    return [b for b in blocks if b.startswith("import lethal\n")]


def _shown_values(source: str) -> dict[int, object]:
    """By line, the value a line's comment shows, where the comment is a plain value."""
    shown = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            try:
                shown[token.start[0]] = ast.literal_eval(token.string.removeprefix("#").strip())
            except (ValueError, SyntaxError):  # words, or a value shown in part ("...")
                pass
    return shown


@pytest.mark.parametrize("source", _python_blocks())
def test_the_readme_python_gives_the_values_it_shows(source, monkeypatch):
    monkeypatch.chdir(ROOT)
    shown = _shown_values(source)
    assert shown, "no line of the block shows a value"
    names: dict = {}
    for statement in ast.parse(source).body:
        if statement.lineno in shown and isinstance(statement, ast.Expr):
            got = eval(compile(ast.Expression(statement.value), "README.md", "eval"), names)
            assert got == shown.pop(statement.lineno), ast.unparse(statement)
        else:
            exec(compile(ast.Module([statement], []), "README.md", "exec"), names)
    assert not shown, f"lines whose shown value was not checked: {sorted(shown)}"


def _python_with_output() -> list[tuple[int, str, str]]:
    """(line, code, output shown) of each Python block followed at once by a bare block."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    fenced = []  # (line of the opening fence, language, body)
    number = 0
    while number < len(lines):
        if lines[number].startswith("```"):
            end = next(n for n in range(number + 1, len(lines)) if lines[n].startswith("```"))
            fenced.append((number + 1, lines[number][3:], "\n".join(lines[number + 1 : end])))
            number = end
        number += 1
    return [
        (line, code, shown)
        for (line, language, code), (after, bare, shown) in zip(fenced, fenced[1:], strict=False)
        if language == "python" and bare == "" and after == line + code.count("\n") + 4
    ]


PYTHON_WITH_OUTPUT = _python_with_output()


def test_the_readme_has_python_whose_output_it_shows():
    assert PYTHON_WITH_OUTPUT


@pytest.mark.parametrize(
    "line, code, shown", PYTHON_WITH_OUTPUT, ids=[f"README.md:{b[0]}" for b in PYTHON_WITH_OUTPUT]
)
def test_the_readme_python_prints_what_it_shows(line, code, shown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # what it writes, it writes there
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"README.md:{line}", "exec"), {})
    pattern = ".*?".join(re.escape(part) for part in TIME.sub("<time>", shown).split("..."))
    assert re.fullmatch(pattern, TIME.sub("<time>", printed.getvalue()).rstrip("\n"), re.S)
