"""The publisher's pump: newest state wins, failed edits are retried, untouched boards are not
edited again. Discord is faked at the level the publisher uses it (partial messages)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import tests.support.testgame  # noqa: F401
from bot.discord.publisher import Publisher
from bot.settings import Settings
from bot.ui.public_log import PublicLog
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
    """A member whose hand DMs arrive (the pump sends them after the boards)."""

    def __init__(self) -> None:
        self.dm_channel = SimpleNamespace(id=30, get_partial_message=self._partial)
        self.dms: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> Any:
        self.dms.append(kwargs)
        return SimpleNamespace(id=len(self.dms), channel=self.dm_channel)

    def _partial(self, message_id: int) -> Any:
        return SimpleNamespace(edit=self.send)


class FakeStore:
    shared = False  # one process (P-36)

    async def set_message(self, *args: Any) -> None:
        return None


def make_publisher(channel: FakeChannel) -> Publisher:
    # Pacing is tested elsewhere (test_pacing): a channel limit these tests never reach, so
    # twelve failed edits do not wait out Discord's window.
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, board_edit_interval=0.01, retry_max_delay=0.01, channel_edit_limit=1000
    )
    user = FakeUser()
    fake_bot: Any = SimpleNamespace(
        settings=settings,
        store=FakeStore(),
        get_partial_messageable=lambda _id: channel,
        get_user=lambda _id: user,
    )
    return Publisher(fake_bot, fake_bot.store, settings, PublicLog())


@pytest.mark.parametrize("failures", [2, 12])  # 12: longer than the old budget of 5 retries
async def test_a_failed_edit_is_retried_until_the_newest_state_is_sent(failures: int) -> None:
    channel = FakeChannel(failures=failures)
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


async def test_a_board_whose_message_is_gone_is_given_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    channel = FakeChannel()
    response: Any = SimpleNamespace(status=404, reason="Not Found")

    async def gone(**kwargs: Any) -> None:
        raise discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})

    channel.get_partial_message = lambda _id: SimpleNamespace(edit=gone)  # type: ignore[method-assign]
    publisher = make_publisher(channel)
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 9)
    publisher.mark_dirty(table)
    await publisher.flush()  # returns: nothing is tried again
    assert "its messages are gone (NotFound: 404 Not Found (error code: 10008)" in caplog.text


def dm_turns(user: FakeUser) -> list[set[str]]:
    """The turns (from the custom ids) each DM send or edit's game buttons carry."""
    return [
        {str(item.custom_id).split(":")[2] for item in dm["view"].children if item.custom_id}
        for dm in user.dms
        if dm.get("view") is not None
    ]


async def test_a_dm_whose_choices_stay_the_same_at_a_new_turn_gets_that_turns_buttons() -> None:
    """Found by the Bug Run game played by clicks: a seat asked the same question twice in a row
    kept the first turn's DM buttons, which the host answers "from an earlier turn" (P-8)."""
    publisher = make_publisher(FakeChannel())
    user: FakeUser = publisher.client.get_user(0)  # type: ignore[attr-defined]
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 7)
    publisher.mark_dirty(table)
    await publisher.flush()
    assert dm_turns(user)[-1] == {"1"}  # the race: claim and cheer, drawn for turn 1
    sent = len(user.dms)
    table.running()._turn += 1  # type: ignore[attr-defined]  # a new turn, the same choices
    publisher.mark_dirty(table)
    await publisher.flush()
    assert dm_turns(user)[-1] == {"2"}
    assert len(user.dms) == sent + 2  # both players' DMs, edited once each
    publisher.mark_dirty(table)
    await publisher.flush()
    assert len(user.dms) == sent + 2  # nothing changed: no edit
