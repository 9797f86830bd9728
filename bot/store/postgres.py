"""What several bot processes on one PostgreSQL need from it: a lock per game, and a shared
limit on gateway IDENTIFYs.

Both are session advisory locks held on connections of their own small pool, apart from the
store's: a holder waiting for a store connection can then never starve the store, and a process
that dies (even by SIGKILL) loses its session and so every lock it held. The pool is asyncpg's
own (no SQLAlchemy in between): the game lock is taken on every click, and its three short
statements are prepared once per connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import URL

log = logging.getLogger(__name__)

#: First key of the two-key advisory locks: which kind of thing is locked (the second key is its
#: id). Arbitrary constants, chosen to be unlikely to clash with another application's locks.
GAME_LOCK = 0x6274_0001
IDENTIFY_LOCK = 0x6274_0002
SETTINGS_LOCK = 0x6274_0003


@dataclass(frozen=True, slots=True)
class GameState:
    """A game's version and status as the database holds them, read under the game's lock."""

    version: int
    status: str


class SharedLocks:
    """Advisory locks for one database, on a pool of their own."""

    def __init__(self, url: URL, *, pool_size: int = 20) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._pool_size = pool_size
        self._pool: Any = None
        self._opening = asyncio.Lock()

    async def _connections(self) -> Any:
        if self._pool is None:
            async with self._opening:
                if self._pool is None:
                    import asyncpg  # the postgres extra; SQLite installs need not have it

                    self._pool = await asyncpg.create_pool(
                        self._dsn, min_size=0, max_size=self._pool_size
                    )
        return self._pool

    @asynccontextmanager
    async def game(self, game_id: int) -> AsyncIterator[GameState | None]:
        """Hold the game's lock (other processes' ``game(game_id)`` wait) and yield its state
        as committed now, read after the lock was granted (None if there is no such game)."""
        async with self._held(GAME_LOCK, game_id) as conn:
            yield await _state(conn, game_id)

    async def state(self, game_id: int) -> GameState | None:
        """The game's committed version and status now, without its lock."""
        pool = await self._connections()
        async with pool.acquire() as conn:
            return await _state(conn, game_id)

    @asynccontextmanager
    async def identify(self, bucket: int, window: float) -> AsyncIterator[None]:
        """Discord's session-start limit: one IDENTIFY per rate-limit bucket per ``window``
        seconds, across every process. Yields once this process may IDENTIFY, and keeps the
        bucket for ``window`` seconds from then (in the background, after the block ends)."""
        held = self._held(IDENTIFY_LOCK, bucket)
        await held.__aenter__()
        released = False

        async def release_later() -> None:
            try:
                await asyncio.sleep(window)
            finally:
                await held.__aexit__(None, None, None)

        try:
            yield
            task = asyncio.get_running_loop().create_task(release_later())
            _background.add(task)
            task.add_done_callback(_background.discard)
            released = True
        finally:
            if not released:
                await held.__aexit__(None, None, None)

    @asynccontextmanager
    async def _held(self, kind: int, key: int) -> AsyncIterator[Any]:
        pool = await self._connections()
        async with pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", kind, fold_key(key))
            try:
                yield conn
            finally:
                try:
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", kind, fold_key(key))
                except BaseException:  # the session is broken: dropping it drops its locks
                    log.warning("could not release advisory lock %s/%s", kind, key)
                    conn.terminate()
                    raise

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()


_background: set[asyncio.Task[None]] = set()


async def _state(conn: Any, game_id: int) -> GameState | None:
    row = await conn.fetchrow("SELECT version, status FROM games WHERE id = $1", game_id)
    return None if row is None else GameState(int(row["version"]), str(row["status"]))


def fold_key(key: int) -> int:
    """Two-key advisory locks take 32-bit keys: fold a bigger id into that range. Two ids that
    fold together merely share a lock (they wait for each other), which is safe."""
    folded = key % (1 << 32)
    return folded - (1 << 32) if folded >= 1 << 31 else folded
