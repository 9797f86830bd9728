"""Counting what a game sent, for the demo's summary."""

from __future__ import annotations

from bot.emulator.traffic import busiest


def test_the_busiest_window_counts_requests_closer_than_the_window() -> None:
    assert busiest([], 5.0) == 0
    assert busiest([0.0, 1.0, 2.0, 3.0, 4.0], 5.0) == 5
    assert busiest([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 5.0) == 5  # 5.0 is a new window
    assert busiest([9.0, 0.1, 0.2, 9.1, 0.3], 1.0) == 3  # order does not matter
