"""Reads of games as they stand: a game, its seats, its log, its timers, and the games a
restarted bot must load."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from .base import StoreBase
from .models import ActionRow, Game, Seat, TimerRow
from .records import ActionRecord, GameRecord, GameStatus, SeatRecord, TimerRecord
from .rows import action_records, game_from_orm, seat_records, seat_rows


class GameReads(StoreBase):
    """Reads of games being set up or played, and of their logs and timers."""

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None if no such id."""
        async with self._reading() as session:
            game = await session.get(Game, game_id)
            return None if game is None else game_from_orm(game)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """Places at the table: join order in the lobby, seat order once started."""
        async with self._reading() as session:
            return seat_records(await seat_rows(session, game_id))

    async def actions(self, game_id: int) -> list[ActionRecord]:
        """The action log in seq order (for replay)."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
            )
            return action_records(rows)

    async def games_in_play(self) -> list[GameRecord]:
        """Every game being played, so a restarted bot can rebuild its tables."""
        return await self._games_with_status(GameStatus.PLAYING)

    async def open_lobbies(self) -> list[GameRecord]:
        """Every open lobby, so a restarted bot can revive its buttons."""
        return await self._games_with_status(GameStatus.LOBBY)

    async def games_played_by_bots(self) -> list[GameRecord]:
        """Games being played with a seat a bot plays (a bot's, or an away member's): a
        restarted bot loads these at once, since nobody else will move them on."""
        bot_seats = select(Seat.game_id).where(Seat.is_bot | Seat.away).distinct().scalar_subquery()
        async with self._reading() as session:
            rows = await session.scalars(
                select(Game)
                .where(Game.status == GameStatus.PLAYING.value, Game.id.in_(bot_seats))
                .order_by(Game.id)
            )
            return [game_from_orm(g) for g in rows]

    async def games_changed_since(
        self, since: datetime, *, time_control: str | None = None
    ) -> list[GameRecord]:
        """Games being played that changed at ``since`` or later: a restarted bot loads these,
        whose turn pings may still be due (P-46); only those of one ``time_control`` if given
        (turn-based games remind up to 12 h into a wait, P-71)."""
        query = select(Game).where(
            Game.status == GameStatus.PLAYING.value, Game.updated_at >= since
        )
        if time_control is not None:
            query = query.where(Game.time_control == time_control)
        async with self._reading() as session:
            rows = await session.scalars(query.order_by(Game.id))
            return [game_from_orm(g) for g in rows]

    async def _games_with_status(self, status: GameStatus) -> list[GameRecord]:
        async with self._reading() as session:
            rows = await session.scalars(
                select(Game).where(Game.status == status.value).order_by(Game.id)
            )
            return [game_from_orm(g) for g in rows]

    # ------------------------------------------------------------------- web

    async def game_by_web_token(self, token: str) -> GameRecord | None:
        """The game whose web page has this token, or None."""
        async with self._reading() as session:
            game = await session.scalar(select(Game).where(Game.web_token == token))
            return None if game is None else game_from_orm(game)

    async def actions_after(self, game_id: int, seq: int) -> list[ActionRecord]:
        """The log entries after ``seq``, in order: what a replay that knows the first ``seq``
        still lacks (a live game's page reads only its new moves)."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq > seq)
                .order_by(ActionRow.seq)
            )
            return action_records(rows)

    # ---------------------------------------------------------------- timers

    async def all_timers(self) -> list[TimerRecord]:
        """Every persisted timer, earliest first: a restarted host schedules them all without
        loading their games (P-32)."""
        return await self._timers()

    async def timers(self, game_id: int) -> list[TimerRecord]:
        """One game's timers, earliest first."""
        return await self._timers(TimerRow.game_id == game_id)

    async def _timers(self, *where: Any) -> list[TimerRecord]:
        async with self._reading() as session:
            rows = await session.scalars(
                select(TimerRow)
                .where(*where)
                .order_by(TimerRow.due_at, TimerRow.game_id, TimerRow.key)
            )
            return [
                TimerRecord(
                    game_id=r.game_id,
                    key=r.key,
                    due_at=r.due_at,
                    action=r.action,
                    created_at=r.created_at,
                )
                for r in rows
            ]
