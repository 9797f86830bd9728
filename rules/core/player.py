"""``Bot``: one seat's bot player at one level, observing what its seat may see."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import Budget, Clock, Decision, GameBots, Level, Memory, bots_for
from .engine import Engine
from .events import Event
from .registry import get_game
from .rng import Rng
from .search import search


@dataclass(frozen=True)
class SearchRequest:
    """A hard bot's search, as data that may cross to another process (``run_search``): the
    position as the engine's own snapshot, and what the seat remembers. The search itself only
    reads the position through ``GameBots.imagine``, as it does in this process."""

    slug: str
    snapshot: dict[str, Any]
    seat: int
    memory: Memory
    seed: int
    simulations: int
    seconds: float | None


def run_search(request: SearchRequest, clock: Clock | None = None) -> Decision:
    """Run a hard bot's search (in a worker process, or here): ``clock`` bounds it by
    ``request.seconds`` (none: by its simulations only, which replays exactly)."""
    engine = get_game(request.slug).from_dict(request.snapshot)
    budget = Budget(request.simulations, request.seconds, clock)
    game = bots_for(request.slug)
    return search(game, engine, request.seat, request.memory, Rng(request.seed), budget)


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
        quick = self.quick(engine)
        if quick is not None:
            return quick
        decision = search(self.game, engine, self.seat, self.memory, self.rng, self.budget)
        return self.settle(engine, decision)

    def plan(self, engine: Engine) -> Decision | SearchRequest:
        """The decision, when it needs no search; else the search to run elsewhere (a worker
        process), whose decision is handed back to ``settle``."""
        quick = self.quick(engine)
        return self.request(engine) if quick is None else quick

    def request(self, engine: Engine) -> SearchRequest:
        """The search a hard bot would run now, as data (``quick`` said one is needed)."""
        return SearchRequest(
            slug=engine.slug,
            snapshot=engine.to_dict(),
            seat=self.seat,
            memory=self.memory,
            seed=self.rng.next_u64(),
            simulations=self.budget.simulations,
            seconds=self.budget.seconds,
        )

    def quick(self, engine: Engine) -> Decision | None:
        """The decision when it needs no search (``None``: a hard bot must search)."""
        actions = engine.legal_actions(self.seat)
        if not actions:
            return Decision(None)
        if self.level == "easy":
            return Decision(self.rng.choice(actions))
        if self.level == "normal" or (len(actions) == 1 and not self.game.may_wait):
            return self.fallback(engine)
        if self.game.may_wait and engine.view(self.seat) == self.waited_on:
            return Decision(None)
        return None

    def fallback(self, engine: Engine) -> Decision:
        """The normal player's decision (a hard bot's when no search can run in time)."""
        return Decision(self.game.normal(engine, self.seat, self.memory, self.rng))

    def settle(self, engine: Engine, decision: Decision) -> Decision:
        """Note a search's decision: a bot that chose to wait waits until its view changes."""
        view = engine.view(self.seat) if self.game.may_wait else None
        self.waited_on = view if decision.action is None else None
        return decision


def bot_for(slug: str, seat: int, level: Level, rng: Rng, budget: Budget | None = None) -> Bot:
    """A seat's bot player for the game ``slug`` (``KeyError``: the game has no bot players)."""
    return Bot(bots_for(slug), seat, level, rng, budget or Budget())
