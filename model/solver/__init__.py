"""The queries answered with Z3: the rules' constraints over a scenario as formulas. With
`proving`, the only code that imports z3, so `lethal check` never loads it."""

from .encoding import Encoding, decide, is_legal

__all__ = ["Encoding", "decide", "is_legal"]
