"""The one package that talks to Z3: the rules' constraints as formulas, and the queries
answered with them. Nothing outside it imports z3, so `lethal check` never loads it."""

from .encoding import Encoding, decide, is_legal

__all__ = ["Encoding", "decide", "is_legal"]
