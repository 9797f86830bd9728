"""Persistent components: DynamicItems whose custom id alone says what to do.

They are registered once with ``bot.add_dynamic_items`` so a click on any message ever sent
(even before a restart) reaches the right game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from .codec import HOST_OPS, decode_action, game_button_id, host_button_id, option_value, select_id

if TYPE_CHECKING:
    from .edge import Edge

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _edge(interaction: discord.Interaction[Any]) -> Edge:
    edge: Edge = interaction.client.edge
    return edge


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"g:(?P<game>\d+):(?P<turn>\d+):(?P<payload>\{.*\})",
):
    """A button that applies one engine action for whoever clicks it."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        action: dict[str, Any],
        *,
        label: str = "\u200b",
        style: str = "secondary",
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=_STYLES[style],
                emoji=emoji,
                disabled=disabled,
                custom_id=game_button_id(game_id, turn, action),
                row=row,
            )
        )
        self.game_id, self.turn, self.action = game_id, turn, action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        return cls(int(match["game"]), int(match["turn"]), decode_action(match["payload"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _edge(interaction).game_action(interaction, self.game_id, self.turn, self.action)


class HostButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"h:(?P<game>\d+):(?P<op>{'|'.join(HOST_OPS)})",
):
    """Lobby buttons and "My hand": host operations rather than engine actions."""

    def __init__(
        self,
        game_id: int,
        op: str,
        *,
        label: str | None = None,
        style: str = "secondary",
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or op.title(),
                style=_STYLES[style],
                emoji=emoji,
                disabled=disabled,
                custom_id=host_button_id(game_id, op),
                row=row,
            )
        )
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HostButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _edge(interaction).host_op(interaction, self.game_id, self.op)


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"s:(?P<game>\d+):(?P<turn>\d+):(?P<index>\d+)",
):
    """A select menu whose options are engine actions (for choices with many options)."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        options: list[tuple[str, dict[str, Any], str | None, str | None]] | None = None,
        *,
        placeholder: str = "Choose…",
        row: int | None = None,
        index: int = 0,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=select_id(game_id, turn, index),
            placeholder=placeholder,
            options=[
                discord.SelectOption(
                    label=label, value=option_value(action), description=desc, emoji=emoji
                )
                for label, action, desc, emoji in (options or [])
            ]
            or [discord.SelectOption(label="—", value="{}")],
            row=row,
        )
        super().__init__(select)
        self.game_id, self.turn = game_id, turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        return cls(int(match["game"]), int(match["turn"]), index=int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        action = decode_action(values[0]) if values else {"type": ""}
        await _edge(interaction).game_action(interaction, self.game_id, self.turn, action)


DYNAMIC_ITEMS = (GameButton, HostButton, GameSelect)
