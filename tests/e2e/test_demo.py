"""`python -m bot demo <game>` plays a whole game offline and prints the channel."""

from __future__ import annotations

import pytest

from bot.demo import run_demo

PACE = 0.1
"""The per-channel window and the board edit interval, a tenth of the demo's: the same
pacing, sooner (nobody reads along)."""


async def test_the_bug_run_demo_plays_a_whole_game(capfd: pytest.CaptureFixture[str]) -> None:
    assert await run_demo("bug-run", players=3, seed=4, pace=PACE) == 0
    out = capfd.readouterr().out
    assert "Bug Run — lobby" in out
    assert "🏃 Bug Run — level 1 of 4" in out
    assert "Bug Run — game over" in out
    assert "Final Escape" in out


async def test_the_demo_shows_each_members_private_messages_and_what_the_game_sent(
    capfd: pytest.CaptureFixture[str],
) -> None:
    assert await run_demo("bug-off", players=2, seed=3, pace=PACE) == 0
    out = capfd.readouterr().out
    # Each member's one DM and private replies, next to the channel, marked as theirs alone.
    assert "▶ 🔒 DM to Ada:" in out and "▶ 🔒 DM to Bram:" in out
    assert "🔒 private reply, only Ada sees it:" in out
    assert "🔒 Game #1 · Ada · only you can see this" in out
    # The board names whom the game waits on (as @name); the simulated members answer at once,
    # so nobody is pinged (P-46). The summary counts one DM per member.
    assert "🔔 Your move: @Ada" in out and "🔔 Your move: @Bram" in out
    summary = out[out.index("📊 What this game sent") :]
    assert "Ada: 1 DM (" in summary and "Bram: 1 DM (" in summary
    assert summary.count("pinged 0×") == 2
    assert "0 × 429" in summary
