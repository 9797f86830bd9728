"""The game pages' JSON endpoints: games stored by a real Host, served as the public sees them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

import bot.games as games_registry
import bot.ui.games  # noqa: F401  (the dedicated presenters)
import tests.support.fake_picture as fake_picture
from bot.games import game_for
from bot.host.host import Host
from bot.host.table import Table
from bot.settings import Settings
from bot.store import Store
from bot.web import pictures
from bot.web.html import markdown
from bot.web.replays import BOARD_LOG_LINES, Replay, Replays
from bot.web.server import WebServer
from rules.core import GAMES, SYSTEM, Rng, replay
from tests.support.web import NAMES, open_game, play, web_client

from .conftest import FakeClock

CHANNEL = 700


@pytest.fixture
def settings() -> Settings:
    # No pacing between reveals: the tests play as fast as they can.
    return Settings(_env_file=None, discord_token="t" * 30, timers={"bag_min_gap": 0.0})  # type: ignore[call-arg]


@pytest.fixture
async def host(store: Store, settings: Settings, clock: FakeClock) -> AsyncIterator[Host]:
    host = Host(store, settings, clock=clock)
    yield host
    await host.close()


async def finished(host: Host, slug: str, seed: int, players: int = 3) -> Table:
    table = await open_game(host, slug, players, channel=CHANNEL + seed)
    await play(host, table, Rng(seed))
    return table


async def get_json(client: Any, path: str) -> Any:
    response = await client.get(path)
    assert response.status == 200, await response.text()
    assert response.headers["Content-Type"].startswith("application/json")
    return await response.json()


# -- finished games ----------------------------------------------------------------------------


async def test_a_finished_game_is_served_whole(host: Host, store: Store) -> None:
    table = await finished(host, "bug-off", seed=1)
    token = table.game.web_token
    assert token is not None
    actions = await store.actions(table.id)
    async with web_client(Replays(store)) as client:
        summary = await get_json(client, f"/games/{token}/moves")
        assert summary["title"] == "Bug Off!"
        assert summary["status"] == "finished" and not summary["live"] and summary["started"]
        assert summary["players"] == list(NAMES[:3])
        assert summary["steps"] == len(actions) == len(summary["moves"])
        assert [m["step"] for m in summary["moves"]] == list(range(1, len(actions) + 1))
        assert summary["moves"][0]["who"] == table.names()[actions[0].seat]
        assert "Bo &lt;b&gt;" in "".join(m["html"] for m in summary["moves"])  # escaped

        later = await get_json(client, f"/games/{token}/moves?since={len(actions) - 2}")
        assert [m["step"] for m in later["moves"]] == [len(actions) - 1, len(actions)]

        first = await get_json(client, f"/games/{token}/steps/0")
        assert first["view"] == GAMES["bug-off"].new(3, table.game.seed).view(None)
        assert first["result"] is None and not first["over"]

        last = await get_json(client, f"/games/{token}/steps/{len(actions)}")
        end = replay("bug-off", 3, table.game.seed, {}, [(a.seat, a.action) for a in actions])
        assert last["over"] and last["view"] == end.view(None)
        results = {r.seat: r.score for r in await store.results(table.id)}
        assert {r["seat"]: r["score"] for r in last["result"]} == results
        assert [r["name"] for r in last["result"] if r["winner"]] == [
            table.names()[s] for s in end.winners()
        ]
        assert "game over" in last["board"] and "Bo &lt;b&gt;" in last["board"]


@pytest.mark.parametrize("record", games_registry.games(), ids=lambda record: record.slug)
async def test_every_move_is_in_words_and_the_boards_log_is_the_channels(
    host: Host, store: Store, record: games_registry.Game
) -> None:
    """P-60: the move list says every move (the presenter's ``move_lines``); the board drawn
    for a step keeps the channel's own log lines."""
    players = min(max(3, record.engine.min_players), record.engine.max_players)
    table = await finished(host, record.slug, seed=5, players=players)
    async with web_client(Replays(store)) as client:
        summary = await get_json(client, f"/games/{table.game.web_token}/moves")
    replay = Replay(table.game, await store.seats(table.id))
    replay.extend(await store.actions(table.id))
    assert len(summary["moves"]) == len(replay.moves) == summary["steps"] > 0
    for move, shown in zip(replay.moves, summary["moves"], strict=True):
        assert move.words and shown["html"], move
        assert shown["html"] == "<br>".join(markdown(line) for line in move.words)
    log = [line for move in replay.moves for line in move.lines]
    assert replay.lines_before(replay.steps) == log[-BOARD_LOG_LINES:]


async def test_step_k_is_the_state_after_the_first_k_stored_actions(
    host: Host, store: Store
) -> None:
    table = await finished(host, "bag-of-bugs", seed=2)
    log = [(a.seat, a.action) for a in await store.actions(table.id)]
    assert any(seat == SYSTEM for seat, _ in log), "the log should hold timer actions too"
    engine = GAMES["bag-of-bugs"].new(3, table.game.seed, table.game.options)
    async with web_client(Replays(store)) as client:
        for k in range(len(log) + 1):
            if k:
                engine.apply(*log[k - 1])
            frame = await get_json(client, f"/games/{table.game.web_token}/steps/{k}")
            assert frame["step"] == k and frame["view"] == engine.view(None), k


async def test_unknown_tokens_and_steps_are_404(host: Host, store: Store) -> None:
    table = await finished(host, "bugs-and-co", seed=3)
    token = table.game.web_token
    steps = len(await store.actions(table.id))
    async with web_client(Replays(store)) as client:
        for path in (
            "/games/AAAAAAAAAAAAAAAAAAAAAA",
            "/games/AAAAAAAAAAAAAAAAAAAAAA/moves",
            "/games/AAAAAAAAAAAAAAAAAAAAAA/steps/0",
            "/games/AAAAAAAAAAAAAAAAAAAAAA/board.png",
            "/games/1",  # a game id is not a token
            f"/games/{table.id}/moves",
            "/games/..%2F..%2Fetc/moves",
            f"/games/{token}/steps/{steps + 1}",
            f"/games/{token}/steps/-1",
            f"/games/{token}/board.png",  # Bugs & Co draws no picture
            "/static/nothing.js",
        ):
            response = await client.get(path)
            assert response.status == 404, path
            assert response.headers["Cache-Control"] == "no-store" or path.startswith("/static")
        response = await client.get(f"/games/{token}/moves?since=soon")
        assert response.status == 400


async def test_pages_send_strict_headers(host: Host, store: Store) -> None:
    table = await finished(host, "bug-off", seed=4)
    async with web_client(Replays(store)) as client:
        page = await client.get(f"/games/{table.game.web_token}")
        text = await page.text()
        assert page.status == 200 and "<title>Bug Off! · bugtable</title>" in text
        missing = await client.get("/games/AAAAAAAAAAAAAAAAAAAAAA")
        for response in (page, missing):
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
            assert response.headers["Referrer-Policy"] == "no-referrer"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
        slash = await client.get(f"/games/{table.game.web_token}/", allow_redirects=False)
        assert slash.status == 308 and slash.headers["Location"] == f"../{table.game.web_token}"
        for name in ("replay.js", "replay.css"):
            assert (await client.get(f"/static/{name}")).status == 200


# -- live games --------------------------------------------------------------------------------


async def test_a_live_game_shows_each_committed_move_when_the_host_says_so(
    host: Host, store: Store
) -> None:
    server = WebServer(store, host="127.0.0.1", port=0)
    server.replays.recheck = 3600.0  # only the host's word refreshes the replay here
    host.listeners.append(server)
    table = await open_game(host, "bug-off", 2, channel=CHANNEL)
    token = table.game.web_token
    async with web_client(server.replays) as client:
        summary = await get_json(client, f"/games/{token}/moves")
        assert summary["live"] and summary["steps"] == 0
        await play(host, table, Rng(5), moves=3, timer_chance=0)
        summary = await get_json(client, f"/games/{token}/moves?since=0")
        assert summary["steps"] == 3 and len(summary["moves"]) == 3
        await play(host, table, Rng(6), moves=2, timer_chance=0)
        newer = await get_json(client, f"/games/{token}/moves?since=3")
        assert newer["steps"] == 5 and [m["step"] for m in newer["moves"]] == [4, 5]
        frame = await get_json(client, f"/games/{token}/steps/5")
        assert frame["view"] == table.running().view(None)
        await play(host, table, Rng(7))
        done = await get_json(client, f"/games/{token}/moves?since=5")
        assert done["status"] == "finished" and not done["live"]
        assert done["steps"] == len(await store.actions(table.id))


async def test_without_word_from_the_host_a_live_game_is_read_again_after_a_while(
    host: Host, store: Store
) -> None:
    now = [0.0]
    replays = Replays(store, recheck=5.0, monotonic=lambda: now[0])
    table = await open_game(host, "bug-off", 2, channel=CHANNEL)
    token = table.game.web_token
    async with web_client(replays) as client:
        assert (await get_json(client, f"/games/{token}/moves"))["steps"] == 0
        await play(host, table, Rng(8), moves=2, timer_chance=0)
        assert (await get_json(client, f"/games/{token}/moves"))["steps"] == 0  # cached
        now[0] += 6
        assert (await get_json(client, f"/games/{token}/moves"))["steps"] == 2


async def test_a_lobby_page_turns_into_the_game_when_it_starts(host: Host, store: Store) -> None:
    server = WebServer(store, host="127.0.0.1", port=0)
    host.listeners.append(server)
    table = await host.open(
        "bug-off", guild_id=1, channel_id=CHANNEL, user_id=100, name="Ann", options=None
    )
    token = table.game.web_token
    async with web_client(server.replays) as client:
        lobby = await get_json(client, f"/games/{token}/moves")
        assert lobby["status"] == "lobby" and not lobby["started"] and lobby["players"] == ["Ann"]
        assert (
            "Ann" in lobby["lobby"] and (await client.get(f"/games/{token}/steps/0")).status == 404
        )
        await host.join(table.id, 101, "Bo")
        assert (await get_json(client, f"/games/{token}/moves"))["players"] == ["Ann", "Bo"]
        await host.start(table.id, 100)
        started = await get_json(client, f"/games/{token}/moves")
        assert started["started"] and started["live"] and started["lobby"] is None
        assert (await get_json(client, f"/games/{token}/steps/0"))["step"] == 0


# -- pictures ----------------------------------------------------------------------------------


def with_picture(monkeypatch: pytest.MonkeyPatch, slug: str, module: str) -> None:
    """The game's record, drawing its board with ``module`` for this test."""
    record = game_for(slug)
    assert record is not None
    monkeypatch.setitem(games_registry.REGISTRY, slug, dataclasses.replace(record, picture=module))


async def test_board_pictures_are_drawn_once_per_scene_from_the_public_view(
    host: Host, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_picture(monkeypatch, "bug-off", "tests.support.fake_picture")
    monkeypatch.setattr(pictures, "_loaded", {})
    fake_picture.renders.clear()
    table = await finished(host, "bug-off", seed=9)
    token = table.game.web_token
    async with web_client(Replays(store)) as client:
        assert (await get_json(client, f"/games/{token}/moves"))["picture"] is True
        for _ in range(2):
            response = await client.get(f"/games/{token}/board.png?step=3")
            assert response.status == 200 and response.content_type == "image/png"
            body = await response.read()
            assert body.startswith(fake_picture.PNG)
            drawn = json.loads(body[len(fake_picture.PNG) :])
            assert drawn == {"turn": 3, "names": list(NAMES[:3])}
        assert fake_picture.renders == [3]
        last = await client.get(f"/games/{token}/board.png")  # no step: the newest position
        assert last.status == 200
        assert (await client.get(f"/games/{token}/board.png?step=9999")).status == 404


async def test_bug_run_serves_its_real_board_picture(host: Host, store: Store) -> None:
    table = await open_game(host, "bug-run", 2, channel=CHANNEL)
    await play(host, table, Rng(14), moves=6)
    token = table.game.web_token
    async with web_client(Replays(store)) as client:
        assert (await get_json(client, f"/games/{token}/moves"))["picture"] is True
        for step in (0, 6):
            response = await client.get(f"/games/{token}/board.png?step={step}")
            assert response.status == 200 and response.content_type == "image/png"
            assert (await response.read()).startswith(b"\x89PNG\r\n\x1a\n")


def test_a_picture_module_that_cannot_be_loaded_means_no_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_picture(monkeypatch, "bug-off", "no.such.module")
    monkeypatch.setattr(pictures, "_loaded", {})
    assert pictures.picture_for("bug-off") is None
    assert pictures.picture_for("bag-of-bugs") is None


# -- memory ------------------------------------------------------------------------------------


async def test_kept_engines_are_bounded_and_every_position_is_exact(
    host: Host, store: Store
) -> None:
    table = await finished(host, "bug-off", seed=10)
    record = await store.get_game(table.id)
    assert record is not None
    actions = await store.actions(table.id)
    kept = Replay(record, await store.seats(table.id), every=2, most=5)
    kept.extend(actions)
    assert len(kept.kept_steps()) <= 5 and kept.kept_steps()[0] == 0
    engine = GAMES["bug-off"].new(3, record.seed, record.options)
    for k in range(len(actions) + 1):
        if k:
            engine.apply(actions[k - 1].seat, actions[k - 1].action)
        assert kept.engine_at(k).to_dict() == engine.to_dict(), k


async def test_only_a_few_games_are_kept(host: Host, store: Store) -> None:
    tables = [await finished(host, "bugs-and-co", seed=s, players=2) for s in (11, 12, 13)]
    replays = Replays(store, games=2, frames=3)
    tokens = [t.game.web_token or "" for t in tables]
    for token in tokens:
        watched = await replays.get(token)
        assert watched is not None
        for step in range(5):
            await replays.frame(watched, step)
    assert replays.cached(tokens[0]) is None and replays.cached(tokens[2]) is not None
    assert len(replays._frames) == 3


# -- rendering and links -----------------------------------------------------------------------


def test_markdown_is_escaped_before_its_marks_become_tags() -> None:
    assert markdown("**Bo <b>** & ~~gone~~") == "<strong>Bo &lt;b&gt;</strong> &amp; <s>gone</s>"
    assert markdown(r"\*\*not bold\*\* a\_b") == "**not bold** a_b"
    assert markdown("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert markdown("one\ntwo `x`") == "one<br>two <code>x</code>"
    assert '<time datetime="1970-01-01T00:00:10+00:00">' in markdown("STOP <t:10:R>")
    assert markdown("\ue0000\ue001") == "0"  # the escape placeholders cannot be forged
