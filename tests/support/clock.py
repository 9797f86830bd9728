"""A clock the tests move: wall time and sleeping both stand still until the test advances them,
so a test of timers asserts what fired (and what did not) at exact instants, on any machine."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta


class ManualClock:
    """Called, it gives the time (``now``); ``sleep`` returns once ``advance`` reaches its end."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)) -> None:
        self.now = start
        self._sleepers: list[tuple[datetime, asyncio.Future[None]]] = []

    def __call__(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Like ``asyncio.sleep``, in this clock's time; zero or less only yields once."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        entry = (self.now + timedelta(seconds=seconds), asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        try:
            await entry[1]
        finally:
            if entry in self._sleepers:  # cancelled before its end
                self._sleepers.remove(entry)

    @property
    def sleepers(self) -> int:
        """How many tasks sleep on this clock and have not been woken: a test waits for them
        before it advances (a task not asleep yet is not skipped over), and after advancing
        short of a due time it sees the sleeper still there."""
        return len(self._sleepers)

    def advance(self, seconds: float) -> None:
        """Move time on and wake every sleeper whose end has come."""
        self.now += timedelta(seconds=seconds)
        for entry in list(self._sleepers):
            due, future = entry
            if due <= self.now:
                self._sleepers.remove(entry)
                if not future.done():
                    future.set_result(None)


class StandingClock:
    """Monotonic seconds (as ``time.monotonic`` gives them) that stand still until the test
    moves ``now``: for the pacers, limiters and caches that take a ``clock``."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now
