"""Replay: seed + action log -> state. Tests use it to prove determinism; the host to audit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .engine import Engine
from .events import Action
from .registry import get_game


def replay(
    slug: str,
    players: int,
    seed: int,
    options: Mapping[str, str] | None,
    log: Iterable[tuple[int, Action]],
) -> Engine:
    """Rebuild a game from its start and every accepted action, in order.

    An action the engine rejects means the log is not this game's log: that is a bug, not a
    player error, so it propagates.
    """
    engine = get_game(slug).new(players, seed, options)
    for seat, action in log:
        engine.apply(seat, action)
    return engine
