"""Games from lobby to start or cancel: opening a lobby, joining, leaving, handing a seat to a
bot, starting and cancelling, and which game holds a channel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from .base import StoreBase
from .errors import AlreadySeated, ChannelBusy, NotSeated, TableFull, VersionConflict
from .models import Game, Seat, utcnow
from .records import UNFINISHED, BotLevel, GameRecord, GameStatus, LobbySeat, SeatRecord, TimerSpec
from .rows import (
    UNFINISHED_VALUES,
    check_timer_keys,
    game_from_orm,
    lock_game,
    replace_timers,
    require_status,
    rowcount,
    seat_records,
    seat_rows,
    touch,
)


class LobbyStore(StoreBase):
    """Writes that open, fill and start a game, or end it before its results."""

    async def create_lobby(
        self,
        *,
        slug: str,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        creator_name: str,
        options: dict[str, str],
        seed: int,
        seats: Sequence[LobbySeat] = (),
        policy: dict[str, Any] | None = None,
        time_control: str | None = None,
    ) -> GameRecord:
        """Open a lobby with the creator in its first place, or with ``seats`` in that order
        (a rematch: the previous table, the creator among them). ``policy``: the server's
        policy as it opens, kept with the game (P-64); ``time_control`` is stored with the game
        for its whole life (P-71).

        The partial unique index decides whether the channel is free; the lookup afterwards only
        names the game that holds it.
        """
        places = list(seats) or [LobbySeat(creator_id, creator_name)]
        if not any(p.user_id == creator_id and p.confirmed for p in places):
            raise ValueError("the creator must have a confirmed place in the lobby")
        try:
            async with self._writing() as session:
                now = utcnow()
                game = Game(
                    slug=slug,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    creator_id=creator_id,
                    status=GameStatus.LOBBY.value,
                    seed=seed,
                    options=dict(options),
                    policy=policy,
                    time_control=time_control,
                    version=0,
                    created_at=now,
                    updated_at=now,
                )
                session.add(game)
                await session.flush()
                session.add_all(
                    Seat(
                        game_id=game.id,
                        join_seq=seq,
                        user_id=place.user_id,
                        name=place.name,
                        is_bot=place.is_bot,
                        confirmed=place.confirmed,
                        bot_level=place.bot_level,
                    )
                    for seq, place in enumerate(places, start=1)
                )
                await session.flush()
                record = game_from_orm(game)
        except IntegrityError:
            existing = await self.active_game_in_channel(channel_id)
            if existing is None:
                raise
            raise ChannelBusy(existing.id) from None
        return record

    async def join(
        self,
        game_id: int,
        *,
        user_id: int,
        name: str,
        max_players: int,
        is_bot: bool = False,
        bot_level: BotLevel = "easy",
    ) -> list[SeatRecord]:
        """Take the next lobby place, or confirm the place a rematch holds for this user
        (``bot_level``: a bot player's level). Raises AlreadySeated, TableFull or WrongStatus."""
        async with self._writing() as session:
            game = await lock_game(session, game_id)
            require_status(game, GameStatus.LOBBY)
            seats = await seat_rows(session, game_id)
            held = next((s for s in seats if s.user_id == user_id), None)
            if held is not None and not held.confirmed:
                held.confirmed, held.name = True, name
                touch(game)
                await session.flush()
                return seat_records(seats)
            if held is not None:
                raise AlreadySeated(game_id, user_id)
            if len(seats) >= max_players:
                raise TableFull(game_id, max_players)
            next_seq = max((s.join_seq for s in seats), default=0) + 1
            session.add(
                Seat(
                    game_id=game_id,
                    join_seq=next_seq,
                    user_id=user_id,
                    name=name,
                    is_bot=is_bot,
                    bot_level=bot_level,
                )
            )
            touch(game)
            await session.flush()
            return seat_records(await seat_rows(session, game_id))

    async def leave(self, game_id: int, user_id: int) -> list[SeatRecord]:
        """Give up a lobby place. Raises NotSeated or WrongStatus."""
        async with self._writing() as session:
            game = await lock_game(session, game_id)
            require_status(game, GameStatus.LOBBY)
            result = await session.execute(
                delete(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id)
            )
            if rowcount(result) == 0:
                raise NotSeated(game_id, user_id)
            touch(game)
            await session.flush()
            return seat_records(await seat_rows(session, game_id))

    async def set_away(
        self,
        game_id: int,
        user_id: int,
        *,
        away: bool,
        expected_version: int,
        level: BotLevel | None = None,
    ) -> tuple[GameRecord, list[SeatRecord]]:
        """Hand a member's seat in a game being played to a bot (``away``) of ``level``, or
        give it back, if the game is still at ``expected_version``: the game as the caller
        knows it, returned with the change counted, so its record never counts a move the
        caller has not seen (P-36). Raises VersionConflict (the game moved on), NotSeated (no
        such member's seat) or WrongStatus (the game is not playing)."""
        async with self._writing() as session:
            game = await lock_game(session, game_id)
            require_status(game, GameStatus.PLAYING)
            if game.version != expected_version:
                raise VersionConflict(game_id, expected_version, game.version)
            seats = await seat_rows(session, game_id)
            seat = next((s for s in seats if s.user_id == user_id and not s.is_bot), None)
            if seat is None:
                raise NotSeated(game_id, user_id)
            seat.away = away
            if level is not None:
                seat.bot_level = level
            touch(game)
            await session.flush()
            return game_from_orm(game), seat_records(seats)

    async def start(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat_order: list[int],
        snapshot: dict[str, Any],
        timers: list[TimerSpec],
    ) -> GameRecord:
        """Lobby -> playing: seat ``seat_order`` (user ids) as seats 0..n-1 and store the first
        snapshot. ``expected_version`` is the lobby as the caller saw it (joins and leaves bump
        it), so a start racing a join fails with VersionConflict instead of dropping the joiner.
        ``seat_order`` must name exactly the seated users (ValueError otherwise: a caller bug).
        Places a rematch held for players who never confirmed are given up here."""
        check_timer_keys(timers)
        async with self._writing() as session:
            game = await lock_game(session, game_id)
            require_status(game, GameStatus.LOBBY)
            if game.version != expected_version:
                raise VersionConflict(game_id, expected_version, game.version)
            seats = {}
            for s in await seat_rows(session, game_id):
                if s.confirmed:
                    seats[s.user_id] = s
                else:
                    await session.delete(s)
            if not seat_order or sorted(seat_order) != sorted(seats):
                raise ValueError(
                    f"seat_order {seat_order} must be a permutation of seated users {sorted(seats)}"
                )
            for index, user_id in enumerate(seat_order):
                seats[user_id].seat = index
            game.status = GameStatus.PLAYING.value
            game.players = len(seat_order)
            game.snapshot = snapshot
            touch(game)
            await replace_timers(session, game_id, timers)
            await session.flush()
            return game_from_orm(game)

    async def cancel(
        self, game_id: int, *, ended_by: int | None = None, name: str = "", reason: str = ""
    ) -> GameRecord:
        """Lobby or playing -> cancelled: frees the channel and drops the game's timers.
        ``ended_by``: a moderator ended it (`/bugs end`, P-72), kept with their name and
        reason so the history can say so; nobody wins and no rating moves."""
        async with self._writing() as session:
            game = await lock_game(session, game_id)
            require_status(game, *UNFINISHED)
            now = utcnow()
            game.status = GameStatus.CANCELLED.value
            game.finished_at = now
            if ended_by is not None:
                game.ended_by, game.ended_by_name = ended_by, name[:100]
                game.end_reason = reason[:200] or None
            touch(game, now)
            await replace_timers(session, game_id, [])
            await session.flush()
            return game_from_orm(game)

    async def active_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or game in play that holds the channel, if any."""
        async with self._reading() as session:
            game = await session.scalar(
                select(Game).where(
                    Game.channel_id == channel_id, Game.status.in_(UNFINISHED_VALUES)
                )
            )
            return None if game is None else game_from_orm(game)
