"""Several bot processes on one PostgreSQL store (P-36): each acts on a game only under the
game's database lock, judges a click on the committed state (reloading a stale table first),
fires a deadline once between them, and takes turns at Discord's IDENTIFY limit.

Two Hosts with a Store each stand for two processes (two pools, two sets of tables). PostgreSQL
only: one SQLite file has one process (P-22)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any
from unittest.mock import ANY

import pytest
from sqlalchemy import text

from bot.host.errors import AlreadyStarted, GameGone, StaleButton
from bot.host.host import Host
from bot.host.table import Table
from bot.settings import Settings
from bot.store import Store, VersionConflict, postgres
from bot.store.pg_writer import PostgresWriter
from bot.store.postgres import IDENTIFY_LOCK
from rules.core import SYSTEM, RuleError
from tests.support.databases import PostgresDatabases
from tests.support.hosts import two_hosts_on
from tests.support.testgame import LadybugDash

ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
def pg_url(postgres_databases: PostgresDatabases) -> Iterator[str]:
    url = postgres_databases.create()
    yield url
    postgres_databases.drop(url)


@pytest.fixture
async def hosts(pg_url: str, settings: Settings) -> AsyncIterator[tuple[Host, Host]]:
    async with two_hosts_on(pg_url, settings) as pair:
        yield pair


async def lobby(host: Host, channel: int = 700, clock: str = "30") -> Table:
    table = await host.open(
        "ladybug-dash", guild_id=9, channel_id=channel, user_id=ALICE, name="alice",
        options={"clock": clock},
    )  # fmt: skip
    await host.join(table.id, BOB, "bob")
    return table


async def test_the_store_knows_it_is_shared(hosts: tuple[Host, Host]) -> None:
    assert all(h.store.shared for h in hosts)


async def test_a_table_still_in_the_lobby_here_takes_a_click_for_a_game_started_there(
    hosts: tuple[Host, Host],
) -> None:
    here, there = hosts
    table = await lobby(here)
    await there.start(table.id, ALICE)  # my table still says "lobby"
    outcome = await here.act(table.id, BOB, {"type": "cheer"})
    assert here.tables[table.id] is table and table.status == "playing"
    assert outcome.view.game == table.game and outcome.view.running().view(None)["cheers"] == 1
    assert table.running().view(None)["cheers"] == 1


async def test_a_button_of_the_newest_turn_is_taken_by_a_process_that_missed_it(
    hosts: tuple[Host, Host],
) -> None:
    here, there = hosts
    table = await lobby(here)
    await here.start(table.id, ALICE)
    turn = table.running().turn
    await there.act(table.id, BOB, {"type": "claim"}, turn=turn)  # the turn moved on there
    outcome = await here.act(table.id, ALICE, {"type": "pick", "n": 2}, turn=turn + 1)
    assert outcome.turn_before == turn + 1
    log = await here.store.actions(table.id)
    assert [(a.seat, a.action) for a in log] == [
        (1, {"type": "claim"}),
        (0, {"type": "pick", "n": 2}),
    ]


async def test_a_reload_tells_what_the_other_process_committed(
    hosts: tuple[Host, Host],
) -> None:
    """Its public log says it: the moves another process made are replayed on what this one
    knew, in order, once (a board drawn here after a deadline fired there said nothing of it)."""
    here, there = hosts
    heard: list[list[tuple[int, str]]] = []
    here.reloaders.append(
        lambda table, missed: heard.append([(o.seat, o.action["type"]) for o in missed])
    )
    table = await lobby(here)
    await here.start(table.id, ALICE)
    turn = table.running().turn
    await there.act(table.id, BOB, {"type": "claim"}, turn=turn)
    await there.act(table.id, ALICE, {"type": "pick", "n": 1}, turn=turn + 1)
    assert await here.refresh(table)
    assert heard == [[(1, "claim"), (0, "pick")]]
    assert table.running().to_dict() == there.tables[table.id].running().to_dict()
    assert not await here.refresh(table)  # nothing new: no reload, nothing told again
    assert len(heard) == 1


@pytest.mark.parametrize("after", ["get_game", "seats"])
async def test_a_game_loaded_while_another_process_commits_is_one_moment_of_it(
    hosts: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch, after: str
) -> None:
    """A move the other process commits while this one loads the game (just after it read
    the game's record, or after its lock was taken) is either in all of what the table loaded
    or in none: the table never holds a move its record has not counted, so the reload after
    the next move replays exactly the moves it missed (issue #25: "could not replay what
    another process committed", a move between two reads replayed a second time)."""
    here, there = hosts
    heard: list[list[tuple[int, str]]] = []
    here.reloaders.append(
        lambda table, missed: heard.append([(o.seat, o.action["type"]) for o in missed])
    )
    started = await lobby(there)
    await there.start(started.id, ALICE)
    read = getattr(here.store, after)

    async def read_then_the_other_process_commits(game_id: int) -> Any:
        done = await read(game_id)
        game = await there.store.get_game(game_id)
        assert game is not None
        with contextlib.suppress(VersionConflict):  # refused while the game is locked here
            await there.store.record_action(
                game, seat=1, action={"type": "cheer"}, snapshot=None, timers=None
            )
        return done

    monkeypatch.setattr(here.store, after, read_then_the_other_process_commits)
    table = await here.table(started.id)
    monkeypatch.undo()
    log = await here.store.actions(table.id)
    replayed = LadybugDash.new(2, table.game.seed, table.game.options)
    for entry in log[: table.game.last_seq]:
        replayed.apply(entry.seat, entry.action)
    assert table.running().to_dict() == replayed.to_dict()

    seen = table.game.last_seq
    await there.act(table.id, ALICE, {"type": "claim"})
    assert await here.refresh(table)
    log = await here.store.actions(table.id)
    assert heard == [[(a.seat, a.action["type"]) for a in log if a.seq > seen]]
    assert heard[0][-1] == (0, "claim")
    assert table.running().to_dict() == there.tables[table.id].running().to_dict()


async def test_same_instant_grabs_in_two_processes_have_exactly_one_winner(
    hosts: tuple[Host, Host],
) -> None:
    here, there = hosts
    for round_ in range(5):
        table = await lobby(here, channel=710 + round_)
        await here.start(table.id, ALICE)
        await there.table(table.id)  # both processes hold the game, both at the same turn
        turn = table.running().turn
        results = await asyncio.gather(
            here.act(table.id, ALICE, {"type": "claim"}, turn=turn),
            there.act(table.id, BOB, {"type": "claim"}, turn=turn),
            return_exceptions=True,
        )
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, BaseException)]
        assert len(winners) == 1 and len(losers) == 1, results
        # "That button is from an earlier turn" (or, judged on the same turn, "Too late").
        assert isinstance(losers[0], StaleButton | RuleError), losers
        log = await here.store.actions(table.id)
        assert [a.action["type"] for a in log] == ["claim"]
        await here.cancel(table.id, ALICE)


async def test_a_commit_waits_out_another_process_holding_the_game(
    hosts: tuple[Host, Host], caplog: pytest.LogCaptureFixture
) -> None:
    """Another process holding the game's lock for a moment (a board's read, a reload) does
    not refuse this one's commit: the writer tries it again until the lock is free. Refusing
    at once made this process reload holding the lock, and two processes' reloads then refused
    each other's commits in turn until both clicks were told the game had moved on."""
    here, there = hosts
    table = await lobby(here, channel=730)
    await here.start(table.id, ALICE)
    writer = here.store._writer
    assert isinstance(writer, PostgresWriter)
    held = asyncio.Event()

    async def hold_until_refused() -> None:
        # Held until this process's commit has been refused once as busy (not for a fixed
        # time, which a slow machine outlasts before the commit even reaches the writer),
        # then released at once: the writer's next try must go through.
        async with there.store.game_guard(table.id):
            held.set()
            for _ in range(400):
                if writer.busy_retries:
                    break
                await asyncio.sleep(0.005)

    holder = asyncio.create_task(hold_until_refused())
    await held.wait()
    caplog.set_level(logging.INFO, logger="bot.host")
    await here.act(table.id, ALICE, {"type": "claim"}, turn=table.running().turn)
    await holder
    assert writer.busy_retries > 0
    assert not [r for r in caplog.records if "reload" in r.getMessage()]
    assert [a.action["type"] for a in await here.store.actions(table.id)] == ["claim"]
    await here.cancel(table.id, ALICE)


async def test_a_deadline_both_processes_hold_fires_once(hosts: tuple[Host, Host]) -> None:
    here, there = hosts
    table = await lobby(here)
    await here.start(table.id, ALICE)
    await here.act(table.id, BOB, {"type": "claim"})  # alice's pick clock starts
    other = await there.table(table.id)
    assert other.timers == table.timers and len(table.timers) == 1
    (key,) = table.timers
    fired = await asyncio.gather(here.fire_timer(table.id, key), there.fire_timer(table.id, key))
    assert sorted(o is not None for o in fired) == [False, True]
    log = await here.store.actions(table.id)
    assert [(a.seat, a.action["type"]) for a in log] == [(1, "claim"), (SYSTEM, "timeout")]


async def test_a_clock_hand_over_racing_a_move_there_never_skips_that_move_here(
    pg_url: str, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Drawer's clock runs out here and, at the first strike (``AFK_LIMIT=1``), the seat
    goes to a bot (P-31); a grab the other process commits meanwhile (judged there after a
    reload) must not be counted into this table's record unseen: the hand-over is refused as
    stale and waits, and this process's next grab of that token is judged on the game with
    the first grab in it, so the log stays a game the rules allow."""
    quick = settings.model_copy(update={"afk_limit": 1, "timers": {"bag_min_gap": 0.0}})
    async with two_hosts_on(pg_url, quick) as (here, there):
        table = await here.open(
            "bag-of-bugs", guild_id=9, channel_id=720, user_id=ALICE, name="alice"
        )
        await here.join(table.id, BOB, "bob")
        await here.join(table.id, CAROL, "carol")
        await here.start(table.id, ALICE)
        await there.table(table.id)
        # Before the first reveal only the Drawer may act (draw); the others grab after it.
        first, second = (
            table.user_at(s).user_id for s in range(3) if not table.running().legal_actions(s)
        )
        hand_over = here.store.set_away

        async def a_grab_there_first(*args: Any, **kwargs: Any) -> Any:
            await there.act(table.id, first, {"type": "grab", "token": 1})
            return await hand_over(*args, **kwargs)

        monkeypatch.setattr(here.store, "set_away", a_grab_there_first)
        (key,) = table.timers
        assert await here.fire_timer(table.id, key) is not None  # the Drawer's idle reveal
        monkeypatch.undo()
        with pytest.raises(RuleError, match="already taken"):
            await here.act(table.id, second, {"type": "grab", "token": 1})
        log = await here.store.actions(table.id)
        assert [(a.seat, a.action["type"]) for a in log] == [(SYSTEM, "auto_draw"), (ANY, "grab")]
        assert table.running().to_dict() == there.tables[table.id].running().to_dict()


async def test_identify_slots_are_taken_in_turn_across_processes(pg_url: str) -> None:
    """Within one rate-limit bucket the second process waits (seen in pg_locks, not by timing);
    another bucket does not."""
    first, second = await Store.open(pg_url), await Store.open(pg_url, migrate=False)
    try:
        async with first.identify_slot(0, window=60):
            pass  # this process identifies; the bucket stays taken for 60 s
        waiting = asyncio.create_task(_enter(second, 0))
        async with second.engine.connect() as conn:
            for _ in range(200):
                blocked = await conn.scalar(
                    text(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                        " AND classid = :kind AND objid = 0 AND NOT granted"
                    ),
                    {"kind": IDENTIFY_LOCK},
                )
                if blocked:
                    break
                await asyncio.sleep(0.05)
        assert blocked == 1 and not waiting.done()
        await asyncio.wait_for(_enter(second, 1), timeout=30)  # another bucket: at once
        waiting.cancel()
    finally:
        _end_held_buckets()
        await first.close()
        await second.close()


def _end_held_buckets() -> None:
    """Give up this loop's buckets now: closing a store waits for its held connections, and the
    first process would otherwise keep its bucket, and the test, for the whole 60 s."""
    loop = asyncio.get_running_loop()
    for task in list(postgres._background):
        if task.get_loop() is loop:
            task.cancel()


async def _enter(store: Store, bucket: int) -> None:
    async with store.identify_slot(bucket, window=0):
        pass


async def test_lobby_moves_on_a_table_stale_here_are_judged_on_the_database(
    hosts: tuple[Host, Host],
) -> None:
    here, there = hosts
    table = await lobby(here)
    await there.start(table.id, ALICE)  # my table still shows the lobby
    with pytest.raises(AlreadyStarted):
        await here.join(table.id, CAROL, "carol")
    assert table.status == "playing"
    await here.leave(table.id, BOB)  # during play: a bot takes bob's seat (P-30)
    assert table.user_at(1).away
    await there.cancel(table.id, ALICE)
    with pytest.raises(GameGone):
        await here.cancel(table.id, ALICE)


@pytest.fixture
def empty_pg_url(postgres_databases: PostgresDatabases) -> Iterator[str]:
    url = postgres_databases.create(migrated=False)
    yield url
    postgres_databases.drop(url)


async def test_processes_starting_at_once_on_an_empty_database_upgrade_in_turn(
    empty_pg_url: str,
) -> None:
    # Without the migration lock they deadlock on the catalog: bounded, to fail rather than hang.
    starting = asyncio.gather(*(Store.open(empty_pg_url) for _ in range(3)))
    stores = await asyncio.wait_for(starting, timeout=120)
    try:
        async with stores[0].engine.connect() as conn:
            assert await conn.scalar(text("SELECT count(*) FROM alembic_version")) == 1
    finally:
        for store in stores:
            await store.close()
