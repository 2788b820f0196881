"""The fenced blocks of the project's pages (README.md, docs/*.md), read once for every test
that runs or checks them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Fence:
    line: int  # of the opening fence, from 1
    language: str  # what follows the opening ```: "python", "sh", or "" for a bare block
    body: list[str]
    before: str  # the last line above the fence that is not blank

    @property
    def text(self) -> str:
        return "".join(f"{line}\n" for line in self.body)


def fences(page: Path) -> list[Fence]:
    """Every fenced block of the page, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    number = 0
    while number < len(lines):
        if lines[number].startswith("```"):
            end = next(n for n in range(number + 1, len(lines)) if lines[n].startswith("```"))
            before = next((b for b in reversed(lines[:number]) if b.strip()), "")
            found.append(Fence(number + 1, lines[number][3:], lines[number + 1 : end], before))
            number = end
        number += 1
    return found
