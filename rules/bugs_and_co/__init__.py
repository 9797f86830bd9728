"""Bugs & Co (2-8 players, real time): importing this package registers the engine."""

from . import bots  # noqa: F401  (registers its bot players)
from .engine import BugsAndCo

__all__ = ["BugsAndCo"]
