"""The host's door for a graceful stop (SIGTERM): once it closes, no new change is begun (the
member is told to try again in a moment), and the stop waits for those already begun, so
every commit that started also finished and answered before the process exits."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from .errors import Restarting


class Gate:
    def __init__(self) -> None:
        self.closed = False
        self._inside = 0
        self._empty = asyncio.Event()
        self._empty.set()

    @contextlib.contextmanager
    def through(self) -> Iterator[None]:
        """Hold the door for one change; refused with ``Restarting`` once it is closed."""
        if self.closed:
            raise Restarting()
        self._inside += 1
        self._empty.clear()
        try:
            yield
        finally:
            self._inside -= 1
            if not self._inside:
                self._empty.set()

    @property
    def inside(self) -> int:
        return self._inside

    async def close(self, timeout: float) -> bool:  # noqa: ASYNC109 - a stop has a time limit
        """Close the door and wait (at most ``timeout`` s) for the changes under way; False if
        some were still under way then."""
        self.closed = True
        try:
            await asyncio.wait_for(self._empty.wait(), timeout)
        except TimeoutError:
            return False
        return True
