"""Long work shows how far it has got on a terminal, and is silent when piped."""

from __future__ import annotations

import io

from lethal import cli, rules, teeth
from lethal.reading import bundled_examples


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_shown_on_a_terminal_only(monkeypatch):
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert cli._progress_on_a_terminal() is None
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    cli._progress_on_a_terminal()("1 of 2")
    assert terminal.getvalue() == "1 of 2\n"


def test_teeth_reports_each_kind_as_it_is_done(monkeypatch):
    monkeypatch.setattr(teeth, "collect", lambda paths: [])
    monkeypatch.setattr(teeth, "bundled_examples", lambda: bundled_examples()[:1])
    lines: list[str] = []
    teeth.bite(5, lines.append)
    kinds = list(rules.KINDS)
    assert lines[0] == f"teeth: 1 of {len(kinds)} kinds, CR {kinds[0]} NOT CAUGHT"
    assert len(lines) == len(kinds) and lines[-1].startswith(f"teeth: {len(kinds)} of")
