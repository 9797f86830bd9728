"""What `python -m bot` and `python -m bot sync` do, with one clear line for a bad token, a
database another bot process holds or that cannot be used where it is (a missing or read-only
folder, a full disk, a file that is not a database: exit code 3, P-22, P-40) or Discord out of
reach at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator, Callable

import aiohttp
import discord

from rules.core import GAMES

from . import collector, event_loop, switching
from .backoff import backoff, one_line
from .discord.client import BugtableBot, point_at
from .discord.shards import make_bot
from .games import load_game_modules
from .settings import Settings, get_settings
from .store import upgrade_to_head
from .store.lock import DatabaseInUse, lock_database
from .store.usable import DatabaseUnusable, check_database, database_error
from .timers import check_timers, warn_old_names

log = logging.getLogger("bot")


# Loggers that print secrets below the level given here, whatever LOG_LEVEL says (P-11, P-20).
# At DEBUG, discord.py's print whole request bodies and gateway events, which carry private
# messages (a hand sent by DM, a peeked tile in an ephemeral reply); aiosqlite's print every
# statement with its parameters, and SQLAlchemy's engine (at INFO) every statement, whose
# parameters are whole snapshots (hands, the deck order, the tiles, the loot). The engine also
# hides parameters at the source (``hide_parameters``), in its exceptions too.
PAYLOAD_LOGGERS = {
    "discord.http": logging.INFO,
    "discord.gateway": logging.INFO,
    "discord.webhook.async_": logging.INFO,
    "aiosqlite": logging.INFO,
    "sqlalchemy.engine": logging.WARNING,
}


def keep_secrets_out_of_logs(level: int) -> None:
    """Hold the loggers that would print secrets at their floor, whatever ``level`` says."""
    for name, floor in PAYLOAD_LOGGERS.items():
        logging.getLogger(name).setLevel(max(level, floor))


# Loggers whose INFO lines say nothing an operator acts on: Alembic's, one per migration step
# and plugin (the store says the upgrade in one line). Below DEBUG they keep to warnings.
CHATTY_LOGGERS = ("alembic",)


class NoVoiceWarnings(logging.Filter):
    """discord.py warns at every start that voice needs PyNaCl and davey: bugtable never
    joins a voice channel, so the warning is only noise for a newcomer."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def _setup_logging() -> None:
    settings = get_settings()
    level = getattr(logging, settings.log_level.upper(), logging.INFO)
    discord.utils.setup_logging(level=level)
    keep_secrets_out_of_logs(level)
    quiet_start(level)


def quiet_start(level: int) -> None:
    """No voice warnings, and Alembic's steps only at DEBUG."""
    logging.getLogger("discord.client").addFilter(NoVoiceWarnings())
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(level if level <= logging.DEBUG else logging.WARNING)


def run_bot(*, shards: str | None = None, shard_count: int | None = None) -> int:
    """Run the bot; ``shards``/``shard_count`` (the command line's) override SHARD_IDS and
    SHARD_COUNT."""
    settings = get_settings()
    overrides: dict[str, object] = {}
    if shards is not None:
        overrides["shard_ids"] = shards
    if shard_count is not None:
        overrides["shard_count"] = shard_count
    if overrides:
        settings = settings.model_copy(update=overrides)
    settings.shards()  # a malformed range stops here, in one line
    load_game_modules(settings.extra_modules())
    check_timers(settings, GAMES.values())  # so does a timer no game has
    token = settings.require_token()
    # The database first, before a log line or Discord: what keeps the bot from using it is
    # said in one line (P-22, P-40), even while Discord is out of reach.
    try:
        lock = lock_database(settings.database_url)
    except (DatabaseInUse, DatabaseUnusable) as exc:
        return refuse_database(exc)
    try:
        check_database(settings.database_url)
        return _run_bot(settings, token)
    except DatabaseUnusable as exc:
        return refuse_database(exc)
    finally:
        if lock is not None:
            lock.release()


def refuse_database(error: Exception) -> int:
    """The one line for a database this process cannot use, and its exit code."""
    print(f"bugtable: {error}", file=sys.stderr)
    return DATABASE_REFUSED


DATABASE_REFUSED = 3
"""The exit code of every database refusal: held by another process, or unusable where it is."""


def _run_bot(settings: Settings, token: str) -> int:
    collector.tune()
    switching.tune()
    _setup_logging()
    warn_old_names(settings)
    point_at(settings)
    try:
        event_loop.run(_start(settings, token))
    except discord.LoginFailure:
        print(
            "bugtable: Discord refused DISCORD_TOKEN (401): reset the token in the Developer "
            "Portal and put the new one in .env.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - we request none
        print("bugtable: Discord refused a privileged intent.", file=sys.stderr)
        return 2
    except Exception as exc:
        # The database checked out, then failed for a reason of its place while the start
        # wrote to it (a disk filling up under the first start's migration): the same one line.
        refusal = database_error(settings.database_url, exc)
        if refusal is None:
            raise
        raise refusal from None
    return 0


async def _start(settings: Settings, token: str) -> None:
    """Bring the database to the newest schema, then serve. Upgrading before Discord is
    reached means a database that fails to take the schema (a disk that fills up under the
    first start) is said at once, whether Discord answers or not; the store's own upgrade in
    ``setup_hook`` then finds it at head."""
    await upgrade_to_head(settings.database_url)
    await _serve(lambda: own_bot(settings), token, settings.retry_max_delay)


def own_bot(settings: Settings) -> BugtableBot:
    """The bot of ``python -m bot``: its process is its own, so it freezes its heap once up
    (``bot.collector``); bots made elsewhere (tests, the demo) leave their process as it is."""
    return make_bot(settings, settle_heap=True)


async def _serve(new_bot: Callable[[], BugtableBot], token: str, max_delay: float) -> None:
    """What ``bot.run`` does, except that Discord out of reach at start-up is said in one line
    and tried again with backoff, as discord.py does for a connection dropped later (P-25).

    Every try is a fresh client, closed whole by ``async with`` when its login fails: discord.py
    has no public way to log one client in again after that (closing its HTTP session also
    closes the connector it keeps for the next session), and the failed login has not yet run
    ``setup_hook``, so the fresh client loses nothing."""
    failures = 0
    stop = asyncio.Event()
    while True:
        async with new_bot() as bot, _stopped_by_signals(bot, stop):
            if stop.is_set():
                return
            try:
                await bot.login(token)
            except (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError) as exc:
                if bot.user is not None:
                    raise  # Discord answered: this failed later, in setup_hook
                failures += 1
                wait = backoff(failures, max_delay)
                log.warning(
                    "Discord could not be reached (%s); trying again in %.1f s", one_line(exc), wait
                )
            else:
                await bot.connect(reconnect=True)
                return
        with contextlib.suppress(TimeoutError):  # a SIGTERM while waiting ends the wait
            await asyncio.wait_for(stop.wait(), wait)
        if stop.is_set():
            return


@contextlib.asynccontextmanager
async def _stopped_by_signals(bot: BugtableBot, stop: asyncio.Event) -> AsyncIterator[None]:
    """SIGTERM (and SIGINT) stop the bot gracefully (``BugtableBot.stop_gracefully``): what
    systemd, Kubernetes or a deploy script sends before SIGKILL."""
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def on_signal(signum: int) -> None:
        log.info("%s: stopping", signal.Signals(signum).name)
        stop.set()
        if not stopping:
            stopping.append(loop.create_task(bot.stop_gracefully(), name="graceful stop"))

    signals = (signal.SIGTERM, signal.SIGINT)
    for signum in signals:
        loop.add_signal_handler(signum, on_signal, signum)
    try:
        yield
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)
        if stopping:
            await stopping[0]


async def sync_commands(guild_id: int | None) -> int:
    settings = get_settings()
    token = settings.require_token()
    try:  # no lock: the bot may be running on this database
        check_database(settings.database_url)
    except DatabaseUnusable as exc:
        return refuse_database(exc)
    _setup_logging()
    point_at(settings)
    bot = BugtableBot(settings, sync_commands=False, serve_web=False)  # the bot may be running
    try:
        await bot.login(token)
    except discord.LoginFailure:
        print("bugtable: Discord refused DISCORD_TOKEN (401).", file=sys.stderr)
        await bot.close()
        return 2
    except Exception as exc:
        await bot.close()
        refusal = database_error(settings.database_url, exc)
        if refusal is None:
            raise
        return refuse_database(refusal)
    try:
        count = await bot.sync_now(guild_id)
        await bot.remember_synced(guild_id)
        print(
            f"Synced {count} command(s) {'to guild ' + str(guild_id) if guild_id else 'globally'}."
        )
    finally:
        await bot.close()
    return 0
