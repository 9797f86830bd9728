"""Opening a phase of a Level (trading, adventure, escape): its turn order, crown first.

Its own module because both the turn loop (turns.py) and the stairs' reset (stairs.py) open
phases; neither has to import the other for it.
"""

from __future__ import annotations

from ..core import Event
from .context import Run
from .state import TurnOrder


def start_phase(game: Run, phase: str, events: list[Event]) -> None:
    """Open a phase: the crown's hero acts first, then clockwise (2p: activation alternates
    players)."""
    state = game.state
    state.phase = phase
    crown = state.crown
    state.order = TurnOrder(
        next=crown,
        left=game.n_heroes(),
        forced=crown,
        ready=[True] * game.n_heroes(),
        seat=game.owner(crown),
    )
    state.fought = False
    events.append(Event.public("phase", phase=phase, level=state.level, crown=crown))
