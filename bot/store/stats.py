"""Finished games and what they add up to: results, histories, leaderboards, member stats."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from .base import StoreBase
from .models import Game, RatingRow, ResultRow, Seat
from .ratings import Skill, Z
from .records import (
    GameRecord,
    GameStatus,
    GameSummary,
    LeaderboardEntry,
    MemberGameStats,
    PlayerResult,
    ResultRecord,
)
from .rows import game_from_orm


class StatsStore(StoreBase):
    """Reads of finished games, their results and the ratings they made."""

    async def finished_games(
        self, limit: int = 100, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> list[GameRecord]:
        """Finished games, newest first; only one server's or one channel's if given."""
        query = select(Game).where(Game.status == GameStatus.FINISHED.value)
        if guild_id is not None:
            query = query.where(Game.guild_id == guild_id)
        if channel_id is not None:
            query = query.where(Game.channel_id == channel_id)
        async with self._reading() as session:
            rows = await session.scalars(
                query.order_by(Game.finished_at.desc(), Game.id.desc()).limit(limit)
            )
            return [game_from_orm(g) for g in rows]

    # ----------------------------------------------------------------- stats

    async def results(self, game_id: int) -> list[ResultRecord]:
        """Final results in seat order (empty unless the game finished)."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(ResultRow).where(ResultRow.game_id == game_id).order_by(ResultRow.seat)
            )
            return [
                ResultRecord(
                    game_id=r.game_id,
                    user_id=r.user_id,
                    seat=r.seat,
                    score=r.score,
                    rank=r.rank,
                    winner=r.winner,
                    breakdown=r.breakdown,
                )
                for r in rows
            ]

    async def leaderboard(
        self, guild_id: int, slug: str, limit: int = 10
    ) -> list[LeaderboardEntry]:
        """One server's best at one game by conservative rating (rated members only), with
        their finished games and wins at it there."""
        conservative = RatingRow.mu - Z * RatingRow.sigma  # openskill's ordinal, in SQL
        async with self._reading() as session:
            ratings = list(
                await session.scalars(
                    select(RatingRow)
                    .where(RatingRow.guild_id == guild_id, RatingRow.slug == slug)
                    .order_by(conservative.desc(), RatingRow.user_id)
                    .limit(limit)
                )
            )
            records = await _records(
                session, guild_id, slug=slug, user_ids=[r.user_id for r in ratings]
            )
        entries = []
        for r in ratings:
            games, wins, _ = records.get((slug, r.user_id), (0, 0, 0))
            skill = Skill(r.mu, r.sigma)
            entries.append(
                LeaderboardEntry(r.user_id, r.name, skill.ordinal, r.mu, r.sigma, games, wins)
            )
        return entries

    async def member_stats(self, guild_id: int, user_id: int) -> list[MemberGameStats]:
        """A member's finished games, wins, best score and rating per game in one server."""
        async with self._reading() as session:
            records = await _records(session, guild_id, user_ids=[user_id])
            ratings = {
                r.slug: Skill(r.mu, r.sigma).ordinal
                for r in await session.scalars(
                    select(RatingRow).where(
                        RatingRow.guild_id == guild_id, RatingRow.user_id == user_id
                    )
                )
            }
        return [
            MemberGameStats(slug, games, wins, best, ratings.get(slug))
            for (slug, _), (games, wins, best) in sorted(records.items())
        ]

    async def recent_games(
        self, *, guild_id: int | None = None, channel_id: int | None = None, limit: int = 10
    ) -> list[GameSummary]:
        """The newest finished games (of a server or a channel) with their results, and the
        games a moderator ended (P-72: their players, no scores, ``game.ended_by`` set)."""
        ended = (Game.status == GameStatus.CANCELLED.value) & Game.ended_by.is_not(None)
        query = select(Game).where((Game.status == GameStatus.FINISHED.value) | ended)
        if guild_id is not None:
            query = query.where(Game.guild_id == guild_id)
        if channel_id is not None:
            query = query.where(Game.channel_id == channel_id)
        async with self._reading() as session:
            found = await session.scalars(
                query.order_by(Game.finished_at.desc(), Game.id.desc()).limit(limit)
            )
            games = [game_from_orm(g) for g in found]
        if not games:
            return []
        players: dict[int, list[PlayerResult]] = {g.id: [] for g in games}
        async with self._reading() as session:
            stopped = [g.id for g in games if g.ended_by is not None]
            for seat in await session.scalars(
                select(Seat)
                .where(Seat.game_id.in_(stopped), Seat.seat.is_not(None))
                .order_by(Seat.game_id, Seat.seat)
            ):
                players[seat.game_id].append(
                    PlayerResult(
                        user_id=seat.user_id,
                        name=seat.name,
                        is_bot=seat.is_bot,
                        seat=seat.seat or 0,
                        score=0,
                        rank=0,
                        winner=False,
                    )
                )
            rows = await session.execute(
                select(ResultRow, Seat.name, Seat.is_bot)
                .join(
                    Seat, (Seat.game_id == ResultRow.game_id) & (Seat.user_id == ResultRow.user_id)
                )
                .where(ResultRow.game_id.in_(players))
                .order_by(ResultRow.game_id, ResultRow.rank, ResultRow.seat)
            )
            for result, name, is_bot in rows:
                players[result.game_id].append(
                    PlayerResult(
                        user_id=result.user_id,
                        name=name,
                        is_bot=is_bot,
                        seat=result.seat,
                        score=result.score,
                        rank=result.rank,
                        winner=result.winner,
                    )
                )
        return [GameSummary(g, tuple(players[g.id])) for g in games]


async def _records(
    session: AsyncSession, guild_id: int, *, user_ids: Sequence[int], slug: str | None = None
) -> dict[tuple[str, int], tuple[int, int, int]]:
    """(slug, user) -> (finished games, wins, best score) in one server."""
    query = (
        select(
            Game.slug,
            ResultRow.user_id,
            func.count(),
            func.sum(case((ResultRow.winner, 1), else_=0)),
            func.max(ResultRow.score),
        )
        .join(Game, Game.id == ResultRow.game_id)
        .where(
            Game.guild_id == guild_id,
            Game.status == GameStatus.FINISHED.value,
            ResultRow.user_id.in_(user_ids),
        )
        .group_by(Game.slug, ResultRow.user_id)
    )
    if slug is not None:
        query = query.where(Game.slug == slug)
    return {
        (row_slug, user): (int(games), int(wins or 0), int(best))
        for row_slug, user, games, wins, best in await session.execute(query)
    }
