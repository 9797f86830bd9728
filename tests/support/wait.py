"""Wait for a condition instead of sleeping a fixed time (tests must not depend on timing)."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def until(
    predicate: Callable[[], T | Awaitable[T]],
    timeout: float = 60.0,  # noqa: ASYNC109
    what: str = "condition",
) -> T:
    """Poll ``predicate`` until it is truthy and return its value; AssertionError after
    ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() >= deadline:
            raise AssertionError(f"{what} not met within {timeout}s")
        await asyncio.sleep(0.02)
