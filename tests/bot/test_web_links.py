"""Links from Discord to the game pages: only with WEB_PORT, on the finished board (a link
button) and in `/bugs status`."""

from __future__ import annotations

import dataclasses
import socket
from typing import Any, cast

import discord
import pytest

import bot.ui.games  # noqa: F401  (the dedicated presenters)
from bot.discord.client import BugtableBot
from bot.discord.commands import status_text
from bot.discord.publisher import Publisher
from bot.discord.render import view_of
from bot.host.host import Host
from bot.settings import Settings, SettingsError
from bot.store import Store
from bot.ui.public_log import PublicLog
from bot.ui.specs import ButtonSpec, MessageSpec
from bot.web.links import REPLAY_LABEL, game_url, with_replay_link
from bot.web.server import WebServer
from tests.support.tables import act, make_table


def test_links_exist_only_with_a_web_port() -> None:
    off = Settings(_env_file=None)  # type: ignore[call-arg]
    assert game_url(off, "tok") is None
    on = Settings(_env_file=None, web_port=8080)  # type: ignore[call-arg]
    assert game_url(on, "tok") == "http://127.0.0.1:8080/games/tok"
    assert game_url(on, None) is None
    public = Settings(_env_file=None, web_port=8080, web_base_url="https://bugs.example/")  # type: ignore[call-arg]
    assert game_url(public, "tok") == "https://bugs.example/games/tok"


def test_a_replay_link_is_a_link_button() -> None:
    spec = MessageSpec(content="done")
    assert with_replay_link(spec, None) is spec
    linked = with_replay_link(spec, "https://bugs.example/games/tok")
    (button,) = linked.buttons()
    assert button.url == "https://bugs.example/games/tok" and button.label == REPLAY_LABEL
    view = view_of(linked, 1, 0)
    assert view is not None
    (row,) = view.to_components()
    (item,) = row["components"]
    assert item["url"] == button.url and item["style"] == discord.ButtonStyle.link.value
    assert "custom_id" not in item
    with pytest.raises(ValueError):
        ButtonSpec("both", host="hand", url="https://x")


async def test_the_finished_board_and_status_link_to_the_page() -> None:
    settings = Settings(_env_file=None, web_port=8080)  # type: ignore[call-arg]
    table = make_table("bug-off", 2)
    table.game = dataclasses.replace(table.game, web_token="T" * 22)
    assert "Watch: http://127.0.0.1:8080/games/" + "T" * 22 in status_text(settings, table, None)
    publisher = Publisher(cast(Any, None), cast(Any, None), settings, PublicLog())
    boards = (await publisher._render(table)).boards
    assert not any(b.url for spec in boards for b in spec.buttons())  # not while playing
    engine = table.running()
    while not engine.is_over:
        seat = min(engine.waiting_for())
        act(table, seat, engine.legal_actions(seat)[0])
    boards = (await publisher._render(table)).boards
    urls = [b.url for b in boards[0].buttons() if b.url]
    assert urls == ["http://127.0.0.1:8080/games/" + "T" * 22]
    last_row = boards[0].rows[-1]
    assert isinstance(last_row, tuple)
    assert [b.label for b in last_row] == ["Rematch", "How to play", REPLAY_LABEL]
    publisher.settings = Settings(_env_file=None)  # type: ignore[call-arg]
    boards = (await publisher._render(table)).boards
    assert not any(b.url for b in boards[0].buttons())


async def test_the_bot_serves_pages_only_when_asked_and_says_so_when_it_cannot(
    store: Store,
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        settings = Settings(_env_file=None, discord_token="t" * 30, web_port=port)  # type: ignore[call-arg]
        for serve in (False, True):
            bot = BugtableBot(settings, serve_web=serve)
            bot.store, bot.host = store, Host(store, settings)
            if serve:
                with pytest.raises(SettingsError, match=f"WEB_PORT {port}: cannot serve"):
                    await bot._start_web()
            else:  # `python -m bot sync` beside a running bot
                await bot._start_web()
            assert bot.web is None and not any(isinstance(x, WebServer) for x in bot.host.listeners)
