"""A request counts as written once its bytes went out over a connection the server already
reads (P-95): a click's answer may then follow a panel edit without waiting for its reply."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from bot.discord.limiter import Budget, GlobalLimiter, RefusalCounter, transport_trace
from bot.discord.written import sending


@pytest.fixture
async def held_server() -> AsyncIterator[tuple[str, asyncio.Event]]:
    """A server that reads each request and answers it once the event is set."""
    answer = asyncio.Event()

    async def handle(request: web.Request) -> web.Response:
        await request.read()
        await answer.wait()
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10/x", answer
    finally:
        await runner.cleanup()


async def test_a_request_is_written_once_sent_over_a_connection_the_server_reads(
    held_server: tuple[str, asyncio.Event],
) -> None:
    url, answer = held_server
    trace = transport_trace(GlobalLimiter(Budget(50, 1.0)), RefusalCounter())
    async with aiohttp.ClientSession(trace_configs=[trace]) as session:

        async def patch() -> str:
            async with session.patch(url, data=b'{"content": "x"}') as response:
                return await response.text()

        # Over a connection made for it, the server may not have taken it in: not written
        # until it is answered.
        task, written = sending(patch())
        await asyncio.sleep(0.3)
        assert not written.done() and not task.done()
        answer.set()
        assert await task == "ok" and written.done()

        # Over the same connection, now read by the server: written while still unanswered.
        answer.clear()
        task, written = sending(patch())
        await asyncio.wait_for(written, 5)
        await asyncio.sleep(0.1)
        assert not task.done()
        answer.set()
        assert await task == "ok"


async def test_a_coroutine_that_ends_without_a_request_counts_as_written() -> None:
    async def nothing() -> int:
        return 7

    task, written = sending(nothing())
    await asyncio.wait_for(written, 5)
    assert await task == 7
