"""The after-the-game messages fit Discord's limits and read well at the edges."""

from __future__ import annotations

import dataclasses

import tests.support.testgame  # noqa: F401
from bot.store import GameSummary, LeaderboardEntry, MemberGameStats, PlayerResult
from bot.ui.stats import history_message, last_game_text, leaderboard_message, stats_message
from tests.support.tables import NOW, make_table


def summary(names: list[str], scores: list[int], channel: int = 20) -> GameSummary:
    game = dataclasses.replace(
        make_table("ladybug-dash", 2).game, finished_at=NOW, channel_id=channel
    )
    best = max(scores)
    players = tuple(
        PlayerResult(100 + i, n, False, i, s, 1 + sum(o > s for o in scores), s == best)
        for i, (n, s) in enumerate(zip(names, scores, strict=True))
    )
    return GameSummary(game, players)


def test_history_stays_within_an_embed_with_long_names() -> None:
    long = ["*" * 100, "_" * 100, "a" * 100, "b" * 100]
    games = [summary(long, [1, 2, 3, 4], channel=20 + i % 2) for i in range(10)]
    spec = history_message(games, games, channel_id=20)
    assert spec.embed is not None and spec.embed.description is not None
    assert len(spec.embed.description) <= 4096
    assert "in <#21>" in spec.embed.description  # another channel is named in the server part
    assert "\\*" in spec.embed.description  # names are escaped


def test_last_game_and_empty_boards_read_in_words() -> None:
    text = last_game_text(summary(["ann", "ben", "cy"], [5, 5, 1]))
    assert "**ann** and **ben** shared the win" in text and "🏆 ann 5 · 🏆 ben 5 · cy 1" in text
    assert "**ann** won" in last_game_text(summary(["ann", "ben"], [9, 1]))
    empty = leaderboard_message("ladybug-dash", [])
    assert empty.embed is not None and "Nobody is rated" in (empty.embed.description or "")
    entry = LeaderboardEntry(1, "ann", -0.04, 25.0, 8.3, 1, 1)
    board = leaderboard_message("ladybug-dash", [entry])
    assert "1. **ann** — rating 0.0 · 1 game · 1 win" in (board.embed.description or "")  # type: ignore[union-attr]
    stats = stats_message("ann", [MemberGameStats("bug-off", 2, 1, 30, None)])
    assert stats.embed is not None
    assert stats.embed.fields[0].value == "2 games · 1 win (50%) · rating — · best score 30"
    assert stats_message("ann", []).embed.description == "No finished games in this server yet."  # type: ignore[union-attr]
