"""The game pages in a real browser (headless Chromium driven by Playwright): replay a finished
game move by move, and watch a live one gain a move. Chromium as ``tests/support/browser.py``
finds it; without it these tests are skipped."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.ui.games  # noqa: F401  (the dedicated presenters)
from bot.host.host import Host
from bot.store import Store
from bot.web.server import WebServer
from rules.core import Rng
from tests.support.browser import NEEDS_CHROMIUM, browser_page, page_url, served
from tests.support.web import NAMES, open_game, play

async_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
pytestmark = NEEDS_CHROMIUM
expect = async_api.expect


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'web.db'}")
    yield store
    await store.close()


@pytest.fixture
async def web(store: Store) -> AsyncIterator[tuple[Host, WebServer]]:
    async with served(store) as web:
        yield web


@pytest.fixture
async def page(web: Any) -> AsyncIterator[Any]:
    async with browser_page({"width": 420, "height": 860}) as page:  # a phone
        yield page


def url(server: WebServer, token: str | None) -> str:
    return page_url(server, token)


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
