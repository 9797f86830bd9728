"""The bot in the test's own process, on an emulator of its own, with server policies the test
sets (issue #24's ``Policies``): for what a subprocess bot cannot be handed, a policy without
the admin command's round trips."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.discord.client import BugtableBot
from bot.emulator import Emulator
from bot.host.policy import ServerPolicy
from bot.settings import Settings
from tests.support.echo_bot import point_discord_at, restore_discord

TOKEN = "in-process." + "t" * 30


@dataclass
class FakePolicies:
    """Policies as the settings store would answer them, set by the test per server; a
    server it does not name has ``default``."""

    default: ServerPolicy = field(default_factory=ServerPolicy)
    by_guild: dict[int, ServerPolicy] = field(default_factory=dict)

    async def for_guild(self, guild_id: int | None) -> ServerPolicy:
        return self.by_guild.get(guild_id or 0, self.default)


@dataclass
class InProcess:
    emu: Emulator
    bot: BugtableBot
    policies: FakePolicies


@contextlib.asynccontextmanager
async def bot_in_process(
    folder: Path, policies: FakePolicies, **settings: Any
) -> AsyncIterator[InProcess]:
    """Start the bot (its database in ``folder``; ``settings`` over quick test ones) and
    yield once it is connected; it stops, and discord.py points back where it was, however
    the block ends."""
    emu = Emulator(token=TOKEN)
    await emu.start()
    old = point_discord_at(emu.api_base, emu.gateway_url)
    try:
        config = Settings(  # type: ignore[call-arg]
            _env_file=None,
            discord_token=SecretStr(TOKEN),
            database_url=f"sqlite+aiosqlite:///{folder / 'bot.db'}",
            discord_api_base=emu.api_base,
            discord_gateway_url=emu.gateway_url,
            board_edit_interval=0.01,
            picture_processes=0,
            picture_interval=0.01,
            **settings,
        )
        bot = BugtableBot(config, serve_web=False, policies=policies)
        runner = asyncio.create_task(bot.start(TOKEN))
        try:
            await emu.wait_identified(timeout=60)
            yield InProcess(emu, bot, policies)
        finally:
            await bot.close()
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner
    finally:
        restore_discord(old)
        await emu.stop()
