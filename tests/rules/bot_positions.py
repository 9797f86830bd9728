"""Positions for the bot tests: a game played at random for some steps, watched by one seat's
bot (so its memory holds what that seat saw), stopped where that seat has a choice."""

from __future__ import annotations

from dataclasses import dataclass

import rules  # noqa: F401  (registers the games and their bots)
from rules.core import SYSTEM, Engine, Rng, get_game
from rules.core.bots import BOTS, Budget, Level, bots_for
from rules.core.player import Bot

SHIPPED = tuple(sorted(BOTS))
"""Every game with bot players (each shipped game registers its own)."""
PLAYERS = 4
SPAN = {"bag-of-bugs": 120, "bugs-and-co": 18, "bug-off": 150, "bug-run": 90}
"""About how many random actions a game lasts: ``position`` takes ``steps`` modulo this (a
game with bot players but no entry fails ``test_every_game_with_bots_has_a_span``)."""


@dataclass
class Position:
    engine: Engine
    bot: Bot


def step(engine: Engine, rng: Rng) -> tuple[int, dict[str, object]] | None:
    """A random next action (a deadline now and then, as ``random_playout`` does)."""
    movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
    deadlines = engine.deadlines()
    if deadlines and (not movers or rng.random() < 0.05):
        return SYSTEM, rng.choice(deadlines).action
    if not movers:
        return None
    seat = rng.choice(movers)
    return seat, rng.choice(engine.legal_actions(seat))


def position(
    slug: str, seed: int, steps: int, level: Level = "hard", simulations: int = 8
) -> Position | None:
    """``steps`` random actions into game ``seed``, then on until the watching seat may act;
    ``None`` if the game ended first."""
    players = min(max(PLAYERS, get_game(slug).min_players), get_game(slug).max_players)
    steps %= SPAN[slug]
    engine = get_game(slug).new(players, seed)
    seat = seed % players
    bot = Bot(bots_for(slug), seat, level, Rng(seed), Budget(simulations=simulations))
    rng = Rng(seed + 1000)
    taken = 0
    while not engine.is_over:
        if taken >= steps and engine.legal_actions(seat):
            return Position(engine, bot)
        move = step(engine, rng)
        if move is None:
            return None
        bot.observe(engine.apply(*move))
        taken += 1
    return None
