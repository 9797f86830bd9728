"""What the store's parts share below the class: ORM rows to plain records, and the steps
several writes take (lock the game, check its status, move its version, replace its timers)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, CursorResult, Table, delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import Session

from rules.core.bots import LEVELS, Level

from .errors import GameNotFound, WrongStatus
from .models import ActionRow, Game, Seat, TimerRow, utcnow
from .records import (
    UNFINISHED,
    ActionRecord,
    GameRecord,
    GameStatus,
    SeatRecord,
    TimerSpec,
    game_record,
)

UNFINISHED_VALUES = [str(s) for s in UNFINISHED]


async def lock_game(session: AsyncSession, game_id: int) -> Game:
    """Load the game for writing. FOR UPDATE serialises writers on PostgreSQL; SQLite ignores it
    (its writers already hold the database lock from BEGIN IMMEDIATE)."""
    game = await session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise GameNotFound(game_id)
    return game


def require_status(game: Game, *allowed: GameStatus) -> None:
    if game.status not in {s.value for s in allowed}:
        raise WrongStatus(game.id, game.status)


def touch(game: Game, now: datetime | None = None) -> None:
    """Every change a stale caller must not overwrite moves the version."""
    game.version += 1
    game.updated_at = now or utcnow()


def check_timer_keys(timers: Sequence[TimerSpec]) -> None:
    keys = [t.key for t in timers]
    if len(keys) != len(set(keys)):
        raise ValueError(f"duplicate timer keys in {keys}")


async def replace_timers(
    db: AsyncSession | AsyncConnection,
    game_id: int,
    timers: Sequence[TimerSpec],
    now: datetime | None = None,
) -> None:
    """Make the game's timers exactly ``timers`` (works inside a session or on a connection)."""
    await db.run_sync(write_timers, game_id, timers, now)


def write_timers(
    db: Session | Connection,
    game_id: int,
    timers: Sequence[TimerSpec],
    now: datetime | None = None,
) -> None:
    """``replace_timers`` in a transaction of plain (not async) SQLAlchemy."""
    table = cast(Table, TimerRow.__table__)
    db.execute(delete(table).where(table.c.game_id == game_id))
    if timers:
        created = now or utcnow()
        db.execute(
            insert(table),
            [
                {
                    "game_id": game_id,
                    "key": t.key,
                    "due_at": t.due_at,
                    "action": t.action,
                    "created_at": created,
                }
                for t in timers
            ],
        )


async def seat_rows(session: AsyncSession, game_id: int) -> list[Seat]:
    rows = list(await session.scalars(select(Seat).where(Seat.game_id == game_id)))
    # Seat order once assigned, join order before; sorted here to avoid NULLS LAST dialect quirks.
    rows.sort(key=lambda s: (s.seat is None, s.seat if s.seat is not None else 0, s.join_seq))
    return rows


def rowcount(result: Any) -> int:
    return cast(CursorResult[Any], result).rowcount


def action_records(rows: Iterable[ActionRow]) -> list[ActionRecord]:
    return [
        ActionRecord(game_id=r.game_id, seq=r.seq, seat=r.seat, action=r.action, at=r.at)
        for r in rows
    ]


def game_from_orm(game: Game) -> GameRecord:
    """A record from an ORM game, read by column name as every games row is."""
    return game_record(
        {column.key: getattr(game, column.key) for column in _GAME_COLUMNS},
        snapshot=game.snapshot,
    )


_GAME_COLUMNS = list(cast(Table, Game.__table__).c)


def bot_level(stored: str) -> Level:
    """A stored level; anything else (a row from a newer bot, say) plays as ``easy``."""
    for level in LEVELS:
        if level == stored:
            return level
    return "easy"


def seat_records(rows: Sequence[Seat]) -> list[SeatRecord]:
    return [
        SeatRecord(
            game_id=s.game_id,
            user_id=s.user_id,
            name=s.name,
            is_bot=s.is_bot,
            seat=s.seat,
            join_seq=s.join_seq,
            confirmed=s.confirmed,
            away=s.away,
            bot_level=bot_level(s.bot_level),
        )
        for s in rows
    ]
