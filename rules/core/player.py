"""``Bot``: one seat's bot player at one level, observing what its seat may see."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .bots import Budget, Clock, Decision, GameBots, Level, Memory, bots_for
from .engine import Engine
from .events import Event
from .registry import get_game
from .rng import Rng
from .search import search

Step = Literal["pass", "random", "normal", "wait", "search"]


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
        view = self.looks_at(engine)
        decision = search(self.game, engine, self.seat, self.memory, self.rng, self.budget)
        return self.settle(view, decision)

    def step(self, engine: Engine) -> Step:
        """What deciding now takes: nothing to do (``pass``), a random move, the normal
        heuristic, waiting on (a view this bot already chose to wait in), or a search."""
        actions = engine.legal_actions(self.seat)
        if not actions:
            return "pass"
        if self.level == "easy":
            return "random"
        waits = self.game.may_wait_now(engine, self.seat)
        if self.level == "normal" or (len(actions) == 1 and not waits):
            return "normal"
        if waits and engine.view(self.seat) == self.waited_on:
            return "wait"
        return "search"

    def quick(self, engine: Engine) -> Decision | None:
        """The decision when it needs no search (``None``: a hard bot must search)."""
        step = self.step(engine)
        if step == "random":
            return Decision(self.rng.choice(engine.legal_actions(self.seat)))
        if step == "normal":
            return self.fallback(engine)
        return None if step == "search" else Decision(None)

    def plan(self, engine: Engine) -> Decision | SearchRequest:
        """The decision, when it needs no search; else the search to run elsewhere (a worker
        process), whose decision is handed back to ``settle``."""
        quick = self.quick(engine)
        return self.request(engine) if quick is None else quick

    def request(self, engine: Engine) -> SearchRequest:
        """The search a hard bot would run now, as data (``step`` said one is needed)."""
        return SearchRequest(
            slug=engine.slug,
            snapshot=engine.to_dict(),
            seat=self.seat,
            memory=self.memory,
            seed=self.rng.next_u64(),
            simulations=self.budget.simulations,
            seconds=self.budget.seconds,
        )

    def fallback(self, engine: Engine) -> Decision:
        """The level's heuristic decision (a hard bot's when no search can run in time)."""
        return Decision(self.game.heuristic(self.level)(engine, self.seat, self.memory, self.rng))

    def looks_at(self, engine: Engine) -> object:
        """What ``settle`` compares later: the seat's view where waiting is a choice."""
        return engine.view(self.seat) if self.game.may_wait else None

    def settle(self, view: object, decision: Decision) -> Decision:
        """Note a decision made on ``view`` (``looks_at``): a bot that chose to wait waits
        until its view changes."""
        self.waited_on = view if decision.action is None else None
        return decision


def bot_for(slug: str, seat: int, level: Level, rng: Rng, budget: Budget | None = None) -> Bot:
    """A seat's bot player for the game ``slug`` (``KeyError``: the game has no bot players)."""
    return Bot(bots_for(slug), seat, level, rng, budget or Budget())
