"""Build a running Table without a database, for presenter tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.host.table import Outcome, Table
from bot.host.view import TableView
from bot.store.records import GameRecord, GameStatus, SeatRecord
from rules.core import GAMES

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def make_table(
    slug: str,
    players: int,
    seed: int = 1,
    options: dict[str, str] | None = None,
    *,
    names: list[str] | None = None,
    game_id: int = 1,
) -> Table:
    """A started game with seats 0..n-1 held by users 100, 101, ... named ``p0, p1, ...``."""
    cls = GAMES[slug]
    engine = cls.new(players, seed, options)
    record = GameRecord(
        id=game_id,
        slug=slug,
        guild_id=10,
        channel_id=20,
        creator_id=100,
        status=GameStatus.PLAYING,
        seed=seed,
        options=cls.resolve_options(options),
        players=players,
        snapshot=engine.to_dict(),
        version=1,
        created_at=NOW,
        updated_at=NOW,
        finished_at=None,
    )
    names = names or [f"p{i}" for i in range(players)]
    seats = [
        SeatRecord(
            game_id=game_id, user_id=100 + i, name=names[i], is_bot=False, seat=i, join_seq=i
        )
        for i in range(players)
    ]
    return Table(record, cls, seats, engine=engine, committed=engine.to_dict())


def act(table: Table, seat: int, action: dict[str, Any]) -> Outcome:
    """Apply an action the way the host does (without the database) and return its Outcome."""
    engine = table.running()
    before = engine.turn
    events = engine.apply(seat, action)
    table.committed = engine.to_dict()
    return Outcome(table.view(), seat, action, events, engine.is_over, before, engine.turn)


def after(outcome: Outcome) -> tuple[TableView, Outcome]:
    """A presenter's arguments for an outcome: the table as the move left it, and the move."""
    return outcome.view, outcome
