"""In-memory alarms for the deadlines the store persists.

The database is the source of truth (a restart reloads every timer); this only wakes the host up
when one is due. Each game's alarms are replaced as a set after every accepted action.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime

log = logging.getLogger(__name__)

Fire = Callable[[int, str], Awaitable[object]]


def utcnow() -> datetime:
    return datetime.now(UTC)


class TimerScheduler:
    """One asyncio task per (game, key), sleeping until the due time and then calling ``fire``."""

    def __init__(self, fire: Fire, clock: Callable[[], datetime] = utcnow) -> None:
        self._fire = fire
        self._clock = clock
        self._tasks: dict[tuple[int, str], tuple[datetime, asyncio.Task[None]]] = {}
        self._closed = False

    def set_game(self, game_id: int, timers: Iterable[tuple[str, datetime]]) -> None:
        """Make the game's alarms exactly ``timers`` (key, due); unchanged ones keep running."""
        wanted = dict(timers)
        for (gid, key), (due, task) in list(self._tasks.items()):
            if gid == game_id and wanted.get(key) != due:
                task.cancel()
                del self._tasks[(gid, key)]
        for key, due in wanted.items():
            if (game_id, key) not in self._tasks and not self._closed:
                task = asyncio.create_task(
                    self._run(game_id, key, due), name=f"timer:{game_id}:{key}"
                )
                self._tasks[(game_id, key)] = (due, task)

    def drop_game(self, game_id: int) -> None:
        self.set_game(game_id, [])

    def pending(self, game_id: int) -> dict[str, datetime]:
        return {key: due for (gid, key), (due, _) in self._tasks.items() if gid == game_id}

    async def _run(self, game_id: int, key: str, due: datetime) -> None:
        delay = (due - self._clock()).total_seconds()
        if delay > 0:
            await asyncio.sleep(delay)
        current = self._tasks.get((game_id, key))
        if current is not None and current[0] == due:
            del self._tasks[(game_id, key)]
        try:
            await self._fire(game_id, key)
        except Exception:  # a failed timer must not kill the scheduler; the store keeps it
            log.exception("timer %s of game %s failed", key, game_id)

    async def close(self) -> None:
        self._closed = True
        tasks = [task for _, task in self._tasks.values()]
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
