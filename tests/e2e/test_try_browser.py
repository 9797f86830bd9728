"""`python -m bot try` in headless Chromium: a newcomer opens a Bag of Bugs lobby with the
command box, joins as three members through the switcher and plays a whole game by clicks.

The command runs as a subprocess, as a newcomer runs it. The game's seed is the host's secret,
so the test reads the committed position from the database the command was given (as
test_bag_of_bugs.py does) to choose each move, then makes it as a person would: switch to the
member, click the button (or pick the menu option) the page shows. Every wait is on the page
or the database, never on time.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.discord.codec import encode_action, game_button_id
from bot.store import Store
from rules.bag_of_bugs import BagOfBugs
from tests.support.browser import DESKTOP, NEEDS_CHROMIUM, browser_page
from tests.support.processes import live_descendants, spawned
from tests.support.wait import until

from .conftest import REPO
from .helpers import free_port

async_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
pytestmark = NEEDS_CHROMIUM
expect = async_api.expect

QUICK = {
    # No gap between reveals, and no clock that could move the game behind the test's back.
    "TIMERS__BAG_MIN_GAP": "0",
    "TIMERS__BAG_IDLE_DRAW": "600",
    "TIMERS__BAG_CHOICE": "600",
    "PING_AFTER": "600",
    "BOARD_EDIT_INTERVAL": "0.05",
    "SNAPSHOT_EVERY": "1",  # the test reads the position after every move
}
WAIT = 60.0


@dataclass
class Tried:
    """The running command: its page's address, its process and its database."""

    url: str
    proc: asyncio.subprocess.Process
    store: Store


@pytest.fixture
async def tried(tmp_path: Path) -> AsyncIterator[Tried]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(QUICK, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    database = tmp_path / "try.db"
    argv = [sys.executable, "-m", "bot", "try", "--port", str(free_port()), "--members", "3"]
    log = tmp_path / "try.log"
    with log.open("wb") as err:
        async with spawned(
            [*argv, "--database", str(database)],
            cwd=tmp_path,  # no .env there, and none needed
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
        ) as proc:
            assert proc.stdout is not None
            printed = ""
            while "Open http" not in printed:
                line = await asyncio.wait_for(proc.stdout.readline(), WAIT)
                assert line, f"`python -m bot try` ended: {printed}{log.read_text()}"
                printed += line.decode()
            found = re.search(r"Open (http://\S+) in your browser", printed)
            assert found, printed
            assert "Ada, Bram and Cleo" in printed
            store = await Store.open(f"sqlite+aiosqlite:///{database}", migrate=False)
            try:
                yield Tried(found[1], proc, store)
            finally:
                await store.close()
            # Every process it started ends with it, on SIGTERM as on Ctrl-C.
            started = live_descendants(proc.pid)
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), WAIT) == 0, log.read_text()
            left = {p.pid for p in live_descendants()} & {p.pid for p in started}
            assert not left, started
            logged = log.read_text()
            assert "Traceback" not in logged, logged
            # A newcomer's terminal: no voice warnings, no migration steps (issue #26 item 6).
            assert "voice will NOT be supported" not in logged and "alembic" not in logged, logged


@pytest.fixture
async def page(tried: Tried) -> AsyncIterator[Any]:
    async with browser_page(DESKTOP) as page:
        await page.goto(tried.url)
        await expect(page.locator("body[data-ready]")).to_have_count(1)
        yield page


async def be(page: Any, name: str) -> None:
    """Switch to member ``name`` and wait until the page shows what they see."""
    button = page.locator(f"#members button[data-name='{name}']")
    if await button.get_attribute("aria-pressed") != "true":
        await button.click()
    await expect(button).to_have_attribute("aria-pressed", "true")


def board(page: Any) -> Any:
    """The game's board: the lobby message, edited in place once the game starts."""
    return page.locator("#messages .message", has_text="Bag of Bugs")


async def press(page: Any, game_id: int, turn: int, action: dict[str, Any]) -> None:
    """Make ``action`` by the control the board shows for it: its button, or its menu option."""
    button = page.locator(
        f"button[data-custom-id={json.dumps(game_button_id(game_id, turn, action))}]"
    )
    value = json.dumps(encode_action(action))
    menu = page.locator(f"select[data-custom-id^='s:{game_id}:{turn}:']:has(option[value={value}])")
    await expect(button.or_(menu)).to_have_count(1)
    if await button.count():
        await button.click()
    else:
        await menu.select_option(json.loads(value))


def choose(engine: BagOfBugs, current: int) -> tuple[int, dict[str, Any]]:
    """The next move: a grab while one is open (short turns, a short game), else the Drawer's
    draw or the chooser's first option; the member shown now moves first when they can."""
    movers = [s for s in sorted(engine.waiting_for()) if engine.legal_actions(s)]
    grabbers = [s for s in movers if engine.legal_actions(s)[0]["type"] == "grab"]
    pool = grabbers or movers
    seat = current if current in pool else pool[0]
    return seat, engine.legal_actions(seat)[0]


async def test_a_newcomer_plays_a_whole_game_in_the_browser(tried: Tried, page: Any) -> None:
    # The command box offers the bot's commands as they are typed, and runs the one chosen.
    await be(page, "Ada")
    box = page.locator("#command")
    await box.fill("/bugs new b")
    offered = page.locator("#suggestions li", has_text="/bugs new bag-of-bugs")
    await expect(offered).to_be_visible()
    await expect(offered).to_contain_text("3–5 players")
    await offered.click()
    await expect(box).to_have_value("/bugs new bag-of-bugs ")
    await box.press("Enter")
    lobby = board(page)
    await expect(lobby).to_contain_text("Bag of Bugs — lobby")
    await expect(lobby.locator(".used")).to_have_text("↪ Ada used /bugs new bag-of-bugs")
    await expect(lobby.locator("strong", has_text="Ada")).to_have_count(1)  # **Ada**, rendered
    await expect(box).to_have_value("")

    for count, name in enumerate(("Bram", "Cleo"), start=2):
        await be(page, name)
        await lobby.locator("button[data-label='Join']").click()
        await expect(lobby).to_contain_text(f"Players ({count}/5)")
    await be(page, "Ada")
    await lobby.locator("button[data-label='Start']").click()
    await expect(board(page)).to_contain_text("holds the bag")
    record = await tried.store.get_game(1)  # the database is the command's own, new
    assert record is not None and record.slug == "bag-of-bugs"
    game_id = record.id
    names = {s.seat: s.name for s in await tried.store.seats(game_id)}

    # A private answer is seen by its member only.
    await be(page, "Bram")
    await board(page).locator("button[data-label='How to play']").click()
    private = page.locator("#messages .message.private")
    await expect(private).to_have_count(1)
    await expect(private).to_contain_text("Only you can see this")
    await be(page, "Cleo")
    await expect(private).to_have_count(0)
    await be(page, "Bram")
    await expect(private).to_have_count(1)
    await private.locator("button", has_text="Dismiss message").click()
    await expect(private).to_have_count(0)

    # The whole game, by clicks.
    current = next(seat for seat, name in names.items() if name == "Bram")
    moves = 0
    while True:
        record = await tried.store.get_game(game_id)
        assert record is not None and record.snapshot is not None
        engine = BagOfBugs.from_dict(record.snapshot)
        if engine.is_over:
            break
        seat, action = choose(engine, current)
        if seat != current:
            await be(page, names[seat])
            current = seat
        await press(page, game_id, engine.turn, action)
        await until(_moved(tried.store, game_id, record.version), WAIT, f"move {moves + 1}")
        moves += 1
    assert moves > 10

    final = board(page)
    await expect(final).to_contain_text(re.compile(r"\bwins? with"))
    await expect(final.locator("button[data-label='Rematch']")).to_be_visible()
    # The bot's own game pages run too: the finished board links to the game's replay.
    replay = final.locator("a.btn.link", has_text="Replay this game")
    href = await replay.get_attribute("href")
    assert href is not None and href.startswith("http://127.0.0.1:") and "/games/" in href
    assert (await page.request.get(href)).status == 200
    await expect(page.locator("#messages")).not_to_contain_text("<t:")


def _moved(store: Store, game_id: int, version: int) -> Callable[[], Awaitable[bool]]:
    """Whether the game has moved past ``version`` (committed: what the bot shows is stored)."""

    async def moved() -> bool:
        record = await store.get_game(game_id)
        return record is not None and record.version > version

    return moved
