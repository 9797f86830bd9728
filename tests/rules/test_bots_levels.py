"""The three levels (issue #23 item 2): easy is today's random player, unchanged; normal and
hard play whole games in simulated time, reproducibly from a seed; and the levels' reaction
times are data a host can pace real-time games by."""

from __future__ import annotations

import pytest

from rules.core import Rng, random_action
from rules.core.bots import LEVELS, REACTIONS, Budget, Level
from rules.core.match import play_match
from rules.core.search import candidates

from .bot_positions import SHIPPED, SPAN, position, step


@pytest.mark.parametrize("slug", SHIPPED)
@pytest.mark.parametrize("seed", range(4))
def test_easy_plays_exactly_the_random_legal_move(slug: str, seed: int) -> None:
    found = position(slug, seed, 1 + 2 * seed, level="easy")
    assert found is not None
    engine, bot = found.engine, found.bot
    bot.rng = Rng(seed)
    assert bot.decide(engine).action == random_action(engine, bot.seat, Rng(seed))


@pytest.mark.parametrize("slug", SHIPPED)
def test_a_match_replays_exactly_from_its_seed(slug: str) -> None:
    levels: list[Level] = ["hard", "normal", "easy", "easy"]
    budget = Budget(simulations=4)
    first = play_match(slug, levels, 9, budget)
    again = play_match(slug, levels, 9, budget)
    assert [(r.score, r.win) for r in first.seats] == [(r.score, r.win) for r in again.seats]
    assert first.actions == again.actions
    assert sum(r.win for r in first.seats) == pytest.approx(1.0)
    # Bugs & Co's hard bot plays its own heuristic: its search weighs no option (P-80)
    assert (first.seats[0].simulations > 0) == (slug != "bugs-and-co")


@pytest.mark.parametrize("slug", SHIPPED)
def test_normal_beats_three_random_players_more_often_than_chance(slug: str) -> None:
    """Eight seeded 4-player games, normal in a rotating seat: well over a quarter of the wins
    (a fixed outcome of fixed seeds, not a sample that may fall either way)."""
    share = 0.0
    for game in range(8):
        levels: list[Level] = ["easy", "easy", "easy"]
        levels.insert(game % 4, "normal")
        result = play_match(slug, levels, game)
        share += result.seats[game % 4].win
    assert share / 8 > 0.5


def test_reaction_times_make_hard_quick_but_never_instant() -> None:
    """P-51: each level reacts within its own window; hard first, but not at once."""
    assert set(REACTIONS) == set(LEVELS)
    assert REACTIONS["hard"].low > 0
    assert REACTIONS["hard"].high < REACTIONS["easy"].high
    assert REACTIONS["normal"].low < REACTIONS["easy"].low
    rng = Rng(1)
    for level in LEVELS:
        window = REACTIONS[level]
        assert all(window.low <= window.sample(rng) <= window.high for _ in range(50))


@pytest.mark.parametrize("slug", SHIPPED)
def test_a_copy_is_the_same_game_and_independent(slug: str) -> None:
    """``Engine.copy`` (Bug Run's skips a second copy of its snapshot): the same snapshot, and
    playing on in the copy leaves the original as it was."""
    found = position(slug, 2, 5)
    assert found is not None
    engine = found.engine
    before = engine.to_dict()
    twin = engine.copy()
    assert twin.to_dict() == before
    rng = Rng(4)
    for _ in range(30):
        move = step(twin, rng)
        if move is None or twin.is_over:
            break
        twin.apply(*move)
    assert engine.to_dict() == before
    assert twin.to_dict() != before


def test_a_time_budget_stops_the_search_by_the_injected_clock() -> None:
    """The rules have no clock: the caller injects one. A clock that moves 0.1 s per reading
    stops a 1 s budget before a round that would overrun it, whatever the simulation count
    allows."""
    found = [position("bug-off", 3, steps) for steps in range(20, 30)]
    choosing = [p for p in found if p is not None and len(p.engine.legal_actions(p.bot.seat)) > 1]
    engine, bot = choosing[0].engine, choosing[0].bot
    readings = iter(range(10**6))

    def clock() -> float:
        return next(readings) / 10

    bot.budget = Budget(simulations=10**6, seconds=1.0, clock=clock)
    options = len(candidates(bot.game, engine, bot.seat, bot.memory, Rng(0)))  # 3 (P-81)
    decision = bot.decide(engine)
    assert decision.action in engine.legal_actions(bot.seat)
    # read at 0.0 to start, then once before each round: 0.1 … 0.9 go on (a round as long as
    # the longest so far, 0.1 s, ends by 1.0), and at 1.0 one would end past it, so it stops
    assert decision.simulations == 9 * options


def test_every_game_with_bots_has_a_span() -> None:
    assert set(SPAN) == set(SHIPPED)
