"""Pure game engines for bugtable. Imports only the standard library.

Importing ``rules`` registers every shipped game in ``rules.GAMES``.
"""

from .core import GAMES, SYSTEM, Engine, Event, RuleError, get_game, replay

__all__ = ["GAMES", "SYSTEM", "Engine", "Event", "RuleError", "get_game", "replay"]

# Games register themselves on import.
from . import bag_of_bugs, bug_off, bug_run, bugs_and_co  # noqa: F401
