"""The emulator's face on its own (no bot): what each member sees, Discord's markdown as text,
and an interaction nobody answers shown as failed, in headless Chromium; and its JSON routes'
answers to bad input.

Messages are put into the emulator's world as the bot would have sent them, so each test
says exactly what is on the page.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.emulator import Channel, Emulator, User
from bot.emulator.face import Face
from tests.support.browser import NEEDS_CHROMIUM, browser_page
from tests.support.processes import spawned

from .conftest import REPO

EPHEMERAL = 64
ROW = {
    "type": 1,
    "components": [
        {"type": 2, "style": 1, "label": "Poke", "custom_id": "poke"},
        {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/rules"},
    ],
}
COMMANDS = [
    {
        "name": "wave",
        "type": 1,
        "description": "Wave at someone.",
        "options": [{"name": "at", "type": 6, "description": "whom", "required": True}],
    }
]


@dataclass
class Place:
    emulator: Emulator
    face: Face
    channel: Channel
    ada: User
    bram: User


@pytest.fixture
async def place() -> AsyncIterator[Place]:
    # Nobody answers interactions here: a short deadline makes them fail quickly.
    emulator = Emulator(ack_deadline=0.3)
    await emulator.start()
    guild = emulator.add_guild("Bug Club")
    channel = emulator.add_text_channel(guild, "games")
    ada, bram = emulator.add_user("Ada"), emulator.add_user("Bram <b>")
    emulator.interactions.store_commands(None, COMMANDS)
    face = Face(emulator)
    await face.start()
    yield Place(emulator, face, channel, ada, bram)
    await face.stop()
    await emulator.stop()


def send(place: Place, channel: Channel, body: dict[str, Any], to: User | None = None) -> None:
    """A message from the bot, as its REST call or interaction answer would make it."""
    place.emulator.world.new_message(channel, body, ephemeral_to=to)


async def test_bad_input_is_answered_in_one_line_and_changes_nothing(place: Place) -> None:
    send(place, place.channel, {"content": "secret for Ada", "flags": EPHEMERAL}, to=place.ada)
    secret = place.emulator.ephemerals(place.ada)[0]
    send(place, place.channel, {"content": "board", "components": [ROW]})
    board = place.emulator.channel_messages(place.channel)[0]
    async with TestClient(TestServer(place.face.app())) as client:
        cases = [
            ("/api/click", {"member": "7", "message": str(board.id), "custom_id": "poke"}),
            (
                "/api/click",
                {"member": str(place.bram.id), "message": str(secret.id), "custom_id": "x"},
            ),
            (
                "/api/click",
                {"member": str(place.ada.id), "message": str(board.id), "custom_id": "gone"},
            ),
            ("/api/click", {"member": str(place.ada.id), "message": "nope", "custom_id": "poke"}),
            ("/api/dismiss", {"member": str(place.bram.id), "message": str(board.id)}),
            (
                "/api/select",
                {
                    "member": str(place.ada.id),
                    "message": str(board.id),
                    "custom_id": "poke",
                    "values": [1],
                },
            ),
            ("/api/command", {"member": str(place.ada.id), "text": "/wave"}),
            ("/api/command", {"member": str(place.ada.id), "text": "/wave at:Cy"}),
        ]
        said = []
        for path, body in cases:
            response = await client.post(path, json=body)
            answer = await response.json()
            assert answer["ok"] is False
            said.append((response.status, answer["error"]))
        assert said == [
            (400, "no member '7'"),
            (400, "that message is not one this member sees"),
            # What Discord's own client refuses is an answer to show, not a broken request.
            (200, f"no component 'gone' on message {board.id} (has ['poke', None])"),
            (400, "no message 'nope'"),
            (400, "only a member's own private reply can be dismissed"),
            (400, "values: a list of the chosen options' values"),
            (200, "/wave needs at:."),
            (200, "at: no member 'Cy'."),
        ]
        response = await client.get("/api/view", params={"member": str(place.bram.id)})
        view = (await response.json())["view"]
        assert [m["content"] for m in view["messages"]] == ["board"]  # not Ada's secret
        # A page open across a restart of the emulator asks for members it no longer has.
        response = await client.get("/api/view", params={"member": "7", "channel": "8"})
        assert response.status == 200
        view = (await response.json())["view"]
        assert (view["member"], view["channel"]["name"]) == (str(place.ada.id), "games")
        assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert place.emulator.requests == []  # nothing reached the (absent) bot's side
    assert not secret.deleted


async_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
expect = async_api.expect
chromium = NEEDS_CHROMIUM


@pytest.fixture
async def page(place: Place) -> AsyncIterator[Any]:
    async with browser_page({"width": 1000, "height": 800}) as page:
        await page.goto(place.face.url)
        await expect(page.locator("body[data-ready]")).to_have_count(1)
        yield page


async def be(page: Any, name: str) -> None:
    button = page.locator("#members button", has_text=name)
    await button.click()
    await expect(button).to_have_attribute("aria-pressed", "true")


@chromium
async def test_each_member_sees_their_own_private_replies_and_dms(place: Place, page: Any) -> None:
    send(place, place.channel, {"content": "Everyone sees this"})
    send(place, place.channel, {"content": "Your hand: 🐞", "flags": EPHEMERAL}, to=place.ada)
    send(place, place.emulator.dm_channel(place.ada), {"content": "Ada's DM: 3 cards"})
    messages = page.locator("#messages .message")

    await be(page, "Ada")
    await expect(messages).to_have_count(2)
    mine = page.locator("#messages .message.private")
    await expect(mine).to_contain_text("Your hand: 🐞")
    await expect(mine).to_contain_text("Only you can see this")
    dot = page.locator("#members button", has_text="Ada").locator(".dot")
    await expect(dot).to_have_count(1)  # a DM Ada has not opened yet
    await page.locator("#dms button").click()
    await expect(page.locator("#where")).to_contain_text("Ada's direct messages")
    await expect(page.locator("#messages")).to_contain_text("Ada's DM: 3 cards")
    await expect(dot).to_have_count(0)

    await be(page, "Bram <b>")  # a name as typed, never as markup
    await expect(page.locator("#where")).to_contain_text("Bram <b>'s direct messages")
    await expect(page.locator("#messages")).not_to_contain_text("Ada's DM")
    await page.locator("#texts button").click()
    await expect(messages).to_have_count(1)
    await expect(page.locator("#messages")).not_to_contain_text("Your hand")

    await be(page, "Ada")
    await mine.locator("button", has_text="Dismiss message").click()
    await expect(mine).to_have_count(0)


@chromium
async def test_discord_markdown_reads_as_text(place: Place, page: Any) -> None:
    soon = int(time.time()) + 600
    send(
        place,
        place.channel,
        {
            "content": (
                f"**Bold** and *slanted* for <@{place.bram.id}> in <#{place.channel.id}>, "
                f"ends <t:{soon}:R>. `x<y>` <img src=x> ~~gone~~"
            ),
            "embeds": [
                {
                    "title": "Board",
                    "description": "__turn__ 3\n> quoted",
                    "color": 0x3A7BD5,
                    "fields": [{"name": "Ann", "value": "5 VP", "inline": True}],
                    "footer": {"text": "footer words"},
                }
            ],
            "components": [ROW],
        },
    )
    message = page.locator("#messages .message")
    await expect(message.locator("strong")).to_have_text("Bold")
    await expect(message.locator("em")).to_have_text("slanted")
    await expect(message.locator(".mention")).to_have_text(["@Bram <b>", "#games"])
    await expect(message.locator("time.ts")).to_have_text("in 10 minutes")
    await expect(message.locator("code")).to_have_text("x<y>")
    await expect(message.locator("s")).to_have_text("gone")
    await expect(message.locator("img")).to_have_count(0)  # typed markup stays text
    await expect(message).to_contain_text("<img src=x>")
    await expect(message).not_to_contain_text("<t:")
    embed = message.locator(".embed")
    await expect(embed.locator(".title")).to_have_text("Board")
    await expect(embed.locator("u")).to_have_text("turn")
    await expect(embed.locator(".quote")).to_have_text("quoted")
    await expect(embed.locator(".field")).to_have_text("Ann5 VP")
    await expect(embed.locator(".footer")).to_have_text("footer words")
    await expect(message.locator("a.btn.link")).to_have_attribute(
        "href", "https://example.org/rules"
    )


@chromium
async def test_an_interaction_nobody_answers_fails_as_on_discord(place: Place, page: Any) -> None:
    send(place, place.channel, {"content": "board", "components": [ROW]})
    await page.locator("button[data-custom-id='poke']").click()
    failed = page.locator("#messages .failed")
    await expect(failed).to_have_text(
        "This interaction failed: the bot did not answer within 3 seconds."
    )
    box = page.locator("#command")
    await box.fill("/wave at:")
    await expect(page.locator("#suggestions li")).to_have_text(["Adaa member", "Bram <b>a member"])
    await box.fill("/wave at:Nobody")
    await box.press("Enter")
    await expect(page.locator("#error")).to_have_text("at: no member 'Nobody'.")
    await expect(box).to_have_value("/wave at:Nobody")  # kept, to be mended
    await box.fill("/wave at:Ada")
    await box.press("Enter")
    await expect(page.locator("#error")).to_have_text(
        "This interaction failed: the bot did not answer within 3 seconds."
    )


async def test_the_standalone_emulator_serves_the_face_when_asked(tmp_path: Path) -> None:
    """`python -m bot.emulator --face PORT`: a bot run by hand against it gets a face too."""
    argv = [sys.executable, "-m", "bot.emulator", "--face", "0", "--users", "Ann", "Bo"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    async with spawned(
        argv,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    ) as proc:
        assert proc.stdout is not None
        printed = ""
        while "play as the members at" not in printed:
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line, printed
            printed += line.decode()
        assert "DISCORD_TOKEN=" in printed and ".env" in printed
        url = printed.rsplit("play as the members at ", 1)[1].split()[0]
        async with aiohttp.ClientSession() as session, session.get(f"{url}api/view") as answer:
            view = (await answer.json())["view"]
        assert [m["name"] for m in view["members"]] == ["Ann", "Bo"]
        assert view["channel"]["name"] == "games"


@chromium
async def test_a_menu_choice_is_sent_as_the_member_chose_it(place: Place, page: Any) -> None:
    menu = {
        "type": 3,
        "custom_id": "pick",
        "placeholder": "Take which?",
        "options": [
            {"label": "Two ants", "value": "ants", "description": "2 points"},
            {"label": "A beetle", "value": "beetle"},
        ],
    }
    send(
        place,
        place.channel,
        {"content": "choose", "components": [{"type": 1, "components": [menu]}]},
    )
    await be(page, "Bram <b>")
    select = page.locator("select[data-custom-id='pick']")
    await expect(select.locator("option")).to_have_text(
        ["Take which?", "Two ants — 2 points", "A beetle"]
    )
    sent: list[dict[str, Any]] = []

    async def gateway(event: str, payload: dict[str, Any]) -> bool:  # what the bot would get
        sent.append(payload)
        return False

    place.emulator.interactions.dispatch = gateway
    await select.select_option("beetle")
    # Nobody answers here: the choice went out as Bram's interaction, which then failed.
    await expect(page.locator("#messages .failed")).to_contain_text("This interaction failed")
    (interaction,) = sent
    assert interaction["data"] == {"custom_id": "pick", "component_type": 3, "values": ["beetle"]}
    assert interaction["member"]["user"]["id"] == str(place.bram.id)
