"""Committing an applied action: the hot path of every click. An action that does not end the
game goes through the group-commit writer (``writer.py`` on a SQLite file, ``pg_writer.py`` on
PostgreSQL); the rest runs here as a few Core statements in one write transaction."""

from __future__ import annotations

import functools
from dataclasses import replace
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, insert, select, text, update

from .base import StoreBase
from .database import writer as writer_engine
from .errors import GameNotFound, VersionConflict, WrongStatus
from .group import ActionWrite, snapshot_due
from .models import ActionRow, Game, ResultRow, utcnow
from .postgres import GAME_LOCK, fold_key
from .ratings import update_ratings
from .records import GameRecord, GameStatus, ResultSpec, TimerSpec
from .rows import check_timer_keys, write_timers
from .writer import SQLiteWriter


class CommitStore(StoreBase):
    """The one write a move makes."""

    async def record_action(
        self,
        game: GameRecord,
        *,
        seat: int,
        action: dict[str, Any],
        snapshot: dict[str, Any] | None,
        timers: list[TimerSpec] | None,
        results: list[ResultSpec] | None = None,
    ) -> GameRecord:
        """Commit one applied action to ``game`` (the game as the caller holds it, whose
        version is the one expected): log entry, version, timers and, if the game ended, its
        results, all or nothing; and ``snapshot`` (the state after the action) when
        ``snapshot_every`` actions passed since the stored one, or the game ended. Durable when
        this returns. A caller that knows no snapshot is due may pass None (making one costs
        more than most moves); a due snapshot given as None is simply written later.

        The version moves with a compare-and-set UPDATE, so a writer holding a stale game changes
        nothing and gets VersionConflict. ``timers`` is the full set wanted now, or ``None`` when
        the caller knows it is unchanged. A finished game keeps no timers, whatever ``timers``
        says. An action that does not end the game goes through the group-commit writer (SQLite
        file or PostgreSQL); the rest runs a few Core statements in one write transaction. The
        record returned is ``game`` as the commit moved it (only the counters are read back),
        carrying the caller's ``snapshot`` (the newest state) whatever was stored;
        ``snapshot_seq`` says what the database holds.
        """
        if timers is not None:
            check_timer_keys(timers)
        now = utcnow()
        game_id, expected_version = game.id, game.version
        if self._writer is not None and results is None:
            return await self._writer.record(
                ActionWrite(
                    game=game,
                    seat=seat,
                    action=action,
                    snapshot=snapshot,
                    timers=timers,
                    at=now,
                    snapshot_every=self.snapshot_every,
                )
            )
        final = functools.partial(
            _write_final,
            game=game,
            seat=seat,
            action=action,
            snapshot=snapshot,
            timers=timers,
            results=results,
            now=now,
            snapshot_every=self.snapshot_every,
        )
        written = (
            self._writer.transact_now(final) if isinstance(self._writer, SQLiteWriter) else None
        )
        if written is None:
            async with self._queued(), writer_engine(self._engine).begin() as conn:
                if self._shared is not None:  # as the group writer does (P-56)
                    await conn.execute(
                        text("SELECT pg_advisory_xact_lock(:kind, :key)"),
                        {"kind": GAME_LOCK, "key": fold_key(game_id)},
                    )
                written = await conn.run_sync(final)
        seq, snapshot_seq = written
        # Only the counters are read back (see ``ActionWrite.committed``); the record carries
        # the caller's snapshot (maybe None).
        moved = replace(
            game,
            version=expected_version + 1,
            updated_at=now,
            last_seq=seq,
            snapshot_seq=snapshot_seq,
            snapshot=snapshot,
        )
        if results is None:
            return moved
        return replace(moved, status=GameStatus.FINISHED, finished_at=now)


def _write_final(
    conn: Connection,
    *,
    game: GameRecord,
    seat: int,
    action: dict[str, Any],
    snapshot: dict[str, Any] | None,
    timers: list[TimerSpec] | None,
    results: list[ResultSpec] | None,
    now: datetime,
    snapshot_every: int,
) -> tuple[int, int]:
    """``record_action``'s write of an action that ends its game (or of any action where no
    group writer runs), in the caller's transaction on ``conn``: (its sequence number, the
    stored snapshot's). Plain statements, so it runs as it is on the SQLite loop's own
    connection (``SQLiteWriter.transact_now``) and through ``run_sync`` elsewhere."""
    game_id, expected_version = game.id, game.version
    games, log = cast(Table, Game.__table__), cast(Table, ActionRow.__table__)
    values: dict[str, Any] = {
        "version": expected_version + 1,
        "updated_at": now,
        "last_seq": games.c.last_seq + 1,
    }
    if results is not None:
        values |= {"status": GameStatus.FINISHED.value, "finished_at": now}
    row = conn.execute(
        update(games)
        .where(
            games.c.id == game_id,
            games.c.version == expected_version,
            games.c.status == GameStatus.PLAYING.value,
        )
        .values(**values)
        .returning(games.c.last_seq, games.c.snapshot_seq)
    ).first()
    if row is None:
        found = conn.execute(
            select(games.c.status, games.c.version).where(games.c.id == game_id)
        ).first()
        if found is None:
            raise GameNotFound(game_id)
        if found.status != GameStatus.PLAYING.value:
            raise WrongStatus(game_id, found.status)
        raise VersionConflict(game_id, expected_version, found.version)
    seq, snapshot_seq = row.last_seq, row.snapshot_seq
    conn.execute(log.insert().values(game_id=game_id, seq=seq, seat=seat, action=action, at=now))
    due = snapshot_due(seq, snapshot_seq, snapshot_every, ending=results is not None)
    if due and snapshot is not None:
        conn.execute(
            update(games)
            .where(games.c.id == game_id)
            .values(snapshot=snapshot, snapshot_seq=seq, updated_at=now)
        )
        snapshot_seq = seq
    if results is not None or timers is not None:
        write_timers(conn, game_id, [] if results is not None else timers or [], now)
    if results is not None:
        conn.execute(
            insert(ResultRow),
            [
                {
                    "game_id": game_id,
                    "user_id": r.user_id,
                    "seat": r.seat,
                    "score": r.score,
                    "rank": r.rank,
                    "winner": r.winner,
                    "breakdown": r.breakdown,
                }
                for r in results
            ],
        )
        update_ratings(
            conn,
            game_id=game_id,
            guild_id=game.guild_id,
            slug=game.slug,
            results=results,
            now=now,
        )
    return seq, snapshot_seq
