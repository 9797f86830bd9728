"""The SQLite write path: grouped commits lose nothing and still refuse a stale action alone, and
a game stored as a snapshot every few actions loads as exactly what its whole log gives."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import sys
import tempfile
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.support.testgame  # noqa: F401  (registers Ladybug Dash)
from bot.host.errors import HostError
from bot.host.host import Host
from bot.settings import Settings
from bot.store import GameRecord, Store, TimerSpec, VersionConflict, writer
from rules.core import GAMES, RuleError
from tests.support.playout import open_and_start

from .conftest import FakeClock

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def grouped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Actions arriving together go through the writer's groups here, never one by one on the
    event loop as a lone action on a quick disk does (that path is test_inline_commit.py's)."""
    monkeypatch.setattr(writer, "INLINE_BUDGET", 0.0)


async def playing(store: Store, channel: int) -> GameRecord:
    lobby = await store.create_lobby(
        slug="ladybug-dash", guild_id=1, channel_id=channel, creator_id=1, creator_name="a",
        options={}, seed=channel,
    )  # fmt: skip
    return await store.start(
        lobby.id, expected_version=lobby.version, seat_order=[1], snapshot={"n": 0}, timers=[]
    )


def act(store: Store, game: GameRecord, n: int) -> Any:
    return store.record_action(
        game,
        seat=0,
        action={"type": "go", "n": n},
        snapshot={"n": n},
        timers=None,
    )


async def test_a_conflict_in_a_group_fails_alone(store: Store) -> None:
    games = [await playing(store, channel) for channel in (1, 2, 3)]
    groups = store.group_commits
    assert groups is not None  # a SQLite file or PostgreSQL: the group-commit writer is on
    # Arriving together, these share one transaction; the second action on game 0 carries the
    # version the first one moves on from, so it alone is refused. (PostgreSQL writes one action
    # per game per group: the second waits for the next group, which refuses it.)
    outcomes = await asyncio.gather(
        act(store, games[0], 1),
        act(store, games[1], 1),
        act(store, games[0], 2),
        act(store, games[2], 1),
        return_exceptions=True,
    )
    sqlite = store.engine.dialect.name == "sqlite"
    assert store.group_commits == groups + (1 if sqlite else 2)
    assert [type(o).__name__ for o in outcomes] == [
        "GameRecord", "GameRecord", "VersionConflict", "GameRecord",
    ]  # fmt: skip
    conflict = outcomes[2]
    assert isinstance(conflict, VersionConflict)
    assert (conflict.expected, conflict.actual) == (games[0].version, games[0].version + 1)
    for game in games:
        log = await store.actions(game.id)
        assert [(a.seq, a.action) for a in log] == [(1, {"type": "go", "n": 1})]
        stored = await store.get_game(game.id)
        assert stored is not None and (stored.version, stored.last_seq) == (game.version + 1, 1)


async def test_a_group_refuses_each_action_for_its_own_reason(store: Store) -> None:
    """Refusals in one group say why, each its own: a stale version, a game no longer being
    played, a game that does not exist; the action beside them stands."""
    stale, ended, fine = [await playing(store, channel) for channel in (4, 5, 6)]
    await act(store, stale, 1)
    await store.cancel(ended.id)
    outcomes = await asyncio.gather(
        act(store, stale, 2),
        act(store, ended, 1),
        act(store, fine, 1),
        store.record_action(
            replace(fine, id=10**6), seat=0, action={"n": 1}, snapshot=None, timers=None
        ),
        return_exceptions=True,
    )
    assert [type(o).__name__ for o in outcomes] == [
        "VersionConflict", "WrongStatus", "GameRecord", "GameNotFound",
    ]  # fmt: skip
    assert [a.action for a in await store.actions(fine.id)] == [{"type": "go", "n": 1}]
    assert await store.actions(ended.id) == []


async def test_a_game_another_process_holds_is_left_out_of_the_group(db_url: str) -> None:
    """PostgreSQL: a game whose lock another process holds (``game_guard``, on connections of
    its own) is left out of the group, tried again for ``BUSY_WAIT`` and then refused as a
    conflict; the game beside it commits without waiting for it (P-56)."""
    store = await Store.open(db_url)
    try:
        if not store.shared:
            pytest.skip("PostgreSQL only: SQLite has one process (P-22)")
        held, free = [await playing(store, channel) for channel in (11, 12)]
        async with store.game_guard(held.id):
            outcomes = await asyncio.gather(
                act(store, held, 1), act(store, free, 1), return_exceptions=True
            )
        assert [type(o).__name__ for o in outcomes] == ["VersionConflict", "GameRecord"]
        assert await store.actions(held.id) == []
        assert (await act(store, held, 1)).last_seq == 1  # once released, it commits
    finally:
        await store.close()


async def test_a_group_stores_snapshots_and_timers_as_one_action_alone_would(
    db_url: str,
) -> None:
    """Snapshots every ``snapshot_every`` actions (P-33) and the timers each action asks for,
    for several games committed in the same groups."""
    store = await Store.open(db_url, snapshot_every=3)
    try:
        games = [await playing(store, channel) for channel in (7, 8, 9)]
        for n in range(1, 8):
            due = datetime(2031, 1, 1, tzinfo=UTC) + timedelta(seconds=n)
            records = await asyncio.gather(
                *(
                    store.record_action(
                        g,
                        seat=0,
                        action={"type": "go", "n": n},
                        snapshot={"n": n},
                        # Game 0 asks for a timer at every action, game 1 drops them, game 2
                        # leaves them as they are.
                        timers=[TimerSpec("clock", due, {"type": "timeout", "n": n})]
                        if i == 0
                        else ([] if i == 1 else None),
                    )
                    for i, g in enumerate(games)
                )
            )
            games = list(records)
            for record in records:
                assert record.last_seq == n and record.snapshot_seq == n - n % 3
        for i, game in enumerate(games):
            stored = await store.get_game(game.id)
            assert stored is not None and stored.snapshot == {"n": 6} and stored.snapshot_seq == 6
            timers = await store.timers(game.id)
            if i == 0:
                assert [(t.key, t.action) for t in timers] == [
                    ("clock", {"type": "timeout", "n": 7})
                ]
                assert timers[0].due_at == datetime(2031, 1, 1, 0, 0, 7, tzinfo=UTC)
            else:
                assert timers == []
    finally:
        await store.close()


WRITER = """
import asyncio, sys
from bot.store import Store

async def main(url):
    store = await Store.open(url)
    games = []
    for channel in range(20):
        lobby = await store.create_lobby(slug="x", guild_id=1, channel_id=channel, creator_id=1,
                                         creator_name="a", options={}, seed=1)
        games.append(await store.start(lobby.id, expected_version=lobby.version,
                                       seat_order=[1], snapshot={}, timers=[]))
    print("ready", flush=True)

    async def play(game):
        n = 0
        while True:
            n += 1
            game = await store.record_action(game, seat=0,
                                             action={"n": n}, snapshot={"n": n}, timers=None)
            print("ack", game.id, game.last_seq, flush=True)

    await asyncio.gather(*(play(g) for g in games))

asyncio.run(main(sys.argv[1]))
"""


async def test_every_acknowledged_action_survives_kill_9(db_url: str) -> None:
    """A writer process is killed (SIGKILL) in the middle of a burst of grouped commits from 20
    games: every action it had acknowledged is in the database, with no gap in any log."""
    url = db_url
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        WRITER,
        url,
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    acked: dict[int, int] = {}
    try:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"ready"
        while sum(acked.values()) < 2000:
            line = await proc.stdout.readline()
            assert line, "the writer stopped on its own"
            _, game_id, seq = line.split()
            acked[int(game_id)] = max(acked.get(int(game_id), 0), int(seq))
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert proc.returncode == -signal.SIGKILL

    store = await Store.open(url)
    try:
        assert len(acked) == 20
        for game_id, seq in acked.items():
            log = await store.actions(game_id)
            assert [a.seq for a in log] == list(range(1, len(log) + 1))
            assert len(log) >= seq  # nothing acknowledged was lost (more may have committed)
            assert [a.action["n"] for a in log] == list(range(1, len(log) + 1))
            game = await store.get_game(game_id)
            assert game is not None and game.last_seq == len(log)
    finally:
        await store.close()


PLAYABLE = sorted(GAMES)


async def _play_and_reload(slug: str, seed: int, steps: int, every: int, path: Path) -> None:
    url = f"sqlite+aiosqlite:///{path}"
    store = await Store.open(url, snapshot_every=every)
    config = Settings(_env_file=None, discord_token="t" * 30)  # type: ignore[call-arg]
    clock = FakeClock()
    rng = random.Random(seed)
    host = Host(store, config, clock=clock)
    try:
        cls = GAMES[slug]
        table = await open_and_start(host, slug, cls.min_players, channel_id=seed)
        for _ in range(steps):
            engine = table.running()
            if engine.is_over:
                break
            movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
            if movers:
                seat = rng.choice(movers)
                action = rng.choice(engine.legal_actions(seat))
                with contextlib.suppress(RuleError, HostError):
                    await host.act(table.id, table.user_at(seat).user_id, action)
            elif table.timers:
                key, due = min(table.timers.items(), key=lambda kv: kv[1])
                clock.now = max(clock.now, due)
                await host.fire_timer(table.id, key)
            else:
                break
        live = table.running().to_dict()
    finally:
        await host.close()
    # A fresh process: the game loads as its stored snapshot plus the actions after it.
    again = Host(store, config, clock=clock)
    try:
        record = await store.get_game(table.id)
        assert record is not None
        log = await store.actions(table.id)
        assert record.last_seq == len(log)
        assert record.snapshot_seq % every == 0 or table.running().is_over
        full = cls.new(cls.min_players, record.seed, record.options)
        for entry in log:
            full.apply(entry.seat, entry.action)
        if record.status == "playing":
            loaded = (await again.table(table.id)).running().to_dict()
            assert loaded == full.to_dict() == live
        else:  # a finished game's last snapshot is its end
            assert record.snapshot == full.to_dict() == live
    finally:
        await again.close()
        await store.close()


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    slug=st.sampled_from(PLAYABLE),
    seed=st.integers(1, 10_000),
    steps=st.integers(0, 80),
    every=st.integers(1, 9),
)
def test_snapshot_plus_tail_is_the_full_replay(
    slug: str, seed: int, steps: int, every: int
) -> None:
    """Random play of any game, stopped anywhere, with any snapshot spacing: the game a new
    host loads (snapshot plus tail) is the game the whole log gives from the seed."""
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_play_and_reload(slug, seed, steps, every, Path(tmp) / "game.db"))


async def test_a_group_written_together_stores_the_rows_one_by_one_would(tmp_path: Path) -> None:
    """A group of actions of distinct games is written in a few statements for all of them
    (``_write_together``): the games, actions and timers rows are the very values, of the very
    SQLite types, that writing the actions one by one (``_write_each``) stores, snapshots and
    timers included, and each caller's record is the same."""
    path = tmp_path / "g.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        games = [await playing(store, channel) for channel in range(1, 6)]
        games[1] = await act(store, games[1], 1)  # its snapshot falls due in this group
    finally:
        await store.close()
    at = datetime(2031, 1, 1, 12, 0, 0, 123456, tzinfo=UTC)
    writes = [
        writer.ActionWrite(
            game=game,
            seat=0,
            action={"type": "go", "n": i, "name": 'Zoë "the" 🐞'},
            snapshot={"n": i, "hand": [1, 2, 3]},
            timers=[
                TimerSpec("clock", at + timedelta(seconds=i), {"type": "timeout", "seat": i}),
                TimerSpec("stop", at + timedelta(minutes=i), {"type": "stop"}),
            ][: i % 3]
            if i != 4
            else None,
            at=at,
            snapshot_every=2,
        )
        for i, game in enumerate(games)
    ]
    dumps, answers = [], []
    for how in (writer._write_together, writer._write_each):
        copy = tmp_path / f"{how.__name__}.db"
        copy.write_bytes(path.read_bytes())
        conn = sqlite3.connect(copy, isolation_level=None)
        statements: list[str] = []
        conn.set_trace_callback(statements.append)
        conn.execute("BEGIN IMMEDIATE")
        answers.append(how(conn, writes))
        conn.execute("COMMIT")
        conn.set_trace_callback(None)
        dumps.append(
            [
                conn.execute(
                    f"SELECT {', '.join(f'{c}, typeof({c})' for c in columns)} FROM {table} "
                    f"ORDER BY {columns[0]}, {columns[1]}"
                ).fetchall()
                for table, columns in DUMPED.items()
            ]
        )
        conn.close()
        if how is writer._write_together:
            assert len(statements) <= 10, statements  # one by one: 5 a game and more
    together, each = dumps
    assert together == each
    assert answers[0] == answers[1]
    assert [a.snapshot_seq for a in answers[0]] == [0, 2, 0, 0, 0]  # type: ignore[union-attr]
    assert len(together[1]) == len(games) + 1  # every action's row, and the one before


#: The columns of each table a commit writes, as the dump above compares them.
DUMPED = {
    "games": ["id", "version", "last_seq", "snapshot_seq", "snapshot", "updated_at", "status"],
    "actions": ["game_id", "seq", "seat", "action", "at"],
    "timers": ["game_id", "key", "due_at", "action", "created_at"],
}


async def test_a_group_with_a_refusal_is_written_one_by_one(tmp_path: Path) -> None:
    """One action of the group stale: nothing is written together, and one by one it alone is
    refused."""
    path = tmp_path / "g.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        games = [await playing(store, channel) for channel in range(1, 4)]
    finally:
        await store.close()
    at = datetime(2031, 1, 1, tzinfo=UTC)
    writes = [
        writer.ActionWrite(
            game=replace(game, version=game.version - 1) if i == 1 else game,
            seat=0,
            action={"n": i},
            snapshot=None,
            timers=None,
            at=at,
            snapshot_every=32,
        )
        for i, game in enumerate(games)
    ]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    assert writer._write_together(conn, writes) is None
    assert conn.execute("SELECT count(*) FROM actions").fetchone() == (0,)
    outcomes = writer._write_each(conn, writes)
    conn.execute("COMMIT")
    assert [type(o).__name__ for o in outcomes] == ["GameRecord", "VersionConflict", "GameRecord"]
    assert conn.execute("SELECT game_id FROM actions ORDER BY game_id").fetchall() == [
        (games[0].id,), (games[2].id,),
    ]  # fmt: skip
    conn.close()
