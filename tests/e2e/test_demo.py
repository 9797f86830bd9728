"""`python -m bot demo <game>` plays a whole game offline and prints the channel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.demo import readable, run_demo

PACE = 0.1
"""The per-channel window and the board edit interval, a tenth of the demo's: the same
pacing, sooner (nobody reads along)."""


async def test_the_bug_run_demo_plays_a_whole_game_and_saves_its_pictures(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pictures = tmp_path / "pictures"
    assert (
        await run_demo("bug-run", players=3, seed=4, pace=PACE, full=True, pictures=pictures) == 0
    )
    out = capfd.readouterr().out
    assert "Bug Run — lobby" in out
    assert "🏃 Bug Run — level 1 of 4" in out
    assert "Bug Run — game over" in out
    assert "Final Escape" in out
    assert "<t:" not in out  # Discord's timestamps read as text
    saved = sorted(pictures.iterdir())
    assert len(saved) > 10 and saved[0].name == "001-bug-run.png"
    assert f"🖼 {saved[-1]}" in out  # each where it first showed
    with Image.open(saved[-1]) as last:
        assert last.format == "PNG"


async def test_the_demo_prints_one_screen_by_default(capfd: pytest.CaptureFixture[str]) -> None:
    assert await run_demo("bag-of-bugs", players=3, seed=2, pace=PACE) == 0
    out = capfd.readouterr().out
    assert len(out.splitlines()) <= 60
    assert "🎲 3 members played: Ada, Bram, Cleo" in out
    assert "The board at the end:" in out and "game over" in out
    assert "📊 What this game sent" in out and "--full prints every message" in out
    assert "🔒" not in out and "<t:" not in out


def test_discord_timestamps_read_as_text() -> None:
    assert readable("again <t:1000:R>.", now=990) == "again in 10 s."
    assert readable("ended <t:1000:R>", now=1010.4) == "ended 10 s ago"
    assert readable("at <t:3661:T> and <t:0>") == "at 01:01:01 UTC and 00:00:00 UTC"


async def test_the_demo_shows_each_members_private_messages_and_what_the_game_sent(
    capfd: pytest.CaptureFixture[str],
) -> None:
    assert await run_demo("bug-off", players=2, seed=3, pace=PACE, full=True, speed="slow") == 0
    out = capfd.readouterr().out
    # `--speed`: the lobby opened at that time control shows it with its numbers (P-71).
    assert "Speed: ⏱️ **Slow**" in out and "turn clock, per step" in out
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
