"""``Bot``: one seat's bot player at one level, observing what its seat may see."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .bots import Budget, Decision, GameBots, Level, Memory
from .engine import Engine
from .events import Event
from .rng import Rng
from .search import search


@dataclass
class Bot:
    """A bot player: ``easy`` plays a uniformly random legal move (today's bot, kept as the
    baseline), ``normal`` the game's rulebook heuristic, ``hard`` searches imagined games."""

    game: GameBots
    seat: int
    level: Level
    rng: Rng
    budget: Budget = field(default_factory=Budget)
    memory: Memory = field(init=False)
    waited_on: object = field(default=None, init=False)
    """The view in which this bot last chose to wait: until it changes, it waits again without
    thinking (a Grabber looks again every reaction time while nothing new is revealed)."""

    def __post_init__(self) -> None:
        self.memory = self.game.memory(self.seat, self.level)

    def observe(self, events: Sequence[Event]) -> None:
        """Feed the events of an accepted action; only those its seat may see reach memory."""
        self.memory.observe([e for e in events if e.visible_to(self.seat)])

    def decide(self, engine: Engine) -> Decision:
        """The action to take now (``None``: wait, in a real-time window)."""
        actions = engine.legal_actions(self.seat)
        if not actions:
            return Decision(None)
        if self.level == "easy":
            return Decision(self.rng.choice(actions))
        if self.level == "normal" or (len(actions) == 1 and not self.game.may_wait):
            return Decision(self.game.normal(engine, self.seat, self.memory, self.rng))
        view = engine.view(self.seat) if self.game.may_wait else None
        if view is not None and view == self.waited_on:
            return Decision(None)
        decision = search(self.game, engine, self.seat, self.memory, self.rng, self.budget)
        self.waited_on = view if decision.action is None else None
        return decision
