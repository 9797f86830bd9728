"""Group commit on PostgreSQL (P-58): the actions of every game that arrive together share one
transaction on one connection, in a few round trips whatever their number.

A group is written as: ``BEGIN`` with each game's advisory lock (``pg_advisory_xact_lock``, in
game order so two processes never wait on each other in a circle; released by the COMMIT), then
one statement that moves every game's version by compare-and-set, stores the snapshots that are
due and appends the log entries (a conditional ``UPDATE … FROM unnest(…) RETURNING`` feeding an
``INSERT``), then the timers of the games whose deadlines changed, then ``COMMIT``. An action
whose compare-and-set fails is simply not in the UPDATE's rows: it is refused alone (its game is
read again to say why) and the others stand. One action per game per group: a second one waits
for the next group, where its version check refuses it if the first moved the game on.

The connection is asyncpg's own, so every statement is prepared once and cached. Callers are
answered after the COMMIT returned: with the server's default ``synchronous_commit`` the group is
on the server's disk by then.
"""

from __future__ import annotations

import json
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from .errors import GameNotFound, VersionConflict, WrongStatus
from .group import GROUP_LIMIT, ActionWrite, Answer, GroupWriter, Pending, answer
from .models import Game
from .postgres import GAME_LOCK, fold_key
from .records import GameRecord, GameStatus, game_record

_GAMES = cast(Table, Game.__table__)
_KEPT = [c.name for c in _GAMES.c if c.name != "snapshot"]
"""Every column of a game but its snapshot, which the writer has in hand."""

#: The snapshot is stored when it is due (``group.snapshot_due``: ``seq - snapshot_seq >= every``,
#: with ``seq`` the action's, ``g.last_seq + 1``) and the caller gave one.
_DUE = "i.snapshot IS NOT NULL AND g.last_seq + 1 - g.snapshot_seq >= $7"

_MOVE = f"""
WITH input AS (
    SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::jsonb[], $5::json[],
                         $6::timestamptz[])
        AS i(game_id, expected, seat, action, snapshot, at)
), moved AS (
    UPDATE games AS g SET
        version = g.version + 1,
        updated_at = i.at,
        last_seq = g.last_seq + 1,
        snapshot = CASE WHEN {_DUE} THEN i.snapshot ELSE g.snapshot END,
        snapshot_seq = CASE WHEN {_DUE} THEN g.last_seq + 1 ELSE g.snapshot_seq END
    FROM input AS i
    WHERE g.id = i.game_id AND g.version = i.expected AND g.status = '{GameStatus.PLAYING.value}'
    RETURNING {", ".join(f"g.{name}" for name in _KEPT)}, i.seat, i.action, i.at
), appended AS (
    INSERT INTO actions (game_id, seq, seat, action, at)
    SELECT id, last_seq, seat, action, at FROM moved
)
SELECT {", ".join(_KEPT)} FROM moved
"""
_FOUND = "SELECT id, status, version FROM games WHERE id = ANY($1::int[])"
_DROP_TIMERS = "DELETE FROM timers WHERE game_id = ANY($1::int[])"
_ADD_TIMERS = """
INSERT INTO timers (game_id, key, due_at, action, created_at)
SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::jsonb[], $5::timestamptz[])
"""


class PostgresWriter(GroupWriter):
    """One writer task with one asyncpg connection of its own."""

    def __init__(self, url: URL) -> None:
        super().__init__()
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._conn: Any = None

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
        answer(group, answers)

    async def _commit(self, writes: list[ActionWrite]) -> list[Answer]:
        conn = await self._connection()
        # Literal integers only: BEGIN and the locks in one round trip, in game order.
        keys = ",".join(str(k) for k in sorted({fold_key(w.game_id) for w in writes}))
        await conn.execute(
            f"BEGIN; SELECT pg_advisory_xact_lock({GAME_LOCK}, k) FROM unnest('{{{keys}}}'::int[]) k"
        )
        every = writes[0].snapshot_every
        rows = await conn.fetch(
            _MOVE,
            [w.game_id for w in writes],
            [w.expected_version for w in writes],
            [w.seat for w in writes],
            [w.action for w in writes],
            [w.snapshot for w in writes],
            [w.at for w in writes],
            every,
        )
        moved = {row["id"]: row for row in rows}
        refused = [w.game_id for w in writes if w.game_id not in moved]
        found = {row["id"]: row for row in await conn.fetch(_FOUND, refused)} if refused else {}
        timed = [w for w in writes if w.timers is not None and w.game_id in moved]
        if timed:
            await conn.execute(_DROP_TIMERS, [w.game_id for w in timed])
            added = [(w, t) for w in timed for t in w.timers or ()]
            if added:
                await conn.execute(
                    _ADD_TIMERS,
                    [w.game_id for w, _ in added],
                    [t.key for _, t in added],
                    [t.due_at for _, t in added],
                    [t.action for _, t in added],
                    [w.at for w, _ in added],
                )
        await conn.execute("COMMIT")
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
    return game_record(row, snapshot=write.snapshot)


def _refusal(write: ActionWrite, found: dict[int, Any]) -> Exception:
    row = found.get(write.game_id)
    if row is None:
        return GameNotFound(write.game_id)
    if row["status"] != GameStatus.PLAYING.value:
        return WrongStatus(write.game_id, row["status"])
    return VersionConflict(write.game_id, write.expected_version, row["version"])


def _wrapped(exc: Exception) -> Exception:
    """A driver error as SQLAlchemy would raise it (the host's retries know that type); the
    statement's parameters (snapshots, hands) are never part of it (P-20)."""
    return DBAPIError.instance("group commit", None, exc, Exception, hide_parameters=True)
