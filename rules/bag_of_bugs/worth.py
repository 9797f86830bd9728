"""What tokens are worth to a seat now, by the score alone: the normal player's measure, which
the hard player also assumes of the others when it foresees their takes."""

from __future__ import annotations

from . import scoring
from .state import GameState
from .tokens import SCARY, WIND, Counts, add


def gain(state: GameState, seat: int, tokens: Counts) -> int:
    """How much taking ``tokens`` changes the seat's margin (a Wind is not collected)."""
    kept = {t: n for t, n in tokens.items() if t != WIND}
    mine = state.collections[seat]
    return own(state, seat, add(mine, kept)) - own(state, seat, mine)


def own(state: GameState, seat: int, collection: Counts) -> int:
    """The seat's own score with ``collection``, its Most-Scary penalty judged against the
    others' Scary Bugs."""
    worst_other = max(c.get(SCARY, 0) for s, c in enumerate(state.collections) if s != seat)
    scary = collection.get(SCARY, 0)
    return scoring.breakdown(collection, scary >= 1 and scary >= worst_other)["total"]
