"""End-to-end fixtures: the local Discord emulator in the test process, the bot as a separate
process (``python -m bot``) pointed at it, exactly as a deployment would run."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.child import die_with_parent
from bot.emulator import ChannelLimit, Emulator
from tests.conftest import TEST_GAME_MODULES
from tests.support.databases import SqliteDatabases
from tests.support.processes import end

REPO = Path(__file__).resolve().parents[2]
TOKEN = "e2e.emulator-token-0123456789abcdef"
FAST_WINDOW = 0.2
"""Discord's per-channel window (5 s) shortened 25-fold for the emulator and the bot alike, so
whole games stay quick (the pacing, not the game, is what a long e2e game waits on); a test that
checks the real pacing asks for 5 s (``channel_edit_window``)."""
FAST_SLACK = 0.9
"""At the short window the emulator enforces 90 % of what the bot keeps to: the bot's own 5 %
margin is only 10 ms there, less than a request's arrival may lag on a loaded machine, and
a stray 429 would upset the tests that count 429s. A test that checks the pacing itself sets
the window and gets it enforced exactly."""


CONNECT_TIMEOUT = 90.0
"""Seconds a bot process is given to connect: 0.5–2 s on an idle machine, many times that on
one whose cores are shared by more test workers and bot processes than it has."""


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
        # A deployed bot keeps its bytecode caches: the suite starts ~40 bots, and where the
        # environment says not to write them (CI images do) each would compile bot/ and rules/.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(
            DISCORD_TOKEN=TOKEN,
            DATABASE_URL=self.db_url,
            DISCORD_API_BASE=self.emulator.api_base,
            DISCORD_GATEWAY_URL=self.emulator.gateway_url,
            EXTRA_GAME_MODULES=TEST_GAME_MODULES,
            BOARD_EDIT_INTERVAL="0.05",
            PICTURE_INTERVAL="0.05",  # a board's pictures as often as its edits, here (P-86)
            PICTURE_PROCESSES="1",  # as deployed (this test process draws in a thread)
            # Many tests read a game's state from its stored snapshot: store it after every
            # action here (test_restart runs with the default spacing, so a restart replays).
            SNAPSHOT_EVERY="1",
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
        )
        env.update({k.upper(): str(v) for k, v in self.settings.items()})
        return env

    async def start(self) -> None:
        """Start the bot and wait until it is ready (``ready``). A start that fails, however it
        fails, leaves no process behind."""
        self.starts += 1
        log = open(self.workdir / f"bot-{self.starts}.log", "wb")  # noqa: SIM115, ASYNC230 - a quick local file
        identified = self.emulator.identify_count
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=REPO,
            env=self.env(),
            stdout=log,
            stderr=log,
            # ends with this process even if it is killed (a crashed or timed-out test run,
            # a bench killed mid-run): a bot left behind would compete for the CPU
            preexec_fn=die_with_parent,
        )
        log.close()
        try:
            await self.ready(identified)
        except BaseException:
            await self.stop()
            raise

    async def ready(self, identified: int) -> None:
        """Wait until the bot has connected (its IDENTIFY after the ``identified`` before)."""
        try:
            await self.emulator.wait_for(
                lambda: self.emulator.identify_count > identified, timeout=CONNECT_TIMEOUT
            )
        except TimeoutError:
            raise AssertionError(f"the bot did not connect:\n{self.output()}") from None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[BotProcess]:
        """The bot started for the length of the block and stopped however the block ends."""
        await self.start()
        try:
            yield self
        finally:
            await self.stop()

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        """SIGTERM (the bot shuts down cleanly), SIGKILL if it has not within 10 s."""
        if self.proc is not None:
            await end(self.proc, grace=10)

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
    """A private emulator, for tests that run their own bot (the CLI tests)."""
    emu = Emulator(token=TOKEN)
    await emu.start()
    yield emu
    await emu.stop()


class BotPool:
    """One bot process, with its own emulator, per settings group of the whole session (of
    each pytest-xdist worker; ``--dist loadfile`` keeps a module's tests on one worker).

    Starting ``python -m bot`` takes 1.5 s (far more on a loaded machine); every test that
    asks for the same settings shares one, whatever its module. Games are per channel and every
    test gets a fresh guild, channel and members, so tests do not see each other's games; the
    reset between tests cancels what a test left running, and earlier finished games stop
    counting as finished. A test may kill and restart its bot. Each bot gets its own emulator:
    one emulator sends every interaction to every connected bot. Each starts on a copy of one
    migrated database, as a deployed bot does on every start but its first (the first start's
    migration is tests/e2e/test_cli.py's and tests/bot/test_store_migrations.py's to prove).
    """

    def __init__(self, workdir: Path, databases: SqliteDatabases) -> None:
        self.workdir = workdir
        self.databases = databases
        self.bots: dict[str, BotProcess] = {}

    async def get(self, settings: dict[str, Any]) -> BotProcess:
        exact = "channel_edit_window" in settings
        settings = {"channel_edit_window": FAST_WINDOW, **settings}
        key = repr(sorted(settings.items()))
        bot = self.bots.get(key)
        if bot is None:
            workdir = self.workdir / f"bot{len(self.bots)}"
            workdir.mkdir()
            await asyncio.to_thread(self.databases.create, workdir)
            window = float(settings["channel_edit_window"]) * (1.0 if exact else FAST_SLACK)
            emulator = Emulator(token=TOKEN, channel_limit=ChannelLimit(5, window))
            await emulator.start()
            bot = self.bots[key] = BotProcess(emulator, workdir, **settings)
        if bot.proc is None or bot.proc.returncode is not None:
            await bot.start()  # first use, or a test killed it and failed before restarting
        return bot

    async def stop_bots(self) -> None:
        """Stop every bot process, keeping the emulators: the next ``get`` starts its bot again."""
        for bot in self.bots.values():
            await bot.stop()

    async def stop(self) -> None:
        await self.stop_bots()
        for bot in self.bots.values():
            await bot.emulator.stop()


@pytest.fixture(scope="session")
async def bots(
    tmp_path_factory: pytest.TempPathFactory, sqlite_databases: SqliteDatabases
) -> AsyncIterator[BotPool]:
    pool = BotPool(tmp_path_factory.mktemp("bots"), sqlite_databases)
    yield pool
    await pool.stop()


async def make_world(emulator: Emulator, bot: BotProcess) -> World:
    """A fresh guild, channel and members in ``emulator``, which ``bot`` is connected to."""
    guild = emulator.add_guild("Bug Club")
    channel = emulator.add_text_channel(guild, "games")
    # Members of this guild only: they see nothing of earlier tests' guilds.
    here = [guild]
    users = {n: emulator.add_user(n, guilds=here) for n in ("alice", "bob", "carol", "dave", "eve")}
    mod = emulator.add_user("mod", manage_channels=True, guilds=here)
    shy = emulator.add_user("shy", dms_open=False, guilds=here)
    # The GUILD_CREATE and CHANNEL_CREATE go out before the test's first interaction.
    await asyncio.gather(*list(emulator._tasks))
    return World(emulator, bot, guild, channel, mod=mod, shy=shy, **users)


def _forget_finished_games(db_path: Path) -> None:
    """Earlier tests' finished games no longer count as finished (they become cancelled), so a
    test that reads ``finished_games()`` sees its own only. Ids are never reused."""
    if not db_path.exists():
        return
    with contextlib.closing(sqlite3.connect(db_path, timeout=30)) as db, db:
        db.execute("UPDATE games SET status = 'cancelled' WHERE status = 'finished'")


async def reset(world: World) -> None:
    """Cancel whatever game the test left in its channel, so its timers stop firing."""
    proc = world.bot.proc
    if proc is None or proc.returncode is not None:
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(world.emulator.slash(world.mod, world.channel, "bugs cancel"), 10)


@pytest.fixture
async def world(bots: BotPool, request: pytest.FixtureRequest) -> AsyncIterator[World]:
    settings = getattr(request, "param", {})
    bot = await bots.get(settings)
    await asyncio.to_thread(_forget_finished_games, bot.db_path)
    w = await make_world(bot.emulator, bot)
    yield w
    await reset(w)
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        print(w.bot.output())
    if not is_e2e(request.node.stash.get(NEXT_ITEM, None)):
        # The emulators answer only while this loop runs. Left connected while this worker
        # runs other tests (a property test may take minutes on a loaded machine), a bot would
        # hear nothing for 60 s, drop its gateway connection, and log a traceback for each
        # reconnect that timed out; a test reading the bot's log would then fail.
        await bots.stop_bots()


@pytest.fixture
def tokens_refused(world: World) -> Iterator[None]:
    """Every interaction token's webhook refused (401, as past its 15 minutes) for the test:
    the bot edits its boards and DMs with its own token only (P-92), the path a test of the
    channel's own limits and faults is about. Its panels are made anew each time (P-48)."""
    interactions = world.emulator.interactions
    ttl = interactions.followup_ttl
    interactions.followup_ttl = 0.0
    yield
    interactions.followup_ttl = ttl


NEXT_ITEM = pytest.StashKey["pytest.Item | None"]()
"""The test this worker runs after the one being torn down (None after its last one)."""


def is_e2e(item: pytest.Item | None) -> bool:
    """Whether ``item`` is an e2e test: one run in the session's event loop, where the shared
    emulators answer (``pytest_collection_modifyitems``), or a quick one with no bot."""
    return item is not None and Path(__file__).parent in item.path.parents


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Tell the fixtures being torn down which test comes next (pytest does not)."""
    item.stash[NEXT_ITEM] = nextitem


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run every e2e test, and the async fixtures it uses, in the session's event loop, where
    the shared emulators and bot processes live."""
    here = Path(__file__).parent
    for item in items:
        if here not in item.path.parents:
            continue
        if item.get_closest_marker("asyncio") is not None:
            item.add_marker(pytest.mark.asyncio(loop_scope="session"), append=False)
        fixtures = getattr(item, "_fixtureinfo", None)
        for defs in fixtures.name2fixturedefs.values() if fixtures is not None else ():
            for fixturedef in defs:
                func = fixturedef.func
                if (inspect.iscoroutinefunction(func) or inspect.isasyncgenfunction(func)) and (
                    func.__module__.startswith("tests.e2e")
                ):
                    func._loop_scope = "session"  # type: ignore[attr-defined]


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
