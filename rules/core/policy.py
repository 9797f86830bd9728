"""A random legal-action policy any engine can use (demo players, AFK stand-ins, property tests).

It sees only ``legal_actions`` and the deadlines, never hidden state, exactly like a bot player.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .engine import SYSTEM, Engine
from .events import Action, Event
from .rng import Rng


def random_action(engine: Engine, seat: int, rng: Rng) -> Action | None:
    """A uniformly random legal action for ``seat``, or ``None`` if it has none."""
    actions = engine.legal_actions(seat)
    return rng.choice(actions) if actions else None


@dataclass
class Playout:
    """The result of :func:`random_playout`: the action log and every event, in order."""

    log: list[tuple[int, Action]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def random_playout(
    engine: Engine, rng: Rng, *, max_actions: int = 100_000, deadline_chance: float = 0.05
) -> Playout:
    """Play random legal actions (and, now and then, expire a deadline) until the game ends.

    Any seat with a legal action may act next, which mimics real-time arrival order. A deadline
    fires with ``deadline_chance`` per step, or at once when no player can act.
    Raises ``RuntimeError`` if the game has not ended after ``max_actions`` (a stuck game).
    """
    out = Playout()
    for _ in range(max_actions):
        if engine.is_over:
            return out
        movers = [
            s for s in sorted(engine.waiting_for()) if s != SYSTEM and engine.legal_actions(s)
        ]
        deadlines = engine.deadlines()
        if deadlines and (not movers or rng.random() < deadline_chance):
            seat, action = SYSTEM, rng.choice(deadlines).action
        elif movers:
            seat = rng.choice(movers)
            action = rng.choice(engine.legal_actions(seat))
        else:
            raise RuntimeError(f"{engine.slug}: nobody can act and no deadline is pending")
        out.events.extend(engine.apply(seat, action))
        out.log.append((seat, action))
    if not engine.is_over:
        raise RuntimeError(f"{engine.slug}: not over after {max_actions} actions")
    return out
