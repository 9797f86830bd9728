"""Through the real bot process with WEB_PORT set: `/bugs status` links to the live page, and a
finished game's board carries a link a member follows to replay the game in a browser."""

from __future__ import annotations

import os
from pathlib import Path

import aiohttp
import pytest

from .conftest import World
from .helpers import CHROMIUM_ARGS, WAIT, click, free_port, start_game, told, until_text

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
HAS_CHROMIUM = Path(CHROMIUM).exists()


PORT = free_port()


@pytest.mark.parametrize("world", [{"web_port": PORT}], indirect=True)
async def test_a_member_follows_the_finished_boards_link_and_replays_the_game(
    world: World,
) -> None:
    emu, chan = world.emulator, world.channel
    players = [world.alice, world.bob]
    board = await start_game(emu, world.alice, [world.bob], chan)
    status = told(await emu.slash(world.bob, chan, "bugs status"))
    assert f"Watch: http://127.0.0.1:{PORT}/games/" in status
    live_url = status.split("Watch: ", 1)[1].split()[0]
    assert not board.has_button(label="Replay this game")  # only once it is over

    for _ in range(3):
        await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
        await click(emu, world.bob, board, "claim")
        for seat, user in enumerate(players):
            await until_text(emu, board, f"**to_pick**: {seat}")
            await click(emu, user, board, "pick 1")
    await until_text(emu, board, "game over")
    await emu.wait_for(lambda: board.has_button(label="Replay this game"), timeout=WAIT)
    link = board.find_button(label="Replay this game")
    assert link.url == live_url and link.custom_id is None

    async with aiohttp.ClientSession() as http, http.get(f"{link.url}/moves") as response:
        assert response.status == 200
        summary = await response.json()
    assert summary["status"] == "finished"
    assert summary["steps"] == 9  # three rounds of a claim and two picks
    assert summary["players"] == ["alice", "bob"]

    if not HAS_CHROMIUM:
        pytest.skip(f"no Chromium at {CHROMIUM} for the browser half")
    from playwright.async_api import async_playwright, expect

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        page = await browser.new_page()
        await page.goto(link.url)
        await expect(page.locator("#status")).to_have_text("Finished — 9 moves")
        await expect(page.locator("#result tr").first).to_contain_text("bob")
        await page.click("#first")
        await expect(page.locator("#step")).to_have_text("Step 0 of 9")
        await page.click("#next")
        await expect(page.locator("#step")).to_have_text("Step 1 of 9")
        await expect(page.locator("#log li.current")).to_contain_text("bob")  # bob claimed first
        await browser.close()
