"""`python -m bot demo <game>` plays a whole game offline and prints the channel."""

from __future__ import annotations

import pytest

from bot.demo import run_demo


async def test_the_bug_run_demo_plays_a_whole_game(capfd: pytest.CaptureFixture[str]) -> None:
    assert await run_demo("bug-run", players=3, seed=4) == 0
    out = capfd.readouterr().out
    assert "Bug Run — lobby" in out
    assert "🏃 Bug Run — level 1 of 4" in out
    assert "Bug Run — game over" in out
    assert "Final Escape" in out
