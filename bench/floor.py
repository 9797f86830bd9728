"""The floor: the least a discord.py bot can do for a click, as a process of its own.

One persistent button (``floor:press``) on any message; its click is answered through the
interaction itself (``UPDATE_MESSAGE``: the message shows a new count), with nothing stored and
no other request. ``bench/e2e.py`` starts it against the same emulator and offers it the clicks
the game bot got, so what remains between the two is what the game costs.

Run by ``bench/e2e.py`` with ``DISCORD_TOKEN``, ``DISCORD_API_BASE`` and
``DISCORD_GATEWAY_URL`` set (the emulator's).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

import discord
import yarl

CUSTOM_ID = "floor:press"


class Press(discord.ui.View):
    """The one button; a persistent view, so a click on any message carrying it arrives."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="Press", custom_id=CUSTOM_ID)
    async def press(self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"pressed {self.count}")


class Floor(discord.Client):
    async def setup_hook(self) -> None:
        self.add_view(Press())


async def main() -> int:
    """Connect to the emulator and answer clicks until SIGTERM."""
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"].rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    intents = discord.Intents.none()
    intents.guilds = True
    client = Floor(intents=intents)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    runner = asyncio.create_task(client.start(os.environ["DISCORD_TOKEN"]))
    await asyncio.wait([runner, asyncio.create_task(stop.wait())], return_when="FIRST_COMPLETED")
    await client.close()
    if runner.done() and runner.exception() is not None:
        raise runner.exception()  # type: ignore[misc]
    runner.cancel()
    return 0


if __name__ == "__main__":
    # The event loop the bot runs on (uvloop where installed), so the two are compared alike.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bot.event_loop import run

    sys.exit(run(main()))
