"""The Store: every read and write the bot makes, each in one transaction.

Invariants live in the database where they can (one unfinished game per channel, unique seats,
the version check), so they hold even across processes. Writes on SQLite take the write lock at
BEGIN (see ``database.WRITE_OPTION``); on PostgreSQL they lock the game row first. Either way,
concurrent lobby operations on one game run one after another.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, Table, case, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from .database import BUSY_TIMEOUT, SYNCHRONOUS, create_engine, sqlite_file
from .database import writer as writer_engine
from .errors import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    NotSeated,
    TableFull,
    VersionConflict,
    WrongStatus,
)
from .migrate import upgrade_to_head
from .models import (
    ActionRow,
    Game,
    MemberSettingsRow,
    MessageRow,
    MetaRow,
    RatingRow,
    ResultRow,
    Seat,
    TimerRow,
    utcnow,
)
from .postgres import GameState, SharedLocks
from .ratings import Skill, Z, update_ratings
from .records import (
    UNFINISHED,
    ActionRecord,
    GameRecord,
    GameStatus,
    GameSummary,
    LeaderboardEntry,
    LobbySeat,
    MemberGameStats,
    MemberSettings,
    MessageRecord,
    PlayerResult,
    ResultRecord,
    ResultSpec,
    SeatRecord,
    TimerRecord,
    TimerSpec,
    game_record,
)
from .writer import ActionWrite, ActionWriter, SQLiteWriter, snapshot_due

_UNFINISHED = [str(s) for s in UNFINISHED]

#: Default of the ``SNAPSHOT_EVERY`` setting: actions between two stored snapshots.
SNAPSHOT_EVERY = 32


class Store:
    """Async persistence for games. Build it with :meth:`open`; close it with :meth:`close`."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        writer: ActionWriter | None = None,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self._engine = engine
        self._read = async_sessionmaker(engine, expire_on_commit=False)
        self._write = async_sessionmaker(writer_engine(engine), expire_on_commit=False)
        # SQLite has one writer at a time; two of our connections contending for its lock would
        # make the loser sleep in SQLite's busy handler (up to 100 ms a try). Queue our own
        # writers here instead: in arrival order, with no sleeping. (Other processes still
        # wait on busy_timeout.) PostgreSQL needs no such queue.
        self._write_queue: asyncio.Lock | None = (
            asyncio.Lock() if engine.dialect.name == "sqlite" else None
        )
        # Several processes may share a PostgreSQL store (P-36); one SQLite file has one.
        self._shared: SharedLocks | None = (
            SharedLocks(engine.url) if engine.dialect.name == "postgresql" else None
        )
        self.snapshot_every = snapshot_every
        """The snapshot is rewritten once this many actions passed since the stored one (and
        when the game ends); in between only the action is appended."""
        self._writer = writer

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrate: bool = True,
        busy_timeout: float = BUSY_TIMEOUT,
        snapshot_every: int = SNAPSHOT_EVERY,
        group_commit: bool = True,
        synchronous: str = SYNCHRONOUS,
    ) -> Store:
        """Connect to ``url``, first upgrading its schema to head unless ``migrate`` is False.
        On SQLite, a statement waits ``busy_timeout`` seconds for another process's write lock
        before it fails. A SQLite file commits actions through the group-commit writer unless
        ``group_commit`` is False (benches compare the two)."""
        if migrate:
            await upgrade_to_head(url)
        engine = create_engine(url, busy_timeout=busy_timeout, synchronous=synchronous)
        store = cls(engine, snapshot_every=snapshot_every)
        path = sqlite_file(url)
        if group_commit and path is not None:
            store._writer = SQLiteWriter(
                path, busy_timeout=busy_timeout, serial=store._queued, synchronous=synchronous
            )
        return store

    async def close(self) -> None:
        """Finish queued commits, then close every pooled connection (SQLite checkpoints its
        WAL when the last one goes)."""
        if self._writer is not None:
            await self._writer.close()
        if self._shared is not None:
            await self._shared.close()
        await self._engine.dispose()

    def snapshot_due(self, game: GameRecord, *, ending: bool) -> bool:
        """Whether the next action of ``game`` stores its snapshot (P-33), so a caller makes one
        only then."""
        return snapshot_due(
            game.last_seq + 1, game.snapshot_seq, self.snapshot_every, ending=ending
        )

    @property
    def group_commits(self) -> int | None:
        """Transactions the group-commit writer committed (None without one): for benches."""
        return self._writer.groups if isinstance(self._writer, SQLiteWriter) else None

    @property
    def shared(self) -> bool:
        """Whether other bot processes may write to this store (PostgreSQL) as this one does."""
        return self._shared is not None

    @asynccontextmanager
    async def game_guard(self, game_id: int) -> AsyncIterator[GameState | None]:
        """Act on a game as its only writer across processes: on PostgreSQL, hold the game's
        advisory lock and yield its committed version and status, so a stale caller reloads
        before judging anything (P-36). SQLite has one process: yields None at no cost."""
        if self._shared is None:
            yield None
            return
        async with self._shared.game(game_id) as state:
            yield state

    @asynccontextmanager
    async def identify_slot(self, bucket: int, window: float) -> AsyncIterator[None]:
        """Discord's IDENTIFY limit across processes (one per bucket per ``window`` seconds)
        on PostgreSQL; on SQLite this process is the only one and discord.py spaces its own."""
        if self._shared is None:
            yield
            return
        async with self._shared.identify(bucket, window):
            yield

    @property
    def engine(self) -> AsyncEngine:
        """The engine, for tests and admin tools that need raw SQL."""
        return self._engine

    @asynccontextmanager
    async def _queued(self) -> AsyncIterator[None]:
        if self._write_queue is None:
            yield
        else:
            async with self._write_queue:
                yield

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncSession]:
        async with self._queued(), self._write.begin() as session:
            yield session

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncSession]:
        async with self._read.begin() as session:
            yield session

    # ----------------------------------------------------------------- lobby

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
    ) -> GameRecord:
        """Open a lobby with the creator in its first place, or with ``seats`` in that order
        (a rematch: the previous table, the creator among them).

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
                    )
                    for seq, place in enumerate(places, start=1)
                )
                await session.flush()
                record = _game(game)
        except IntegrityError:
            existing = await self.active_game_in_channel(channel_id)
            if existing is None:
                raise
            raise ChannelBusy(existing.id) from None
        return record

    async def join(
        self, game_id: int, *, user_id: int, name: str, max_players: int, is_bot: bool = False
    ) -> list[SeatRecord]:
        """Take the next lobby place, or confirm the place a rematch holds for this user.
        Raises AlreadySeated, TableFull or WrongStatus."""
        async with self._writing() as session:
            game = await _lock_game(session, game_id)
            _require_status(game, GameStatus.LOBBY)
            seats = await _seat_rows(session, game_id)
            held = next((s for s in seats if s.user_id == user_id), None)
            if held is not None and not held.confirmed:
                held.confirmed, held.name = True, name
                _touch(game)
                await session.flush()
                return _seats(seats)
            if held is not None:
                raise AlreadySeated(game_id, user_id)
            if len(seats) >= max_players:
                raise TableFull(game_id, max_players)
            next_seq = max((s.join_seq for s in seats), default=0) + 1
            session.add(
                Seat(game_id=game_id, join_seq=next_seq, user_id=user_id, name=name, is_bot=is_bot)
            )
            _touch(game)
            await session.flush()
            return _seats(await _seat_rows(session, game_id))

    async def leave(self, game_id: int, user_id: int) -> list[SeatRecord]:
        """Give up a lobby place. Raises NotSeated or WrongStatus."""
        async with self._writing() as session:
            game = await _lock_game(session, game_id)
            _require_status(game, GameStatus.LOBBY)
            result = await session.execute(
                delete(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id)
            )
            if _rowcount(result) == 0:
                raise NotSeated(game_id, user_id)
            _touch(game)
            await session.flush()
            return _seats(await _seat_rows(session, game_id))

    async def set_away(self, game_id: int, user_id: int, *, away: bool) -> list[SeatRecord]:
        """Hand a member's seat in a game being played to a bot (``away``), or give it back.
        Raises NotSeated (no such member's seat) or WrongStatus (the game is not playing)."""
        async with self._writing() as session:
            game = await _lock_game(session, game_id)
            _require_status(game, GameStatus.PLAYING)
            seats = await _seat_rows(session, game_id)
            seat = next((s for s in seats if s.user_id == user_id and not s.is_bot), None)
            if seat is None:
                raise NotSeated(game_id, user_id)
            seat.away = away
            _touch(game)
            await session.flush()
            return _seats(seats)

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
        _check_timer_keys(timers)
        async with self._writing() as session:
            game = await _lock_game(session, game_id)
            _require_status(game, GameStatus.LOBBY)
            if game.version != expected_version:
                raise VersionConflict(game_id, expected_version, game.version)
            seats = {}
            for s in await _seat_rows(session, game_id):
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
            _touch(game)
            await _replace_timers(session, game_id, timers)
            await session.flush()
            return _game(game)

    async def cancel(self, game_id: int) -> GameRecord:
        """Lobby or playing -> cancelled: frees the channel and drops the game's timers."""
        async with self._writing() as session:
            game = await _lock_game(session, game_id)
            _require_status(game, *UNFINISHED)
            now = utcnow()
            game.status = GameStatus.CANCELLED.value
            game.finished_at = now
            _touch(game, now)
            await _replace_timers(session, game_id, [])
            await session.flush()
            return _game(game)

    # ------------------------------------------------------------------ play

    async def record_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: dict[str, Any],
        snapshot: dict[str, Any] | None,
        timers: list[TimerSpec] | None,
        results: list[ResultSpec] | None = None,
    ) -> GameRecord:
        """Commit one applied action: log entry, version, timers and, if the game ended, its
        results, all or nothing; and ``snapshot`` (the state after the action) when
        ``snapshot_every`` actions passed since the stored one, or the game ended. Durable when
        this returns. A caller that knows no snapshot is due may pass None (making one costs
        more than most moves); a due snapshot given as None is simply written later.

        The version moves with a compare-and-set UPDATE, so a writer holding a stale game changes
        nothing and gets VersionConflict. ``timers`` is the full set wanted now, or ``None`` when
        the caller knows it is unchanged. A finished game keeps no timers, whatever ``timers``
        says. On a SQLite file an action that does not end the game goes through the
        group-commit writer (``writer.py``); the rest runs a few Core statements in one write
        transaction. The record returned carries the caller's ``snapshot`` (the newest state)
        whatever was stored; ``snapshot_seq`` says what the database holds.
        """
        if timers is not None:
            _check_timer_keys(timers)
        now = utcnow()
        if self._writer is not None and results is None:
            return await self._writer.record(
                ActionWrite(
                    game_id=game_id,
                    expected_version=expected_version,
                    seat=seat,
                    action=action,
                    snapshot=snapshot,
                    timers=timers,
                    at=now,
                    snapshot_every=self.snapshot_every,
                )
            )
        games, log = cast(Table, Game.__table__), cast(Table, ActionRow.__table__)
        values: dict[str, Any] = {
            "version": expected_version + 1,
            "updated_at": now,
            "last_seq": games.c.last_seq + 1,
        }
        if results is not None:
            values |= {"status": GameStatus.FINISHED.value, "finished_at": now}
        kept = [c for c in games.c if c.name != "snapshot"]
        async with self._queued(), writer_engine(self._engine).begin() as conn:
            row = (
                await conn.execute(
                    update(games)
                    .where(
                        games.c.id == game_id,
                        games.c.version == expected_version,
                        games.c.status == GameStatus.PLAYING.value,
                    )
                    .values(**values)
                    .returning(*kept)
                )
            ).first()
            if row is None:
                found = (
                    await conn.execute(
                        select(games.c.status, games.c.version).where(games.c.id == game_id)
                    )
                ).first()
                if found is None:
                    raise GameNotFound(game_id)
                if found.status != GameStatus.PLAYING.value:
                    raise WrongStatus(game_id, found.status)
                raise VersionConflict(game_id, expected_version, found.version)
            seq, snapshot_seq = row.last_seq, row.snapshot_seq
            await conn.execute(
                log.insert().values(game_id=game_id, seq=seq, seat=seat, action=action, at=now)
            )
            due = snapshot_due(seq, snapshot_seq, self.snapshot_every, ending=results is not None)
            if due and snapshot is not None:
                await conn.execute(
                    update(games)
                    .where(games.c.id == game_id)
                    .values(snapshot=snapshot, snapshot_seq=seq, updated_at=now)
                )
                snapshot_seq = seq
            if results is not None or timers is not None:
                await _replace_timers(
                    conn, game_id, [] if results is not None else timers or [], now
                )
            if results is not None:
                await conn.execute(
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
                await update_ratings(
                    conn,
                    game_id=game_id,
                    guild_id=row.guild_id,
                    slug=row.slug,
                    results=results,
                    now=now,
                )
        # The snapshot is not read back: the record carries the caller's (maybe None).
        return game_record({**row._mapping, "snapshot_seq": snapshot_seq}, snapshot=snapshot)

    # ----------------------------------------------------------------- reads

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None if no such id."""
        async with self._reading() as session:
            game = await session.get(Game, game_id)
            return None if game is None else _game(game)

    async def active_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or game in play that holds the channel, if any."""
        async with self._reading() as session:
            game = await session.scalar(
                select(Game).where(Game.channel_id == channel_id, Game.status.in_(_UNFINISHED))
            )
            return None if game is None else _game(game)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """Places at the table: join order in the lobby, seat order once started."""
        async with self._reading() as session:
            return _seats(await _seat_rows(session, game_id))

    async def actions(self, game_id: int) -> list[ActionRecord]:
        """The action log in seq order (for replay)."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
            )
            return _actions(rows)

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
            return [_game(g) for g in rows]

    async def games_changed_since(self, since: datetime) -> list[GameRecord]:
        """Games being played that changed at ``since`` or later: a restarted bot loads these,
        whose turn pings may still be due (P-46)."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(Game)
                .where(Game.status == GameStatus.PLAYING.value, Game.updated_at >= since)
                .order_by(Game.id)
            )
            return [_game(g) for g in rows]

    async def _games_with_status(self, status: GameStatus) -> list[GameRecord]:
        async with self._reading() as session:
            rows = await session.scalars(
                select(Game).where(Game.status == status.value).order_by(Game.id)
            )
            return [_game(g) for g in rows]

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
            return [_game(g) for g in rows]

    # ------------------------------------------------------------------- web

    async def game_by_web_token(self, token: str) -> GameRecord | None:
        """The game whose web page has this token, or None."""
        async with self._reading() as session:
            game = await session.scalar(select(Game).where(Game.web_token == token))
            return None if game is None else _game(game)

    async def actions_after(self, game_id: int, seq: int) -> list[ActionRecord]:
        """The log entries after ``seq``, in order: what a replay that knows the first ``seq``
        still lacks (a live game's page reads only its new moves)."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq > seq)
                .order_by(ActionRow.seq)
            )
            return _actions(rows)

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

    # -------------------------------------------------------------- messages

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember (or replace) the message that shows ``kind`` for this game."""
        async with self._writing() as session:
            await _lock_game(session, game_id)
            values = {
                "game_id": game_id,
                "kind": kind,
                "channel_id": channel_id,
                "message_id": message_id,
            }
            changes = {"channel_id": channel_id, "message_id": message_id}
            dialect = session.bind.dialect.name if session.bind is not None else ""
            if dialect in ("sqlite", "postgresql"):
                insert = (sqlite.insert if dialect == "sqlite" else postgresql.insert)(MessageRow)
                await session.execute(
                    insert.values(**values).on_conflict_do_update(
                        index_elements=[MessageRow.game_id, MessageRow.kind], set_=changes
                    )
                )
            else:  # portable fallback; the game row lock above keeps it race-free
                row = await session.scalar(
                    select(MessageRow).where(MessageRow.game_id == game_id, MessageRow.kind == kind)
                )
                if row is None:
                    session.add(MessageRow(**values))
                else:
                    row.channel_id, row.message_id = channel_id, message_id

    async def messages(self, game_id: int) -> dict[str, MessageRecord]:
        """The game's messages by kind."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(MessageRow).where(MessageRow.game_id == game_id).order_by(MessageRow.id)
            )
            return {
                r.kind: MessageRecord(
                    game_id=r.game_id, kind=r.kind, channel_id=r.channel_id, message_id=r.message_id
                )
                for r in rows
            }

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        """A bot-wide value remembered across restarts, or None if never set."""
        async with self._reading() as session:
            row = await session.get(MetaRow, key)
            return None if row is None else row.value

    async def set_meta(self, key: str, value: str) -> None:
        """Remember (or replace) a bot-wide value."""
        async with self._writing() as session:
            row = await session.get(MetaRow, key)
            if row is None:
                session.add(MetaRow(key=key, value=value, updated_at=utcnow()))
            else:
                row.value, row.updated_at = value, utcnow()

    # ------------------------------------------------------- member settings

    async def member_settings(self, user_ids: Iterable[int]) -> dict[int, MemberSettings]:
        """Each member's settings (the defaults for a member who never changed one)."""
        wanted = set(user_ids)
        found = {uid: MemberSettings(uid) for uid in wanted}
        if not wanted:
            return found
        async with self._reading() as session:
            rows = await session.scalars(
                select(MemberSettingsRow).where(MemberSettingsRow.user_id.in_(wanted))
            )
            for row in rows:
                found[row.user_id] = MemberSettings(row.user_id, pings=row.pings)
        return found

    async def set_member_settings(self, user_id: int, *, pings: bool) -> MemberSettings:
        """Remember a member's choice; returns their settings now."""
        async with self._writing() as session:
            row = await session.get(MemberSettingsRow, user_id)
            if row is None:
                session.add(MemberSettingsRow(user_id=user_id, pings=pings, updated_at=utcnow()))
            else:
                row.pings, row.updated_at = pings, utcnow()
        return MemberSettings(user_id, pings=pings)

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
        """The newest finished games (of a server or a channel) with their results."""
        games = await self.finished_games(limit, guild_id=guild_id, channel_id=channel_id)
        if not games:
            return []
        players: dict[int, list[PlayerResult]] = {g.id: [] for g in games}
        async with self._reading() as session:
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


# ------------------------------------------------------------------- helpers


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


async def _lock_game(session: AsyncSession, game_id: int) -> Game:
    """Load the game for writing. FOR UPDATE serialises writers on PostgreSQL; SQLite ignores it
    (its writers already hold the database lock from BEGIN IMMEDIATE)."""
    game = await session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise GameNotFound(game_id)
    return game


def _require_status(game: Game, *allowed: GameStatus) -> None:
    if game.status not in {s.value for s in allowed}:
        raise WrongStatus(game.id, game.status)


def _touch(game: Game, now: datetime | None = None) -> None:
    """Every change a stale caller must not overwrite moves the version."""
    game.version += 1
    game.updated_at = now or utcnow()


def _check_timer_keys(timers: Sequence[TimerSpec]) -> None:
    keys = [t.key for t in timers]
    if len(keys) != len(set(keys)):
        raise ValueError(f"duplicate timer keys in {keys}")


async def _replace_timers(
    db: AsyncSession | AsyncConnection,
    game_id: int,
    timers: Sequence[TimerSpec],
    now: datetime | None = None,
) -> None:
    """Make the game's timers exactly ``timers`` (works inside a session or on a connection)."""
    table = cast(Table, TimerRow.__table__)
    await db.execute(delete(table).where(table.c.game_id == game_id))
    if timers:
        created = now or utcnow()
        await db.execute(
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


async def _seat_rows(session: AsyncSession, game_id: int) -> list[Seat]:
    rows = list(await session.scalars(select(Seat).where(Seat.game_id == game_id)))
    # Seat order once assigned, join order before; sorted here to avoid NULLS LAST dialect quirks.
    rows.sort(key=lambda s: (s.seat is None, s.seat if s.seat is not None else 0, s.join_seq))
    return rows


def _rowcount(result: Any) -> int:
    return cast(CursorResult[Any], result).rowcount


def _actions(rows: Iterable[ActionRow]) -> list[ActionRecord]:
    return [
        ActionRecord(game_id=r.game_id, seq=r.seq, seat=r.seat, action=r.action, at=r.at)
        for r in rows
    ]


def _game(game: Game) -> GameRecord:
    """A record from an ORM game, read by column name as every games row is."""
    return game_record(
        {column.key: getattr(game, column.key) for column in _GAME_COLUMNS},
        snapshot=game.snapshot,
    )


_GAME_COLUMNS = list(cast(Table, Game.__table__).c)


def _seats(rows: Sequence[Seat]) -> list[SeatRecord]:
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
        )
        for s in rows
    ]
