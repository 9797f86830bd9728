"""The publisher's pump: newest state wins, failed edits are retried, untouched boards are not
edited again. Discord is faked at the level the publisher uses it (partial messages)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

import bot.discord.publisher as publisher_module
import tests.support.testgame  # noqa: F401
from bot.discord.publisher import Publisher
from bot.settings import Settings
from tests.support.tables import act, make_table


class FakeMessage:
    def __init__(self, channel: FakeChannel, message_id: int) -> None:
        self.channel, self.id = channel, message_id

    async def edit(self, **kwargs: Any) -> None:
        if self.channel.failures:
            self.channel.failures -= 1
            raise OSError("connection reset")
        self.channel.edits.append((self.id, kwargs["embed"].to_dict() if kwargs["embed"] else None))


class FakeChannel:
    id = 20

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.edits: list[tuple[int, Any]] = []

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return FakeMessage(self, message_id)


class FakeUser:
    """A member whose DMs are open: the hand is sent once, then edited in place."""

    def __init__(self, user_id: int, channel: FakeChannel) -> None:
        self.id = user_id
        self.dm_channel = channel
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> FakeMessage:
        self.sent.append(kwargs)
        return FakeMessage(self.dm_channel, 1000 + len(self.sent))


class FakeStore:
    async def set_message(self, *args: Any) -> None:
        return None


def make_publisher(channel: FakeChannel) -> Publisher:
    settings = Settings(_env_file=None, board_edit_interval=0.01)  # type: ignore[call-arg]
    dms = FakeChannel()
    users: dict[int, FakeUser] = {}
    fake_bot: Any = SimpleNamespace(
        settings=settings,
        store=FakeStore(),
        get_partial_messageable=lambda _id: channel,
        # Without get_user the hand sync fails and the pump backs off for seconds.
        get_user=lambda user_id: users.setdefault(user_id, FakeUser(user_id, dms)),
    )
    return Publisher(fake_bot)


async def test_a_failed_edit_is_retried_and_the_newest_state_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(publisher_module, "RETRY_SECONDS", 0.01)
    channel = FakeChannel(failures=2)
    publisher = make_publisher(channel)
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 555)
    act(table, 0, {"type": "claim"})
    publisher.mark_dirty(table)
    act(table, 0, {"type": "pick", "n": 2})  # a second change while the first is pending
    publisher.mark_dirty(table)
    await publisher.flush()
    assert channel.failures == 0
    assert len(channel.edits) == 1  # two changes, one successful edit, of the newest state
    message_id, embed = channel.edits[0]
    assert message_id == 555 and "**picks_made**: [1,0]" in embed["description"]


async def test_an_unchanged_board_is_not_edited_again() -> None:
    channel = FakeChannel()
    publisher = make_publisher(channel)
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 7)
    publisher.mark_dirty(table)
    await publisher.flush()
    publisher.mark_dirty(table)
    await publisher.flush()
    assert len(channel.edits) == 1
    await asyncio.sleep(0)
