"""MessageSpec → what discord.py sends (an embed, the rows of persistent components).

Every text part is lettered on its way out (``bot.ui.marks``, P-53): a colour glyph never
reaches a person without its letter."""

from __future__ import annotations

import io
from typing import Any

import discord

from ..ui.marks import lettered, lettered_spec
from ..ui.specs import EmbedSpec, ImageSpec, MessageSpec
from .components import Components


def embed_of(spec: EmbedSpec, image: ImageSpec | None = None) -> discord.Embed:
    embed = discord.Embed(title=spec.title, description=spec.description, colour=spec.colour)
    if image is not None:
        embed.set_image(url=f"attachment://{image.filename}")
    for field in spec.fields:
        embed.add_field(name=field.name, value=field.value or "\u200b", inline=field.inline)
    if spec.footer:
        embed.set_footer(text=spec.footer)
    return embed


def embeds_of(spec: MessageSpec, image: ImageSpec | None = None) -> list[discord.Embed]:
    """The message's embed, then the copy of the board beneath it (P-85), those it has."""
    parts = [embed_of(spec.embed, image)] if spec.embed else []
    if spec.board:
        parts.append(embed_of(spec.board))
    return parts


def _embeds_kwargs(spec: MessageSpec, image: ImageSpec | None) -> dict[str, Any]:
    """``embed=`` for one embed (``None``, none: an edit clears it), ``embeds=`` for the
    message's embed with the board's copy beneath (P-85)."""
    embeds = embeds_of(spec, image)
    if len(embeds) > 1:
        return {"embeds": embeds}
    return {"embed": embeds[0] if embeds else None}


def view_of(spec: MessageSpec, game_id: int, turn: int) -> Components | None:
    """The message's buttons and menus (``None``: it has none)."""
    return Components(spec, game_id, turn) if spec.rows else None


def file_of(image: ImageSpec, png: bytes) -> discord.File:
    alt = None if image.description is None else lettered(image.description)
    return discord.File(io.BytesIO(png), filename=image.filename, description=alt)


def send_kwargs(
    spec: MessageSpec, game_id: int, turn: int, png: bytes | None = None
) -> dict[str, Any]:
    """Keyword arguments for sending a new message (parts that are absent are omitted).

    A spec with an image needs its rendered ``png``; without it the image is left out."""
    spec = lettered_spec(spec)
    kwargs: dict[str, Any] = {}
    image = spec.image if png is not None else None
    if spec.content:
        kwargs["content"] = spec.content
    if spec.embed or spec.board:
        kwargs.update(_embeds_kwargs(spec, image))
    if image is not None and png is not None:
        kwargs["file"] = file_of(image, png)
    view = view_of(spec, game_id, turn)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def edit_kwargs(
    spec: MessageSpec,
    game_id: int,
    turn: int,
    png: bytes | None = None,
    *,
    shown: ImageSpec | None = None,
) -> dict[str, Any]:
    """Keyword arguments for an edit that replaces every part (``None`` clears it).

    ``shown`` is the picture the message carries now. A new picture comes as ``png`` and
    replaces the message's attachments; the same picture as shown stays without an upload (the
    embed keeps pointing at it by file name); a picture no longer wanted is removed."""
    spec = lettered_spec(spec)
    image = (
        spec.image if spec.image is not None and (png is not None or shown == spec.image) else None
    )
    kwargs: dict[str, Any] = {
        "content": spec.content,
        "view": view_of(spec, game_id, turn),
    }
    kwargs.update(_embeds_kwargs(spec, image))
    if image is not None and png is not None:
        kwargs["attachments"] = [file_of(image, png)]
    elif image is None and shown is not None:
        kwargs["attachments"] = []
    return kwargs
