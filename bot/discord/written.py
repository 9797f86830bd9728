"""When a request has gone out: a click's answer may follow an edit on its way (P-95).

A private answer to a click made elsewhere than on the member's panel is an edit of the panel
through its stored token, then the click's own answer. Waiting for the edit's reply before
answering costs the click a whole round trip to Discord; waiting only until the edit's bytes
are handed to the socket keeps the order in which the two leave, and the edit is then awaited
beside the answer. discord.py's HTTP session reports each request body it writes
(``limiter.transport_trace``); ``sending`` starts a coroutine whose first request is watched.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_watched: contextvars.ContextVar[asyncio.Future[None] | None] = contextvars.ContextVar(
    "request_written", default=None
)


def note_written() -> None:
    """A request's body is being written by the current task (aiohttp writes it right after
    this, in the same step): the watcher waiting on it wakes in a later step."""
    future = _watched.get()
    if future is not None and not future.done():
        future.set_result(None)


def sending(coro: Coroutine[Any, Any, T]) -> tuple[asyncio.Task[T], asyncio.Future[None]]:
    """Run ``coro`` as a task; the future completes once its first request has been written,
    or once it ended without one (it failed before sending, or sent nothing)."""
    loop = asyncio.get_running_loop()
    written: asyncio.Future[None] = loop.create_future()
    context = contextvars.copy_context()
    context.run(_watched.set, written)
    task = loop.create_task(coro, context=context)

    def ended(_: asyncio.Task[T]) -> None:
        if not written.done():
            written.set_result(None)

    task.add_done_callback(ended)
    return task, written
