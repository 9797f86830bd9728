"""No game gets stuck: deadlines and bot moves that fail (the database locked longer than its busy
timeout) are tried again (P-21), and a table that another process moved on reloads (P-22)."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.host.bots import BotPlayers
from bot.host.host import Host
from bot.host.table import Table
from bot.settings import Settings
from bot.store import Store
from rules.core import SYSTEM
from tests.support.hosts import two_hosts_on
from tests.support.leaks import leaks, needles
from tests.support.state import stored_state
from tests.support.wait import until

ALICE, BOB, CAROL = 1, 2, 3
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
    assert path and make_url(db_url).get_backend_name() == "sqlite"
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


@pytest.mark.sqlite_only("the SQLite write lock and its busy timeout")
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
        # (Read in the store: the table's engine moves before each try commits, and a try that
        # fails puts it back, so the table alone could show a move that never happened.)
        async def fired() -> bool:
            log = await busy_store.actions(table.id)
            return [a.seat for a in log][-1] == SYSTEM

        await until(fired, what="the deadline fired after all")
        async with table.lock:
            assert to_pick(table) == 1
        secret = needles("ladybug-dash", [table.running().to_dict()])
        assert leaks(caplog.text, secret) == []  # the failed statement's parameters stay hidden
    finally:
        await host.close()


@pytest.mark.sqlite_only("the SQLite write lock and its busy timeout")
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


@pytest.fixture
async def two_hosts(
    db_url: str, settings: Settings, tmp_path: Path
) -> AsyncIterator[tuple[Host, Host]]:
    """Two bot processes on one database (what the SQLite lock now refuses, and PostgreSQL
    could still see during a rolling restart): each has its own tables."""
    async with two_hosts_on(db_url, settings) as hosts:
        yield hosts


async def test_a_table_another_process_moved_on_reloads_and_takes_the_click(
    two_hosts: tuple[Host, Host],
) -> None:
    mine, other = two_hosts
    table = await dash(mine)
    await other.act(table.id, BOB, {"type": "cheer"})  # committed behind my table's back
    for cheers in (2, 3):  # not only the first click after the conflict: every later one
        outcome = await mine.act(table.id, ALICE, {"type": "cheer"}, turn=1)
        assert mine.tables[table.id] is table and table.running().view(None)["cheers"] == cheers
        assert outcome.view.game == table.game
    record = await mine.store.get_game(table.id)
    assert record is not None and record.version == table.game.version
    assert (await stored_state(mine.store, table.id))["cheers"] == 3


async def test_a_click_is_taken_though_the_other_process_commits_again_after_the_reload(
    two_hosts: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between a reload and the try it makes room for, another process may commit again (a
    busy machine widens that gap): the table reloads again, and the click is still taken."""
    mine, other = two_hosts
    table = await dash(mine)
    await other.act(table.id, BOB, {"type": "cheer"})
    guard = mine.store.game_guard
    behind = [2]  # the other process commits again after each of my first two reloads

    @asynccontextmanager
    async def reload_then_fall_behind(game_id: int) -> AsyncIterator[object]:
        async with guard(game_id) as state:  # my reload holds the game's lock (PostgreSQL)
            yield state
        if behind[0]:  # ... released: the other process commits before my try
            behind[0] -= 1
            await other.act(table.id, BOB, {"type": "cheer"})

    monkeypatch.setattr(mine.store, "game_guard", reload_then_fall_behind)
    await mine.act(table.id, ALICE, {"type": "cheer"}, turn=1)
    assert behind == [0] and (await stored_state(mine.store, table.id))["cheers"] == 4


async def test_a_stale_tables_deadlines_reload_and_fire_after_the_other_process_stops(
    db_url: str, settings: Settings
) -> None:
    # 1 s clocks stretched to 4 s: Alice's pick must come before her clock runs out, however
    # loaded the machine; Bob's deadline is then the one that fires.
    async with two_hosts_on(db_url, settings.model_copy(update={"timer_scale": 4.0})) as hosts:
        mine, other = hosts
        table = await dash(mine, clock="1")
        await mine.act(table.id, ALICE, {"type": "claim"})  # my alarm: alice's pick in 4 s
        await other.act(table.id, ALICE, {"type": "pick", "n": 3})  # the other: bob's turn
        await other.close()  # ... and it stops: only my process can fire bob's deadline
        await _bobs_deadline_fires_in(mine, table)


async def _bobs_deadline_fires_in(mine: Host, table: Table) -> None:

    async def timed_out() -> bool:
        log = [(a.seat, a.action["type"]) for a in await mine.store.actions(table.id)]
        return log[-2:] == [(0, "pick"), (SYSTEM, "timeout")]

    # Waits on the stored log, not the table: the table shows a move while its commit is still
    # on the way, so reading the table and then the log could catch it in between.
    await until(timed_out, timeout=60, what="bob's deadline fired in my process and committed")
    assert to_pick(table) is None


async def test_a_start_after_another_process_seated_someone_reloads_the_lobby(
    two_hosts: tuple[Host, Host], caplog: pytest.LogCaptureFixture
) -> None:
    mine, other = two_hosts
    table = await mine.open("ladybug-dash", guild_id=9, channel_id=601, user_id=ALICE, name="a")
    await mine.join(table.id, BOB, "bob")
    await other.join(table.id, CAROL, "carol")  # my lobby still shows two players
    caplog.set_level(logging.INFO)
    await mine.start(table.id, ALICE)
    assert table.running().players == 3 and table.user_at(2).user_id == CAROL
    # SQLite: the start failed its version check and was tried again on the reloaded lobby;
    # PostgreSQL: the game's lock found the lobby stale and reloaded it first (P-36).
    assert "reloading it" in caplog.text
