"""No game gets stuck: deadlines and bot moves that fail (the database locked longer than its busy
timeout) are tried again."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy.engine import make_url

from bot.host.bots import BotPlayers
from bot.host.host import Host
from bot.host.table import Table
from bot.settings import Settings
from bot.store import Store
from rules.core import SYSTEM
from tests.support.secrets import leaks, needles
from tests.support.wait import until

ALICE, BOB = 1, 2
FAST = {"retry_max_delay": 0.2}


@pytest.fixture
def fast_settings() -> Settings:
    return Settings(_env_file=None, discord_token="t" * 30, **FAST)  # type: ignore[arg-type]


@pytest.fixture
async def busy_store(db_url: str) -> AsyncIterator[Store]:
    """A store that gives up on a locked database after 0.1 s (the bot's default is 10 s)."""
    store = await Store.open(db_url, busy_timeout=0.1)
    yield store
    await store.close()


@contextmanager
def database_locked(db_url: str) -> Iterator[None]:
    """Another connection holds the SQLite write lock (as another process writing would)."""
    path = make_url(db_url).database
    assert path
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


async def dash(host: Host, *, clock: str = "30", bot: bool = False) -> Table:
    table = await host.open(
        "ladybug-dash", guild_id=9, channel_id=600, user_id=ALICE, name="alice",
        options={"clock": clock},
    )  # fmt: skip
    if bot:
        await host.add_bot(table.id, ALICE)
    else:
        await host.join(table.id, BOB, "bob")
    return await host.start(table.id, ALICE)


def to_pick(table: Table) -> int | None:
    phase_and_seat: int | None = table.running().view(None)["to_pick"]
    return phase_and_seat


async def test_a_deadline_that_fails_on_a_locked_database_fires_once_it_is_free(
    busy_store: Store, fast_settings: Settings, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    host = Host(busy_store, fast_settings)
    try:
        table = await dash(host, clock="1")
        await host.act(table.id, ALICE, {"type": "claim"})  # alice has 1 s to pick
        assert to_pick(table) == 0
        with database_locked(db_url):
            await until(lambda: "database is locked" in caplog.text, what="the deadline failed")
        # Only the clock can move the game now: its deadline must be tried again.
        await until(lambda: to_pick(table) == 1, what="the deadline fired after all")
        log = await busy_store.actions(table.id)
        assert [a.seat for a in log][-1] == SYSTEM
        secret = needles("ladybug-dash", [table.running().to_dict()])
        assert leaks(caplog.text, secret) == []  # the failed statement's parameters stay hidden
    finally:
        await host.close()


async def test_a_bot_move_that_fails_on_a_locked_database_is_played_once_it_is_free(
    busy_store: Store, fast_settings: Settings, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    host = Host(busy_store, fast_settings)
    bots = BotPlayers(host, delay=0.2, rng=random.Random(1), max_retry_delay=0.2)
    host.listeners.append(bots)
    try:
        table = await dash(host, bot=True)
        await until(lambda: to_pick(table) is not None, what="someone claimed")
        if to_pick(table) == 0:  # alice's pick first; then the bot must pick
            await host.act(table.id, ALICE, {"type": "pick", "n": 1})
        with database_locked(db_url):
            await until(lambda: "could not move" in caplog.text, what="the bot's move failed")
        await until(lambda: to_pick(table) != 1, what="the bot picked after all")
    finally:
        await bots.close()
        await host.close()
