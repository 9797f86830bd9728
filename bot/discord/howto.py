"""Answers a How to play, Previous or Next click (P-54): a page of a game's rules, privately.

A click on a board or lobby opens the first page as an ephemeral reply; a click on that reply
turns its page in the click's own response (``UPDATE_MESSAGE``). Both go through the
interaction's token, so they take nothing of the bot's global request budget (P-47), and
nothing is stored: the button's id says everything.
"""

from __future__ import annotations

from typing import Any

import discord

from ..ui.howto import rules_message
from .render import edit_kwargs, send_kwargs


async def answer_rules_page(
    interaction: discord.Interaction[Any], slug: str, page: int, speeds: str | None = None
) -> None:
    spec = rules_message(slug, page, speeds)
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(**edit_kwargs(spec, 0, 0))
    else:
        await interaction.response.send_message(ephemeral=True, **send_kwargs(spec, 0, 0))
