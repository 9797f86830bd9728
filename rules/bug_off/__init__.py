"""Bug Off! (2–6 players): RULINGS §3. Importing this package registers the engine."""

from . import bots  # noqa: F401  (registers its bot players)
from .cards import COLOURS
from .engine import BugOff

__all__ = ["COLOURS", "BugOff"]
