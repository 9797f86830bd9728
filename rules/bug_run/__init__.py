"""Bug Run: the dungeon crawl engine (slug ``bug-run``). Importing it registers the game."""

from . import bots  # noqa: F401  (registers its bot players)
from .engine import BugRun

__all__ = ["BugRun"]
