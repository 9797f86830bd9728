"""**Details** and **Full board** (P-55): what a board kept short for a phone leaves out,
shown to whoever clicks, privately.

Both answer through the click's own interaction (a deferred ephemeral reply, then its
followup), so they take nothing of the bot's global request budget (P-47) and change nothing.
The desktop picture is rendered by the bot's picture workers, like a board's.
"""

from __future__ import annotations

from typing import Any

import discord

from ..host.table import Table
from ..ui.presenter import presenter_for
from .attempts import PublisherBase
from .render import file_of, send_kwargs

FULL_BOARD = "🖼️ The whole board, every card and space (the game's web page shows it too)."
NOTHING_MORE = "This board already shows everything: there is nothing more to see."


async def show_more(
    interaction: discord.Interaction[Any], table: Table, publisher: PublisherBase, op: str
) -> None:
    """Answer ``op`` ("details" or "fullboard") for ``table``'s game."""
    presenter = presenter_for(table.slug)
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with table.lock:  # one consistent state, read while nothing commits
        view = table.view()
        if op == "details":
            spec = presenter.details(view, publisher.log.lines(table.id))
            image = None
        else:
            spec, image = None, presenter.full_picture(view)
    if spec is not None:
        await interaction.followup.send(ephemeral=True, **send_kwargs(spec, table.id, 0))
    elif image is not None:
        png = await publisher.images.png(image)
        await interaction.followup.send(FULL_BOARD, ephemeral=True, file=file_of(image, png))
    else:
        await interaction.followup.send(NOTHING_MORE, ephemeral=True)
