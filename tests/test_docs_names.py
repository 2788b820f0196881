"""Every part of lethal the README and docs/ name exists: a dotted name in backquotes
(`lethal.rules.doubling`), every name a Python block imports from lethal, and every file or
folder of the repository a page names (`model/examples/...`). Modules and files move; a page
that still sends a reader to the old place fails here, at its line, rather than in the
reader's hands."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from .pages import fences

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
QUOTED = re.compile(r"`(lethal(?:\.[A-Za-z_]\w*)+)")
# A path in the repository: one of its top folders, then a name, a glob's `*` allowed.
PATH = re.compile(r"(?<![\w./-])((?:model|docs|tests|benchmarks|proofs|\.ci)/[\w./*-]*[\w*])")


def _named() -> list[tuple[str, str]]:
    """(page:line, dotted name) of each name of lethal a page gives."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")

        def at(offset: int, page=page, text=text) -> str:
            return f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"

        found += [(at(m.start()), m.group(1)) for m in QUOTED.finditer(text)]
        for fence in fences(page):
            if fence.language != "python":
                continue
            try:
                tree = ast.parse(fence.text)
            except SyntaxError:  # a fragment, such as a call shown alone
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lethal"):
                    names = [f"{node.module}.{alias.name}" for alias in node.names]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names if alias.name.startswith("lethal")]
                else:
                    continue
                place = f"{page.relative_to(ROOT)}:{fence.line + node.lineno}"
                found += [(place, name) for name in names]
    return found


def _exists(name: str) -> bool:
    """The longest module the name starts with imports, and the rest are its attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


NAMED = _named()


def test_the_pages_name_parts_of_lethal():
    """The scan finds what it looks for: the README's own imports and quoted names."""
    names = {name for _, name in NAMED}
    assert {"lethal.proving.Claim", "lethal.rules.doubling"} <= names


@pytest.mark.parametrize("place, name", NAMED, ids=[f"{p} {n}" for p, n in NAMED])
def test_each_name_a_page_gives_exists(place, name):
    assert _exists(name), f"{place} names {name}, which lethal does not have"


def _paths() -> list[tuple[str, str]]:
    """(page:line, path) of each file or folder of the repository a page names."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in PATH.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append((f"{page.relative_to(ROOT)}:{line}", m.group(1)))
    return found


PATHS = _paths()


def test_the_pages_name_files_of_the_repository():
    assert {"model/examples", "docs/strategies.md"} <= {path.rstrip("/") for _, path in PATHS}


@pytest.mark.parametrize("place, path", PATHS, ids=[f"{p} {n}" for p, n in PATHS])
def test_each_path_a_page_gives_exists(place, path):
    assert any(ROOT.glob(path)), f"{place} names {path}, which the repository does not have"
