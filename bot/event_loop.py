"""The event loop the bot's processes run on: uvloop where it is installed (Linux and macOS),
else asyncio's own.

uvloop is libuv under asyncio's interface: the loop, its sockets and its timers in C. A bot
spends much of each move in them (reading the gateway, sending the click's answer, the edits),
so the same process answers more moves per second of CPU. Nothing in the bot depends on which
loop runs it; Windows, where uvloop does not exist, keeps asyncio's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory, or ``None`` (asyncio's default loop) where it is not installed."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - Windows, or installed without it
        return None
    return uvloop.new_event_loop


def loop_name() -> str:
    return "uvloop" if loop_factory() is not None else "asyncio"


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on the loop above."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
