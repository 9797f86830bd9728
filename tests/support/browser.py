"""The game pages in a real browser: a Host and its pages on a free port, and a headless
Chromium page that fails its test on any script error or anything the page's own
Content-Security-Policy refused.

Playwright cannot download its own browsers here, so it runs the system's Chromium: ``CHROMIUM``
or ``/usr/bin/chromium`` (``.ci/run`` installs Debian's). Without it the browser tests are
skipped, with the reason in pytest's summary.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store
from bot.web.server import WebServer
from tests.e2e.helpers import CHROMIUM_ARGS

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
NEEDS_CHROMIUM = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"no Chromium at {CHROMIUM}: apt-get install chromium, or set CHROMIUM",
)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@asynccontextmanager
async def served(store: Store) -> AsyncIterator[tuple[Host, WebServer]]:
    """A Host playing without pacing, its game pages listening on a free port."""
    settings = Settings(_env_file=None, discord_token="t" * 30, timers={"bag_min_gap": 0.0})  # type: ignore[call-arg]
    host = Host(store, settings)
    server = WebServer(store, host="127.0.0.1", port=0)
    host.listeners.append(server)
    await server.start()
    try:
        yield host, server
    finally:
        await server.close()
        await host.close()


@asynccontextmanager
async def browser_page(viewport: dict[str, int], *, touch: bool = False) -> AsyncIterator[Any]:
    """A page of a new headless Chromium at ``viewport`` (``touch``: taps, as on a phone)."""
    async_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
    async with async_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            context = await browser.new_context(viewport=viewport, has_touch=touch)
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            # A bound on waiting, not a measure: a loaded machine (the suite's five workers on
            # two cores) once took over 10 s to scroll a button into view.
            page.set_default_timeout(30_000)
            yield page
        finally:
            await browser.close()
        # No script error and nothing refused by the page's own Content-Security-Policy.
        assert errors == []


def page_url(server: WebServer, token: str | None) -> str:
    assert token is not None
    return f"http://127.0.0.1:{server.port}/games/{token}"
