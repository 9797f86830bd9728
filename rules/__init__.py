"""Pure game engines for bugtable. Imports only the standard library.

Importing ``rules`` registers every game it holds in ``rules.GAMES``: each sub-package but
``core`` is a game whose engine registers itself on import, so a new game's rules package needs
no line here (its one registration line is its presenter's import, ``bot/ui/games``).
"""

import importlib
import pkgutil

from .core import GAMES, SYSTEM, Engine, Event, RuleError, get_game, replay

__all__ = ["GAMES", "SYSTEM", "Engine", "Event", "RuleError", "get_game", "replay"]

for _package in pkgutil.iter_modules(__path__):
    if _package.ispkg and _package.name != "core":
        importlib.import_module(f"{__name__}.{_package.name}")
