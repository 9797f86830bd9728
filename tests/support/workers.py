"""For tests that start search workers in the test process (``bot.host.thinking.Thinking``)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from multiprocessing import resource_tracker

import pytest

from .processes import live_descendants

WORKERS_END = 30.0
"""Seconds the workers of a closed pool have to end (a bound, not a measure)."""


def workers() -> set[int]:
    """This process's own search workers (not multiprocessing's resource tracker, nor the
    workers of a bot process a test started, which end with that bot)."""
    me = os.getpid()
    return {p.pid for p in live_descendants() if p.parent == me and "spawn_main" in p.command}


@pytest.fixture(autouse=True, scope="module")
def no_resource_tracker() -> Iterator[None]:
    """multiprocessing's resource tracker, which a spawned pool starts, lives as long as the
    process that started it; a bot's ends with the bot, this test process's is ended once the
    module's workers are gone, so the session's leftover check sees only what tests should end.
    A module that starts workers imports this fixture."""
    yield
    deadline = time.monotonic() + WORKERS_END
    while workers():  # a poll with a bound: each test waited for its own workers already
        left = [p for p in live_descendants() if p.pid in workers()]
        assert time.monotonic() < deadline, f"workers still running: {', '.join(map(str, left))}"
        time.sleep(0.05)
    resource_tracker._resource_tracker._stop()  # type: ignore[attr-defined]
