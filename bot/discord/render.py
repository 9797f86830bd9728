"""MessageSpec → discord.py objects (embed + persistent view)."""

from __future__ import annotations

from typing import Any

import discord

from ..ui.specs import EmbedSpec, MessageSpec, SelectSpec
from .components import GameButton, GameSelect, HostButton


def embed_of(spec: EmbedSpec) -> discord.Embed:
    embed = discord.Embed(title=spec.title, description=spec.description, colour=spec.colour)
    for field in spec.fields:
        embed.add_field(name=field.name, value=field.value or "\u200b", inline=field.inline)
    if spec.footer:
        embed.set_footer(text=spec.footer)
    return embed


def view_of(spec: MessageSpec, game_id: int, turn: int) -> discord.ui.View | None:
    if not spec.rows:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(spec.rows):
        if isinstance(row, SelectSpec):
            view.add_item(
                GameSelect(
                    game_id,
                    turn,
                    [(o.label, o.action, o.description, o.emoji) for o in row.options],
                    placeholder=row.placeholder,
                    row=index,
                    index=index,
                )
            )
            continue
        for button in row:
            item: discord.ui.Item[Any]
            if button.action is not None:
                item = GameButton(
                    game_id,
                    turn,
                    button.action,
                    label=button.label,
                    style=button.style.value,
                    emoji=button.emoji,
                    disabled=button.disabled,
                    row=index,
                )
            else:
                item = HostButton(
                    game_id,
                    str(button.host),
                    label=button.label,
                    style=button.style.value,
                    emoji=button.emoji,
                    disabled=button.disabled,
                    row=index,
                )
            view.add_item(item)
    return view


def send_kwargs(spec: MessageSpec, game_id: int, turn: int) -> dict[str, Any]:
    """Keyword arguments for sending a new message (parts that are absent are omitted)."""
    kwargs: dict[str, Any] = {}
    if spec.content:
        kwargs["content"] = spec.content
    if spec.embed:
        kwargs["embed"] = embed_of(spec.embed)
    view = view_of(spec, game_id, turn)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def edit_kwargs(spec: MessageSpec, game_id: int, turn: int) -> dict[str, Any]:
    """Keyword arguments for an edit that replaces every part (``None`` clears it)."""
    return {
        "content": spec.content,
        "embed": embed_of(spec.embed) if spec.embed else None,
        "view": view_of(spec, game_id, turn),
    }
