"""In-memory alarms for the deadlines the store persists.

The database is the source of truth (a restart reloads every timer); this only wakes the host up
when one is due. Each game's alarms are replaced as a set after every accepted action. An alarm
whose firing fails (the database locked, a stale table) is tried again with backoff until it fires
or is no longer wanted: a game waiting only on its clock must never freeze.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime

from sqlalchemy.exc import OperationalError

from ..backoff import backoff, one_line
from ..store.errors import StoreError

log = logging.getLogger(__name__)

Fire = Callable[[int, str], Awaitable[object]]
Sleep = Callable[[float], Awaitable[None]]


def utcnow() -> datetime:
    return datetime.now(UTC)


class TimerScheduler:
    """One asyncio task per (game, key), sleeping until the due time and then calling ``fire``."""

    def __init__(
        self,
        fire: Fire,
        clock: Callable[[], datetime] = utcnow,
        *,
        max_delay: float = 60.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        """``clock`` and ``sleep`` are the wall clock and its waiting; tests pass a clock they
        move by hand (``tests/support/clock.py``), so no test waits for real time."""
        self._fire = fire
        self._clock = clock
        self._sleep = sleep
        self._max_delay = max_delay
        # By game, then key: a game's alarms are found without looking at the others (a
        # restart schedules every stored deadline, thousands of games' worth).
        self._tasks: dict[int, dict[str, tuple[datetime, asyncio.Task[None]]]] = {}
        self._closed = False

    def set_game(self, game_id: int, timers: Iterable[tuple[str, datetime]]) -> None:
        """Make the game's alarms exactly ``timers`` (key, due); unchanged ones keep running."""
        wanted = dict(timers)
        running = self._tasks.get(game_id, {})
        for key, (due, task) in list(running.items()):
            if wanted.get(key) != due:
                task.cancel()
                del running[key]
        for key, due in wanted.items():
            if key not in running and not self._closed:
                task = asyncio.create_task(
                    self._run(game_id, key, due), name=f"timer:{game_id}:{key}"
                )
                running[key] = (due, task)
        if running:
            self._tasks[game_id] = running
        else:
            self._tasks.pop(game_id, None)

    def drop_game(self, game_id: int) -> None:
        self.set_game(game_id, [])

    def count(self) -> int:
        """Deadlines scheduled, over every game."""
        return sum(len(running) for running in self._tasks.values())

    def pending(self, game_id: int) -> dict[str, datetime]:
        return {key: due for key, (due, _) in self._tasks.get(game_id, {}).items()}

    def _get(self, game_id: int, key: str) -> tuple[datetime, asyncio.Task[None]] | None:
        return self._tasks.get(game_id, {}).get(key)

    def _unlist(self, game_id: int, key: str) -> None:
        running = self._tasks.get(game_id)
        if running is not None:
            running.pop(key, None)
            if not running:
                del self._tasks[game_id]

    async def _run(self, game_id: int, key: str, due: datetime) -> None:
        delay = (due - self._clock()).total_seconds()
        if delay > 0:
            await self._sleep(delay)
        failures = 0
        while True:
            # Unlisted while firing: the action it applies replaces the game's alarms, and must
            # not cancel this one.
            current = self._get(game_id, key)
            if current is not None and current[0] == due:
                self._unlist(game_id, key)
            try:
                await self._fire(game_id, key)
                return
            except Exception as exc:  # the store keeps the deadline: try again, later each time
                failures += 1
                wait = backoff(failures, self._max_delay)
                log.warning(
                    "timer %s of game %s failed (%s); trying again in %.1f s",
                    key,
                    game_id,
                    one_line(exc),
                    wait,
                    exc_info=failures == 1 and not _expected(exc),
                )
            task = asyncio.current_task()
            if self._closed or self._get(game_id, key) is not None or task is None:
                return  # closing, or a newer alarm for this key took over
            # Listed again: set_game may cancel it.
            self._tasks.setdefault(game_id, {})[key] = (due, task)
            await self._sleep(wait)

    async def close(self) -> None:
        self._closed = True
        tasks = [task for running in self._tasks.values() for _, task in running.values()]
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _expected(exc: Exception) -> bool:
    """Failures that need no traceback: the database was busy or changed under us."""
    return isinstance(exc, OperationalError | StoreError)
