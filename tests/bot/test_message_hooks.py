"""P-92: a game's board and a member's DM are edited through the token of the newest click
answered on them (no global request), and with the bot's own token when there is none, it is
too old, or Discord refuses it."""

from __future__ import annotations

import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import InteractionResponseType

import tests.support.testgame  # noqa: F401
from bot.discord.channel_hooks import EDIT_LEFT
from bot.discord.message_hooks import message_hook
from tests.bot.test_publisher import FakeChannel, FakeUser, make_publisher
from tests.support.tables import act, make_table

BOARD = 7


class FakeClick:
    """An answered click on message ``message_id``: its token's edits of that message are
    noted, or refused with ``refuse`` (a Discord error status)."""

    def __init__(
        self,
        message_id: int,
        user_id: int,
        *,
        answered: InteractionResponseType | None = InteractionResponseType.message_update,
        age: float = 1.0,
        refuse: int | None = None,
    ) -> None:
        self.message = SimpleNamespace(id=message_id)
        self.user = SimpleNamespace(id=user_id)
        self.response = SimpleNamespace(type=answered)
        self.created_at = discord.utils.utcnow() - timedelta(seconds=age)
        self.refuse = refuse
        self.edits: list[dict[str, Any]] = []

    @property
    def followup(self) -> Any:
        return SimpleNamespace(edit_message=self._edit)

    async def _edit(self, message_id: Any, **kwargs: Any) -> None:
        assert message_id == "@original"  # the message clicked on, whatever its id
        if self.refuse is not None:
            raise discord.HTTPException(
                SimpleNamespace(status=self.refuse, reason="refused"), "Invalid Webhook Token"
            )
        self.edits.append(kwargs)


class NumberedDms(FakeUser):
    """A member's DM channel whose messages are numbered from ``first``: every message id is
    unique, as Discord's are."""

    def __init__(self, first: int) -> None:
        super().__init__()
        self.first = first

    async def send(self, **kwargs: Any) -> Any:
        self.dms.append(kwargs)
        return SimpleNamespace(id=self.first + len(self.dms), channel=self)


def shown_with_a_board() -> tuple[Any, FakeChannel, Any]:
    channel = FakeChannel()
    publisher = make_publisher(channel)
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, BOARD)
    return publisher, channel, table


async def moved(publisher: Any, table: Any, action: dict[str, Any]) -> None:
    act(table, 0, action)
    publisher.mark_dirty(table)
    await publisher.flush()


async def test_the_board_is_edited_through_its_newest_click_and_costs_no_global_request() -> None:
    publisher, channel, table = shown_with_a_board()
    await moved(publisher, table, {"type": "cheer"})
    assert [message for message, _ in channel.edits] == [BOARD]  # no click yet: the bot's token
    kept, newer = FakeClick(BOARD, 100), FakeClick(BOARD, 101)
    publisher.clicked_on(table, kept)
    publisher.clicked_on(table, newer)  # under a minute newer: the kept one does
    await moved(publisher, table, {"type": "claim"})
    await moved(publisher, table, {"type": "pick", "n": 2})
    assert len(channel.edits) == 1  # no more global edits of the board
    assert newer.edits == [] and len(kept.edits) == 2
    assert "**picks_made**: [1,0]" in kept.edits[-1]["embed"].to_dict()["description"]


async def test_a_kept_click_gives_way_to_a_newer_one_once_it_is_a_minute_old() -> None:
    publisher, channel, table = shown_with_a_board()
    old, newer = FakeClick(BOARD, 100, age=61.0), FakeClick(BOARD, 101)
    publisher.clicked_on(table, old)
    publisher.clicked_on(table, newer)
    await moved(publisher, table, {"type": "claim"})
    assert old.edits == [] and len(newer.edits) == 1 and channel.edits == []


@pytest.mark.parametrize(
    "click",
    [
        FakeClick(BOARD, 100, answered=InteractionResponseType.channel_message),  # a reply
        FakeClick(BOARD, 100, answered=InteractionResponseType.deferred_channel_message),
        FakeClick(BOARD, 100, answered=None),  # not answered
        FakeClick(BOARD + 1, 100),  # another message
        FakeClick(BOARD, 100, age=15 * 60 - EDIT_LEFT + 1),  # too little time left
    ],
    ids=["reply", "thinking", "unanswered", "elsewhere", "old"],
)
async def test_a_click_whose_token_cannot_edit_the_board_is_not_used(click: FakeClick) -> None:
    publisher, channel, table = shown_with_a_board()
    publisher.clicked_on(table, click)
    await moved(publisher, table, {"type": "claim"})
    assert click.edits == [] and [message for message, _ in channel.edits] == [BOARD]


async def test_a_deferred_update_is_a_click_whose_token_edits_the_board() -> None:
    publisher, channel, table = shown_with_a_board()
    click = FakeClick(BOARD, 100, answered=InteractionResponseType.deferred_message_update)
    publisher.clicked_on(table, click)
    await moved(publisher, table, {"type": "claim"})
    assert len(click.edits) == 1 and channel.edits == []


@pytest.mark.parametrize("status", [401, 404, 500])
async def test_a_refused_token_is_forgotten_and_the_bots_own_edits_the_board(status: int) -> None:
    """Expired early (401), the message gone (404: the bot's own token then gets Discord's
    answer for it, and a deleted board is posted again), Discord failing: the same pass edits
    it with the bot's token, and later edits too."""
    publisher, channel, table = shown_with_a_board()
    click = FakeClick(BOARD, 100, refuse=status)
    publisher.clicked_on(table, click)
    await moved(publisher, table, {"type": "claim"})
    click.refuse = None
    await moved(publisher, table, {"type": "pick", "n": 2})
    assert click.edits == [] and [message for message, _ in channel.edits] == [BOARD, BOARD]


async def test_a_token_that_has_run_out_since_it_was_kept_is_not_used() -> None:
    publisher, channel, table = shown_with_a_board()
    click = FakeClick(BOARD, 100)
    publisher.clicked_on(table, click)
    hook = publisher._state(table.id).message_hooks[BOARD]
    publisher._state(table.id).message_hooks[BOARD] = type(hook)(
        hook.webhook, time.monotonic() + EDIT_LEFT - 1
    )
    await moved(publisher, table, {"type": "claim"})
    assert click.edits == [] and len(channel.edits) == 1
    assert BOARD not in publisher._state(table.id).message_hooks


async def test_a_members_dm_is_edited_through_their_own_newest_click_on_it() -> None:
    """Bug Run's DMs carry buttons: a click on one answered by updating it lets the DM's
    next edits go through its token. Another member's click, or one on another DM, is not
    a click on this DM."""
    publisher, _, table = shown_with_a_board()
    client = publisher.client
    user, other = FakeUser(), NumberedDms(first=500)
    client.users[table.user_at(0).user_id] = user
    client.users[table.user_at(1).user_id] = other
    await moved(publisher, table, {"type": "cheer"})
    dm_id = publisher._state(table.id).hand_ids[0]
    sent = len(user.dms)
    stranger = FakeClick(dm_id, table.user_at(1).user_id)
    own = FakeClick(dm_id, table.user_at(0).user_id, age=2.0)
    publisher.clicked_on(table, stranger)
    publisher.clicked_on(table, own)
    await moved(publisher, table, {"type": "claim"})
    await moved(publisher, table, {"type": "pick", "n": 2})
    assert len(user.dms) == sent  # neither sent nor edited with the bot's token
    assert stranger.edits == [] and len(own.edits) == 2


def test_a_hook_knows_how_long_its_token_has_left() -> None:
    click: Any = FakeClick(BOARD, 100, age=60.0)
    hook = message_hook(click, clock=lambda: 1000.0)
    assert hook is not None and hook.expires == pytest.approx(1000.0 + 14 * 60, abs=1.0)
    assert message_hook(FakeClick(BOARD, 100, age=15 * 60.0)) is None  # type: ignore[arg-type]


async def test_a_lobby_is_edited_through_the_interaction_that_posted_it() -> None:
    """``/bugs new`` (or Rematch) answers with the lobby: its original response, which its
    token edits, so the lobby and the board it becomes need no click to be edited so (P-92).
    A click on the board replaces it only once it is a minute old."""
    publisher, channel, table = shown_with_a_board()
    command = FakeClick(0, 100, answered=InteractionResponseType.channel_message)
    publisher.remember_board(table.id, BOARD, posted_by=command)
    publisher.clicked_on(table, FakeClick(BOARD, 101))
    await moved(publisher, table, {"type": "claim"})
    assert len(command.edits) == 1 and channel.edits == []
