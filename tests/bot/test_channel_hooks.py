"""Which clicks' tokens may carry a game's turn ping, and for how long (docs/rulings.md P-88)."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import InteractionResponseType

from bot.discord.channel_hooks import (
    DELETE_LEFT,
    KEEP_FOR,
    SEND_LEFT,
    TOKEN_LIFE,
    ChannelHook,
    hook_of,
)
from bot.discord.notices import deleted_through_token
from tests.support.clock import StandingClock as Clock

CHANNEL = 42


def click(
    *,
    channel_id: int = CHANNEL,
    answered: InteractionResponseType | None = InteractionResponseType.message_update,
    age: float = 0.0,
) -> Any:
    """What ``hook_of`` reads of a ``discord.Interaction``: where, how answered, when."""
    return SimpleNamespace(
        channel_id=channel_id,
        response=SimpleNamespace(type=answered),
        created_at=discord.utils.utcnow() - timedelta(seconds=age),
        followup=object(),
    )


@pytest.mark.parametrize(
    "answered",
    [
        InteractionResponseType.message_update,
        InteractionResponseType.channel_message,
        InteractionResponseType.deferred_message_update,
    ],
)
def test_an_answered_click_in_the_games_channel_can_carry_a_ping(
    answered: InteractionResponseType,
) -> None:
    clock = Clock()
    interaction = click(answered=answered, age=60.0)
    hook = hook_of(interaction, CHANNEL, clock=clock)
    assert hook is not None and hook.webhook is interaction.followup
    # Its token lives 15 minutes from the click, which was a minute ago.
    assert hook.left() == pytest.approx(TOKEN_LIFE - 60.0, abs=1.0)
    assert hook.can_send() and hook.can_delete()


@pytest.mark.parametrize(
    "interaction",
    [
        click(channel_id=7),  # a DM click, or another channel's
        click(answered=None),  # not answered yet
        click(answered=InteractionResponseType.deferred_channel_message),  # "thinking"
        click(age=TOKEN_LIFE + 1.0),  # its token is dead
    ],
)
def test_other_clicks_carry_no_ping(interaction: Any) -> None:
    assert hook_of(interaction, CHANNEL) is None


def test_a_token_sends_pings_while_it_has_time_to_delete_them_too() -> None:
    clock = Clock()
    hook = hook_of(click(), CHANNEL, clock=clock)
    assert hook is not None
    assert hook.fresh()  # a newer click's token need not replace it yet
    clock.now += KEEP_FOR + 1.0
    assert not hook.fresh()
    clock.now += TOKEN_LIFE - SEND_LEFT - KEEP_FOR - 2.0
    assert hook.can_send()
    clock.now += 2.0
    assert not hook.can_send() and hook.can_delete()
    clock.now += SEND_LEFT - DELETE_LEFT
    assert not hook.can_delete()


class Webhook:
    """A follow-up webhook whose deletions answer ``refusal`` (None: deleted)."""

    def __init__(self, refusal: Exception | None = None) -> None:
        self.refusal = refusal
        self.deleted: list[int] = []

    async def delete_message(self, message_id: int) -> None:
        self.deleted.append(message_id)
        if self.refusal is not None:
            raise self.refusal


def refusal(cls: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="", headers={})
    return cls(response, {"code": code, "message": "refused"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("answer", "through_token"),
    [
        (None, True),
        (refusal(discord.NotFound, 404, 10008), True),  # Unknown Message: already gone
        (refusal(discord.NotFound, 404, 10015), False),  # Unknown Webhook: still there
        (refusal(discord.HTTPException, 401, 50027), False),  # Invalid Webhook Token
    ],
)
async def test_a_ping_is_deleted_through_its_token_unless_the_token_cannot(
    answer: Exception | None, through_token: bool
) -> None:
    """``False``: the bot's own token deletes it then (``Notices._sync_channel_notes``)."""
    clock = Clock()
    webhook = Webhook(answer)
    hook = ChannelHook(webhook, clock() + TOKEN_LIFE, clock)  # type: ignore[arg-type]
    assert await deleted_through_token(hook, 7) is through_token
    assert webhook.deleted == [7]
    clock.now += TOKEN_LIFE - DELETE_LEFT + 1.0  # too close to its end: not even tried
    assert await deleted_through_token(hook, 8) is False
    assert webhook.deleted == [7]
