"""Long work shows how far it has got on a terminal, and is silent when piped."""

from __future__ import annotations

import io
from pathlib import Path

from lethal import cli, progress, rules
from lethal.proving import teeth
from lethal.reading import bundled_examples

COMBATS = Path(__file__).parent.parent / "model" / "examples" / "combats"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_command_shows_progress_on_a_terminal_and_nothing_when_piped(monkeypatch):
    def work(args):
        progress.say("half way")
        return "done\n", {}, 0

    monkeypatch.setattr("lethal.cli.bundled.schema", work)
    terminal, piped = Terminal(), io.StringIO()
    assert cli.main(["schema"], io.StringIO(), terminal) == 0
    assert cli.main(["schema"], io.StringIO(), piped) == 0
    assert (terminal.getvalue(), piped.getvalue()) == ("half way\n", "")


def test_teeth_says_each_kind_as_it_is_done(monkeypatch):
    monkeypatch.setattr(teeth, "collect", lambda paths: [])
    monkeypatch.setattr(teeth, "bundled_examples", lambda: bundled_examples()[:1])
    lines: list[str] = []
    with progress.shown_by(lines.append):
        teeth.bite(5)
    kinds = list(rules.KINDS)
    assert lines[0] == f"teeth: 1 of {len(kinds)} kinds, CR {kinds[0]} NOT CAUGHT"
    assert len(lines) == len(kinds) and lines[-1].startswith(f"teeth: {len(kinds)} of")


def test_a_loop_says_how_far_it_is_at_most_once_a_period(monkeypatch):
    clock = iter(range(0, 100, 1))
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock) / 2)  # 0.5 s a step
    lines: list[str] = []
    with progress.shown_by(lines.append):
        taken = list(progress.counted(range(5), "tried"))
    assert taken == [0, 1, 2, 3, 4]
    assert lines == ["tried: 1 of 5", "tried: 3 of 5"]


def test_a_whole_combat_says_how_many_first_step_assignments_it_has_tried(monkeypatch):
    monkeypatch.setattr(progress, "EVERY", 0)
    terminal = Terminal()
    combat = str(COMBATS / "double-striking-trampler-and-a-2-2.json")
    code = cli.main(["guarantee", combat, "--to", "D", "--combat"], io.StringIO(), terminal)
    lines = terminal.getvalue().splitlines()
    assert code == 0 and lines
    assert lines[0] == "--combat: first-step assignments tried: 0 of " + lines[0].split()[-1]
