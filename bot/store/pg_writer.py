"""Group commit on PostgreSQL (P-56): the actions of every game that arrive together share one
transaction on one connection, written by one statement whatever their number.

The statement (``_GROUP``) moves every game's version by compare-and-set (a conditional
``UPDATE … FROM unnest(…) RETURNING``), taking each game's advisory lock inside the transaction
(``pg_try_advisory_xact_lock``, released at its end), stores the snapshots that are due, appends
the log entries and replaces the timers of the games whose deadlines changed. An action whose
compare-and-set fails is simply not among the UPDATE's rows: it is refused alone (its game is
read again to say why) and the others stand. The lock is tried, never waited for: a game that
another process holds (acting on it, reloading it, or reading it for a board) is left out of
the group, so one slow holder never stalls a group of other games, and two processes never wait
on each other in a circle. Its action is tried again in the next groups, a few milliseconds
apart, for up to ``BUSY_WAIT`` seconds: the holder is usually done by then, and the action
commits or meets the version its holder moved. Only then does its caller hear of a conflict
(and reload, holding the lock: answering at once made two processes' reloads refuse each
other's commits in turn, until both gave up). One action per game per group: a second one waits
for the next group, where its version check refuses it if the first moved the game on.

The connection is asyncpg's own, so the statement is prepared once and cached. The statement is
its own transaction: callers are answered after it returned, committed (with the server's default
``synchronous_commit``, on the server's disk).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from .errors import GameNotFound, VersionConflict, WrongStatus
from .group import GROUP_LIMIT, ActionWrite, Answer, GroupWriter, Pending, answer
from .models import ActionRow, TimerRow
from .postgres import GAME_LOCK
from .records import GameRecord, GameStatus


def written(table: Table, values: dict[str, str]) -> tuple[str, str]:
    """The column list of an INSERT into ``table`` and the matching values (``values``: column
    name -> its expression), in the model's column order. Every column of the model must have
    its value here: a column added to the model stops the bot at import, not at its first
    commit with a NULL (so a schema change is its model, its migration and this map)."""
    columns = [c.name for c in table.c]
    if set(values) != set(columns):
        raise LookupError(
            f"{table.name}: the group statement writes {sorted(values)}, the model has {columns}"
        )
    return ", ".join(columns), ", ".join(values[c] for c in columns)


_ACTION_COLUMNS, _ACTION_VALUES = written(
    cast(Table, ActionRow.__table__),
    {"game_id": "id", "seq": "last_seq", "seat": "seat", "action": "action", "at": "at"},
)
_TIMER_COLUMNS, _TIMER_VALUES = written(
    cast(Table, TimerRow.__table__),
    {
        "game_id": "w.game_id",
        "key": "w.key",
        "due_at": "w.due_at",
        "action": "w.action",
        "created_at": "m.at",
    },
)

#: The snapshot is stored when it is due (``group.snapshot_due``: ``seq - snapshot_seq >= every``,
#: with ``seq`` the action's, ``g.last_seq + 1``) and the caller gave one.
_DUE = "i.snapshot IS NOT NULL AND g.last_seq + 1 - g.snapshot_seq >= $8"

# (A game id is an int4, so it is its own lock key: ``postgres.fold_key`` leaves it as it is.)
# One statement, so one round trip and one transaction for the whole group. A game is moved only
# once its advisory lock is taken (never waited for: a game another process holds is left out,
# and its caller hears so); its timers are replaced by deleting the keys no longer wanted and
# upserting the others, so no two parts of the statement touch the same row. Only a game's
# counters come back: the rest of it is its caller's (``ActionWrite.committed``).
_GROUP = f"""
WITH input AS (
    SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::jsonb[], $5::json[],
                         $6::timestamptz[], $7::bool[])
        AS i(game_id, expected, seat, action, snapshot, at, replaces_timers)
), moved AS (
    UPDATE games AS g SET
        version = g.version + 1,
        updated_at = i.at,
        last_seq = g.last_seq + 1,
        snapshot = CASE WHEN {_DUE} THEN i.snapshot ELSE g.snapshot END,
        snapshot_seq = CASE WHEN {_DUE} THEN g.last_seq + 1 ELSE g.snapshot_seq END
    FROM input AS i
    WHERE g.id = i.game_id AND g.version = i.expected AND g.status = '{GameStatus.PLAYING.value}'
        AND pg_try_advisory_xact_lock({GAME_LOCK}, i.game_id)
    RETURNING g.id, g.last_seq, g.snapshot_seq, i.seat, i.action, i.at, i.replaces_timers
), appended AS (
    INSERT INTO actions ({_ACTION_COLUMNS})
    SELECT {_ACTION_VALUES} FROM moved
), wanted AS (
    SELECT * FROM unnest($9::int[], $10::text[], $11::timestamptz[], $12::jsonb[])
        AS w(game_id, key, due_at, action)
), dropped AS (
    DELETE FROM timers AS t USING moved AS m
    WHERE t.game_id = m.id AND m.replaces_timers
        AND NOT EXISTS (SELECT 1 FROM wanted AS w WHERE w.game_id = t.game_id AND w.key = t.key)
), added AS (
    INSERT INTO timers ({_TIMER_COLUMNS})
    SELECT {_TIMER_VALUES} FROM wanted AS w JOIN moved AS m
        ON m.id = w.game_id
    ON CONFLICT (game_id, key) DO UPDATE
        SET due_at = excluded.due_at, action = excluded.action, created_at = excluded.created_at
)
SELECT id, last_seq, snapshot_seq FROM moved
"""
_FOUND = "SELECT id, status, version FROM games WHERE id = ANY($1::int[])"

#: How long an action whose game another process holds is tried again before its caller hears of
#: a conflict, and the longest pause between two tries (the first is shorter: most holders only
#: read a game's version, one round trip).
BUSY_WAIT = 0.25
BUSY_PAUSE = 0.02


class PostgresWriter(GroupWriter):
    """One writer task with one asyncpg connection of its own."""

    def __init__(self, url: URL) -> None:
        super().__init__()
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._conn: Any = None
        self._busy: dict[asyncio.Future[GameRecord], tuple[float, int]] = {}
        """Actions tried again: since when, and how many times."""
        self.busy_retries = 0
        """Actions tried again because another process held their game (tests, benches)."""

    def _take(self) -> list[Pending]:
        """The oldest queued actions, one per game (a game's later one waits its turn)."""
        group: list[Pending] = []
        later: list[Pending] = []
        games: set[int] = set()
        for pending in self._pending:
            game_id = pending[0].game_id
            if game_id in games or len(group) >= GROUP_LIMIT:
                later.append(pending)
            else:
                games.add(game_id)
                group.append(pending)
        self._pending = later
        return group

    async def _connection(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            import asyncpg  # the postgres extra; SQLite installs need not have it

            conn = await asyncpg.connect(self._dsn)
            for kind in ("json", "jsonb"):
                await conn.set_type_codec(
                    kind, schema="pg_catalog", encoder=json.dumps, decoder=json.loads
                )
            self._conn = conn
        return self._conn

    async def _write(self, group: list[Pending]) -> None:
        writes = [w for w, _ in group]
        try:
            answers = await self._commit(writes)
        except Exception as exc:  # the transaction as a whole failed: nothing was written
            await self._reset()
            answers = [_wrapped(exc)] * len(writes)
        now, given, again = self._split(group, answers)
        answer(now, given)
        if not again:
            return
        self._pending[:0] = again  # first in line for the next group
        if len(self._pending) == len(again):  # nothing else to write: give the holder a moment
            tries = max(self._busy[f][1] for _, f in again)
            pause = random.uniform(0.5, 1.0) * min(BUSY_PAUSE, 0.001 * 2 ** (tries - 1))
            assert self._wake is not None
            self._wake.clear()  # an action arriving meanwhile ends the pause: its group runs
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)

    def _split(
        self, group: list[Pending], answers: list[Answer]
    ) -> tuple[list[Pending], list[Answer], list[Pending]]:
        """The callers to answer now with their answers, and the actions to try again: those
        refused only because another process held their game, while they may still wait for
        it (``BUSY_WAIT``)."""
        now = time.monotonic()
        done: list[Pending] = []
        given: list[Answer] = []
        again: list[Pending] = []
        for pending, result in zip(group, answers, strict=True):
            future = pending[1]
            since, tries = self._busy.get(future, (now, 0))
            if _busy(result) and not future.done() and now - since < BUSY_WAIT:
                self._busy[future] = (since, tries + 1)
                again.append(pending)
                self.busy_retries += 1
            else:
                self._busy.pop(future, None)
                done.append(pending)
                given.append(result)
        return done, given, again

    async def _commit(self, writes: list[ActionWrite]) -> list[Answer]:
        conn = await self._connection()
        timed = [(w, t) for w in writes for t in w.timers or ()]
        rows = await conn.fetch(
            _GROUP,
            [w.game_id for w in writes],
            [w.expected_version for w in writes],
            [w.seat for w in writes],
            [w.action for w in writes],
            [w.snapshot for w in writes],
            [w.at for w in writes],
            [w.timers is not None for w in writes],
            writes[0].snapshot_every,
            [w.game_id for w, _ in timed],
            [t.key for _, t in timed],
            [t.due_at for _, t in timed],
            [t.action for _, t in timed],
        )  # committed: the statement was its own transaction
        moved = {row["id"]: row for row in rows}
        refused = [w.game_id for w in writes if w.game_id not in moved]
        found = {row["id"]: row for row in await conn.fetch(_FOUND, refused)} if refused else {}
        return [
            _record(moved[w.game_id], w) if w.game_id in moved else _refusal(w, found)
            for w in writes
        ]

    async def _reset(self) -> None:
        """After a failed group: roll back, or drop a connection that is no longer sound."""
        if self._conn is None or self._conn.is_closed():
            return
        try:
            if self._conn.is_in_transaction():
                await self._conn.execute("ROLLBACK")
        except Exception:
            self._conn.terminate()
            self._conn = None

    async def close(self) -> None:
        """Write what is queued, then close the connection."""
        await self._drain()
        if self._conn is not None:
            await self._conn.close()
            self._conn = None


def _record(row: Any, write: ActionWrite) -> GameRecord:
    """The game as committed, carrying the caller's snapshot (the newest state)."""
    return write.committed(row["last_seq"], row["snapshot_seq"])


def _refusal(write: ActionWrite, found: dict[int, Any]) -> Exception:
    row = found.get(write.game_id)
    if row is None:
        return GameNotFound(write.game_id)
    if row["status"] != GameStatus.PLAYING.value:
        return WrongStatus(write.game_id, row["status"])
    # The version still matches: another process held the game's lock (it is acting on the
    # game, reloading it or reading it). Tried again for BUSY_WAIT before this is answered; the
    # host then reloads behind that lock and tries once more.
    return VersionConflict(write.game_id, write.expected_version, row["version"])


def _busy(given: Answer) -> bool:
    """A refusal whose game's version had not moved: another process held its lock."""
    return isinstance(given, VersionConflict) and given.actual == given.expected


def _wrapped(exc: Exception) -> Exception:
    """A driver error as SQLAlchemy would raise it (the host's retries know that type); the
    statement's parameters (snapshots, hands) are never part of it (P-20)."""
    return DBAPIError.instance("group commit", None, exc, Exception, hide_parameters=True)
