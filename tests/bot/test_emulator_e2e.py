"""The real discord.py client (tests/support/echo_bot.py) against the emulator."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot.emulator import Channel, Emulator, EmulatorError, Guild, User
from tests.support.echo_bot import EchoBot, point_discord_at, restore_discord

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Scene:
    emu: Emulator
    guild: Guild
    chan: Channel
    alice: User
    bob: User
    mod: User


@pytest.fixture
async def scene() -> AsyncIterator[Scene]:
    emu = Emulator(token="test-token")
    guild = emu.add_guild("Bug Club")
    chan = emu.add_text_channel(guild, "games")
    alice = emu.add_user("alice")
    bob = emu.add_user("bob", dms_open=False)
    mod = emu.add_user("mod", manage_channels=True)
    async with emu:
        yield Scene(emu, guild, chan, alice, bob, mod)
    assert emu.internal_errors == []


@contextlib.contextmanager
def aimed_at(emu: Emulator) -> Iterator[None]:
    old = point_discord_at(emu.api_base, emu.gateway_url)
    try:
        yield
    finally:
        restore_discord(old)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
async def bot(scene: Scene) -> AsyncIterator[EchoBot]:
    """An in-process EchoBot; discord.py logging an error (a payload it choked on) fails."""
    errors = _Errors()
    logging.getLogger("discord").addHandler(errors)
    try:
        with aimed_at(scene.emu):
            client = EchoBot()
            task = asyncio.create_task(client.start(scene.emu.token))
            await scene.emu.wait_identified(timeout=10)
            yield client
            await client.close()
            await asyncio.wait_for(task, timeout=5)
    finally:
        logging.getLogger("discord").removeHandler(errors)
    assert [r.getMessage() for r in errors.records] == []


async def test_startup_handshake_stores_synced_commands(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    calls = [(r.method, r.path) for r in emu.requests]
    assert calls[:3] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
        ("PUT", f"/applications/{emu.application_id}/commands"),
    ]
    assert emu.sync_count == 1
    (command,) = emu.commands
    assert command["name"] == "bugs" and int(command["id"]) > 0
    assert {o["name"] for o in command["options"]} >= {"new", "secret", "slow", "twice"}
    assert bot.user is not None and bot.user.id == emu.bot_user.id
    assert bot.application_id == emu.application_id
    # GUILD_CREATE was parsed: the bot knows the guild, the channel and itself as a member.
    await emu.wait_for(lambda: bot.get_channel(scene.chan.id) is not None)
    guild = bot.get_guild(scene.guild.id)
    assert guild is not None and guild.me is not None


async def test_slash_ephemeral_reply_is_visible_only_to_the_caller(
    scene: Scene, bot: EchoBot
) -> None:
    emu = scene.emu
    res = await emu.slash(scene.alice, scene.chan, "bugs secret")
    assert res.acknowledged and not res.failed
    assert res.type == 4 and res.ephemeral
    assert res.content == "psst alice: the secret is 42"
    assert [m.content for m in emu.ephemerals(scene.alice)] == [res.content]
    assert emu.ephemerals(scene.bob) == []
    assert emu.channel_messages(scene.chan) == []
    assert any("secret is 42" in m.text() for m in emu.visible_to(scene.alice))
    assert not any("secret is 42" in m.all_text() for m in emu.visible_to(scene.bob))


async def test_button_click_updates_the_message_in_place(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    res = await emu.slash(scene.alice, scene.chan, "bugs new", game="bag-of-bugs")
    assert res.type == 4 and not res.ephemeral
    message = res.message
    assert message is not None and message.interaction is not None
    assert message.interaction["name"] == "bugs new"
    button = message.find_button(label="Join")
    assert button.custom_id == "echo:join:bag-of-bugs"

    click = await emu.click(scene.bob, message, button)
    assert click.acknowledged and click.type == 7 and click.message is message
    assert emu.channel_messages(scene.chan) == [message]
    assert message.content.startswith("New game of bag-of-bugs\nbob joined")
    assert [v.content for v in message.history] == ["New game of bag-of-bugs"]
    assert message.edited_at is not None


async def test_concurrent_clicks_resolve_independently(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    res = await emu.slash(scene.alice, scene.chan, "bugs new", game="race")
    assert res.message is not None
    first, second = await asyncio.gather(
        emu.click(scene.alice, res.message, "echo:join:race"),
        emu.click(scene.bob, res.message, "echo:join:race"),
    )
    assert first.acknowledged and second.acknowledged
    assert first.interaction_id != second.interaction_id
    assert first.user is scene.alice and second.user is scene.bob
    # Both answered from the same snapshot: two edits, the later one wins.
    assert len(res.message.history) == 2
    assert "joined" in res.message.content


async def test_the_ack_deadline_then_a_late_ack_is_unknown_interaction(
    scene: Scene, bot: EchoBot
) -> None:
    emu = scene.emu
    assert emu.interactions.ack_deadline == 3.0  # Discord's, by default
    # A tenth of it here: the same race between the deadline and a late ack, sooner. Only a
    # lower bound on the time is checked (a loaded machine is late, never early).
    emu.interactions.ack_deadline = 0.3
    started = time.monotonic()
    res = await emu.slash(scene.alice, scene.chan, "bugs slow", delay=0.6)
    assert res.failed and not res.acknowledged and res.message is None
    assert time.monotonic() - started >= 0.3
    error = await emu.wait_for(lambda: next(iter(bot.errors), None), timeout=3)
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert emu.count_requests("POST", r"/callback$", status=404) == 1
    assert emu.channel_messages(scene.chan) == []


async def test_second_acknowledgement_is_refused(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    res = await emu.slash(scene.alice, scene.chan, "bugs twice")
    assert res.acknowledged and res.content == "first"
    error = await emu.wait_for(lambda: next(iter(bot.errors), None))
    assert isinstance(error, discord.HTTPException) and error.code == 40060
    assert [m.content for m in emu.channel_messages(scene.chan)] == ["first"]


async def test_dm_to_closed_dms_is_forbidden_50007(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    res = await emu.slash(scene.bob, scene.chan, "bugs dm")
    assert res.ephemeral and res.content == "DMs closed (50007)"
    (error,) = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert emu.dms(scene.bob) == []

    res = await emu.slash(scene.alice, scene.chan, "bugs dm")
    assert res.content == "check your DMs"
    assert [m.content for m in emu.dms(scene.alice)] == ["hello by DM"]
    assert emu.dms(scene.alice)[0] in emu.visible_to(scene.alice)
    assert emu.dms(scene.alice)[0] not in emu.visible_to(scene.bob)

    emu.set_dms_open(scene.bob, True)
    await emu.slash(scene.bob, scene.chan, "bugs dm")
    assert [m.content for m in emu.dms(scene.bob)] == ["hello by DM"]


async def test_429_is_retried_by_discord_py(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    emu.rate_limit("PATCH", r"^/channels/\d+/messages/\d+$", times=2, retry_after=0.1)
    await emu.slash(scene.alice, scene.chan, "bugs edit")
    await emu.wait_for(lambda: "edited" in bot.notes)
    patches = [r for r in emu.requests if r.method == "PATCH"]
    assert [r.status for r in patches] == [429, 429, 200]
    assert patches[2].time - patches[0].time >= 0.2
    assert [m.content for m in emu.channel_messages(scene.chan)] == ["v1"]


async def test_content_over_2000_is_refused(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    res = await emu.slash(scene.alice, scene.chan, "bugs long")
    assert res.type == 5 and res.ephemeral
    followup = await res.wait_followup(timeout=5)
    assert followup is res.message  # the first followup fills the "thinking" placeholder
    assert followup.content == "rejected 400 50035" and not followup.loading
    (error,) = bot.errors
    assert isinstance(error, discord.HTTPException) and error.status == 400
    assert "2000 or fewer" in str(error)
    assert emu.channel_messages(scene.chan) == []


async def test_select_menu(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    res = await emu.slash(scene.alice, scene.chan, "bugs pick")
    assert res.message is not None
    (menu,) = res.message.selects()
    assert [o["value"] for o in menu.options] == ["ant", "bee", "cricket"]
    with pytest.raises(EmulatorError, match="no options"):
        await emu.select(scene.alice, res.message, "echo:pick", ["wasp"])
    picked = await emu.select(scene.alice, res.message, "echo:pick", ["bee"])
    assert picked.type == 7 and picked.content == "picked bee"
    assert res.message.components == []
    # The menu is gone: a user still seeing the old render is refused, as by Discord.
    again = await emu.select(scene.bob, res.message, "echo:pick", ["ant"])
    assert again.failed and again.stale and not again.delivered


async def test_member_and_app_permissions(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    res = await emu.slash(scene.mod, scene.chan, "bugs perms")
    assert res.content == "manage_channels=True app_embed_links=True"
    res = await emu.slash(scene.alice, scene.chan, "bugs perms")
    assert res.content == "manage_channels=False app_embed_links=True"


async def test_unknown_commands_and_options_are_test_errors(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    with pytest.raises(EmulatorError, match="unknown slash command"):
        await emu.slash(scene.alice, scene.chan, "nope")
    with pytest.raises(EmulatorError, match="no subcommand"):
        await emu.slash(scene.alice, scene.chan, "bugs nope")
    with pytest.raises(EmulatorError, match="no option"):
        await emu.slash(scene.alice, scene.chan, "bugs new", game="x", colour="red")
    with pytest.raises(EmulatorError, match="missing required"):
        await emu.slash(scene.alice, scene.chan, "bugs new")
    with pytest.raises(EmulatorError, match="expected a string"):
        await emu.slash(scene.alice, scene.chan, "bugs new", game=3)


async def test_resume_replays_events_missed_while_disconnected(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    await emu.drop_connection(code=4000)
    await emu.wait_for(lambda: not emu.connected)
    # Sent while the bot is away: buffered, then replayed on RESUME.
    res = await emu.slash(scene.alice, scene.chan, "bugs secret")
    assert not res.delivered
    assert res.acknowledged and res.content == "psst alice: the secret is 42"
    assert emu.gateway.resume_count == 1 and emu.identify_count == 1


async def test_forgotten_session_makes_the_bot_identify_again(scene: Scene, bot: EchoBot) -> None:
    emu = scene.emu
    await emu.drop_connection(code=4000, forget_session=True)
    await emu.wait_identified(count=2, timeout=10)
    res = await emu.slash(scene.alice, scene.chan, "bugs secret")
    assert res.acknowledged and res.delivered
    assert emu.gateway.resume_count == 0


async def test_bad_token_fails_login(scene: Scene) -> None:
    with aimed_at(scene.emu):
        client = EchoBot()
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
        await client.close()
    assert scene.emu.requests[0].status == 401
    assert scene.emu.identify_count == 0


def _spawn_bot(emu: Emulator, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "EMU_API_BASE": emu.api_base,
        "EMU_GATEWAY_URL": emu.gateway_url,
        "EMU_TOKEN": emu.token,
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.echo_bot"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=5)


async def test_dynamic_item_survives_a_new_bot_process(scene: Scene, tmp_path: Path) -> None:
    emu = scene.emu
    first = _spawn_bot(emu, tmp_path / "first.log")
    try:
        await emu.wait_identified(count=1, timeout=20)
        res = await emu.slash(scene.alice, scene.chan, "bugs new", game="bag-of-bugs")
        assert res.acknowledged and res.message is not None
        assert emu.connected
    finally:
        _stop(first)
    await emu.wait_for(lambda: not emu.connected, timeout=5)

    # While no bot runs, a click fails like on Discord ("This interaction failed").
    down = await emu.click(scene.bob, res.message, "echo:join:bag-of-bugs")
    assert down.failed and not down.acknowledged

    second = _spawn_bot(emu, tmp_path / "second.log")
    try:
        await emu.wait_identified(count=2, timeout=20)
        click = await emu.click(scene.bob, res.message, "echo:join:bag-of-bugs")
        assert click.acknowledged and click.type == 7
        assert f"bob joined (pid {second.pid})" in res.message.content
        assert emu.sync_count == 2
    finally:
        _stop(second)
    for name in ("first.log", "second.log"):
        text = (tmp_path / name).read_text()
        assert "Traceback" not in text and " ERROR " not in text, text
