"""P-93: the boards with pictures share ``PICTURE_RATE`` pictures a second: past
``PICTURE_RATE * PICTURE_INTERVAL`` of them, each board's interval widens."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.discord.publisher import Publisher
from bot.settings import Settings
from bot.ui.public_log import PublicLog
from tests.bot.test_publisher import FakeChannel, FakeDiscord

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def publisher_with(boards: int, **values: Any) -> Publisher:
    settings = Settings(_env_file=None, **values)  # type: ignore[call-arg]
    fake: Any = FakeDiscord(FakeChannel(), settings)
    publisher = Publisher(fake, fake.store, settings, PublicLog())
    for game in range(boards):  # games whose board has had a picture drawn
        publisher._state(game + 1).picture_due["board"] = NOW
    return publisher


@pytest.mark.parametrize(
    ("boards", "interval", "rate", "expected"),
    [
        (3, 2.0, 5.0, 2.0),  # few boards: each keeps PICTURE_INTERVAL
        (10, 2.0, 5.0, 2.0),  # exactly rate * interval
        (50, 2.0, 5.0, 10.0),  # 50 boards share 5 pictures a second: each every 10 s
        (50, 2.0, 0.0, 2.0),  # no rate kept
        (50, 0.0, 5.0, 0.0),  # every change has its picture, as asked
    ],
)
def test_boards_with_pictures_share_the_rate(
    boards: int, interval: float, rate: float, expected: float
) -> None:
    publisher = publisher_with(boards, picture_interval=interval, picture_rate=rate)
    assert publisher._picture_interval() == pytest.approx(expected)


async def test_a_drawing_sets_the_boards_next_picture_by_the_shared_interval() -> None:
    publisher = publisher_with(20, picture_interval=1.0, picture_rate=2.0)
    publisher.clock = lambda: NOW
    state = publisher._state(99)

    class Images:
        def cached(self, image: Any) -> None:
            return None

        async def png(self, image: Any) -> bytes:
            return b"png"

    publisher.images = Images()  # type: ignore[assignment]
    assert await publisher._picture(state, "board", object()) == b"png"  # type: ignore[arg-type]
    # 20 boards with pictures before this one's first, 2 pictures a second: 10 s apart.
    assert (state.picture_due["board"] - NOW).total_seconds() == pytest.approx(10.0)
