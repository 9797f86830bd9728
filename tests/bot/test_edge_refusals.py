"""How the edge turns an error into a reply: an interaction that expired is logged in one line."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord.edge import OOPS, Edge


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
