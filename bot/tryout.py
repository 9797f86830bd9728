"""`python -m bot try`: bugtable in a browser, without Discord.

One process runs three things on this machine: the loopback Discord emulator, the real bot
pointed at it (SQLite in a temporary file, or ``--database``), and the emulator's face, a web
page where a person plays as each of the emulator's members in turn. The bot cannot tell the
emulator from Discord; the face clicks and types through the emulator exactly as the
end-to-end tests do. The bot's own game pages (replays) run too, on a free port.

It needs no token and reads no ``.env``: it makes its own loopback settings. The environment's
settings still apply (``TIMER_SCALE``, ``TIMERS__…``), so a test can make the games quick.
Ctrl-C or SIGTERM stops the bot, the pages and the emulator, and deletes a temporary database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
import tempfile
import webbrowser
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from . import event_loop
from .cli import keep_secrets_out_of_logs, quiet_start, refuse_database
from .demo import NAMES
from .discord.client import BugtableBot, point_at
from .emulator import ChannelLimit, Emulator
from .emulator.face import Face
from .games import load_game_modules
from .settings import Settings
from .store.lock import DatabaseInUse, lock_database
from .store.usable import DatabaseUnusable, check_database

log = logging.getLogger(__name__)

TOKEN = "try.emulator-token-0123456789"
"""The bot token the emulator and the bot agree on: the emulator's only, never Discord's."""
READY_TIMEOUT = 120.0
"""Seconds the bot is given to connect and register its commands (seconds, normally)."""


@dataclass(frozen=True)
class TryOptions:
    port: int
    host: str
    members: int
    open_browser: bool
    database: Path | None
    verbose: bool


class StartFailed(Exception):
    """The page or the bot could not start; the message says why, in one line."""


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def try_settings(emulator: Emulator, database_url: str, host: str) -> Settings:
    """Loopback settings: the emulator for Discord, the database given, the game pages on a
    free port of ``host``; the rest from the environment (not ``.env``), no metrics, no
    shards."""
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        discord_token=SecretStr(TOKEN),
        database_url=database_url,
        discord_api_base=emulator.api_base,
        discord_gateway_url=emulator.gateway_url,
        dev_guild_id=None,
        web_port=_free_port(host),
        web_host=host,
        web_base_url=None,
        metrics_port=None,
        shard_ids="",
        shard_count=None,
    )


def run_try(options: TryOptions) -> int:
    """Run until Ctrl-C or SIGTERM; the exit code."""
    with contextlib.ExitStack() as stack:
        if options.database is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="bugtable-"))
            path = Path(folder) / "try.db"
        else:
            path = options.database.resolve()
        return _run_on(f"sqlite+aiosqlite:///{path}", options, stack)


def _run_on(url: str, options: TryOptions, stack: contextlib.ExitStack) -> int:
    """The database checked and held as ``python -m bot`` holds it (P-22, P-40), then the rest."""
    try:
        lock = lock_database(url)
        if lock is not None:
            stack.callback(lock.release)
        check_database(url)
    except (DatabaseInUse, DatabaseUnusable) as exc:
        return refuse_database(exc)
    _quiet(options.verbose)
    try:
        return event_loop.run(_serve(options, url))
    except StartFailed as exc:
        print(f"bugtable: {exc}", file=sys.stderr)
        return 2


def _quiet(verbose: bool) -> None:
    """Warnings only (the bot's INFO lines with ``--verbose``); never the payload loggers."""
    level = logging.INFO if verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    keep_secrets_out_of_logs(level)
    quiet_start(level)


async def _serve(options: TryOptions, database_url: str) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with contextlib.AsyncExitStack() as stack:
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        load_game_modules(settings.extra_modules())
        emulator = Emulator(
            TOKEN,
            host=options.host,
            channel_limit=ChannelLimit(settings.channel_edit_limit, settings.channel_edit_window),
        )
        await emulator.start()
        stack.push_async_callback(emulator.stop)
        guild = emulator.add_guild("Bug Club")
        emulator.add_text_channel(guild, "games")
        members = [emulator.add_user(NAMES[i]) for i in range(options.members)]
        face = Face(emulator, host=options.host, port=options.port)
        try:
            await face.start()
        except OSError as exc:
            raise StartFailed(
                f"cannot serve the page on {options.host}:{options.port} "
                f"({exc.strerror or exc}): choose another with --port (0: any free one)."
            ) from None
        stack.push_async_callback(face.stop)
        settings = try_settings(emulator, database_url, options.host)
        point_at(settings)
        bot = BugtableBot(settings)
        runner = asyncio.create_task(bot.start(TOKEN), name="bot")
        stack.push_async_callback(_close, bot, runner)
        if not await _ready(emulator, bot, runner, stop):
            return 0  # stopped while starting
        names = ", ".join(m.name for m in members[:-1]) + f" and {members[-1].name}"
        print(
            "bugtable is running against a local Discord emulator: no Discord account needed.\n"
            f"Open {face.url} in your browser. You play as {names}, one at a time: the "
            "buttons at the top switch member.\nType /bugs new in the box at the bottom to open a game. "
            "Ctrl-C stops everything.",
            flush=True,
        )
        if options.open_browser:
            await loop.run_in_executor(None, webbrowser.open, face.url)
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait({stopped, runner}, return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        if runner.done() and not runner.cancelled() and runner.exception() is not None:
            log.error("the bot stopped", exc_info=runner.exception())
            return 1
    return 0


async def _ready(
    emulator: Emulator, bot: BugtableBot, runner: asyncio.Task[None], stop: asyncio.Event
) -> bool:
    """Until the bot is connected and its slash commands are with the emulator (False: Ctrl-C
    came first). A database kept from an earlier run holds that the commands were synced (to
    that run's emulator): they are synced again here."""

    def connected() -> bool:
        if runner.done():
            raise StartFailed(f"the bot stopped while starting: {runner.exception()!r}")
        return stop.is_set() or emulator.identify_count >= 1

    try:
        await emulator.wait_for(connected, timeout=READY_TIMEOUT)
    except TimeoutError:
        raise StartFailed(f"the bot did not connect within {READY_TIMEOUT:.0f} s") from None
    if stop.is_set():
        return False
    if not emulator.commands:
        await bot.sync_now()
    return True


async def _close(bot: BugtableBot, runner: asyncio.Task[None]) -> None:
    """The bot stops as on SIGTERM: moves under way commit, the boards get their last edits."""
    await bot.stop_gracefully()
    runner.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await runner
