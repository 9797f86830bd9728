"""The replay page on a phone (390 x 844) and a desktop (1280 x 900), in headless Chromium
(P-60): the move list is in sight beside or just under the board without scrolling past the
picture, the picture opens full size on a tap, and every move of a seeded game is in words."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.ui.games  # noqa: F401  (the dedicated presenters)
from bot.games import Game, games
from bot.host.host import Host
from bot.host.table import Table
from bot.store import Store
from bot.web.server import WebServer
from rules.core import Rng
from tests.support.browser import (
    DESKTOP,
    NEEDS_CHROMIUM,
    PHONE,
    browser_page,
    page_url,
    served,
)
from tests.support.web import open_game, play

async_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
pytestmark = NEEDS_CHROMIUM
expect = async_api.expect
MOVES_IN_SIGHT = 150
"""Pixels of the move list a first screen shows at least (four or five moves)."""


def pictured() -> Game:
    """A shipped game whose page shows a board picture."""
    return next(g for g in games() if g.shipped and g.picture is not None)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'replay.db'}")
    yield store
    await store.close()


@pytest.fixture
async def web(store: Store) -> AsyncIterator[tuple[Host, WebServer]]:
    async with served(store) as web:
        yield web


async def finished(host: Host, slug: str, seed: int) -> Table:
    table = await open_game(host, slug, 3, channel=seed)
    await play(host, table, Rng(seed))
    return table


async def box(page: Any, selector: str) -> dict[str, float]:
    found = await page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


async def picture_loaded(page: Any, selector: str) -> int:
    """The picture's natural width, once it has loaded."""
    await page.wait_for_function(
        f"() => {{ const i = document.querySelector({selector!r}); "
        "return i !== null && i.complete && i.naturalWidth > 0; }"
    )
    width = await page.eval_on_selector(selector, "i => i.naturalWidth")
    assert isinstance(width, int)
    return width


def in_sight(item: dict[str, float], scroller: dict[str, float], height: int) -> None:
    """The move shows whole in the list's view and on the first screen, or (a long move) at
    least its first lines."""
    # One pixel either way: the browser scrolls the list to fractional positions, so the
    # newest move may sit a fraction of a pixel above the list's top edge.
    bottom = min(scroller["y"] + scroller["height"], height) + 1
    assert scroller["y"] - 1 <= item["y"], (item, scroller)
    assert item["y"] + min(item["height"], 60) <= bottom, (item, scroller, height)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_the_moves_are_in_sight_beside_the_board_and_the_picture_zooms_on_tap(
    web: tuple[Host, WebServer], store: Store, viewport: dict[str, int]
) -> None:
    host, server = web
    table = await finished(host, pictured().slug, seed=41)
    steps = len(await store.actions(table.id))
    phone = viewport is PHONE
    async with browser_page(viewport, touch=True) as page:
        await page.goto(page_url(server, table.game.web_token))
        await expect(page.locator("#step")).to_have_text(f"Step {steps} of {steps}")
        natural = await picture_loaded(page, "#picture")
        await expect(page.locator("#log li.current")).to_have_attribute("data-step", str(steps))
        assert await page.evaluate("window.scrollY") == 0

        picture, moves = await box(page, "#picture"), await box(page, "#moves-panel")
        log, current = await box(page, "#log"), await box(page, "#log li.current")
        height = viewport["height"]
        # The list is on the first screen with room for moves, the newest move in sight.
        assert moves["y"] + MOVES_IN_SIGHT <= height, (moves, viewport)
        in_sight(current, log, height)
        picture_bottom = picture["y"] + picture["height"]
        if phone:  # just under the picture, which is kept small
            assert picture_bottom <= moves["y"] <= picture_bottom + 40, (picture, moves)
            assert picture["height"] <= 0.45 * height
        else:  # beside it
            assert moves["x"] >= picture["x"] + picture["width"], (picture, moves)
            assert moves["y"] < picture_bottom
        assert picture["width"] < natural

        # A tap shows the picture full size, to pan over; Close (or Escape) goes back.
        await page.tap("#picture")
        await expect(page.locator("#zoomed")).to_be_visible()
        assert await picture_loaded(page, "#zoomed-picture") == natural
        zoomed = await box(page, "#zoomed-picture")
        assert (
            zoomed["width"] == pytest.approx(natural, abs=1) and zoomed["width"] > picture["width"]
        )
        src = await page.eval_on_selector("#zoomed-picture", "i => i.src")
        assert str(src).endswith(f"board.png?step={steps}")
        await page.tap("#unzoom")
        await expect(page.locator("#zoomed")).to_be_hidden()
        await page.tap("#picture")
        await expect(page.locator("#zoomed")).to_be_visible()
        await page.keyboard.press("Escape")
        await expect(page.locator("#zoomed")).to_be_hidden()
        # Without the dialog the link alone opens the picture itself, full size.
        href = await page.eval_on_selector("#zoom", "a => a.href")
        assert str(href).endswith(f"board.png?step={steps}")


@pytest.mark.parametrize(
    "record", [g for g in games() if g.shipped], ids=lambda record: record.slug
)
async def test_every_move_of_a_seeded_game_is_in_words(
    web: tuple[Host, WebServer], store: Store, record: Game
) -> None:
    host, server = web
    table = await finished(host, record.slug, seed=42)
    actions = await store.actions(table.id)
    async with browser_page(PHONE, touch=True) as page:
        await page.goto(page_url(server, table.game.web_token))
        items = page.locator("#log li")
        await expect(items).to_have_count(len(actions))
        words = await page.locator("#log li .lines").all_inner_texts()
        # On a phone the newest move is in sight on the first screen, under the board.
        await expect(page.locator("#log li.current")).to_have_attribute(
            "data-step", str(len(actions))
        )
        in_sight(await box(page, "#log li.current"), await box(page, "#log"), PHONE["height"])
        assert await page.evaluate("window.scrollY") == 0
    assert len(words) == len(actions)
    silent = [(a.seq, a.action) for a, text in zip(actions, words, strict=True) if not text.strip()]
    assert not silent, f"moves without words: {silent[:5]}"
    vague = [a.seq for a, text in zip(actions, words, strict=True) if "nothing of that" in text]
    assert not vague, f"{record.slug}: moves that say only who moved: {vague[:5]}"
