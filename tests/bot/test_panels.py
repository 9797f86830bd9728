"""A member's private panel: edited through its freshest token, settled only while it still
shows the reply being settled, and given up when Discord will not edit it (P-48)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.discord import panels as panels_module
from bot.discord.panels import Panel, PanelGone, Panels
from bot.discord.replies import PrivateReply
from bot.ui.specs import MessageSpec


class FakeResponse:
    status, reason = 404, "Not Found"


class FakeInteraction:
    """Records the edits made through its token; ``fail`` makes the next one fail."""

    def __init__(self, message_id: int | None = None) -> None:
        self.edits: list[Any] = []
        self.fail: int | None = None
        self.message = None if message_id is None else discord.Object(message_id)

    async def edit_original_response(self, **kwargs: Any) -> None:
        if self.fail is not None:
            raise discord.NotFound(FakeResponse(), {"code": self.fail, "message": "Unknown"})  # type: ignore[arg-type]
        self.edits.append(kwargs.get("content"))


def panel_of(interaction: FakeInteraction) -> tuple[Panels, Panel]:
    panels = Panels()
    panel = Panel(1, 0, 42, 500, interaction, None)  # type: ignore[arg-type]
    panels.put(panel)
    return panels, panel


def shown(panel: Panel, text: str) -> PrivateReply:
    reply = PrivateReply(panel.interaction, None, 0, MessageSpec(text), 3, panel=panel)
    panel.reply = reply
    return reply


async def test_a_panel_is_settled_only_while_it_shows_that_reply() -> None:
    creator = FakeInteraction()
    panels, panel = panel_of(creator)
    old = shown(panel, "old")
    new = shown(panel, "new")  # a newer answer replaced it
    await panel.settle(old, MessageSpec("old, settled"), 3)
    assert creator.edits == []
    await panel.settle(new, MessageSpec("new, settled"), 3)
    assert creator.edits == ["new, settled"] and panel.reply is None

    # A click on the panel gives the freshest token: later edits go through it.
    click = FakeInteraction(message_id=500)
    assert panels.clicked(1, 0, click) is panel and panels.clicked(1, 1, click) is None  # type: ignore[arg-type]
    panel.adopt_click(click)  # type: ignore[arg-type]
    await panel.edit(MessageSpec("via the click"), 4)
    assert click.edits == ["via the click"] and creator.edits == ["new, settled"]


async def test_a_panel_discord_will_not_edit_is_gone() -> None:
    creator = FakeInteraction()
    creator.fail = 10008  # dismissed
    panels, panel = panel_of(creator)
    with pytest.raises(PanelGone):
        await panel.edit(MessageSpec("x"), 1)
    await panel.settle(shown(panel, "y"), MessageSpec("y settled"), 1)  # logged, not raised
    assert panels.live(1, 0) is panel
    panel.since -= panels_module.TOKEN_LIFETIME + 1  # its token is too old to edit it
    assert panels.live(1, 0) is None and panels.count(1) == 0


async def test_a_settling_edit_waits_for_the_members_click_being_answered() -> None:
    creator = FakeInteraction()
    panels, panel = panel_of(creator)
    old = shown(panel, "old")
    with panels.answering(1, 42):
        settling = asyncio.create_task(panel.settle(old, MessageSpec("settled"), 3))
        await asyncio.sleep(0)  # let it start: it waits for the answer
        assert not settling.done()
        shown(panel, "the click's answer")
    await settling
    assert creator.edits == []  # the answer replaced what was to be settled
