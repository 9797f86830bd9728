"""What a click leaves the garbage collector, with the real discord.py on the emulator (issue
#21): discord.py's interaction and its response refer to each other, so only a collection frees
a click; the bot drops the clicked message it carries once the click is handled, so the
collection finds a handful of objects, not the whole parsed message (``bot.collector``); and
discord.py keeps none of the views the bot sends."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import discord

from tests.support.in_process import FakePolicies, bot_in_process
from tests.support.wait import until

from .helpers import WAIT, click, open_game, until_text


async def test_a_handled_click_leaves_the_collector_nothing_of_its_message(
    tmp_path: Path,
) -> None:
    async with bot_in_process(tmp_path, FakePolicies()) as running:
        emu = running.emu
        guild = emu.add_guild("Club")
        channel = emu.add_text_channel(guild, "games")
        alice, bob, carol = (emu.add_user(name) for name in ("alice", "bob", "carol"))
        lobby = await open_game(emu, alice, channel, "bug-off")
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds stays in gc.garbage
        try:
            for user in (bob, carol):
                await click(emu, user, lobby, "Join")
            await until_text(emu, lobby, "carol")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WAIT
            clicks: list[discord.Interaction] = []
            while len(clicks) < 2:  # until both clicks' handlers are done with them
                assert loop.time() < deadline, "the clicks were never let go"
                await asyncio.sleep(0.05)
                gc.collect()
                clicks = [
                    o
                    for o in gc.garbage
                    if type(o) is discord.Interaction
                    and o.type is discord.InteractionType.component
                ]
            messages = [o for o in gc.garbage if isinstance(o, discord.Message)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        assert [c.message for c in clicks] == [None, None]
        assert messages == []


async def test_a_private_answer_with_buttons_leaves_discord_py_no_view_to_time_out(
    tmp_path: Path,
) -> None:
    """discord.py keeps an unfinished view sent in an ephemeral reply for 15 minutes, with a
    task of its own; the bot's views are sent finished (``Components``), so none is kept."""
    async with bot_in_process(tmp_path, FakePolicies()) as running:
        emu = running.emu
        guild = emu.add_guild("Club")
        channel = emu.add_text_channel(guild, "games")
        alice = emu.add_user("alice")
        lobby = await open_game(emu, alice, channel, "bug-off")
        result = await click(emu, alice, lobby, "How to play")
        assert result.ephemeral and result.message is not None and result.message.buttons()

        def running(name: str) -> list[asyncio.Task[Any]]:
            return [
                task
                for task in asyncio.all_tasks()
                if name in getattr(task.get_coro(), "__qualname__", "")
            ]

        # once the click's handler is done (discord.py keeps a view after the reply is sent)
        await until(lambda: not running("Client._run_event"), what="the click handled")
        assert running("timeout_task") == []
