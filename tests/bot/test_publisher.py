"""The publisher's pump: newest state wins, failed edits are retried, untouched boards are not
edited again. Discord is faked at the level the publisher uses it (partial messages)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import tests.support.testgame  # noqa: F401
from bot.discord.publisher import Publisher
from bot.settings import Settings
from bot.ui.presenter import presenter_for
from bot.ui.public_log import PublicLog
from tests.support.tables import act, make_table
from tests.support.wait import until


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
    """A member's DM channel, where their hand DMs arrive (sends and edits alike)."""

    def __init__(self) -> None:
        self.id = 30
        self.dms: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> Any:
        self.dms.append(kwargs)
        return SimpleNamespace(id=len(self.dms), channel=self)

    def get_partial_message(self, message_id: int) -> Any:
        return SimpleNamespace(edit=self.send)


DM_BASE = 1_000_000
"""A fake member's DM channel id is this plus their user id."""


class FakeDiscord:
    """The client as the publisher uses it: partial messageables by id, and DMs opened by
    user id (``users``: members with their own DM channel; everyone else shares one)."""

    def __init__(self, channel: FakeChannel, settings: Settings) -> None:
        self.channel, self.settings, self.store = channel, settings, FakeStore()
        self.users: dict[int, FakeUser] = {}
        self.everyone = FakeUser()
        self.opened: list[int] = []

    async def create_dm(self, user: Any) -> Any:
        self.opened.append(user.id)
        return SimpleNamespace(id=DM_BASE + user.id)

    def get_partial_messageable(self, channel_id: int, *, type: Any = None) -> Any:
        if channel_id >= DM_BASE:
            return self.users.get(channel_id - DM_BASE, self.everyone)
        return self.channel


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
    fake_bot: Any = FakeDiscord(channel, settings)
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


def _http_error(cls: type[discord.HTTPException], status: int, code: int, text: str) -> Any:
    response: Any = SimpleNamespace(status=status, reason=text)
    return cls(response, {"code": code, "message": text})


async def test_a_deleted_board_is_posted_again_with_the_newest_state(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """404 Unknown Message on the board's edit: a new board, once, and the store learns it."""
    channel = FakeChannel()
    sent: list[dict[str, Any]] = []

    async def gone(**kwargs: Any) -> None:
        raise _http_error(discord.NotFound, 404, 10008, "Unknown Message")

    async def send(**kwargs: Any) -> Any:
        sent.append(kwargs)
        return SimpleNamespace(id=1000 + len(sent))

    channel.get_partial_message = lambda _id: SimpleNamespace(edit=gone)  # type: ignore[method-assign]
    channel.send = send  # type: ignore[attr-defined]
    publisher = make_publisher(channel)
    stored: list[tuple[Any, ...]] = []

    async def set_message(*args: Any) -> None:
        stored.append(args)

    publisher.store.set_message = set_message  # type: ignore[method-assign]
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 9)
    act(table, 0, {"type": "claim"})
    publisher.mark_dirty(table)
    await publisher.flush()
    assert len(sent) == 1 and "**prizes**: [1,0]" in sent[0]["embed"].to_dict()["description"]
    assert (table.id, "board", channel.id, 1001) in stored
    assert publisher.board_message_id(table.id) == 1001
    assert caplog.text.count("its board message was deleted; posting it again") == 1


async def test_a_channel_that_refuses_the_bot_holds_the_board_not_the_dms(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """403 on every board edit: the DMs are still sent at once, one line is logged for the
    whole outage, and the board catches up with the newest state once the channel allows it."""
    caplog.set_level(logging.INFO, logger="bot.discord.publisher")
    channel = FakeChannel()
    refused = {"on": True}
    tries = []

    async def edit(**kwargs: Any) -> None:
        tries.append(1)
        if refused["on"]:
            raise _http_error(discord.Forbidden, 403, 50013, "Missing Permissions")
        channel.edits.append((9, kwargs["embed"].to_dict()))

    channel.get_partial_message = lambda _id: SimpleNamespace(edit=edit)  # type: ignore[method-assign]
    publisher = make_publisher(channel)
    user = publisher.client.everyone  # type: ignore[attr-defined]  # every seat's DMs
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 9)
    for seat, action in ((None, None), (0, {"type": "claim"}), (0, {"type": "pick", "n": 3})):
        if action is not None:
            act(table, seat, action)
        before = len(user.dms)
        publisher.mark_dirty(table)
        await until(lambda before=before: len(user.dms) > before, what="a DM")  # type: ignore[misc]
    assert channel.edits == []
    refused["on"] = False
    await publisher.flush()
    assert len(channel.edits) == 1 and "**picks_made**: [1,0]" in channel.edits[0][1]["description"]
    assert caplog.text.count("refuses the bot") == 1
    assert caplog.text.count("channel 20 allows the bot again") == 1
    assert len(tries) < 40  # tried again with backoff, not in a tight loop


async def test_one_member_whose_dm_fails_does_not_hold_the_other_dms() -> None:
    """A 5xx on one member's DM: the other member's DM is sent, the failed one is retried."""
    publisher = make_publisher(FakeChannel())
    good, flaky = FakeUser(), FakeUser()
    fails = {"left": 3}

    async def flaky_send(**kwargs: Any) -> Any:
        if fails["left"]:
            fails["left"] -= 1
            raise _http_error(discord.DiscordServerError, 503, 0, "Service Unavailable")
        return await FakeUser.send(flaky, **kwargs)

    flaky.send = flaky_send  # type: ignore[method-assign]
    table = make_table("ladybug-dash", 2)
    users = {table.user_at(0).user_id: good, table.user_at(1).user_id: flaky}
    publisher.client.users = users  # type: ignore[attr-defined]
    publisher.remember_board(table.id, 9)
    publisher.mark_dirty(table)
    await until(lambda: len(good.dms) == 1, what="the good DM")
    await publisher.flush()
    assert len(good.dms) == 1 and len(flaky.dms) == 1 and fails["left"] == 0


def dm_turns(user: FakeUser) -> list[set[str]]:
    """The turns (from the custom ids) each DM send or edit's game buttons carry."""
    return [
        {custom_id.split(":")[2] for custom_id in dm["view"].custom_ids()}
        for dm in user.dms
        if dm.get("view") is not None
    ]


async def test_a_dm_whose_choices_stay_the_same_at_a_new_turn_gets_that_turns_buttons() -> None:
    """Found by the Bug Run game played by clicks: a seat asked the same question twice in a row
    kept the first turn's DM buttons, which the host answers "from an earlier turn" (P-8)."""
    publisher = make_publisher(FakeChannel())
    user: FakeUser = publisher.client.everyone  # type: ignore[attr-defined]
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


async def test_dms_go_to_the_dm_channel_by_id_opened_once_per_member() -> None:
    """Issue #21: no ``fetch_user`` before a DM (the bot has no member cache, so each would be
    a GET /users/{id}), and one ``create_dm`` per member, however many edits follow."""
    publisher = make_publisher(FakeChannel())
    client: FakeDiscord = publisher.client  # type: ignore[assignment]
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 7)
    publisher.mark_dirty(table)
    await publisher.flush()
    for action in ({"type": "cheer"}, {"type": "claim"}, {"type": "pick", "n": 2}):
        act(table, 0, action)
        publisher.mark_dirty(table)
        await publisher.flush()
    assert len(client.everyone.dms) >= 4  # sent, then edited
    assert sorted(client.opened) == [table.user_at(0).user_id, table.user_at(1).user_id]


async def test_the_board_says_since_when_it_shows_a_turn() -> None:
    """P-84: the host asks how long the board has shown the move a clock ran out on: 0 while an
    edit has not landed (failing here), the time since the first edit of that turn landed
    after, and None for a game this process does not show."""
    channel = FakeChannel(failures=1)
    publisher = make_publisher(channel)
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    publisher.clock = lambda: now[0]
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 9)
    assert publisher.on_screen(table.id, table.running().turn) is None
    before = table.running().turn
    publisher.mark_dirty(table)
    await publisher.flush()  # the first edit failed, the retry landed
    assert publisher.on_screen(table.id, before) == 0.0
    act(table, 0, {"type": "claim"})
    turn = table.running().turn
    assert publisher.on_screen(table.id, turn) == 0.0  # the board still shows the one before
    publisher.mark_dirty(table)
    await publisher.flush()
    now[0] += timedelta(seconds=7)
    assert publisher.on_screen(table.id, turn) == 7.0
    publisher.mark_dirty(table)  # the same turn drawn again: still since its first landing
    await publisher.flush()
    assert publisher.on_screen(table.id, turn) == 7.0
    assert publisher.on_screen(table.id + 1, turn) is None


def _count_board_draws(monkeypatch: pytest.MonkeyPatch, table: Any) -> list[int]:
    """How many times the table's presenter draws its boards, from now on."""
    presenter = type(presenter_for(table.slug))
    drawn = [0]
    original = presenter.public_boards

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        drawn[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(presenter, "public_boards", counted)
    return drawn


async def test_a_click_answer_and_the_pump_pass_after_it_draw_the_boards_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The boards a state draws are drawn once (P-90): the pump's pass after a click's answer
    finds them drawn, and anything a board shows that changes draws them again."""
    channel = FakeChannel()
    publisher = make_publisher(channel)
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 7)
    drawn = _count_board_draws(monkeypatch, table)
    answered = publisher.board_embed(table)  # the click's answer draws the board
    publisher.mark_dirty(table)
    await publisher.flush()
    assert drawn[0] == 1 and len(channel.edits) == 1
    assert answered is not None and channel.edits[0][1]["title"] == answered.title

    act(table, 1, {"type": "cheer"})  # a move: a new position, the same players waited on
    publisher.board_embed(table)
    assert drawn[0] == 2
    publisher.log.add(table.id, ["p1 cheered"])  # a new log line, same position
    publisher.board_embed(table)
    assert drawn[0] == 3
    table.seats[1] = replace(table.seats[1], name="Pat")  # a seat's name, as boards show it
    publisher.board_embed(table)
    assert drawn[0] == 4
    publisher.mark_dirty(table)
    await publisher.flush()
    assert drawn[0] == 4 and "p1 cheered" in str(channel.edits[-1][1])
    assert "Pat" in str(channel.edits[-1][1])


async def test_boards_drawn_before_their_refresh_time_are_drawn_again_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A board that depends on the clock (a countdown, a cooldown) says when it must be
    redrawn (``refresh_at``): reused until then, drawn anew after (P-90)."""
    publisher = make_publisher(FakeChannel())
    table = make_table("ladybug-dash", 2)
    drawn = _count_board_draws(monkeypatch, table)
    due = datetime.now(UTC) + timedelta(seconds=0.2)
    monkeypatch.setattr(type(presenter_for(table.slug)), "refresh_at", lambda self, view: due)
    publisher.board_embed(table)
    publisher.board_embed(table)
    assert drawn[0] == 1
    await until(lambda: datetime.now(UTC) >= due)
    publisher.board_embed(table)
    assert drawn[0] == 2
