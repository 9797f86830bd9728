"""A game's turn pings through its members' own interaction tokens (docs/rulings.md P-88).

Discord counts every request made with the bot's token against its global limit (about 50 a
second over the whole bot, P-47), but not the requests made through an interaction's token: a
click's follow-up messages, and their deletion, for 15 minutes after the click. A turn ping is a
new channel message (an edit notifies nobody) that is deleted once the pinged member acts: two
global requests for every slow turn, some 14 a second of the bot's 50 at 200 games.

So the publisher keeps, for each game, a recent click in the game's own channel that was
answered in a way a follow-up can follow (replaced by a newer one once it is a minute old), and
sends the game's ping as that click's follow-up,
then deletes it through the same token while the token lives. With no such click, or when the
token no longer works, the ping goes through the bot's token as before. Tokens live in memory
only (they are secrets, and a restart has no clicks yet).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import InteractionResponseType

TOKEN_LIFE = 15 * 60.0
"""Seconds an interaction's token works after the interaction was created."""
SEND_LEFT = 5 * 60.0
"""A ping goes through a token only with this long left, so that its deletion (when the member
acts, nearly always well within that) goes through the token too."""
DELETE_LEFT = 10.0
"""A deletion goes through the token only with this long left (clocks and queues between)."""
EDIT_LEFT = 10.0
"""An edit of a clicked message goes through the token only with this long left (P-92)."""
KEEP_FOR = 60.0
"""A game's kept token is replaced by a newer click's only once it is this old: a click then
costs no follow-up webhook of its own (an object discord.py builds per call, freed only by a
collection), and a ping still goes through a token under a minute older than the newest."""
FOLLOWABLE = frozenset(
    {
        InteractionResponseType.channel_message,
        InteractionResponseType.message_update,
        InteractionResponseType.deferred_message_update,
    }
)
"""Answers after which a follow-up is a new message. Not a "thinking" deferral: its first
follow-up fills in the placeholder (an edit, which notifies nobody)."""


@dataclass(frozen=True)
class ChannelHook:
    """An answered click's follow-up webhook, and when (``time.monotonic``) its token ends: a
    game's pings go through it (P-88), and the message it was clicked on is edited through it
    (its ``@original``, P-92)."""

    webhook: discord.Webhook
    expires: float
    clock: Callable[[], float] = time.monotonic

    def left(self) -> float:
        return self.expires - self.clock()

    def can_send(self) -> bool:
        return self.left() >= SEND_LEFT

    def can_delete(self) -> bool:
        return self.left() >= DELETE_LEFT

    def can_edit(self) -> bool:
        return self.left() >= EDIT_LEFT

    def fresh(self) -> bool:
        """Whether a newer click's token need not replace this one yet (``KEEP_FOR``)."""
        return self.left() > TOKEN_LIFE - KEEP_FOR


def token_hook(
    interaction: discord.Interaction[Any],
    *,
    left: float = 0.0,
    clock: Callable[[], float] = time.monotonic,
) -> ChannelHook | None:
    """``interaction``'s follow-up webhook and when its token ends, if more than ``left``
    seconds of it are left."""
    age = max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())
    if age >= TOKEN_LIFE - left:
        return None
    return ChannelHook(interaction.followup, clock() + TOKEN_LIFE - age, clock)


def hook_of(
    interaction: discord.Interaction[Any],
    channel_id: int,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> ChannelHook | None:
    """``interaction``'s follow-up webhook if it can post in channel ``channel_id`` now: a
    click in that channel (not a DM), answered, not by a "thinking" deferral."""
    if interaction.channel_id != channel_id or interaction.response.type not in FOLLOWABLE:
        return None
    return token_hook(interaction, clock=clock)
