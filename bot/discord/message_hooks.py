"""A game's boards and DMs edited through the token of a click on them (docs/rulings.md P-92).

Discord counts every request made with the bot's token against its global limit (about 50 a
second for the whole bot, P-47), but not those made through an interaction's token. A click
answered by updating its message (``UPDATE_MESSAGE``) or by a deferred update has that message
as its original response, which its token edits (``@original``) for 15 minutes from the click.
A game's board is clicked on most turns, so the board's next edits, the ones no click answers
(a move made from a private panel or a DM, a clock running out, a bot's move), go through the
newest such click's token; a Bug Run DM likewise through its player's newest click on it. The
lobby, which becomes the board, is the original response of the command or Rematch click that
opened it: until a click on it is kept, that token edits it. With no such click, a token too
old, or Discord refusing it, the edit goes with the bot's own token as before. Tokens are kept
in memory only (the follow-up webhook, ``ChannelHook``, as for pings): they are secrets, and a
restart has no clicks yet.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, cast

import discord
from discord import InteractionResponseType

from ..backoff import one_line
from .channel_hooks import EDIT_LEFT, ChannelHook, token_hook

log = logging.getLogger("bot.discord.publisher")

EDITABLE = frozenset(
    {InteractionResponseType.message_update, InteractionResponseType.deferred_message_update}
)
"""Answers after which a click's original response is the message it was clicked on. Not a
reply of its own: its original response is that reply."""


ORIGINAL = cast(int, "@original")
"""The route's name for a click's original response: discord.py's webhook edits take a message
id, and its route puts whatever it is given in the path."""


def message_hook(
    interaction: discord.Interaction[Any], *, clock: Callable[[], float] = time.monotonic
) -> ChannelHook | None:
    """``interaction``'s hook on the message it was clicked on, if its token may edit that
    message now: answered by updating it (at once or deferred), and young enough."""
    if interaction.message is None or interaction.response.type not in EDITABLE:
        return None
    return original_hook(interaction, clock=clock)


def original_hook(
    interaction: discord.Interaction[Any], *, clock: Callable[[], float] = time.monotonic
) -> ChannelHook | None:
    """A hook on ``interaction``'s original response, whatever it is (the caller knows: the
    message a click updated, or the lobby a command posted), if its token is young enough."""
    return token_hook(interaction, left=EDIT_LEFT, clock=clock)


async def edit_through_click(
    hooks: dict[int, ChannelHook], message_id: int, game_id: int, **kwargs: Any
) -> bool:
    """Edit message ``message_id`` through the newest click on it; False, having sent nothing
    or been refused, when the caller must edit it with the bot's own token. A refusal (the
    token expired, the message deleted, Discord failing) forgets the hook: the bot's token then
    gets Discord's own answer for the message (a deleted board is posted again)."""
    hook = hooks.get(message_id)
    if hook is None:
        return False
    if not hook.can_edit():
        del hooks[message_id]
        return False
    try:
        await hook.webhook.edit_message(ORIGINAL, **kwargs)
    except discord.HTTPException as exc:
        if hooks.get(message_id) is hook:
            del hooks[message_id]
        log.info(
            "game %s: a click's token could not edit message %s (%s); the bot's own edits it",
            game_id,
            message_id,
            one_line(exc),
        )
        return False
    return True
