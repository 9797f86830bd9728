"""Through the real bot process with METRICS_PORT set: Prometheus metrics after a game,
/healthz and /readyz, and SIGTERM mid-game: the bot exits 0, nothing is lost, the game goes on
after the restart (issue #25, P-50)."""

from __future__ import annotations

import asyncio
import re
import signal

import aiohttp
import pytest

from bot.store import Store
from tests.support.wait import until

from .conftest import World
from .helpers import WAIT, click, free_port, start_game, told, until_text

PORT = free_port()
BASE = f"http://127.0.0.1:{PORT}"


async def fetch(path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(BASE + path) as response:
        return response.status, await response.text()


async def ready() -> bool:
    return (await fetch("/readyz"))[0] == 200


def sample(metrics: str, name: str, **labels: str) -> float:
    """The value of the series ``name`` whose labels include ``labels`` (summed over the rest)."""
    total, found = 0.0, False
    for line in metrics.splitlines():
        match = re.fullmatch(rf"{name}\{{(?P<labels>[^}}]*)\}} (?P<value>\S+)", line)
        if match is None:
            continue
        have = dict(re.findall(r'(\w+)="([^"]*)"', match["labels"]))
        if all(have.get(k) == v for k, v in labels.items()):
            total, found = total + float(match["value"]), True
    assert found, f"no {name} {labels} in:\n{metrics}"
    return total


@pytest.mark.parametrize("world", [{"metrics_port": PORT}], indirect=True)
async def test_metrics_and_health_after_a_game(world: World) -> None:
    emu, chan = world.emulator, world.channel
    players = [world.alice, world.bob]
    assert await fetch("/healthz") == (200, "ok\n")
    await until(ready, WAIT, "the bot ready")  # it says "starting" until discord.py's READY
    assert await fetch("/readyz") == (200, "ready\n")
    board = await start_game(emu, world.alice, [world.bob], chan)
    for _ in range(3):
        await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
        await click(emu, world.bob, board, "claim")
        for seat, user in enumerate(players):
            await until_text(emu, board, f"**to_pick**: {seat}")
            await click(emu, user, board, "pick 1")
    await until_text(emu, board, "game over")

    status, metrics = await fetch("/metrics")
    assert status == 200
    assert sample(metrics, "bugtable_committed_actions_total", game="ladybug-dash") == 9
    assert sample(metrics, "bugtable_interaction_ack_seconds_count", kind="button:game") == 9
    assert (
        sample(
            metrics, "bugtable_interaction_ack_seconds_count", kind="command:bugs new ladybug-dash"
        )
        == 1
    )
    assert sample(metrics, "bugtable_interaction_ack_seconds_count", kind="button:join") == 1
    assert sample(metrics, "bugtable_rest_requests_total", cls="interaction") >= 9
    assert sample(metrics, "bugtable_rest_requests_total", cls="global") >= 0
    assert sample(metrics, "bugtable_event_loop_lag_seconds_count") >= 1
    assert sample(metrics, "bugtable_gateway_latency_seconds", shard="0") >= 0
    assert sample(metrics, "bugtable_invalid_requests_10m") == 0
    assert sample(metrics, "bugtable_commit_groups_total") >= 1
    assert "bugtable_timers_pending" in metrics and "bugtable_games_loaded" in metrics
    # labels are kinds and numbers: no member, no channel, no game's content
    for secret in ("alice", "bob", str(world.alice.id), str(chan.id)):
        assert secret not in metrics


@pytest.mark.parametrize("world", [{"metrics_port": PORT}], indirect=True)
async def test_sigterm_mid_game_exits_0_loses_nothing_and_the_game_goes_on(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan)
    await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
    assert told(await click(emu, world.bob, board, "claim")) == ""
    await until_text(emu, board, "**to_pick**: 0")
    assert told(await click(emu, world.alice, board, "pick 1")) == "you picked: n 1"

    proc = world.bot.proc
    assert proc is not None
    proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(proc.wait(), WAIT) == 0
    log = world.bot.output()
    assert "SIGTERM: stopping" in log and "Traceback" not in log

    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        game = await store.active_game_in_channel(chan.id)
        assert game is not None
        assert [a.action for a in await store.actions(game.id)] == [
            {"type": "claim"},
            {"type": "pick", "n": 1},
        ]
    finally:
        await store.close()

    await world.bot.start()
    await until_text(emu, board, "**to_pick**: 1")
    assert told(await click(emu, world.bob, board, "pick 1")) == "you picked: n 1"
    await until(ready, WAIT, "the bot ready again")
