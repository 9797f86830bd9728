"""The engine contract, shared by every game (DESIGN.md §2)."""

from .engine import (
    SYSTEM,
    Deadline,
    Engine,
    GameOption,
    action_type,
    explain,
    require,
    same_json,
)
from .errors import RuleError
from .events import Action, Event
from .policy import Playout, random_action, random_playout
from .registry import GAMES, get_game, register
from .replay import replay
from .rng import Rng
from .timers import TIMER_KINDS, Timer, TimerKind

__all__ = [
    "GAMES",
    "SYSTEM",
    "TIMER_KINDS",
    "Action",
    "Deadline",
    "Engine",
    "Event",
    "GameOption",
    "Playout",
    "Rng",
    "RuleError",
    "Timer",
    "TimerKind",
    "action_type",
    "explain",
    "get_game",
    "random_action",
    "random_playout",
    "register",
    "replay",
    "require",
    "same_json",
]
