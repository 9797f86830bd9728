"""In-memory alarms for the deadlines the store persists, in one heap.

The database is the source of truth (a restart reloads every timer); this only wakes the host up
when one is due. Each game's alarms are replaced as a set after every accepted action. An alarm
whose firing fails (the database locked, a stale table) is tried again with backoff until it fires
or is no longer wanted: a game waiting only on its clock must never freeze.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import OperationalError

from ..backoff import backoff, one_line
from ..store.errors import StoreError

log = logging.getLogger(__name__)

Fire = Callable[[int, str], Awaitable[object]]
Sleep = Callable[[float], Coroutine[Any, Any, None]]


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(eq=False)
class Alarm:
    """One deadline of one game: due at ``due``, next tried at ``at`` (later than ``due`` once
    it failed ``failures`` times)."""

    due: datetime
    at: datetime
    failures: int = 0


class TimerScheduler:
    """Every alarm of every game in one heap, woken by one task sleeping until the earliest:
    a move that replaces a game's alarms costs a heap push, not an asyncio task, and a restart
    that schedules ten thousand stored deadlines starts one task, not ten thousand. A due alarm
    fires in a task of its own (firing waits on the game), so a slow one holds up no other."""

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
        # By game, then key: a game's alarms are found without looking at the others.
        self._alarms: dict[int, dict[str, Alarm]] = {}
        self._heap: list[tuple[datetime, int, int, str, Alarm]] = []
        """(when, order, game, key, alarm); an entry whose alarm is no longer listed under its
        game and key, or has moved to another time, is stale and skipped."""
        self._order = itertools.count()
        self._runner: asyncio.Task[None] | None = None
        self._sleeping: asyncio.Task[None] | None = None
        self._sleeping_until: datetime | None = None
        self._firing: set[asyncio.Task[None]] = set()
        self._closed = False

    def set_game(self, game_id: int, timers: Iterable[tuple[str, datetime]]) -> None:
        """Make the game's alarms exactly ``timers`` (key, due); unchanged ones stay as they are
        (an alarm waiting to be tried again keeps its wait)."""
        wanted = dict(timers)
        listed = self._alarms.get(game_id, {})
        for key in [k for k, alarm in listed.items() if wanted.get(k) != alarm.due]:
            del listed[key]
        for key, due in wanted.items():
            if key not in listed and not self._closed:
                alarm = listed[key] = Alarm(due, due)
                self._push(game_id, key, alarm)
        if listed:
            self._alarms[game_id] = listed
        else:
            self._alarms.pop(game_id, None)

    def drop_game(self, game_id: int) -> None:
        self.set_game(game_id, [])

    def count(self) -> int:
        """Deadlines scheduled, over every game."""
        return sum(len(listed) for listed in self._alarms.values())

    def pending(self, game_id: int) -> dict[str, datetime]:
        return {key: alarm.due for key, alarm in self._alarms.get(game_id, {}).items()}

    def _listed(self, game_id: int, key: str, alarm: Alarm) -> bool:
        return self._alarms.get(game_id, {}).get(key) is alarm

    def _push(self, game_id: int, key: str, alarm: Alarm) -> None:
        heapq.heappush(self._heap, (alarm.at, next(self._order), game_id, key, alarm))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run(), name="timers")
        elif self._sleeping_until is not None and alarm.at < self._sleeping_until:
            self._sleeping_until = None
            if self._sleeping is not None:
                self._sleeping.cancel()  # an earlier alarm: the runner looks again

    async def _run(self) -> None:
        while not self._closed:
            while self._heap and not self._current(self._heap[0]):
                heapq.heappop(self._heap)
            if not self._heap:
                return  # the next alarm set starts a runner again
            at, _, game_id, key, alarm = self._heap[0]
            delay = (at - self._clock()).total_seconds()
            if delay > 0:
                self._sleeping_until = at
                self._sleeping = asyncio.create_task(self._sleep(delay))
                await asyncio.wait({self._sleeping})  # over, or cut short by an earlier alarm
                self._sleeping = self._sleeping_until = None
                continue
            heapq.heappop(self._heap)
            # Unlisted while firing: the action it applies replaces the game's alarms.
            del self._alarms[game_id][key]
            if not self._alarms[game_id]:
                del self._alarms[game_id]
            task = asyncio.create_task(
                self._fire_one(game_id, key, alarm), name=f"timer:{game_id}:{key}"
            )
            self._firing.add(task)
            task.add_done_callback(self._firing.discard)

    def _current(self, entry: tuple[datetime, int, int, str, Alarm]) -> bool:
        at, _, game_id, key, alarm = entry
        return alarm.at == at and self._listed(game_id, key, alarm)

    async def _fire_one(self, game_id: int, key: str, alarm: Alarm) -> None:
        try:
            await self._fire(game_id, key)
            return
        except Exception as exc:  # the store keeps the deadline: try again, later each time
            alarm.failures += 1
            wait = backoff(alarm.failures, self._max_delay)
            log.warning(
                "timer %s of game %s failed (%s); trying again in %.1f s",
                key,
                game_id,
                one_line(exc),
                wait,
                exc_info=alarm.failures == 1 and not _expected(exc),
            )
        if self._closed or key in self._alarms.get(game_id, {}):
            return  # closing, or a newer alarm for this key took over
        # Listed again, to be tried after the wait: set_game may drop it meanwhile.
        alarm.at = self._clock() + timedelta(seconds=wait)
        self._alarms.setdefault(game_id, {})[key] = alarm
        self._push(game_id, key, alarm)

    async def close(self) -> None:
        self._closed = True
        self._alarms.clear()
        self._heap.clear()
        tasks = [t for t in (self._runner, self._sleeping, *self._firing) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _expected(exc: Exception) -> bool:
    """Failures that need no traceback: the database was busy or changed under us."""
    return isinstance(exc, OperationalError | StoreError)
