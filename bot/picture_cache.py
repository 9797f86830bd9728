"""Rendered pictures for messages: made off the event loop, once per picture.

Rendering a board takes 10-20 ms of CPU; on the event loop it would stall every click of every
game. Pictures are therefore rendered elsewhere and kept by key (the board's fingerprint), so
an unchanged board is never encoded again, and a burst of identical requests waits for one
render. Elsewhere is a worker process (``PICTURE_PROCESSES``, default 1): a thread of this
process would hold the interpreter lock while it draws, and every click waits behind it (at 100
busy games, a worker process made the bot take 1.8 times the moves per second). A picture that
cannot go to the process (its renderer does not pickle) or a process that died is drawn in a
thread instead, and a dead process is replaced for the next picture.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
import os
import pickle
from collections import OrderedDict
from collections.abc import Callable
from multiprocessing.synchronize import Event

from .child import IDLE_LIMIT, idle_while_drawing, leave_idle_class, start_picture_worker
from .ui.specs import ImageSpec

log = logging.getLogger(__name__)

CACHE_SIZE = 64
"""Pictures kept: a few per live game is plenty (only the newest one is ever sent)."""


class PictureWorkers:
    """``processes`` worker processes for pictures, started at the first picture (a bot that
    hosts no game with pictures starts none), replaced when one dies."""

    def __init__(self, processes: int, *, idle_limit: float = IDLE_LIMIT) -> None:
        self.processes = processes
        self.idle_limit = idle_limit
        """Seconds a drawing may take in the idle class before it leaves it (P-96)."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closing: Event | None = None
        """Set when the pool closes: its processes no longer draw in the idle class."""

    async def run(self, render: Callable[[], bytes]) -> bytes:
        if self._pool is None:
            # spawn, not fork: this process runs threads (the database's, the pictures') and an
            # event loop, which a forked child must not inherit half-way
            context = multiprocessing.get_context("spawn")
            self._closing = context.Event()
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=start_picture_worker,
                initargs=(os.getpid(), self._closing),
            )
        try:
            # drawn in the idle class where the process can leave it again (P-89)
            drawing = functools.partial(idle_while_drawing, render, self.idle_limit)
            return await asyncio.get_running_loop().run_in_executor(self._pool, drawing)
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the picture process died; drawing in a thread, a new process next time")
            self.close()
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            # its words only: a log record keeps its arguments (a test's log capture, for one),
            # and this error's traceback holds the pool's queues and their semaphores
            log.warning("a picture could not go to the picture process (%s)", str(exc))
        return await asyncio.to_thread(render)

    def close(self, *, wait: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # A drawing under way, or one the pool already handed over, would otherwise finish in
        # the idle class before its process ends: on a busy machine, seconds. The flag first,
        # then the processes raised out (``idle_while_drawing`` looks at the flag once in it).
        closing, self._closing = self._closing, None
        if closing is not None:
            closing.set()
        for pid in list(getattr(pool, "_processes", None) or ()):  # CPython's, since 3.2
            leave_idle_class(pid)
        pool.shutdown(wait=wait, cancel_futures=True)


class ImageCache:
    def __init__(
        self, size: int = CACHE_SIZE, *, processes: int = 0, idle_limit: float = IDLE_LIMIT
    ) -> None:
        self.size = size
        self.workers = PictureWorkers(processes, idle_limit=idle_limit) if processes > 0 else None
        self._done: OrderedDict[str, bytes] = OrderedDict()
        self._running: dict[str, asyncio.Future[bytes]] = {}
        self.renders = 0
        """How many pictures were really rendered (the rest came from the cache)."""

    def cached(self, image: ImageSpec) -> bytes | None:
        """The picture if it was rendered already (no waiting)."""
        return self._done.get(image.key)

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
            if self.workers is not None:
                data = await self.workers.run(image.render)
            else:
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

    def close(self, *, wait: bool = False) -> None:
        """Stop the picture processes (a render still running is abandoned); ``wait`` for them
        to end."""
        if self.workers is not None:
            self.workers.close(wait=wait)
