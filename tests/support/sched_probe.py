"""Work that reports how a worker process is scheduled: the picture process
(``tests/bot/test_image_delivery.py``) and a bot's search worker (``tests/bot/test_thinking.py``).

Their own module, importing nothing but the standard library (and ``bot.child``, which the
workers hold already): a worker imports the module of every function it is given, and a test
module that imports the bot cost the niced process 20 s of a busy machine's CPU before it ran
anything."""

from __future__ import annotations

import os
import time


def own_niceness() -> bytes:
    """In the picture process: its own niceness, as a "picture"."""
    return str(os.nice(0)).encode()


def own_class() -> bytes:
    """In the picture process: its scheduling class while it draws, as a "picture"."""
    return str(os.sched_getscheduler(0)).encode()


def slow_own_class(seconds: float) -> bytes:
    """``own_class`` after ``seconds``: a drawing long enough to close the pool under it."""
    time.sleep(seconds)
    return own_class()


def may_enter_idle_class() -> bool:
    """In a worker process: whether its work could be run in the idle class (only a picture
    process's initializer allows it, ``bot.child.start_picture_worker``)."""
    from bot import child

    return child._closing is not None
