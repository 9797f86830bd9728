"""How the edge turns an error into a reply: an interaction that expired is logged in one line."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord.edge import OOPS, Edge
from bot.discord.panels import Panels
from bot.ui.specs import MessageSpec


class Answered:
    """An interaction whose answers are written down (none is expected for an expired one)."""

    def __init__(self) -> None:
        self.id = 42
        self.sent: list[str] = []
        self.response = SimpleNamespace(is_done=lambda: False, send_message=self._send)

    async def _send(self, text: str, **_: Any) -> None:
        self.sent.append(text)


def http_error(cls: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="x")
    return cls(response, {"code": code, "message": "m"})  # type: ignore[arg-type]


async def test_an_interaction_too_late_to_answer_is_one_warning_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    edge = Edge(None, None, None)  # type: ignore[arg-type]  # refuse uses none of them
    interaction = Answered()
    with caplog.at_level(logging.WARNING, "bot.discord.edge"):
        await edge.refuse(interaction, http_error(discord.NotFound, 404, 10062))  # type: ignore[arg-type]
    assert interaction.sent == []
    assert [(r.levelname, r.exc_info) for r in caplog.records] == [("WARNING", None)]
    assert "expired before it was answered" in caplog.text


async def test_any_other_failure_is_logged_with_its_trace_and_answered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    edge = Edge(None, None, None)  # type: ignore[arg-type]
    interaction = Answered()
    with caplog.at_level(logging.WARNING, "bot.discord.edge"):
        await edge.refuse(interaction, http_error(discord.NotFound, 404, 10008))  # type: ignore[arg-type]
    assert interaction.sent == [OOPS]
    assert caplog.records[0].levelname == "ERROR" and caplog.records[0].exc_info


class AnsweredRefusingFollowups:
    """A click already answered (the board updated) whose own followups Discord refuses."""

    def __init__(self) -> None:
        self.id = 43
        self.user = SimpleNamespace(id=7)
        self.response = SimpleNamespace(is_done=lambda: True)
        self.followup = SimpleNamespace(send=self._refuse)

    async def _refuse(self, **_: Any) -> None:
        raise http_error(discord.HTTPException, 401, 50027)


async def test_a_private_answer_whose_followup_is_refused_is_one_warning_and_ends_the_trust(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """P-95: the panel's edit failed after the click was answered, and Discord refuses the
    click's followup too: one warning line, no panel remembered, and the game's next private
    answers wait for their panel's edit again."""
    panels = Panels()
    panels.trusted.add(5)
    edge = Edge(None, SimpleNamespace(panels=panels), None)  # type: ignore[arg-type]
    table = SimpleNamespace(id=5)
    with caplog.at_level(logging.WARNING, "bot.discord.edge"):
        await edge._new_panel(
            AnsweredRefusingFollowups(),  # type: ignore[arg-type]
            table,  # type: ignore[arg-type]
            0,
            MessageSpec("your tile: 3"),
            4,
        )
    assert 5 not in panels.trusted and panels.live(5, 0) is None
    assert [(r.levelname, r.exc_info) for r in caplog.records] == [("WARNING", None)]
    assert "could not answer seat 0 privately (401 50027)" in caplog.text
