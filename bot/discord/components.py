"""Persistent components: custom ids that alone say what to do, routed here.

Every button and menu bugtable sends carries its whole meaning in its custom id (``codec.py``),
so a click on any message ever sent, even before a restart, reaches the right game. Clicks are
routed by those ids (``route``, called from the bot's ``on_interaction``) rather than through
discord.py's views: for every click discord.py's dynamic items rebuild a View of the whole
clicked message (up to 25 buttons, each a new object) just to find the one clicked, which cost
about a sixth of a move's CPU. Outgoing rows are Discord's payload, built straight from the
message spec (``Components``). A custom id or select value that bugtable did not make
(garbled, forged, oversized) is answered "That button is not valid" (P-24).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Protocol

import discord

from ..ui.howto import pages_of
from ..ui.specs import ButtonSpec, MessageSpec, SelectSpec
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

_STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}
LINK_STYLE = 5
ACTION_ROW, BUTTON, SELECT = 1, 2, 3
"""Discord's component types."""


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

    async def stale(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, action: dict[str, Any]
    ) -> None: ...


GAME_BUTTON = re.compile(r"g:(?P<game>\d+):(?P<turn>\d+):(?P<payload>\{.*\})")
HOST_BUTTON = re.compile(rf"h:(?P<game>\d+):(?P<op>{'|'.join(HOST_OPS)})")
GAME_SELECT = re.compile(r"s:(?P<game>\d+):(?P<turn>\d+):(?P<index>\d+)")
RULES_BUTTON = re.compile(r"r:(?P<slug>[a-z0-9-]{1,40}):(?P<page>\d{1,2})")
TEMPLATES = (GAME_BUTTON, HOST_BUTTON, GAME_SELECT, RULES_BUTTON)
"""The custom ids bugtable makes: a game button, a host button (lobby, My hand), a menu, and
a page of a game's rules (How to play, Previous, Next: the same on every message, P-54)."""


# -- outgoing ---------------------------------------------------------------------------------


def _emoji(text: str) -> dict[str, Any]:
    return dict(_parsed_emoji(text))  # a copy: the payload is the caller's


@functools.lru_cache(maxsize=1024)
def _parsed_emoji(text: str) -> dict[str, Any]:
    """discord.py's reading of an emoji, once per emoji: a board sends the same few on every
    edit, and each reading is a regular expression and an object."""
    return dict(discord.PartialEmoji.from_str(text).to_dict())


def button_payload(button: ButtonSpec, game_id: int, turn: int) -> dict[str, Any]:
    payload: dict[str, Any] = {"type": BUTTON, "disabled": button.disabled}
    if button.url is not None:
        payload.update(style=LINK_STYLE, url=button.url)
    else:
        payload["style"] = _STYLES[button.style.value]
        if button.action is not None:
            payload["custom_id"] = game_button_id(game_id, turn, button.action)
        elif button.rules is not None:
            payload["custom_id"] = rules_button_id(button.rules.slug, button.rules.page)
        else:
            payload["custom_id"] = host_button_id(game_id, str(button.host))
    if button.label:
        payload["label"] = button.label
    if button.emoji:
        payload["emoji"] = _emoji(button.emoji)
    return payload


def select_payload(menu: SelectSpec, game_id: int, turn: int, index: int) -> dict[str, Any]:
    options = []
    for option in menu.options:
        entry: dict[str, Any] = {
            "label": option.label,
            "value": option_value(option.action),
            "default": False,
        }
        if option.description:
            entry["description"] = option.description
        if option.emoji:
            entry["emoji"] = _emoji(option.emoji)
        options.append(entry)
    return {
        "type": SELECT,
        "custom_id": select_id(game_id, turn, index),
        "placeholder": menu.placeholder,
        "min_values": 1,
        "max_values": 1,
        "options": options or [{"label": "—", "value": "{}", "default": False}],
        "disabled": False,
    }


class Components(discord.ui.View):
    """A message's rows as Discord's payload, built once from its spec. discord.py sends them
    as they are and keeps no view for the message: clicks are routed by custom id (``route``).

    Born stopped: discord.py keeps every unfinished view sent in a private reply, with a task
    that times it out 15 minutes later. At 200 games that was about 200 private replies a
    minute, so some 3,000 live tasks and views for the collector to walk, none of them of any
    use. A finished view is sent as it is and kept by nobody."""

    def __init__(self, spec: MessageSpec, game_id: int, turn: int) -> None:
        super().__init__(timeout=None)
        self.stop()
        self.rows: list[dict[str, Any]] = []
        for index, row in enumerate(spec.rows):
            if isinstance(row, SelectSpec):
                items = [select_payload(row, game_id, turn, index)]
            else:
                items = [button_payload(button, game_id, turn) for button in row]
            self.rows.append({"type": ACTION_ROW, "components": items})

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def is_dispatchable(self) -> bool:
        return False  # nothing for discord.py's view store: ``route`` answers the clicks

    def custom_ids(self) -> list[str]:
        """The ids of its buttons and menus, in order (links have none)."""
        return [c["custom_id"] for row in self.rows for c in row["components"] if "custom_id" in c]


# -- incoming ---------------------------------------------------------------------------------


async def route(interaction: discord.Interaction[Any], handler: Handler) -> None:
    """Hand a component interaction to the handler its custom id names. One whose component is
    not on the message it came from is a stale game click (P-45) or not valid (P-24)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or not on_its_message(interaction, custom_id, kind):
        stale = stale_game_click(interaction)
        if stale is None:
            await handler.invalid(interaction)
        else:
            await handler.stale(interaction, *stale)
        return
    try:
        if (found := GAME_BUTTON.fullmatch(custom_id)) and kind == BUTTON:
            game, turn = decode_number(found["game"]), decode_number(found["turn"])
            action = decode_action(found["payload"])
        elif (found := HOST_BUTTON.fullmatch(custom_id)) and kind == BUTTON:
            await handler.host_op(interaction, decode_number(found["game"]), found["op"])
            return
        elif (found := RULES_BUTTON.fullmatch(custom_id)) and kind == BUTTON:
            slug, page = found["slug"], decode_number(found["page"])
            if page >= len(pages_of(slug)):  # no such game, or no such page
                raise CodecError("not a rules page")
            await handler.rules_page(interaction, slug, page)
            return
        elif (found := GAME_SELECT.fullmatch(custom_id)) and kind == SELECT:
            game, turn = decode_number(found["game"]), decode_number(found["turn"])
            decode_number(found["index"])
            values = data.get("values") or []
            valid = len(values) == 1 and isinstance(values[0], str)
            action = decode_action(values[0]) if valid else {"type": ""}
        else:
            await handler.invalid(interaction)
            return
    except CodecError:
        await handler.invalid(interaction)
        return
    await handler.game_action(interaction, game, turn, action)


def on_its_message(interaction: discord.Interaction[Any], custom_id: str, kind: Any) -> bool:
    """Whether the clicked component (its id and type) is on the message it came from, as
    discord.py read that message: a button of an earlier state of the message is not."""
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", (row,)):
            if getattr(child, "custom_id", None) == custom_id and child.type.value == kind:
                return True
    return False


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
