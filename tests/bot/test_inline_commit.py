"""SQLite's commits run on the event loop while its COMMITs are cheap (P-59): a lone action on
an idle writer at once, a group (at most ``INLINE_GROUP_LIMIT`` actions) from the writer's
task; and only then: never once COMMITs cost more than ``INLINE_BUDGET`` (a slow disk's fsync
must not stall the loop), never while another connection holds SQLite's lock (it takes the
ordinary way, through the writer's thread, which waits), and nothing it acknowledged is lost to
kill -9."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import bot.store.commit as commit
from bot.store import (
    GameNotFound,
    GameStatus,
    MessageRecord,
    Store,
    VersionConflict,
    WrongStatus,
    writer,
)
from tests.support.calls import counting_calls

from .test_group_commit import REPO, act, playing
from .test_ratings import ALICE, BOB, CAROL, finish, skills


@pytest.fixture
def quick_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every COMMIT counts as cheap, however loaded the machine running the tests."""
    monkeypatch.setattr(writer, "INLINE_BUDGET", 10.0)


async def opened(tmp_path: Path, synchronous: str) -> Store:
    return await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", synchronous=synchronous)


@pytest.mark.parametrize("synchronous", ["NORMAL", "FULL"])
async def test_a_lone_action_commits_on_the_loop(
    tmp_path: Path, quick_disk: None, synchronous: str
) -> None:
    store = await opened(tmp_path, synchronous)
    try:
        game = await playing(store, 1)
        for n in range(1, 6):
            game = await act(store, game, n)
        assert store.inline_commits == 5
        assert [a.action["n"] for a in await store.actions(game.id)] == [1, 2, 3, 4, 5]
        # A stale version is refused there too, and nothing of it is written.
        with pytest.raises(VersionConflict):
            await store.record_action(
                replace(game, version=game.version - 1), seat=0,
                action={"n": 99}, snapshot=None, timers=None,
            )  # fmt: skip
        assert len(await store.actions(game.id)) == 5
    finally:
        await store.close()
    again = await opened(tmp_path, synchronous)  # what was answered is in the file
    try:
        assert len(await again.actions(game.id)) == 5
    finally:
        await again.close()


async def test_commits_that_cost_more_than_the_budget_leave_their_sync_to_the_syncer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow disk under ``FULL``: the loop never syncs (its syncing connection is never
    used); each group is committed there without a sync, and the syncer's thread syncs the
    write-ahead log before the callers hear of it."""
    monkeypatch.setattr(writer, "INLINE_BUDGET", 0.0)  # a disk slower than any budget
    synced: list[int] = []
    real = os.fdatasync
    wal = tmp_path / "g.db-wal"

    def fdatasync(fd: int) -> None:
        # The log synced is the log as it is now, by its name (SQLite may have made a new one).
        assert os.fstat(fd).st_ino == wal.stat().st_ino
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(writer.os, "fdatasync", fdatasync)
    store = await opened(tmp_path, "FULL")
    lean = store._writer
    assert isinstance(lean, writer.SQLiteWriter)
    try:
        game = await playing(store, 1)
        for n in range(1, 4):
            game = await act(store, game, n)
        assert lean._inline_conn is None and lean._deferred_conn is not None
        assert len(synced) == 3  # one action at a time: a sync each
        assert [a.action["n"] for a in await store.actions(game.id)] == [1, 2, 3]
    finally:
        await store.close()


async def test_a_group_committed_without_a_sync_is_answered_only_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The callers of a group committed on the loop without a sync wait for the syncer: while
    its sync is held up, the actions are in the log but nobody has been told; groups committed
    meanwhile share the next sync; a sync that fails is every waiting caller's error."""
    monkeypatch.setattr(writer, "INLINE_BUDGET", 0.0)
    release = threading.Event()
    syncs: list[int] = []
    real = os.fdatasync

    def fdatasync(fd: int) -> None:
        syncs.append(fd)
        if not release.wait(10):
            raise OSError(5, "held too long")
        if len(syncs) == 3:
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(writer.os, "fdatasync", fdatasync)
    store = await opened(tmp_path, "FULL")
    try:
        games = [await playing(store, channel) for channel in range(1, 4)]
        first = asyncio.ensure_future(act(store, games[0], 1))
        await asyncio.sleep(0.2)
        later = [asyncio.ensure_future(act(store, g, 1)) for g in games[1:]]
        await asyncio.sleep(0.2)
        assert not first.done() and not any(f.done() for f in later)
        assert len(await store.actions(games[0].id)) == 1  # committed, not yet answered
        assert len(await store.actions(games[2].id)) == 1
        assert len(syncs) == 1  # the later group waits for the sync under way to end
        release.set()
        moved = await asyncio.wait_for(first, 10)
        assert moved.last_seq == 1
        assert [(await asyncio.wait_for(f, 10)).last_seq for f in later] == [1, 1]
        assert len(syncs) == 2  # the later actions shared one sync
        with pytest.raises(OSError, match="Input/output"):
            await act(store, moved, 2)
    finally:
        await store.close()


async def test_which_message_shows_what_is_set_on_the_loop_unless_a_write_is_under_way(
    tmp_path: Path, quick_disk: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``set_message`` on an idle writer is committed on the loop's connection at once, with
    no SQLAlchemy session; while one of the store's own writes holds the queue it waits for
    its turn the ordinary way. Either way the same rows, and a game that is not there is
    refused alike."""
    store = await opened(tmp_path, "FULL")
    sessions = counting_calls(monkeypatch, store, "_writing")
    try:
        game = await playing(store, 1)
        sessions.clear()
        await store.set_message(game.id, "board", 10, 1)
        await store.set_message(game.id, "hand:0", 20, 2)
        assert sessions == []  # on the loop
        with pytest.raises(GameNotFound):
            await store.set_message(404, "board", 1, 1)
        assert sessions == []
        queue = store._write_queue
        assert queue is not None
        async with queue:  # another write of the store's under way
            later = asyncio.ensure_future(store.set_message(game.id, "board", 10, 3))
            await asyncio.sleep(0.05)
            assert not later.done()
        await asyncio.wait_for(later, 10)
        assert sessions == [1]  # the ordinary way, once its turn came
        assert await store.messages(game.id) == {
            "board": MessageRecord(game_id=game.id, kind="board", channel_id=10, message_id=3),
            "hand:0": MessageRecord(game_id=game.id, kind="hand:0", channel_id=20, message_id=2),
        }
    finally:
        await store.close()
    again = await opened(tmp_path, "FULL")  # committed: in the file
    try:
        assert (await again.messages(game.id))["hand:0"].message_id == 2
    finally:
        await again.close()


async def test_a_games_last_move_is_committed_on_the_loop_with_what_the_ordinary_way_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's last move (its results and ratings, ``transact_now``) is committed on the
    loop's own connection while COMMITs are quick, else the ordinary way (a slow disk, a write
    under way): the same results, ratings and games either way, and a move of a game that is
    over refused alike with nothing written."""
    ordinary: list[int] = []
    real_engine = commit.writer_engine

    def counted(engine: Any) -> Any:
        ordinary.append(1)
        return real_engine(engine)

    monkeypatch.setattr(commit, "writer_engine", counted)
    seen: list[Any] = []
    for budget, folder in ((10.0, tmp_path / "loop"), (0.0, tmp_path / "ordinary")):
        monkeypatch.setattr(writer, "INLINE_BUDGET", budget)
        folder.mkdir()
        store = await opened(folder, "FULL")
        ordinary.clear()
        try:
            games = [
                await finish(store, [(ALICE, 3), (BOB, 1)]),
                await finish(store, [(BOB, 4), (ALICE, 4), (CAROL, 2)]),
                await finish(store, [(CAROL, 9), (-1, 5), (ALICE, 1)]),
            ]
            assert len(ordinary) == (0 if budget else 3)
            with pytest.raises(WrongStatus):  # the game is over: its last move was made
                await store.record_action(
                    replace(games[0], status=GameStatus.PLAYING), seat=0, action={"n": 1},
                    snapshot=None, timers=None, results=[],
                )  # fmt: skip
            seen.append(
                (
                    await skills(store),
                    [
                        [(r.user_id, r.seat, r.score, r.rank, r.winner) for r in rows]
                        for rows in [await store.results(g.id) for g in games]
                    ],
                    [(g.id, g.status, g.last_seq) for g in await store.finished_games()],
                )
            )
        finally:
            await store.close()
    assert seen[0] == seen[1]


async def test_one_slow_commit_keeps_the_loop_path_and_a_slow_disk_loses_it(
    tmp_path: Path,
) -> None:
    """The disk is judged by the median of the last ``SYNC_WINDOW`` COMMITs on the loop: a
    lone stall (50 ms) among quick ones leaves the next lone action on the loop; commits slow
    one after the other (5 ms each), most of the window, send the next the long way."""
    store = await opened(tmp_path, "NORMAL")
    lean = store._writer
    assert isinstance(lean, writer.SQLiteWriter)
    try:
        game = await playing(store, 1)
        for _ in range(writer.SYNC_WINDOW):  # every commit so far was quick
            lean._cost(0.0002)
        lean._cost(0.050)
        game = await act(store, game, 1)
        assert store.inline_commits == 1
        for _ in range(writer.SYNC_WINDOW // 2 + 1):
            lean._cost(0.005)
        game = await act(store, game, 2)
        assert store.inline_commits == 1
        assert [a.action["n"] for a in await store.actions(game.id)] == [1, 2]
    finally:
        await store.close()


async def test_the_disk_is_judged_by_the_median_and_a_quick_probe_clears_it(
    tmp_path: Path,
) -> None:
    """At 200 games the loop's COMMITs took 0.4 ms at the median and a few in a hundred over
    1 ms, in bursts: a few stalls among quick commits keep the disk quick; while it was slow, a
    quick COMMIT (a probe) forgets the slow ones before it, and a disk still slow is back
    over the budget after a few more."""
    store = await opened(tmp_path, "NORMAL")
    lean = store._writer
    assert isinstance(lean, writer.SQLiteWriter)
    budget = writer.INLINE_BUDGET
    try:
        for seconds in [0.0004] * 5 + [0.004] * 4:  # four stalls in nine: still quick
            lean._cost(seconds)
        assert lean._sync_cost < budget
        lean._cost(0.004)  # the fifth: most of the window is slow
        assert lean._sync_cost >= budget
        lean._cost(0.0004)  # a quick probe
        assert list(lean._recent_syncs) == [0.0004] and lean._sync_cost < budget
        for _ in range(writer.SYNC_WINDOW // 2 + 1):  # the disk was slow after all
            lean._cost(0.003)
        assert lean._sync_cost >= budget
    finally:
        await store.close()


async def test_while_commits_are_slow_one_group_in_probe_every_measures_the_disk_again(
    tmp_path: Path,
) -> None:
    """COMMITs lately too slow for the loop: actions go through the writer's thread, but the
    ``PROBE_EVERY``-th group is committed on the loop, and its COMMIT is counted, so a disk
    that became quick again is seen to."""
    store = await opened(tmp_path, "NORMAL")
    lean = store._writer
    assert isinstance(lean, writer.SQLiteWriter)
    slow = 1.5 * writer.INLINE_BUDGET
    try:
        game = await playing(store, 1)
        for _ in range(writer.SYNC_WINDOW):  # slow lately
            lean._cost(slow)
        for n in range(1, writer.PROBE_EVERY):
            game = await act(store, game, n)
        assert store.inline_commits == 0
        assert list(lean._recent_syncs) == [slow] * writer.SYNC_WINDOW  # the thread's not
        game = await act(store, game, writer.PROBE_EVERY)
        assert store.inline_commits == 1
        assert lean._recent_syncs[-1] != slow  # the probe's own COMMIT, measured
        assert len(await store.actions(game.id)) == writer.PROBE_EVERY
    finally:
        await store.close()


async def test_actions_that_find_the_writer_busy_share_a_group(
    tmp_path: Path, quick_disk: None
) -> None:
    store = await opened(tmp_path, "NORMAL")
    games = [await playing(store, channel) for channel in range(1, 6)]
    before = store.group_commits or 0
    try:
        # A lobby being written holds the store's write queue: actions arriving now queue
        # behind it and go together, in one transaction (committed on the loop).
        lobby = asyncio.ensure_future(
            store.create_lobby(
                slug="x", guild_id=1, channel_id=99, creator_id=1, creator_name="a",
                options={}, seed=1,
            )
        )  # fmt: skip
        await asyncio.sleep(0)
        assert not store._queue_free()
        await asyncio.gather(lobby, *(act(store, g, 1) for g in games))
        for g in games:
            assert [a.action["n"] for a in await store.actions(g.id)] == [1]
    finally:
        await store.close()  # the writer's task ends, its count final
    assert store.inline_commits == 1
    assert (store.group_commits or 0) - before == 1


async def test_a_burst_goes_in_one_group_after_the_first(tmp_path: Path, quick_disk: None) -> None:
    store = await opened(tmp_path, "FULL")
    games = [await playing(store, channel) for channel in range(1, 6)]
    before = store.group_commits or 0
    try:
        await asyncio.gather(*(act(store, g, 1) for g in games))
    finally:
        await store.close()  # the writer's task ends, its count final
    # The first arrival found the writer idle; the four arriving in the same turn of the
    # loop went together, one transaction (one fsync) for all four, on the loop as well.
    assert store.inline_commits == 2
    assert (store.group_commits or 0) - before == 2


async def test_a_burst_past_the_limit_is_several_groups_on_the_loop(
    tmp_path: Path, quick_disk: None
) -> None:
    """A burst of 40 actions after a first one: groups of at most ``INLINE_GROUP_LIMIT`` on the
    loop (16, 16, 8), every action committed once and in its place."""
    store = await opened(tmp_path, "FULL")
    games = [await playing(store, channel) for channel in range(1, 42)]
    before = store.group_commits or 0
    try:
        await asyncio.gather(*(act(store, g, 1) for g in games))
        for g in games:
            assert [a.action["n"] for a in await store.actions(g.id)] == [1]
    finally:
        await store.close()
    assert writer.INLINE_GROUP_LIMIT == 16
    assert (store.group_commits or 0) - before == 1 + 3
    assert store.inline_commits == 4


async def test_a_slow_commit_sends_groups_through_the_writers_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """COMMITs slower than the budget: a burst of 41 actions takes the writer's thread, as one
    group (a group there may be as large as ``GROUP_LIMIT``)."""
    monkeypatch.setattr(writer, "INLINE_BUDGET", 0.0)
    store = await opened(tmp_path, "FULL")
    games = [await playing(store, channel) for channel in range(1, 42)]
    before = store.group_commits or 0
    try:
        await asyncio.gather(*(act(store, g, 1) for g in games))
    finally:
        await store.close()
    assert store.inline_commits == 0
    assert (store.group_commits or 0) - before == 1


async def test_a_task_committing_in_a_loop_lets_the_others_run(
    tmp_path: Path, quick_disk: None
) -> None:
    store = await opened(tmp_path, "FULL")
    order: list[int] = []
    try:
        games = [await playing(store, channel) for channel in (1, 2)]

        async def play(index: int) -> None:
            game = games[index]
            for n in range(1, 21):
                game = await act(store, game, n)
                order.append(index)

        await asyncio.gather(play(0), play(1))
    finally:
        await store.close()
    # A task committing again in the same turn of the loop waits for a group with the others:
    # the second game's moves are not all after the first's.
    assert order.index(1) < len(order) - 21
    assert sorted(order) == [0] * 20 + [1] * 20


async def test_a_task_committing_alone_move_after_move_never_takes_the_writers_task(
    tmp_path: Path, quick_disk: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot, a tournament or a replay playing move after move with nothing else to do: each
    move is a lone action, committed on the loop at once after the task let the loop turn,
    never queued for the writer's task (which costs a task switch and two turns of the loop:
    every other move of such a task went that way)."""
    store = await opened(tmp_path, "FULL")
    lean = store._writer
    assert isinstance(lean, writer.SQLiteWriter)
    queued = counting_calls(monkeypatch, lean, "_write")
    try:
        game = await playing(store, 1)
        for n in range(1, 11):
            game = await act(store, game, n)
        assert [a.action["n"] for a in await store.actions(game.id)] == list(range(1, 11))
    finally:
        await store.close()
    assert queued == []
    assert store.inline_commits == 10


async def test_a_lock_held_elsewhere_sends_the_action_the_ordinary_way(
    tmp_path: Path, quick_disk: None
) -> None:
    store = await opened(tmp_path, "NORMAL")
    try:
        game = await playing(store, 1)
        other = sqlite3.connect(tmp_path / "g.db", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process writing
        try:
            pending = asyncio.ensure_future(act(store, game, 1))
            await asyncio.sleep(0.2)
            # The event loop is not stuck in SQLite's busy handler (this line runs), and the
            # action waits on the writer's thread, not committed yet.
            assert not pending.done()
        finally:
            other.execute("COMMIT")
            other.close()
        committed = await asyncio.wait_for(pending, 10)
        assert committed.last_seq == 1
        assert store.inline_commits == 0
    finally:
        await store.close()


WRITER = """
import asyncio, sys
from bot.store import Store, writer

writer.INLINE_BUDGET = 10.0  # every lone commit on the loop, however loaded the machine

async def main(url, synchronous):
    store = await Store.open(url, synchronous=synchronous)
    lobby = await store.create_lobby(slug="x", guild_id=1, channel_id=1, creator_id=1,
                                     creator_name="a", options={}, seed=1)
    game = await store.start(lobby.id, expected_version=lobby.version, seat_order=[1],
                             snapshot={}, timers=[])
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        game = await store.record_action(game, seat=0,
                                         action={"n": n}, snapshot={"n": n}, timers=None)
        print("ack", game.last_seq, store.inline_commits, flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


@pytest.mark.parametrize("synchronous", ["NORMAL", "FULL"])
async def test_what_the_loop_committed_survives_kill_9(tmp_path: Path, synchronous: str) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WRITER, url, synchronous, cwd=REPO,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    acked = inline = 0
    try:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"ready"
        while acked < 1000:
            line = await proc.stdout.readline()
            assert line, "the writer stopped on its own"
            _, seq, inline_so_far = line.split()
            acked, inline = int(seq), int(inline_so_far)
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert inline == acked  # one game, one action at a time: every one took the loop's way
    store = await Store.open(url)
    try:
        log = await store.actions(1)
        assert len(log) >= acked
        assert [a.seq for a in log] == list(range(1, len(log) + 1))
    finally:
        await store.close()


async def test_a_new_store_grows_its_write_ahead_log_once_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """At its working size from the start, the log is written over, not grown, by the first
    commits after a start; the header's user version is as it was, and a log already that large
    is left as it is."""
    store = await opened(tmp_path, "FULL")
    wal = tmp_path / "g.db-wal"
    lean = store._writer
    assert isinstance(lean, writer.SQLiteWriter)
    try:
        grown = wal.stat().st_size
        assert grown >= writer.WAL_WORKING_SIZE
        game = await playing(store, 1)
        for n in range(1, 6):
            game = await act(store, game, n)
        assert wal.stat().st_size == grown  # written from its start again, not grown
        await lean.presize_wal()
        assert wal.stat().st_size == grown
        assert [a.action["n"] for a in await store.actions(game.id)] == [1, 2, 3, 4, 5]
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "g.db") as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (0,)
