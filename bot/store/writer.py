"""Group commit for SQLite: the hot path of every click.

SQLite has one writer at a time and each COMMIT costs a WAL write, so committing actions one by
one (each statement its own greenlet and aiosqlite hop) makes a click 50-100x slower than the
engine. Here one writer task collects the actions that arrive while the previous group is being
written and commits them together: one ``BEGIN IMMEDIATE``, a ``SAVEPOINT`` per action (so an
action whose version compare-and-set fails is undone alone and refused, while the others stand),
one ``COMMIT``. Every caller is answered only after that COMMIT returned, so an acknowledged
action is in the database (WAL with ``DATABASE_SYNCHRONOUS=FULL``, the default: it survives a
power loss, at one fsync per group; ``NORMAL``: it survives the process being killed, P-37).

A commit costs less than the thread hops and event-loop wake-ups around it when SQLite's sync
is quick (``DATABASE_SYNCHRONOUS=NORMAL`` syncs nothing; ``FULL`` one fsync, a fraction of a
millisecond on a local SSD, milliseconds on a slow disk). So while a COMMIT has lately cost less
than ``INLINE_BUDGET`` (measured on the loop), an action that finds the writer idle (nothing
queued, nothing being written, none of the store's other writes under way) is committed right
on the event loop, and so is each group the writer's task takes (at most
``INLINE_GROUP_LIMIT`` actions), on a connection of the loop's own that never waits for
SQLite's lock (another process holding it sends the actions the ordinary way). On a slow disk
under ``FULL`` each group is still committed on the loop, on a connection that writes the log
without syncing it, and a thread of its own syncs the log (one ``fdatasync`` for every group
committed meanwhile) before their callers are answered: the loop never stalls on an fsync but
for a probe now and then, and that thread waits for the interpreter's lock a few times a sync,
not once a statement (P-59).
A larger group, or any while another process holds SQLite's lock, takes the hop to the
writer's own connection in one worker thread, whose statements each wait for the
interpreter's lock when they return, which a busy loop holds: ``bot/switching.py`` keeps that
wait short.

The statements run as plain cached SQL (the module's statement cache keeps them compiled). They are SQLAlchemy Core
statements on the store's own tables, compiled once (``sqlite_sql.py``), so a schema change is
one model and one migration; values go through the columns' own types.
The queue and the writer task are ``group.py``'s, shared with PostgreSQL's writer
(``pg_writer.py``); SQLite in memory, which another connection cannot see, keeps the ordinary
SQLAlchemy path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, TypeVar, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.pool import StaticPool

from .errors import GameNotFound, StoreError, VersionConflict, WrongStatus
from .group import GROUP_LIMIT, ActionWrite, Answer, GroupWriter, Pending, answer, snapshot_due
from .models import ActionRow, Game, MessageRow, TimerRow
from .records import GameRecord, GameStatus
from .sqlite_sql import Statement, batched, stored_form

#: The most a COMMIT may have cost lately (seconds, the median of the last ``SYNC_WINDOW`` on
#: the loop) for the next actions to be committed on the event loop: the loop may stall that
#: long.
INLINE_BUDGET = 0.001
#: The most actions one group committed on the event loop holds (each costs the loop about
#: 0.1 ms of statements): a burst past it is written as several groups, the loop running
#: between them.
INLINE_GROUP_LIMIT = 16
#: While COMMITs are too slow for the loop, one group in this many is still committed there, to
#: measure the disk again (at most one slow COMMIT's stall per this many groups).
PROBE_EVERY = 32
#: COMMITs on the loop that judge the disk: their median is its cost. A median, not an average:
#: on a busy machine a few COMMITs in a hundred stall for milliseconds (measured at 200 games,
#: 3-5 % over 1 ms with a median of 0.4 ms), and an average those lift past the budget sent
#: group after group the long way, where each statement waits for the interpreter's lock; a
#: disk slow on most commits still lifts the median past it.
SYNC_WINDOW = 9

#: The write-ahead log's size once the bot has run a while: a little more than the writes of
#: ``CHECKPOINT_EVERY`` groups (about 4 pages each). SQLite writes the log from its start again
#: after each checkpoint without shrinking the file, so a commit overwrites pages already on
#: disk; one that grows the file makes its sync write the file's size too: measured here under
#: FULL, a COMMIT costs 0.24-0.38 ms while the log grows and 0.11-0.18 ms once it is full size.
WAL_WORKING_SIZE = 4 * 1024 * 1024

#: Groups between two WAL checkpoints. The writer's own connection never checkpoints (a
#: checkpoint copies pages into the database file and syncs it: milliseconds that would land on
#: one unlucky click); another thread does it beside the writer, which WAL allows.
CHECKPOINT_EVERY = 200

_GAMES = cast(Table, Game.__table__)
_MESSAGES = cast(Table, MessageRow.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_TIMERS = cast(Table, TimerRow.__table__)
_GAME_ID = _GAMES.c.id == bindparam("game_id")

_MOVE = Statement(
    update(_GAMES)
    .where(
        _GAME_ID,
        _GAMES.c.version == bindparam("expected_version"),
        _GAMES.c.status == GameStatus.PLAYING.value,
    )
    .values(
        version=_GAMES.c.version + 1, updated_at=bindparam("at"), last_seq=_GAMES.c.last_seq + 1
    )
    # Only the counters: the rest of the game is the caller's (``ActionWrite.committed``).
    .returning(_GAMES.c.last_seq, _GAMES.c.snapshot_seq)
)
_FOUND = Statement(select(_GAMES.c.status, _GAMES.c.version).where(_GAME_ID))
_APPEND = Statement(insert(_ACTIONS), ["game_id", "seq", "seat", "action", "at"])
_SNAPSHOT = Statement(update(_GAMES).where(_GAME_ID), ["snapshot", "snapshot_seq", "updated_at"])
_DROP_TIMERS = Statement(delete(_TIMERS).where(_TIMERS.c.game_id == bindparam("game_id")))
#: A time as the games, actions and timers tables store it (one UTCDateTime type for all three).
_STORED_TIME = stored_form(_GAMES.c.updated_at)
_ADD_TIMER = Statement(insert(_TIMERS), ["game_id", "key", "due_at", "action", "created_at"])
# The same writes for a whole group (``_write_together``), each statement's rows as one JSON
# array: the INSERTs are the ones above, batched; these three are written out (SQLAlchemy has
# no form for SQLite's ``UPDATE ... FROM json_each``), on the same tables.
#: Each game's version, status and counters, as one JSON array (one row, so one statement).
_FOUND_ALL = (
    "SELECT json_group_array(json_array(id, version, status, last_seq, snapshot_seq)) "
    "FROM games WHERE id IN (SELECT value FROM json_each(?))"
)
#: ``_MOVE`` for rows of (game id, stored time), once their versions were found as expected.
_MOVE_ALL = (
    "UPDATE games SET version = version + 1, updated_at = row.value ->> 1, "
    "last_seq = last_seq + 1 FROM json_each(?) AS row WHERE games.id = row.value ->> 0"
)
_APPEND_ALL = batched(_APPEND)
_MESSAGE_SHOWN = sqlite.insert(_MESSAGES)
#: Which message shows which part of a game (``MetaStore.set_message``), set or replaced.
_SET_MESSAGE = Statement(
    _MESSAGE_SHOWN.on_conflict_do_update(
        index_elements=[_MESSAGES.c.game_id, _MESSAGES.c.kind],
        set_={
            "channel_id": _MESSAGE_SHOWN.excluded.channel_id,
            "message_id": _MESSAGE_SHOWN.excluded.message_id,
        },
    ),
    ["game_id", "kind", "channel_id", "message_id"],
)
#: The members among a JSON array of ids who chose their pings, with their choice.
_MEMBER_PINGS = (
    "SELECT user_id, pings FROM member_settings WHERE user_id IN (SELECT value FROM json_each(?))"
)
_DROP_TIMERS_ALL = "DELETE FROM timers WHERE game_id IN (SELECT value FROM json_each(?))"
_ADD_TIMER_ALL = batched(_ADD_TIMER)


T = TypeVar("T")

Serial = Callable[[], AbstractAsyncContextManager[None]]
"""The store's own write queue: held around each group, so a group never contends with the
store's other (SQLAlchemy) writes for SQLite's lock."""


class SQLiteWriter(GroupWriter):
    """One writer task and one thread with one connection to a SQLite file."""

    def __init__(
        self,
        path: str,
        *,
        busy_timeout: float,
        serial: Serial,
        serial_free: Callable[[], bool],
        synchronous: str = "FULL",
    ) -> None:
        super().__init__()
        self._path = path
        self._synchronous = synchronous
        self._busy_ms = round(busy_timeout * 1000)
        self._serial = serial
        self._serial_free = serial_free
        self._inline_task: asyncio.Task[Any] | None = None
        """The task that committed a lone action on the loop in this turn of it, if one did
        (see ``record``)."""
        self._recent_syncs: deque[float] = deque(maxlen=SYNC_WINDOW)
        """The last COMMITs on the loop (seconds)."""
        self._sync_cost = 0.0
        """What a COMMIT (the WAL write and, with FULL, its fsync) has cost lately: the median
        of ``_recent_syncs`` (seconds; see the module's doc)."""
        self._since_probe = 0
        """Groups sent to the thread since the last probe (see ``_loop_may_commit``)."""
        self._inline_conn: sqlite3.Connection | None = None
        self._engine_here: Engine | None = None
        """SQLAlchemy (not async) on a connection of the loop's own (``transact_now``)."""
        self._deferred_conn: sqlite3.Connection | None = None
        """The loop's connection whose COMMITs do not sync (see ``_commit_deferring_sync``)."""
        self._unsynced: list[tuple[list[Pending], list[Answer]]] = []
        """Groups committed on the loop without a sync, whose callers wait for the next one."""
        self._syncing = False
        """A sync of the write-ahead log is under way in ``_syncer``."""
        self._synced_all: asyncio.Future[None] | None = None
        """Set once nothing waits for a sync (what ``close`` waits for)."""
        self._syncer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-sync")
        self._writing = False
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._checkpointer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-ckpt")
        self._checkpoint: asyncio.Future[None] | None = None
        self._since_checkpoint = 0
        self._local = threading.local()

    async def record(self, write: ActionWrite) -> GameRecord:
        if self._inline_task is asyncio.current_task():
            # The task that committed on the loop in this turn comes again (a bot, a
            # tournament, a replay playing move after move): it lets the others run first,
            # then is as alone as it was, unless actions arrived meanwhile (it joins them).
            await asyncio.sleep(0)
        busy = self._pending or self._writing or self._closed or self._inline_task is not None
        if not busy and self._serial_free() and self._sync_cost < INLINE_BUDGET:
            answers = self._commit_on_loop([write])
            if answers is not None:
                self.groups += 1
                (answered,) = answers
                # Actions arriving in the same turn of the loop (a burst) queue for one group;
                # this task, if it comes again in this turn, first lets the loop turn (above),
                # so it never starves the others. The caller goes on at once: a click's answer
                # does not wait behind whatever else is ready (at 200 games, milliseconds).
                self._inline_task = asyncio.current_task()
                asyncio.get_running_loop().call_soon(self._end_inline_turn)
                if isinstance(answered, Exception):
                    raise answered
                return answered
        return await super().record(write)

    def set_message_now(self, game_id: int, kind: str, channel_id: int, message_id: int) -> bool:
        """Remember which message shows ``kind`` of a game, committed at once on the loop's
        connection as a lone action is (P-59): while the writer is idle, none of the store's
        own writes holds SQLite's lock, and COMMITs are quick. False when it could not be (the
        caller takes the ordinary way). A game that is not there raises ``GameNotFound``.

        Through SQLAlchemy the same upsert held the store's write queue for 3-4 ms at 200
        games (each statement's thread hop waiting for the interpreter's lock), up to 30 ms,
        some 30 times a second (boards, hands and pings being posted): every action arriving
        meanwhile waited behind it."""
        if not self._may_write_now():
            return False
        try:
            conn = self._loop_connection()
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return False  # another process holds the lock: the ordinary way waits for it
        values = {
            "game_id": game_id,
            "kind": kind,
            "channel_id": channel_id,
            "message_id": message_id,
        }
        try:
            conn.execute(_SET_MESSAGE.sql, _SET_MESSAGE.params(values))
        except sqlite3.Error as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                self._forget(conn)
            if isinstance(exc, sqlite3.IntegrityError):  # no such game (its foreign key)
                raise GameNotFound(game_id) from None
            raise _wrapped(exc) from None
        started = time.perf_counter()
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise _wrapped(exc) from None
        self._cost(time.perf_counter() - started)
        return True

    def member_pings_now(self, user_ids: list[int]) -> dict[int, bool] | None:
        """The pings choice of those of ``user_ids`` who made one, read at once on the loop's
        connection (a write-ahead log's reader never waits); None if it could not be read
        (the caller reads the ordinary way). Through SQLAlchemy the same read cost the loop
        2.4 ms of CPU, once for each member a turn ping first named."""
        if self._closed:
            return None
        try:
            rows = self._loop_connection().execute(_MEMBER_PINGS, (json.dumps(user_ids),))
            return {int(user_id): bool(pings) for user_id, pings in rows}
        except sqlite3.Error:
            return None

    def transact_now(self, work: Callable[[Connection], T]) -> T | None:
        """Run ``work`` in one write transaction (``BEGIN IMMEDIATE``) committed at once on the
        event loop, on a SQLAlchemy connection of the loop's own, as a lone action is (P-59):
        while the writer is idle, none of the store's own writes holds SQLite's lock, and
        COMMITs are quick. None when it could not be (nothing was done: the caller takes the
        ordinary way); what ``work`` raises is raised, its transaction rolled back.

        For the store's heavier writes on the hot path (a game's last move: its results and
        ratings, some ten statements): through the async engine each statement took a thread
        hop and a turn of the busy loop, and the write held the store's queue 10-65 ms at the
        median at 200 games (up to 190 ms), every action arriving meanwhile waiting."""
        if not self._may_write_now():
            return None
        conn = self._engine_on_loop().connect()
        try:
            try:
                conn.begin()
            except OperationalError:
                return None  # another process holds the lock: the ordinary way waits for it
            done = work(conn)
            started = time.perf_counter()
            conn.commit()
            self._cost(time.perf_counter() - started)
            return done
        finally:
            conn.close()  # back to its pool, rolled back if ``work`` raised

    def _may_write_now(self) -> bool:
        """Whether a write of the store's own may be committed on the loop right now: no
        action queued or being written, none of the store's other writes holding or awaiting
        SQLite's lock, and COMMITs quick lately (as for a lone action, P-59)."""
        busy = self._closed or self._pending or self._writing or not self._serial_free()
        return not busy and self._sync_cost < INLINE_BUDGET

    def _engine_on_loop(self) -> Engine:
        if self._engine_here is None:
            engine = create_engine(
                f"sqlite:///{self._path}",
                creator=lambda: self._connect(busy_ms=0),
                poolclass=StaticPool,
                hide_parameters=True,  # snapshots, hands (P-20)
            )
            event.listen(engine, "begin", _begin_immediate)
            self._engine_here = engine
        return self._engine_here

    def _end_inline_turn(self) -> None:
        self._inline_task = None

    def _commit_on_loop(self, writes: list[ActionWrite]) -> list[Answer] | None:
        """Commit actions on the event loop; None when SQLite's lock is taken (by another
        process) and they must take the ordinary way."""
        try:
            conn = self._loop_connection()
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return None  # busy (it never waits), or the connection broke: the writer will say
        answers = self._in_transaction(conn, writes, timed=True)
        self.inline_commits += 1
        self._maybe_checkpoint()
        return answers

    def _commit_deferring_sync(self, group: list[Pending]) -> bool:
        """COMMITs lately too slow for the loop: commit the group on the loop without syncing
        (its statements cost the loop about 0.1 ms an action; the sync is what may take
        milliseconds), and answer its callers once a sync of the write-ahead log, in the
        syncer's thread, has made it as durable as ``FULL`` would. Groups committed while a
        sync is under way share the next one. False when SQLite's lock is taken (another
        process): the group takes the ordinary way."""
        try:
            conn = self._deferred_connection()
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return False
        answers = self._in_transaction(conn, [w for w, _ in group])
        self.inline_commits += 1
        self._maybe_checkpoint()
        self._unsynced.append((group, answers))
        if not self._syncing:
            self._start_sync()
        return True

    def _start_sync(self) -> None:
        batch, self._unsynced = self._unsynced, []
        self._syncing = True
        self._syncer.submit(self._sync_and_answer, asyncio.get_running_loop(), batch)

    def _sync_and_answer(
        self, loop: asyncio.AbstractEventLoop, batch: list[tuple[list[Pending], list[Answer]]]
    ) -> None:
        """In the syncer's thread: sync the write-ahead log (however many groups it makes
        durable), then answer from the loop. The log is opened by its name each time: SQLite
        deletes it when its last connection closes and makes a new one, and a handle kept on
        the old file would sync nothing that matters."""
        failure: OSError | None = None
        try:
            fd = os.open(f"{self._path}-wal", os.O_RDONLY)
            try:
                os.fdatasync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            failure = exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(self._synced, batch, failure)

    def _synced(
        self, batch: list[tuple[list[Pending], list[Answer]]], failure: OSError | None
    ) -> None:
        """On the loop: the groups of ``batch`` are durable (or their sync failed: their
        callers hear it, and a table that committed all the same is reloaded at its next
        action, as any stale one is)."""
        self._syncing = False
        for group, answers in batch:
            answer(group, answers if failure is None else [failure] * len(group))
        if self._unsynced:
            self._start_sync()
        elif self._synced_all is not None and not self._synced_all.done():
            self._synced_all.set_result(None)

    def _deferred_connection(self) -> sqlite3.Connection:
        """The loop's connection whose COMMITs write the log without syncing it."""
        if self._deferred_conn is None:
            self._deferred_conn = self._connect(busy_ms=0)
            self._deferred_conn.execute("PRAGMA synchronous=NORMAL")
        return self._deferred_conn

    def _loop_may_commit(self) -> bool:
        """Whether the next group may be committed on the loop: COMMITs have lately been quick,
        or this is a probe (one group in ``PROBE_EVERY`` while they were slow), so a disk that
        became quick again is seen to. Only the loop measures a COMMIT: in the writer's thread
        its time would include waiting for the interpreter's lock, which the busy loop holds."""
        if self._sync_cost < INLINE_BUDGET:
            return True
        self._since_probe += 1
        if self._since_probe < PROBE_EVERY:
            return False
        self._since_probe = 0
        return True

    def _group_limit(self) -> int:
        """A group committed on the loop is at most ``INLINE_GROUP_LIMIT`` actions, so the
        loop never stalls for more than a few moves' worth of work; a burst becomes several."""
        return INLINE_GROUP_LIMIT if self._sync_cost < INLINE_BUDGET else GROUP_LIMIT

    async def _write(self, group: list[Pending]) -> None:
        on_loop = False
        self._writing = True
        try:
            async with self._serial():
                if len(group) <= INLINE_GROUP_LIMIT and self._loop_may_commit():
                    answers = self._commit_on_loop([w for w, _ in group])
                    if answers is not None:
                        answer(group, answers)
                        on_loop = True
                        return
                elif len(group) <= INLINE_GROUP_LIMIT and self._synchronous == "FULL":
                    on_loop = self._commit_deferring_sync(group)
                    if on_loop:
                        return
                loop = asyncio.get_running_loop()
                done: asyncio.Future[None] = loop.create_future()
                self._executor.submit(self._commit_and_answer, loop, group, done)
                await done
                self._maybe_checkpoint()
        finally:
            self._writing = False
            if on_loop:  # the next group waits one turn of the loop: the others run first
                await asyncio.sleep(0)

    def _commit_and_answer(
        self,
        loop: asyncio.AbstractEventLoop,
        group: list[Pending],
        done: asyncio.Future[None],
    ) -> None:
        """In the writer thread: commit the group, then answer its callers straight from here
        (one wake-up of the event loop, not one for the writer and one for the callers)."""
        try:
            answers = self._commit([w for w, _ in group])
        except Exception as exc:  # a bug, not a refusal: every caller hears of it
            answers = [exc] * len(group)
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_answer_then_go_on, group, answers, done)

    def _maybe_checkpoint(self) -> None:
        self._since_checkpoint += 1
        if self._since_checkpoint < CHECKPOINT_EVERY:
            return
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        self._since_checkpoint = 0
        loop = asyncio.get_running_loop()
        self._checkpoint = loop.run_in_executor(self._checkpointer, self._run_checkpoint)

    async def close(self) -> None:
        """Write what is queued, then close the connections and the threads."""
        await self._drain()
        loop = asyncio.get_running_loop()
        if self._syncing or self._unsynced:  # callers still wait for their sync
            self._synced_all = loop.create_future()
            await self._synced_all
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        await loop.run_in_executor(self._checkpointer, self._disconnect)
        await loop.run_in_executor(self._executor, self._disconnect)
        if self._engine_here is not None:
            self._engine_here.dispose()
            self._engine_here = None
        for conn in (self._inline_conn, self._deferred_conn):
            if conn is not None:
                conn.close()
        self._inline_conn = self._deferred_conn = None
        self._checkpointer.shutdown(wait=True)
        self._executor.shutdown(wait=True)
        self._syncer.shutdown(wait=True)

    def _cost(self, seconds: float) -> None:
        """Count a COMMIT on the loop. While COMMITs were too slow for the loop, a quick one (a
        probe, see ``_loop_may_commit``) says the disk is quick again: the slow ones before it
        are forgotten, and if the disk is still slow the next few lift the median back. Only
        the loop measures, so only the loop writes these."""
        if self._sync_cost >= INLINE_BUDGET and seconds < INLINE_BUDGET:
            self._recent_syncs.clear()
        self._recent_syncs.append(seconds)
        self._sync_cost = statistics.median(self._recent_syncs)

    async def presize_wal(self) -> None:
        """Grow the write-ahead log to ``WAL_WORKING_SIZE`` at once when the store opens, so
        the first commits after a start are as quick as the later ones (about 15 ms, in the
        writer's thread, on its own connection: SQLite deletes the log when its last
        connection closes, and that one stays open as long as the store)."""
        await asyncio.get_running_loop().run_in_executor(self._executor, self._presize_wal)

    def _presize_wal(self) -> None:
        """In the writer's thread: commit transactions that change nothing (the database
        header's user version set to what it is), unsynced since there is nothing in them to
        keep, then checkpoint, so the next commit writes the log from its start again. A log
        already that large is left as it is; a failure only leaves the log to grow as it would
        have."""
        wal = Path(f"{self._path}-wal")
        have = wal.stat().st_size if wal.exists() else 0
        if have >= WAL_WORKING_SIZE:
            return
        try:
            conn = self._connection()
            conn.execute("PRAGMA synchronous=OFF")
            try:
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
                page = int(conn.execute("PRAGMA page_size").fetchone()[0])
                frame = page + 24  # each transaction writes the header page, as one frame
                for _ in range((WAL_WORKING_SIZE - have) // frame + 1):
                    conn.execute("BEGIN IMMEDIATE")
                    conn.execute(f"PRAGMA user_version={version:d}")
                    conn.execute("COMMIT")
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                conn.execute(f"PRAGMA synchronous={self._synchronous}")
        except sqlite3.Error:
            self._disconnect()  # the next commit opens a connection afresh

    def _loop_connection(self) -> sqlite3.Connection:
        """The event loop's own connection: it never waits for the lock (busy_timeout 0)."""
        if self._inline_conn is None:
            self._inline_conn = self._connect(busy_ms=0)
        return self._inline_conn

    def _connect(self, *, busy_ms: int) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, isolation_level=None, cached_statements=64)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={busy_ms:d}")
        conn.execute(f"PRAGMA synchronous={self._synchronous}")
        conn.execute("PRAGMA wal_autocheckpoint=0")  # see CHECKPOINT_EVERY
        return conn

    # -- in the writer thread --------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect(busy_ms=self._busy_ms)
            self._local.conn = conn
        return conn

    def _run_checkpoint(self) -> None:
        """In the checkpoint thread: copy what readers no longer need into the database file,
        without waiting for anyone (PASSIVE). A failure only leaves the WAL longer."""
        try:
            self._connection().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            self._disconnect()

    def _forget(self, conn: sqlite3.Connection) -> None:
        """Close a connection that broke; the next commit on its thread opens another."""
        if conn is self._inline_conn:
            conn.close()
            self._inline_conn = None
        elif conn is self._deferred_conn:
            conn.close()
            self._deferred_conn = None
        else:
            self._disconnect()

    def _disconnect(self) -> None:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _commit(self, writes: list[ActionWrite]) -> list[Answer]:
        """One transaction for the group; each action in its own savepoint (unless alone)."""
        try:
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            return [_wrapped(exc)] * len(writes)
        return self._in_transaction(conn, writes)

    def _in_transaction(
        self, conn: sqlite3.Connection, writes: list[ActionWrite], *, timed: bool = False
    ) -> list[Answer]:
        """Write the group in the transaction ``conn`` began, and commit it (or roll back);
        ``timed``: count the COMMIT's cost (on the loop only, ``_cost``)."""
        try:
            answers = _write_together(conn, writes) if len(writes) > 1 else None
            if answers is None:
                answers = _write_each(conn, writes)
            if conn.in_transaction:  # a lone action refused rolled its transaction back
                started = time.perf_counter()
                conn.execute("COMMIT")
                if timed:
                    self._cost(time.perf_counter() - started)
        except sqlite3.Error as exc:  # the transaction as a whole failed: nothing was written
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    self._forget(conn)  # start afresh next time
            return [_wrapped(exc)] * len(writes)
        return answers


def _begin_immediate(conn: Connection) -> None:
    """Every transaction of ``transact_now`` writes: it takes SQLite's lock at its start."""
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def _write_each(conn: sqlite3.Connection, writes: list[ActionWrite]) -> list[Answer]:
    """The actions one by one, each in its own savepoint (unless alone), so one refused is
    undone alone: a lone action refused rolls the transaction back."""
    answers: list[Answer] = []
    alone = len(writes) == 1  # no savepoint needed: the transaction is the action's own
    for write in writes:
        if not alone:
            conn.execute("SAVEPOINT action")
        try:
            answers.append(_write_one(conn, write))
        except (StoreError, sqlite3.IntegrityError) as exc:
            conn.execute("ROLLBACK" if alone else "ROLLBACK TO action")
            answers.append(_wrapped(exc) if isinstance(exc, sqlite3.Error) else exc)
        if not alone:
            conn.execute("RELEASE action")
    return answers


def _answer_then_go_on(
    group: list[Pending], answers: list[Answer], done: asyncio.Future[None]
) -> None:
    """On the event loop: each caller gets its record or its refusal, then the writer goes on."""
    answer(group, answers)
    if not done.done():
        done.set_result(None)


def _write_one(conn: sqlite3.Connection, w: ActionWrite) -> GameRecord:
    values = {"game_id": w.game_id, "expected_version": w.expected_version, "at": w.at}
    at = _STORED_TIME(w.at)  # the commit's one time, converted once for every statement
    stored = {"at": at, "updated_at": at, "created_at": at}
    found = conn.execute(_MOVE.sql, _MOVE.params(values, stored)).fetchone()
    if found is None:
        refused = conn.execute(_FOUND.sql, _FOUND.params(values)).fetchone()
        if refused is None:
            raise GameNotFound(w.game_id)
        state = _FOUND.row(refused)
        if state["status"] != GameStatus.PLAYING.value:
            raise WrongStatus(w.game_id, state["status"])
        raise VersionConflict(w.game_id, w.expected_version, state["version"])
    seq, snapshot_seq = found
    values |= {"seq": seq, "seat": w.seat, "action": w.action}
    conn.execute(_APPEND.sql, _APPEND.params(values, stored))
    if w.snapshot is not None and snapshot_due(seq, snapshot_seq, w.snapshot_every):
        values |= {"snapshot": w.snapshot, "snapshot_seq": seq}
        conn.execute(_SNAPSHOT.sql, _SNAPSHOT.params(values, stored))
        snapshot_seq = seq
    if w.timers is not None:
        conn.execute(_DROP_TIMERS.sql, _DROP_TIMERS.params(values))
        conn.executemany(
            _ADD_TIMER.sql,
            [
                _ADD_TIMER.params(
                    {"game_id": w.game_id, "key": t.key, "due_at": t.due_at, "action": t.action},
                    stored,
                )
                for t in w.timers
            ],
        )
    return w.committed(seq, snapshot_seq)


def _write_together(conn: sqlite3.Connection, writes: list[ActionWrite]) -> list[Answer] | None:
    """A group of actions of distinct games in a few statements for all of them, or None (and
    nothing written) when one of them must be refused: they then go one by one, each refused
    alone. Each statement's return waits for the interpreter's lock, which a busy loop holds
    (``bot/switching.py``): one by one, a group of n actions took 5n+2 statements, a wait of
    up to the switch interval each, in the writer's thread; together it takes 8 or 9 whatever
    its size. Values reach each column in the form its own statement stores them in, carried
    as one JSON array per statement and read back by SQLite's ``json_each`` unchanged."""
    ids = [w.game_id for w in writes]
    if len(set(ids)) != len(ids):  # two moves of one game: the second follows the first's
        return None
    (found,) = conn.execute(_FOUND_ALL, (json.dumps(ids),)).fetchone()
    held = {row[0]: row[1:] for row in json.loads(found)}
    rows = _GroupRows()
    for w in writes:
        version, status, last_seq, snapshot_seq = held.get(w.game_id, (None, None, 0, 0))
        if version != w.expected_version or status != GameStatus.PLAYING.value:
            return None
        rows.add(w, last_seq + 1, snapshot_seq)
    conn.execute("SAVEPOINT together")
    try:
        conn.execute(_MOVE_ALL, (json.dumps(rows.moves),))
        conn.execute(_APPEND_ALL, (json.dumps(rows.appends),))
        if rows.snapshots:  # one action in ``snapshot_every``
            conn.executemany(_SNAPSHOT.sql, rows.snapshots)
        if rows.dropped:
            conn.execute(_DROP_TIMERS_ALL, (json.dumps(rows.dropped),))
        if rows.timers:
            conn.execute(_ADD_TIMER_ALL, (json.dumps(rows.timers),))
    except sqlite3.IntegrityError:  # a row the store already holds: judged one by one
        conn.execute("ROLLBACK TO together")
        conn.execute("RELEASE together")
        return None
    conn.execute("RELEASE together")
    return rows.answers


class _GroupRows:
    """The rows ``_write_together`` writes, each in its statement's stored form."""

    def __init__(self) -> None:
        self.moves: list[tuple[int, Any]] = []
        self.appends: list[tuple[Any, ...]] = []
        self.snapshots: list[tuple[Any, ...]] = []
        self.dropped: list[int] = []
        self.timers: list[tuple[Any, ...]] = []
        self.answers: list[Answer] = []

    def add(self, w: ActionWrite, seq: int, snapshot_seq: int) -> None:
        """The rows of ``w``, which the commit numbers ``seq``, the stored snapshot being of
        ``snapshot_seq`` (as ``_write_one`` writes them)."""
        at = _STORED_TIME(w.at)
        stored = {"at": at, "updated_at": at, "created_at": at}
        values = {"game_id": w.game_id, "seq": seq, "seat": w.seat, "action": w.action}
        self.moves.append((w.game_id, at))
        self.appends.append(_APPEND.params(values, stored))
        if w.snapshot is not None and snapshot_due(seq, snapshot_seq, w.snapshot_every):
            values |= {"snapshot": w.snapshot, "snapshot_seq": seq}
            self.snapshots.append(_SNAPSHOT.params(values, stored))
            snapshot_seq = seq
        if w.timers is not None:
            self.dropped.append(w.game_id)
            self.timers.extend(
                _ADD_TIMER.params(
                    {"game_id": w.game_id, "key": t.key, "due_at": t.due_at, "action": t.action},
                    stored,
                )
                for t in w.timers
            )
        self.answers.append(w.committed(seq, snapshot_seq))


def _wrapped(exc: sqlite3.Error) -> Exception:
    """A driver error as SQLAlchemy would raise it (the host's retries know that type); the
    statement's parameters (snapshots, hands) are never part of it (P-20)."""
    return DBAPIError.instance("group commit", None, exc, sqlite3.Error, hide_parameters=True)
