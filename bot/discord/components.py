"""Persistent components: DynamicItems whose custom id alone says what to do.

They are registered once with ``bot.add_dynamic_items`` so a click on any message ever sent
(even before a restart) reaches the right game. A custom id or select value that bugtable did not
make (garbled, forged, oversized) becomes an ``InvalidComponent``, which answers it (P-24).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from ..ui.howto import pages_of
from .codec import (
    HOST_OPS,
    CodecError,
    decode_action,
    decode_number,
    game_button_id,
    host_button_id,
    option_value,
    rules_button_id,
    select_id,
)

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class Handler(Protocol):
    """What a click is handed to (``bot.discord.edge.Edge``); named here as a protocol so this
    module imports nothing of the layer above it."""

    async def game_action(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, action: dict[str, Any]
    ) -> None: ...

    async def host_op(
        self, interaction: discord.Interaction[Any], game_id: int, op: str
    ) -> None: ...

    async def rules_page(
        self, interaction: discord.Interaction[Any], slug: str, page: int
    ) -> None: ...

    async def invalid(self, interaction: discord.Interaction[Any]) -> None: ...


def _button(
    custom_id: str, label: str, style: str, emoji: str | None, disabled: bool, row: int | None
) -> discord.ui.Button[Any]:
    """The discord.py button one of our items wraps."""
    return discord.ui.Button(
        label=label,
        style=_STYLES[style],
        emoji=emoji,
        disabled=disabled,
        custom_id=custom_id,
        row=row,
    )


def _edge(interaction: discord.Interaction[Any]) -> Handler:
    """The handler of the client the click reached (``BugtableBot.edge``): a DynamicItem is
    made by discord.py from the custom id alone, so this is the one way in."""
    edge: Handler = interaction.client.edge
    return edge


GAME_BUTTON = re.compile(r"g:(?P<game>\d+):(?P<turn>\d+):(?P<payload>\{.*\})")
HOST_BUTTON = re.compile(rf"h:(?P<game>\d+):(?P<op>{'|'.join(HOST_OPS)})")
GAME_SELECT = re.compile(r"s:(?P<game>\d+):(?P<turn>\d+):(?P<index>\d+)")
RULES_BUTTON = re.compile(r"r:(?P<slug>[a-z0-9-]{1,40}):(?P<page>\d{1,2})")
TEMPLATES = (GAME_BUTTON, HOST_BUTTON, GAME_SELECT, RULES_BUTTON)
"""The custom ids bugtable makes, one pattern per item below."""


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME_BUTTON):
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
        custom_id = game_button_id(game_id, turn, action)
        super().__init__(_button(custom_id, label, style, emoji, disabled, row))
        self.game_id, self.turn, self.action = game_id, turn, action

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # discord.py takes any DynamicItem
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton | InvalidComponent:
        try:
            game, turn = decode_number(match["game"]), decode_number(match["turn"])
            return cls(game, turn, decode_action(match["payload"]))
        except CodecError:
            return InvalidComponent(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _edge(interaction).game_action(interaction, self.game_id, self.turn, self.action)


class HostButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HOST_BUTTON):
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
        custom_id = host_button_id(game_id, op)
        super().__init__(_button(custom_id, label or op.title(), style, emoji, disabled, row))
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # discord.py takes any DynamicItem
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HostButton | InvalidComponent:
        try:
            return cls(decode_number(match["game"]), match["op"])
        except CodecError:
            return InvalidComponent(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _edge(interaction).host_op(interaction, self.game_id, self.op)


class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RULES_BUTTON):
    """How to play, Previous, Next: shows a page of a game's rules to whoever clicks (P-56).
    Its id names the game and the page alone, so it works on any message, after a restart."""

    def __init__(
        self,
        slug: str,
        page: int,
        *,
        label: str | None = None,
        style: str = "secondary",
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = rules_button_id(slug, page)
        super().__init__(_button(custom_id, label or "How to play", style, emoji, disabled, row))
        self.slug, self.page = slug, page

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # discord.py takes any DynamicItem
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RulesButton | InvalidComponent:
        slug, page = match["slug"], decode_number(match["page"])
        if page >= len(pages_of(slug)):  # no such game, or no such page
            return InvalidComponent(item)
        return cls(slug, page)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _edge(interaction).rules_page(interaction, self.slug, self.page)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=GAME_SELECT):
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
    async def from_custom_id(  # type: ignore[override]  # discord.py takes any DynamicItem
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect | InvalidComponent:
        try:
            game, turn = decode_number(match["game"]), decode_number(match["turn"])
            return cls(game, turn, index=decode_number(match["index"]))
        except CodecError:
            return InvalidComponent(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        try:
            action = decode_action(values[0]) if len(values) == 1 else {"type": ""}
        except CodecError:
            await _edge(interaction).invalid(interaction)
            return
        await _edge(interaction).game_action(interaction, self.game_id, self.turn, action)


class InvalidComponent(
    discord.ui.DynamicItem[discord.ui.Item[Any]],
    template=r"(?s).*",
):
    """Stands in for a component whose id matched a template but does not parse: it answers
    "That button is not valid". Never registered: our items' ``from_custom_id`` return it."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _edge(interaction).invalid(interaction)


DYNAMIC_ITEMS = (GameButton, HostButton, GameSelect, RulesButton)


def reaches_an_item(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py hands this component interaction to one of ``DYNAMIC_ITEMS``: its id
    matches a template and the clicked component is on the message it came from. discord.py
    drops anything else without a word, so the bot answers those itself."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, kind, message = (
        data.get("custom_id"),
        data.get("component_type"),
        interaction.message,
    )
    if not isinstance(custom_id, str) or message is None:
        return False
    if not any(template.fullmatch(custom_id) for template in TEMPLATES):
        return False
    try:
        view_cls = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
        view = view_cls.from_message(message, timeout=None)
        children = list(view.walk_children())
    except Exception:
        return False
    return any(
        child.type.value == kind and getattr(child, "custom_id", None) == custom_id
        for child in children
    )


def stale_game_click(
    interaction: discord.Interaction[Any],
) -> tuple[int, int, dict[str, Any]] | None:
    """A well-formed game button or menu of ours that is not on the message it came from,
    maybe a double click delivered after the first one's answer updated the message (P-45):
    its game, turn and action (a menu's: ``{}``), for the edge to judge; never run. ``None``
    for anything else (those stay "not valid", P-24)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or interaction.message is None:
        return None
    try:
        if found := GAME_BUTTON.fullmatch(custom_id):
            turn = decode_number(found["turn"])
            return decode_number(found["game"]), turn, decode_action(found["payload"])
        if found := GAME_SELECT.fullmatch(custom_id):
            decode_number(found["index"])
            return decode_number(found["game"]), decode_number(found["turn"]), {}
    except CodecError:
        return None
    return None
