"""End-to-end fixtures: the local Discord emulator in the test process, the bot as a separate
process (``python -m bot``) pointed at it, exactly as a deployment would run."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import tests.support.testgame  # noqa: F401  (the host-proving game, also loaded by the bot)
from bot.emulator import ChannelLimit, Emulator

REPO = Path(__file__).resolve().parents[2]
TOKEN = "e2e.emulator-token-0123456789abcdef"
FAST_WINDOW = 0.5
"""Discord's per-channel window (5 s) shortened tenfold for the emulator and the bot alike, so
whole games stay quick; a test that checks the real pacing asks for 5 s (``channel_edit_window``)."""


class BotProcess:
    """``python -m bot`` in a subprocess; can be SIGKILLed and started again on the same DB."""

    def __init__(self, emulator: Emulator, workdir: Path, **settings: Any) -> None:
        self.emulator = emulator
        self.workdir = workdir
        self.db_path = workdir / "bugtable.db"
        self.settings = settings
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def db_url(self) -> str:
        return f"sqlite+aiosqlite:///{self.db_path}"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env.update(
            DISCORD_TOKEN=TOKEN,
            DATABASE_URL=self.db_url,
            DISCORD_API_BASE=self.emulator.api_base,
            DISCORD_GATEWAY_URL=self.emulator.gateway_url,
            EXTRA_GAME_MODULES="tests.support.testgame",
            BOARD_EDIT_INTERVAL="0.05",
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
        )
        env.update({k.upper(): str(v) for k, v in self.settings.items()})
        return env

    async def start(self) -> None:
        self.starts += 1
        log = open(self.workdir / f"bot-{self.starts}.log", "wb")  # noqa: SIM115, ASYNC230 - a quick local file
        identified = self.emulator.identify_count
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=REPO, env=self.env(), stdout=log, stderr=log
        )
        log.close()
        try:
            await self.emulator.wait_for(
                lambda: self.emulator.identify_count > identified, timeout=30
            )
        except TimeoutError:
            raise AssertionError(f"the bot did not connect:\n{self.output()}") from None

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def output(self) -> str:
        return "\n".join(
            p.read_text(errors="replace") for p in sorted(self.workdir.glob("bot-*.log"))
        )


@dataclass
class World:
    emulator: Emulator
    bot: BotProcess
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any
    dave: Any
    eve: Any
    mod: Any
    shy: Any
    """A member whose DMs are closed."""


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    emu = Emulator(token=TOKEN)
    await emu.start()
    yield emu
    await emu.stop()


async def make_world(emulator: Emulator, tmp_path: Path, **settings: Any) -> World:
    settings.setdefault("channel_edit_window", FAST_WINDOW)
    emulator.channel_limit = ChannelLimit(5, float(settings["channel_edit_window"]))
    guild = emulator.add_guild("Bug Club")
    channel = emulator.add_text_channel(guild, "games")
    users = {n: emulator.add_user(n) for n in ("alice", "bob", "carol", "dave", "eve")}
    mod = emulator.add_user("mod", manage_channels=True)
    shy = emulator.add_user("shy", dms_open=False)
    bot = BotProcess(emulator, tmp_path, **settings)
    await bot.start()
    return World(emulator, bot, guild, channel, mod=mod, shy=shy, **users)


@pytest.fixture
async def world(
    emulator: Emulator, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[World]:
    settings = getattr(request, "param", {})
    w = await make_world(emulator, tmp_path, **settings)
    yield w
    await w.bot.stop()
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        print(w.bot.output())


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
