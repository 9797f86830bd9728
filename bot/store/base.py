"""The store's common ground: one engine, a read and a write session factory, the write queue
that keeps our own SQLite writers in line, and the locks other processes share on PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from .database import writer as writer_engine
from .group import ActionWriter, snapshot_due
from .postgres import GameState, SharedLocks
from .records import GameRecord

#: Default of the ``SNAPSHOT_EVERY`` setting: actions between two stored snapshots.
SNAPSHOT_EVERY = 32


class StoreBase:
    """What every part of the store shares: the engine, its read and write sessions, the write
    queue (SQLite), the cross-process locks (PostgreSQL) and the group-commit writer."""

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
        return None if self._writer is None else self._writer.groups

    @property
    def inline_commits(self) -> int:
        """Of ``group_commits``, lone actions committed on the event loop (P-59)."""
        return 0 if self._writer is None else self._writer.inline_commits

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

    async def game_state(self, game_id: int) -> GameState | None:
        """A game's committed version and status, read without any lock (a shared store only:
        a refused click asks whether its table was stale, P-56). None on SQLite or no game."""
        if self._shared is None:
            return None
        return await self._shared.state(game_id)

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

    def _queue_free(self) -> bool:
        """Whether none of the store's own writes holds or awaits SQLite's lock right now."""
        return self._write_queue is None or not self._write_queue.locked()

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncSession]:
        async with self._queued(), self._write.begin() as session:
            yield session

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncSession]:
        async with self._read.begin() as session:
            yield session
