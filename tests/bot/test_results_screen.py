"""The results screen the four games' final boards share."""

from __future__ import annotations

from bot.ui.results import (
    EMBED_MAX,
    embed_size,
    headline,
    join_and,
    ranked,
    results_screen,
    standing,
)
from bot.ui.specs import Field


def test_winners_come_first_then_scores_then_seats() -> None:
    assert ranked([3, 9, 9, 1], [2]) == [2, 1, 0, 3]
    assert ranked([5, 5, 7], [0, 1]) == [0, 1, 2]


def test_headline_and_standing_read_as_one_sentence_and_one_field() -> None:
    assert join_and([]) == "nobody" and join_and(["a", "b", "c"]) == "a, b and c"
    assert headline(["ann", "bob"], [1], "**3 points**") == "🏆 **bob** wins with **3 points**!"
    assert headline(["a", "b", "c"], [0, 2], "**9** VP", mark="🏁") == (
        "🏁 **a** and **c** share the win with **9** VP!"
    )
    assert standing("ann", True, "3 points", "x") == Field("🏆 ann — 3 points", "x")
    assert len(standing("n" * 300, False, "1 point", "x").name) == 256


def test_the_log_gives_way_when_the_results_would_not_fit() -> None:
    fields = [standing(f"p{i}", i == 0, "1 point", "y" * 600) for i in range(9)]
    short = results_screen("Game", "done", fields, log=[Field("Log", "z" * 100)])
    assert short.embed is not None and short.embed.title == "Game — game over"
    assert [f.name for f in short.embed.fields][-1] == "Log"
    long = results_screen("Game", "done", fields, log=[Field("Log", "z" * 1000)])
    assert long.embed is not None and "Log" not in [f.name for f in long.embed.fields]
    assert embed_size(long.embed) <= EMBED_MAX < embed_size(long.embed) + 1003
