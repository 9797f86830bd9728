"""Bugs & Co (2-8 players, real time): importing this package registers the engine."""

from .engine import BugsAndCo

__all__ = ["BugsAndCo"]
