"""Bag of Bugs (3-5 players): reveal tokens from a bag while the others race for Grab tokens."""

from . import bots  # noqa: F401  (registers its bot players)
from .engine import BagOfBugs

__all__ = ["BagOfBugs"]
