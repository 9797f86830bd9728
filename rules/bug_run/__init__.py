"""Bug Run: the dungeon crawl engine (slug ``bug-run``). Importing it registers the game."""

from .engine import BugRun

__all__ = ["BugRun"]
