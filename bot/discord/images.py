"""Rendered pictures for messages: made off the event loop, once per picture.

Rendering a board takes tens of milliseconds of CPU; on the event loop it would stall every
click of every game. Pictures are therefore rendered in a worker thread, and kept by key (the
board's fingerprint), so an unchanged board is never encoded again, and a burst of identical
requests waits for one render.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from ..ui.specs import ImageSpec

CACHE_SIZE = 64
"""Pictures kept: a few per live game is plenty (only the newest one is ever sent)."""


class ImageCache:
    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._done: OrderedDict[str, bytes] = OrderedDict()
        self._running: dict[str, asyncio.Future[bytes]] = {}
        self.renders = 0
        """How many pictures were really rendered (the rest came from the cache)."""

    async def png(self, image: ImageSpec) -> bytes:
        cached = self._done.get(image.key)
        if cached is not None:
            self._done.move_to_end(image.key)
            return cached
        running = self._running.get(image.key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._running[image.key] = future
        try:
            data = await asyncio.to_thread(image.render)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved here, so an unawaited failure logs nothing twice
            raise
        finally:
            self._running.pop(image.key, None)
        self.renders += 1
        future.set_result(data)
        self._done[image.key] = data
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return data
