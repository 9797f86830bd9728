"""The bot's own keeper of Discord's per-channel limits (docs/rulings.md P-26)."""

from __future__ import annotations

import pytest

from bot.discord.pacing import MARGIN, PENDING_RETRY, ChannelPacer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_five_slots_per_window_then_the_wait_until_the_oldest_expires() -> None:
    clock = Clock()
    pacer = ChannelPacer(5, 5.0, clock=clock)
    for _ in range(5):
        slot = pacer.take(1, "edit")
        assert slot is not None
        slot.release()
        clock.now += 0.5
    assert pacer.take(1, "edit") is None
    # The oldest slot was stamped at 100.0; it frees 5 s (plus the margin) later.
    assert pacer.delay(1, "edit") == pytest.approx(100.0 + 5.0 * (1 + MARGIN) - clock.now)
    # Other kinds and other channels have their own windows.
    assert pacer.take(1, "send") is not None
    assert pacer.take(2, "edit") is not None
    clock.now = 100.0 + 5.0 * (1 + MARGIN)
    assert pacer.take(1, "edit") is not None
    assert pacer.take(1, "edit") is None


def test_a_slot_counts_from_its_answer_and_pending_ones_hold_their_place() -> None:
    clock = Clock()
    pacer = ChannelPacer(2, 1.0, clock=clock)
    first, second = pacer.take("dm", "send"), pacer.take("dm", "send")
    assert first is not None and second is not None
    # Both requests are still on their way: nobody can know when they free up yet.
    assert pacer.take("dm", "send") is None
    assert pacer.delay("dm", "send") == PENDING_RETRY
    clock.now += 3.0
    assert pacer.take("dm", "send") is None  # never stamped, never expired
    first.release()  # answered only now: the window runs from here
    clock.now += 0.5
    assert pacer.delay("dm", "send") == pytest.approx(1.0 * (1 + MARGIN) - 0.5)
    clock.now += 1.0
    assert pacer.take("dm", "send") is not None
