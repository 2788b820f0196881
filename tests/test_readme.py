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

from .pages import fences

ROOT = Path(__file__).parent.parent
PROMPT = "$ lethal "
NOT_RUN = re.compile(r"<!-- not run: (.+) -->")
TIME = re.compile(r"(?<![\w.])\d+(?:\.\d+)?s\b")
README = fences(ROOT / "README.md")


def _blocks() -> list[tuple[int, str, str, str | None]]:
    """Each example block: its line in the README, its command, the output it shows, and
    why it is not run (None when it is)."""
    blocks = []
    for fence in README:
        if not fence.body or not fence.body[0].startswith(PROMPT):
            continue
        skipped = NOT_RUN.fullmatch(fence.before.strip())
        output = "".join(f"{b}\n" for b in fence.body[1:])
        blocks.append((fence.line + 1, fence.body[0], output, skipped and skipped.group(1)))
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
    return [
        f.text for f in README if f.language == "python" and f.text.startswith("import lethal\n")
    ]


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
    return [
        (code.line, code.text, "\n".join(shown.body))
        for code, shown in zip(README, README[1:], strict=False)
        if code.language == "python"
        and shown.language == ""
        and shown.line == code.line + len(code.body) + 3
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
