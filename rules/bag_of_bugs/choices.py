"""How a bot player answers the choice after a grab (take which tokens, give which, take the
pool or not), whatever it counts a token's worth by: the normal player by the score, the hard
one by equity."""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, Rng
from rules.core.bots import best_of

from .state import GIVE, TAKE, GameState
from .tokens import Counts

Gain = Callable[[GameState, int, Counts], float]
"""What taking some tokens is worth to a seat."""
GiveWorth = Callable[[GameState, int, str], float]
"""What giving one token to the left is worth to a seat."""


def answer_choice(
    state: GameState, seat: int, actions: list[Action], rng: Rng, gain: Gain, give: GiveWorth
) -> Action:
    """The best answer to the pending choice by ``gain`` and ``give``, ties at random."""
    assert state.choice is not None
    if state.choice.kind == TAKE:
        return best_of([(float(gain(state, seat, a["tokens"])), a) for a in actions], rng)
    if state.choice.kind == GIVE:
        return best_of([(give(state, seat, a["token"]), a) for a in actions], rng)
    take_all = gain(state, seat, state.pool)
    return best_of([(take_all if a["type"] == "take_all" else 0.0, a) for a in actions], rng)
