"""Drawings that report how the picture process is scheduled (``tests/bot/test_image_delivery.py``).

Their own module, importing nothing but the standard library: the picture process imports the
module of every function it is given, and one that imported the bot would cost the niced
process seconds of a busy machine's CPU before it drew anything."""

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
