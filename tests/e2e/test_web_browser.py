"""The game pages in a real browser (headless Chromium driven by Playwright): replay a finished
game move by move, and watch a live one gain a move.

Playwright cannot download its own browsers here, so it runs the system's Chromium: ``CHROMIUM``
or ``/usr/bin/chromium`` (``.ci/run`` installs Debian's). Without it these tests are skipped,
with the reason in pytest's summary.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.ui.games  # noqa: F401  (the dedicated presenters)
from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store
from bot.web.server import WebServer
from rules.core import Rng
from tests.support.web import NAMES, open_game, play

from .helpers import CHROMIUM_ARGS

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
async_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"no Chromium at {CHROMIUM}: apt-get install chromium, or set CHROMIUM",
)
expect = async_api.expect


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'web.db'}")
    yield store
    await store.close()


@pytest.fixture
async def web(store: Store) -> AsyncIterator[tuple[Host, WebServer]]:
    settings = Settings(_env_file=None, discord_token="t" * 30, timers={"bag_min_gap": 0.0})  # type: ignore[call-arg]
    host = Host(store, settings)
    server = WebServer(store, host="127.0.0.1", port=0)
    host.listeners.append(server)
    await server.start()
    yield host, server
    await server.close()
    await host.close()


@pytest.fixture
async def page(web: Any) -> AsyncIterator[Any]:
    async with async_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = await browser.new_context(viewport={"width": 420, "height": 860})  # a phone
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        # A bound on waiting, not a measure: a loaded machine (the suite's five workers on two
        # cores) once took over 10 s to scroll a button into view.
        page.set_default_timeout(30_000)
        yield page
        await browser.close()
        # No script error and nothing refused by the page's own Content-Security-Policy.
        assert errors == []


def url(server: WebServer, token: str | None) -> str:
    assert token is not None
    return f"http://127.0.0.1:{server.port}/games/{token}"


async def test_a_finished_game_replays_move_by_move(
    web: tuple[Host, WebServer], store: Store, page: Any
) -> None:
    host, server = web
    table = await open_game(host, "bug-off", 3, channel=1, options={"first_player": "1"})
    await play(host, table, Rng(31))
    steps = len(await store.actions(table.id))
    results = sorted(await store.results(table.id), key=lambda r: r.rank)

    await page.goto(url(server, table.game.web_token))
    await expect(page.locator("#status")).to_have_text(f"Finished — {steps} moves")
    await expect(page.locator("#step")).to_have_text(f"Step {steps} of {steps}")
    rows = page.locator("#result tr")
    await expect(rows).to_have_count(3)
    for row, result in zip(await rows.all(), results, strict=True):
        name = NAMES[result.seat]
        await expect(row).to_contain_text(name)
        await expect(row.locator(".score")).to_have_text(str(result.score))
    await expect(page.locator("#board")).to_contain_text("game over")
    log = page.locator("#log li")
    await expect(log).to_have_count(steps)
    await expect(log.first).to_contain_text("Ann drew a card")

    await page.click("#first")
    await expect(page.locator("#step")).to_have_text(f"Step 0 of {steps}")
    await expect(page.locator("#result")).to_be_hidden()
    await expect(page.locator("#board")).to_contain_text("Ann's turn: draw a card")
    await page.click("#next")
    await page.click("#next")
    await expect(page.locator("#step")).to_have_text(f"Step 2 of {steps}")
    await expect(page.locator("#log li.current")).to_have_attribute("data-step", "2")
    await expect(page.locator("#board")).to_contain_text("Ann drew a card")  # the board's log
    await page.click("#prev")
    await expect(page.locator("#step")).to_have_text(f"Step 1 of {steps}")
    await page.keyboard.press("ArrowRight")
    await expect(page.locator("#step")).to_have_text(f"Step 2 of {steps}")
    await page.click("#log li[data-step='10']")
    await expect(page.locator("#step")).to_have_text(f"Step 10 of {steps}")
    await expect(page.locator("#slider")).to_have_value("10")
    await page.click("#last")
    await expect(page.locator("#result tr")).to_have_count(3)
    await expect(page.locator("#step")).to_have_text(f"Step {steps} of {steps}")


async def test_a_live_game_shows_a_new_move(
    web: tuple[Host, WebServer], store: Store, page: Any
) -> None:
    host, server = web
    table = await open_game(host, "bug-off", 2, channel=2)
    await play(host, table, Rng(32), moves=2, timer_chance=0)

    await page.goto(url(server, table.game.web_token))
    await expect(page.locator("#status")).to_have_text("● Live — 2 moves so far")
    await expect(page.locator("#step")).to_have_text("Step 2 of 2")
    await expect(page.locator("#log li")).to_have_count(2)

    await play(host, table, Rng(33), moves=1, timer_chance=0)
    await expect(page.locator("#step")).to_have_text("Step 3 of 3")
    await expect(page.locator("#log li")).to_have_count(3)
    await expect(page.locator("#log li.current")).to_have_attribute("data-step", "3")
    drawn = page.locator("#log li").nth(2)
    await expect(drawn).to_contain_text("drew a card")

    await play(host, table, Rng(34))
    steps = len(await store.actions(table.id))
    await expect(page.locator("#status")).to_have_text(f"Finished — {steps} moves")
    await expect(page.locator("#result tr")).to_have_count(2)
