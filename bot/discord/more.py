"""**Details** and **Full board** (P-55): what a board kept short for a phone leaves out,
shown to whoever clicks, privately, in one message per member per game (P-62).

The first click answers with a new ephemeral message, the member's *look*; later clicks of
either button, by the same member on the same game, show their answer in it, edited through
the token that made it, and are acknowledged without a message of their own. The look is not
the member's panel (P-48): the panel holds their hand and the choices they are asked to make,
which a look at the board must not push away, and a member who does not play has no panel.
Everything goes through interaction tokens, so none of it takes the bot's global request
budget (P-47), and nothing changes in the game. The desktop picture is rendered by the bot's
picture workers, like a board's.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..host.table import Table
from ..ui.presenter import presenter_for
from ..ui.specs import MessageSpec
from .attempts import PublisherBase
from .looks import Look
from .render import send_kwargs

log = logging.getLogger(__name__)
FULL_BOARD = "🖼️ The whole board, every card and space (the game's web page shows it too)."
NOTHING_MORE = "This board already shows everything: there is nothing more to see."


async def show_more(
    interaction: discord.Interaction[Any], table: Table, publisher: PublisherBase, op: str
) -> None:
    """Answer ``op`` ("details" or "fullboard") for ``table``'s game in the member's look."""
    looks, user = publisher.looks, interaction.user.id
    lock = looks.lock(table.id, user)
    # Acknowledged at once, before the picture is drawn or an earlier click is shown.
    fresh = looks.live(table.id, user) is None and not lock.locked()
    if fresh:  # the first: a new message, "thinking" meanwhile
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:  # shown in the look: no message of its own
        await interaction.response.defer()
    async with lock:
        spec, png = await _answer(table, publisher, op)
        look = looks.live(table.id, user)
        if look is not None and not fresh:
            try:
                await look.show(spec, png, table.id)
                return
            except discord.HTTPException as exc:  # dismissed, expired, refused: a new one
                log.info("game %s: a new look for a member (%s)", table.id, exc)
                looks.drop(table.id, user)
        if fresh:  # (two first clicks at once: the later one's message is the look)
            look = Look(interaction)
            await look.show(spec, png, table.id)
        else:  # a click acknowledged without a message: a followup of it is the new look
            kwargs = send_kwargs(spec, table.id, 0, png)
            sent = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
            look = Look(interaction, sent.id, spec.image if png is not None else None)
        looks.put(table.id, user, look)


async def _answer(
    table: Table, publisher: PublisherBase, op: str
) -> tuple[MessageSpec, bytes | None]:
    """What ``op`` shows now: the presenter's details, or the desktop picture drawn."""
    presenter = presenter_for(table.slug)
    async with table.lock:  # one consistent state, read while nothing commits
        view = table.view()
        if op == "details":
            details = presenter.details(view, publisher.log.lines(table.id))
            image = None
        else:
            details, image = None, presenter.full_picture(view)
    if details is not None:
        return details, None
    if image is not None:
        return MessageSpec(content=FULL_BOARD, image=image), await publisher.images.png(image)
    return MessageSpec(content=NOTHING_MORE), None
