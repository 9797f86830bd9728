"""The emulator hears of each request as its bytes come in, before aiohttp hands it to a
handler (``bot/emulator/arrivals.py``): the order of arrival decides which click a panel
edit answered (P-95)."""

from __future__ import annotations

import aiohttp
from aiohttp import web

from bot.emulator.arrivals import ReportingRunner


async def test_requests_are_reported_as_they_arrive_before_they_are_handled() -> None:
    arrived: list[tuple[str, str]] = []
    seen: list[list[tuple[str, str]]] = []

    async def handle(request: web.Request) -> web.Response:
        seen.append(list(arrived))
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = ReportingRunner(app, lambda method, path: arrived.append((method, path)))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        async with aiohttp.ClientSession() as session:
            edit = f"{base}/api/v10/webhooks/1/tok/messages/@original?wait=true"
            async with session.patch(edit, data=b'{"content": "x"}') as response:
                assert response.status == 200
            async with session.post(f"{base}/api/v10/interactions/2/tok/callback") as response:
                assert response.status == 200
            async with session.get(f"{base}/elsewhere") as response:  # not Discord's API
                assert response.status == 200
    finally:
        await runner.cleanup()
    first = ("PATCH", "/webhooks/1/tok/messages/@original")
    second = ("POST", "/interactions/2/tok/callback")
    assert arrived == [first, second]
    assert seen == [[first], [first, second], [first, second]]
