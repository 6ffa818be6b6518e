"""Canfield, the casino patience of Saratoga Springs: a deck for $50, $5 for every card home."""

from .play import run
from .rules import Canfield

TITLE = "Canfield"

__all__ = ["TITLE", "Canfield", "run"]
