"""The bot's own keeper of Discord's per-channel limits (docs/rulings.md P-26)."""

from __future__ import annotations

import itertools

import pytest

from bot.discord.pacing import EDIT_BURST, MARGIN, PENDING_RETRY, ChannelPacer
from tests.support.clock import StandingClock as Clock


def test_five_slots_per_window_then_the_wait_until_the_oldest_expires() -> None:
    clock = Clock()
    pacer = ChannelPacer(5, 5.0, clock=clock, edit_burst=5)
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


def test_edits_past_the_burst_wait_the_windows_even_share_after_the_last() -> None:
    clock = Clock()
    pacer = ChannelPacer(5, 5.0, clock=clock)
    share = 5.0 * (1 + MARGIN) / 5
    for _ in range(EDIT_BURST):  # a quiet channel's edits go at once
        slot = pacer.take(1, "edit")
        assert slot is not None
        slot.release()
    assert pacer.take(1, "edit") is None
    assert pacer.delay(1, "edit") == pytest.approx(share)
    clock.now += share / 2
    assert pacer.delay(1, "edit") == pytest.approx(share / 2)
    clock.now += share / 2
    slot = pacer.take(1, "edit")
    assert slot is not None
    # Still on its way: counted as answered now, so the next waits at least the share.
    assert pacer.delay(1, "edit") == pytest.approx(share)
    clock.now += 0.3
    slot.release()
    assert pacer.delay(1, "edit") == pytest.approx(share)
    # Sends and deletes are not spread (notices and pings are few), and other channels have
    # their own windows.
    for _ in range(5):
        assert pacer.take(1, "send") is not None
    assert pacer.take(2, "edit") is not None


@pytest.mark.parametrize("burst", [5, EDIT_BURST])
def test_a_channel_edited_without_pause_never_waits_long_and_keeps_discords_limit(
    burst: int,
) -> None:
    """A board wanting an edit all the time (each at least ``BOARD_EDIT_INTERVAL`` after the
    last): spent at once, five edits left the channel blank for over two seconds of each
    window; spread, it shows something new at least every 1.4 s, as often overall."""
    clock = Clock()
    pacer = ChannelPacer(5, 5.0, clock=clock, edit_burst=burst)
    sent: list[float] = []
    step, interval = 0.01, 0.75
    while clock.now < 160.0:
        if (not sent or clock.now - sent[-1] >= interval) and (slot := pacer.take(1, "edit")):
            slot.release()
            sent.append(clock.now)
        clock.now += step
    for i, at in enumerate(sent):  # Discord's own rule: at most five in any 5 s
        assert sum(1 for t in sent[i:] if t - at < 5.0) <= 5
    longest = max(b - a for a, b in itertools.pairwise(sent))
    rate = (len(sent) - 1) / (sent[-1] - sent[0])
    assert rate == pytest.approx(5 / (5.0 * (1 + MARGIN)), rel=0.05)
    if burst == 5:
        assert longest > 2.0  # what spreading the edits is for
    else:
        assert longest < 1.4
