"""Bot levels in the game (issue #23 item 5), through the emulator: a lobby with a hard bot plays
a whole game to its end, its member's seat handed to a normal stand-in that the board names;
Add bot offers only the levels the server allows (P-77), and refuses others privately."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.emulator.models import Message
from bot.host.errors import LevelNotOffered
from bot.host.policy import ServerPolicy
from bot.store import Store
from tests.conftest import TEST_GAME_MODULES
from tests.support.in_process import FakePolicies, InProcess, bot_in_process

from .conftest import World
from .helpers import WAIT, click, free_port, open_game, told, until_text
from .test_operations import sample

GAME = "bug-off"
"""Turn-based and two players may play it: a hard bot and a stand-in finish it alone."""
PORT = free_port()
METRICS = f"http://127.0.0.1:{PORT}"
QUICK = {"bot_player_delay": 0.05, "bot_think": 0.05, "bot_processes": 1, "metrics_port": PORT}
"""Bots react in 12-100 ms and think 50 ms a decision (the levels keep their order); the
bot's metrics say how each decision was made."""


@pytest.mark.parametrize("world", [QUICK], indirect=True)
async def test_a_hard_bot_and_a_normal_stand_in_play_a_whole_game(world: World) -> None:
    emu, channel, alice = world.emulator, world.channel, world.alice
    lobby = await open_game(emu, alice, channel, GAME)
    assert [b.label for b in lobby.buttons() if "bot" in b.label] == [
        "Add easy bot",
        "Add normal bot",
        "Add hard bot",
    ]
    assert told(await click(emu, alice, lobby, "Add hard bot")) == ""
    await until_text(emu, lobby, "2. 🤖 Hard bot")
    # Its seat started the search worker (P-76). On a busy machine a worker at nice 10 may
    # take many seconds to start: a game begun before that is played by fallbacks, as the
    # design has it, but this test is here to see searches.
    await emu.wait_for(lambda: "search workers are ready" in world.bot.output(), timeout=WAIT)
    await emu.wait_for(lambda: not lobby.find_button(label="Start").disabled, timeout=WAIT)
    assert told(await click(emu, alice, lobby, "Start")) == ""
    board = lobby
    asked = await emu.slash(alice, channel, "bugs leave")  # asked first (P-73)
    assert asked.ephemeral and asked.message is not None, told(asked)
    await click(emu, alice, asked.message, "Leave: a bot plays my seat")
    assert "a bot plays your seat now" in asked.message.text()
    await until_text(emu, board, "🚪 **alice** left: 🤖 a normal bot plays their seat")
    await until_text(emu, board, f"🤖 {alice.name} (Normal bot)")
    # Nobody clicks from here: the two bots play the game to its end.
    text = await until_text(emu, board, "game over", timeout=4 * WAIT)
    assert "🤖 Hard bot" in text and f"🤖 {alice.name} (Normal bot)" in text
    assert "🏆" in text

    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        (game,) = [g for g in await store.finished_games() if g.channel_id == channel.id]
        seats = {s.seat: s for s in await store.seats(game.id)}
        assert (seats[1].is_bot, seats[1].bot_level) == (True, "hard")
        assert (seats[0].away, seats[0].bot_level) == (True, "normal")
        moves = [a.seat for a in await store.actions(game.id)]
        assert moves.count(0) > 5 and moves.count(1) > 5  # both bots played their turns
        # Ratings exclude bots: the only member's seat was a stand-in's, a bot game unrated.
        results = {r.user_id: r for r in await store.results(game.id)}
        assert set(results) == {alice.id, seats[1].user_id}
    finally:
        await store.close()
    # The hard bot searched in its worker process; the stand-in played normal decisions.
    async with aiohttp.ClientSession() as http, http.get(f"{METRICS}/metrics") as response:
        metrics = await response.text()
    assert sample(metrics, "bugtable_bot_think_seconds_count", game=GAME, how="searched") > 0
    assert sample(metrics, "bugtable_bot_think_seconds_count", game=GAME, how="normal") > 0


# -- a server's policy ------------------------------------------------------------------------


@pytest.fixture
async def in_process(tmp_path: Path) -> AsyncIterator[InProcess]:
    """The bot in this process (so the test hands it a fake ``Policies``), on the emulator."""
    async with bot_in_process(
        tmp_path, FakePolicies(), extra_game_modules=TEST_GAME_MODULES, bot_processes=1
    ) as running:
        yield running


def bot_buttons(message: Message) -> list[str]:
    return [b.label for b in message.buttons() if "bot" in b.label]


async def test_add_bot_offers_only_the_levels_the_server_allows(in_process: InProcess) -> None:
    emu, policies = in_process.emu, in_process.policies
    guild = emu.add_guild("Strict Club")
    channel = emu.add_text_channel(guild, "games")
    alice = emu.add_user("alice")
    policies.by_guild[guild.id] = ServerPolicy(bot_levels=frozenset({"normal"}))

    lobby = await open_game(emu, alice, channel, GAME)
    assert bot_buttons(lobby) == ["Add normal bot"]
    assert "normal plays by the rulebook's strategy" in lobby.text()
    assert "hard looks ahead" not in lobby.text()
    assert told(await click(emu, alice, lobby, "Add normal bot")) == ""
    await until_text(emu, lobby, "2. 🤖 Normal bot")

    # The admins turn bots off while the lobby is open: this game keeps the offer it opened
    # with (P-64), and the next lobby offers none.
    policies.by_guild[guild.id] = ServerPolicy(bot_levels=frozenset())
    assert told(await click(emu, alice, lobby, "Add normal bot")) == ""
    await until_text(emu, lobby, "3. 🤖 Normal bot 2")
    assert told(await emu.slash(alice, channel, "bugs cancel")) != ""
    later = await open_game(emu, alice, channel, GAME)
    assert bot_buttons(later) == []

    # A server that allows easy and hard: no normal button, and a level the lobby does not
    # offer (a forged button) is refused, nothing seated.
    other = emu.add_guild("Other Club")
    elsewhere = emu.add_text_channel(other, "games")
    policies.by_guild[other.id] = ServerPolicy(bot_levels=frozenset({"easy", "hard"}))
    second = await open_game(emu, alice, elsewhere, GAME)
    assert bot_buttons(second) == ["Add easy bot", "Add hard bot"]
    opened = await in_process.bot.host.table_in_channel(elsewhere.id)
    assert opened is not None
    with pytest.raises(LevelNotOffered, match="does not offer normal bots, only easy and hard"):
        await in_process.bot.host.add_bot(opened.id, alice.id, "normal")
    table = await in_process.bot.host.table_in_channel(elsewhere.id)
    assert table is not None and [s.name for s in table.seats] == ["alice"]
