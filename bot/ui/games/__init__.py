"""Dedicated presenters, one module per game; importing this package registers them all."""

# Each game's presenter registers itself on import; one line per game.
from . import bug_off  # noqa: F401
