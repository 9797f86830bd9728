"""A crash (SIGKILL) mid-game loses nothing: buttons keep working and deadlines keep running."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.store import Store
from rules.core import SYSTEM

from .conftest import World
from .helpers import click, deadlines, move_deadlines, start_game, told, until_text

# Snapshots three actions apart (as SNAPSHOT_EVERY spaces them), so a restarted game is its
# snapshot plus a replayed tail; games load at their first use (P-32, P-33).
pytestmark = pytest.mark.parametrize("world", [{"snapshot_every": 3}], indirect=True)


async def game_of(world: World) -> int:
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        game = await store.active_game_in_channel(world.channel.id)
        assert game is not None
        return game.id
    finally:
        await store.close()


async def snapshot_of(world: World) -> tuple[dict[str, object] | None, list[int]]:
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        game = await store.active_game_in_channel(world.channel.id)
        assert game is not None
        return game.snapshot, [a.seat for a in await store.actions(game.id)]
    finally:
        await store.close()


async def test_killed_mid_game_the_game_resumes_and_old_buttons_work(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan)
    await click(emu, world.alice, board, "claim")
    await until_text(emu, board, "**phase**: pick")
    before = await snapshot_of(world)

    await world.bot.kill()
    await world.bot.start()
    assert await snapshot_of(world) == before
    assert emu.sync_count == 1  # the command set did not change: no second sync

    # The buttons rendered by the dead process still work in the new one.
    assert told(await click(emu, world.alice, board, "pick 3")) == "you picked: n 3"
    await until_text(emu, board, "**picks_made**: [1,0]")
    assert told(await click(emu, world.bob, board, "pick 1")) == "you picked: n 1"
    await until_text(emu, board, "**phase**: race")
    # The public log was rebuilt from the stored actions.
    assert "alice: claimed" in board.text()


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_at_start(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan, clock="30")
    await click(emu, world.bob, board, "claim")
    await world.bot.kill()
    _, seats = await snapshot_of(world)
    assert seats == [1]  # the clock had not fired yet
    # The deadline passes while the bot is down (moved in the database, not waited for).
    game = await game_of(world)
    (due,) = (await asyncio.to_thread(deadlines, world.bot.db_path, game)).values()
    await asyncio.to_thread(move_deadlines, world.bot.db_path, game, due - timedelta(hours=1))

    await world.bot.start()
    await until_text(emu, board, "timeout true")
    _, seats = await snapshot_of(world)
    assert seats[:2] == [1, SYSTEM]
