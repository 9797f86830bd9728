"""Time controls through the emulator (docs/rulings.md P-71, P-74): a turn-based Bug Off! game
reminds its sleeper at 1 h and 12 h, rests out of memory in between, waits past its day while
the bot is down, and plays on after the restart with its control unchanged; a speed the server
does not allow is refused privately (an in-process bot with that server's policy).

``TIMER_SCALE`` shortens the day: an hour is a third of a second, so the two reminders come
within seconds; the day itself passes while the bot is down (its stored deadline is moved, as
``test_restart`` does), never in real time."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import discord
import pytest

from bot.emulator.models import Message
from bot.host.policy import GamePolicy, ServerPolicy
from bot.store import Store
from tests.support.in_process import FakePolicies, bot_in_process

from .conftest import World
from .helpers import WAIT, deadlines, move_deadlines, start_game, told, until_text
from .test_bug_off import Game
from .test_pings import pings

GAME = "bug-off"
HOUR_SCALE = 1 / 10800
"""An hour lasts a third of a second: the 12 h reminder comes 4 s in, the day would end 8 s in
(it is moved instead, while the bot is down)."""
TURN_BASED = {
    "board_edit_interval": 0.01,
    "timer_scale": HOUR_SCALE,
    "afk_limit": 1,  # at any other speed, one clock running out would hand the seat to a bot
}


def ping_times(world: World, user: object) -> list[Message]:
    """Every ping that named ``user``, deleted ones included, oldest first."""
    every = pings(world.emulator, world.channel, deleted=True)
    return [m for m in every if getattr(user, "id", None) in m.notified]


@pytest.mark.parametrize("world", [TURN_BASED], indirect=True)
async def test_a_turn_based_bug_off_game_waits_a_day_with_its_reminders_then_plays_on_after_a_restart(
    world: World,
) -> None:
    emu, channel = world.emulator, world.channel
    alice, bob = world.alice, world.bob
    board = await start_game(emu, alice, [bob], channel, GAME, speed="turn-based")
    store = await Store.open(world.bot.db_url, migrate=False)
    game = Game(world, board, [alice, bob], store, random.Random(5))
    try:
        status = told(await emu.slash(alice, channel, "bugs status"))
        assert "Turn-based" in status and "1 day" in status and "1 h and 12 h" in status
        ready = await game.ready(0)
        assert ready is not None
        sleeper, _ = ready
        other = bob if sleeper is alice else alice
        record = await store.active_game_in_channel(channel.id)
        assert record is not None and record.time_control == "turn-based"
        started = record.updated_at
        (due,) = (await asyncio.to_thread(deadlines, world.bot.db_path, record.id)).values()
        day = (due - started).total_seconds()
        assert day == pytest.approx(24 * 3600 * HOUR_SCALE, abs=0.5)

        # Nobody moves: two reminders in this wait, at 1 h and at 12 h, the second replacing
        # the first; the game rests out of memory in between and wakes for the second.
        await emu.wait_for(lambda: len(ping_times(world, sleeper)) == 2, timeout=WAIT)
        first, second = ping_times(world, sleeper)
        assert first.deleted and second.id > first.id  # replaced: one ping per game
        hour = timedelta(seconds=3600 * HOUR_SCALE)
        assert discord.utils.snowflake_time(first.id) >= started + hour - timedelta(seconds=0.05)
        assert discord.utils.snowflake_time(second.id) >= started + 12 * hour - timedelta(
            seconds=0.05
        )
        assert "rests until it is next used" in world.bot.output()

        # The day passes while the bot is down; at the start its clock plays the default move.
        await world.bot.kill()
        await asyncio.to_thread(
            move_deadlines, world.bot.db_path, record.id, started - timedelta(hours=1)
        )
        assert len(ping_times(world, sleeper)) == 2  # the wait never got a third
        await world.bot.start()
        await until_text(emu, board, f"⏰ {sleeper.name} ran out of time")
        # A turn-based clock is no strike: nobody's seat went to a bot (AFK_LIMIT is 1 here).
        assert "🤖" not in board.text()
        status = told(await emu.slash(other, channel, "bugs status"))
        assert "Turn-based" in status and "🤖" not in status

        # It plays on by clicks after the restart, still turn-based (a day per decision).
        turn = await game.play_turn(2, lambda user: "reply")
        assert turn is not None
        record = await store.active_game_in_channel(channel.id)
        assert record is not None and record.time_control == "turn-based"
        (due,) = (await asyncio.to_thread(deadlines, world.bot.db_path, record.id)).values()
        assert (due - record.updated_at).total_seconds() == pytest.approx(day, abs=0.5)
    finally:
        await store.close()


async def test_a_speed_the_server_does_not_allow_is_refused_privately(tmp_path: Path) -> None:
    policy = ServerPolicy(
        games={GAME: GamePolicy(speed="slow")}, speeds=frozenset({"normal", "slow"})
    )
    async with bot_in_process(tmp_path, FakePolicies(policy)) as running:
        emu = running.emu
        guild = emu.add_guild("Bug Club")
        channel = emu.add_text_channel(guild, "games")
        alice = emu.add_user("alice")
        refused = await emu.slash(alice, channel, f"bugs new {GAME}", speed="turn-based")
        assert refused.ephemeral, refused
        text = told(refused)
        assert "does not allow `turn-based`" in text and "`normal`, `slow`" in text, text
        public = [m for m in emu.world.messages.values() if m.channel is channel]
        assert not [m for m in public if m.ephemeral_to is None]  # no lobby was opened
        # Left out: the server's default for the game, shown with its numbers.
        opened = await emu.slash(alice, channel, f"bugs new {GAME}")
        assert opened.acknowledged and not opened.ephemeral
        lobby = await opened.wait_message(timeout=WAIT)
        assert "Slow" in lobby.text() and "3 min" in lobby.text(), lobby.text()
        # An allowed pick is taken (after the lobby is cancelled).
        await emu.slash(alice, channel, "bugs cancel")
        normal = await emu.slash(alice, channel, f"bugs new {GAME}", speed="normal")
        lobby = await normal.wait_message(timeout=WAIT)
        assert "Normal" in lobby.text() and "60 s" in lobby.text(), lobby.text()


async def test_a_running_game_keeps_its_control_when_the_server_changes_its_default(
    tmp_path: Path,
) -> None:
    policies = FakePolicies(ServerPolicy(games={GAME: GamePolicy(speed="slow")}))
    async with bot_in_process(tmp_path, policies) as running:
        emu = running.emu
        guild = emu.add_guild("Bug Club")
        channel = emu.add_text_channel(guild, "games")
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        await start_game(emu, alice, [bob], channel, GAME)
        # The admin makes the game fast from now on: the running game stays slow.
        policies.default = ServerPolicy(games={GAME: GamePolicy(speed="fast")})
        status = told(await emu.slash(bob, channel, "bugs status"))
        assert "Slow" in status and "3 min — turn clock" in status, status
        other = emu.add_text_channel(guild, "more-games")
        lobby = await (await emu.slash(alice, other, f"bugs new {GAME}")).wait_message(timeout=WAIT)
        assert "Fast" in lobby.text() and "30 s — turn clock" in lobby.text(), lobby.text()
