"""Bot players in the rules layer: levels, what a seat remembers, and the per-game hooks.

A bot sees the game as its seat does. It is handed the real engine only to read what that seat
may read (its view, its legal actions), and every look further ahead happens in an *imagined*
game (``GameBots.imagine``): a copy in which everything hidden from the seat is dealt again at
random, consistent with what the seat observed, and with a fresh generator for what is to come.
``tests/rules/test_bots_honest.py`` proves per game that no decision depends on a hidden part.

Pure and deterministic like the engines: the caller hands in the seed, and a time budget only
through a clock it injects (``Budget.clock``), so tests and tournaments count simulations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from .engine import Engine
from .events import Action, Event
from .rng import Rng

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")

WAIT = None
"""A real-time bot may choose to do nothing yet (a Grabber letting the pool grow)."""


@dataclass(frozen=True)
class Reaction:
    """How long a bot of a level takes to react in a real-time window, in seconds (uniform in
    ``low``..``high``): hard is quick but never instant, so it still loses races (issue #23)."""

    low: float
    high: float

    def sample(self, rng: Rng) -> float:
        return self.low + (self.high - self.low) * rng.random()


REACTIONS: dict[Level, Reaction] = {
    "easy": Reaction(1.5, 4.0),
    "normal": Reaction(0.9, 2.2),
    "hard": Reaction(0.5, 1.2),
}
"""P-51: reaction times per level, the same for every real-time game."""


class Memory:
    """What one seat has observed beyond its current view. The base remembers nothing, which is
    all a game whose view holds everything the seat ever saw needs (and how ``easy`` forgets).

    ``observe`` is handed only events the seat may see; a game's memory keeps what its level
    allows (Bugs & Co's hard bot remembers every tile it peeked and where it went)."""

    def __init__(self, seat: int, level: Level) -> None:
        self.seat = seat
        self.level = level

    def observe(self, events: Sequence[Event]) -> None:
        """Take note of visible events (the default forgets them)."""


Imagine = Callable[[Engine, int, Memory, Rng], Engine]
Policy = Callable[[Engine, int, Memory, Rng], Action | None]
Rollout = Callable[[Engine, int, Rng], Action | None]


@dataclass(frozen=True)
class GameBots:
    """One game's bot hooks, registered by slug (``register_bots``).

    ``imagine`` deals the seat's unknowns again; ``normal`` is the rulebook heuristic (reading
    only what the seat may know, it may answer ``WAIT`` in a real-time window); ``anchor`` is the
    hard player's own heuristic (default: ``normal``), the pick its search must clearly beat and
    its decision when no search can run; ``rollout`` plays
    inside an imagined game only, so it may read that game freely; ``memory`` makes the seat's
    memory for a level; ``may_wait`` says whether ``WAIT`` is ever a choice, and ``waits`` whether
    it is one for a seat now (default: whenever it may act); ``options`` narrows the seat's legal
    actions to the ones worth searching (default: all)."""

    slug: str
    imagine: Imagine
    normal: Policy
    rollout: Rollout
    memory: Callable[[int, Level], Memory] = Memory
    anchor: Policy | None = None
    may_wait: bool = False
    waits: Callable[[Engine, int], bool] | None = None
    options: Callable[[Engine, int], list[Action]] | None = None
    playout_steps: int = 600
    """Actions a playout may take before its game is judged by the scores as they stand."""
    estimate: Callable[[Engine], Sequence[float]] | None = None
    """Each seat's likely final score in a playout cut off by ``playout_steps`` (default: the
    scores as they stand)."""
    deadline_chance: Callable[[Engine], float] = lambda engine: 0.0
    """Per playout step, the chance that a pending deadline fires although a seat could act
    (Bugs & Co's final count runs out while players still peek); else one fires only when
    nobody acts."""

    def may_wait_now(self, engine: Engine, seat: int) -> bool:
        """Whether waiting is one of ``seat``'s choices now (a Drawer gains nothing by it)."""
        return self.may_wait and (self.waits is None or self.waits(engine, seat))

    def heuristic(self, level: Level) -> Policy:
        """The policy a bot of ``level`` plays without searching (easy has none: random)."""
        return self.anchor if level == "hard" and self.anchor is not None else self.normal


def memoryless(policy: Policy) -> Rollout:
    """A normal policy as a rollout: inside an imagined game a seat needs no memory, since the
    game itself holds everything (for games whose normal player reads no memory anyway)."""

    def rollout(world: Engine, seat: int, rng: Rng) -> Action | None:
        return policy(world, seat, Memory(seat, "normal"), rng)

    return rollout


BOTS: dict[str, GameBots] = {}


def register_bots(bots: GameBots) -> GameBots:
    """Add a game's bot hooks under its slug (each game package does it on import)."""
    BOTS[bots.slug] = bots
    return bots


def bots_for(slug: str) -> GameBots:
    try:
        return BOTS[slug]
    except KeyError:
        raise KeyError(f"no bot players for {slug!r}; known: {', '.join(sorted(BOTS))}") from None


class Clock(Protocol):
    def __call__(self) -> float: ...


@dataclass(frozen=True)
class Budget:
    """How much a hard bot may think per decision: at most ``simulations`` imagined games, and
    (only when a ``clock`` is given, never in tests) at most ``seconds`` by that clock."""

    simulations: int = 400
    seconds: float | None = None
    clock: Clock | None = None


@dataclass
class Decision:
    """A bot's choice and what it cost (for the tournament's figures)."""

    action: Action | None
    simulations: int = 0


def outcome(scores: Sequence[float], seat: int) -> float:
    """The worth of final (or estimated) ``scores`` to ``seat``, in 0..1: mostly its share of
    the win, a little its margin over the best other seat, so search prefers a safer lead."""
    best = max(scores)
    leaders = [s for s, score in enumerate(scores) if score >= best - 1e-9]
    win = 1.0 / len(leaders) if seat in leaders else 0.0
    others = [score for s, score in enumerate(scores) if s != seat]
    margin = scores[seat] - (max(others) if others else 0)
    return 0.85 * win + 0.15 * (0.5 + max(-10, min(10, margin)) / 20)


def fork(engine: Engine) -> Engine:
    """An independent copy of ``engine`` (``Engine.copy``: the generator included)."""
    return engine.copy()


def best_of(scored: Sequence[tuple[float, Action]], rng: Rng) -> Action:
    """The action of the highest score, ties broken at random (so bots do not all agree)."""
    top = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score >= top - 1e-9])
