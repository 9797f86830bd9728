"""Lobby flows and every misuse, through the real discord.py bot and the emulator."""

from __future__ import annotations

import asyncio

import pytest

from bot.emulator import EmulatorError
from bot.games import games as registered
from bot.ui.options import RULE_CODE

from .conftest import World
from .helpers import WAIT, click, open_game, start_game, told, until_text


async def test_open_join_leave_start(world: World) -> None:
    emu, chan = world.emulator, world.channel
    lobby = await open_game(emu, world.alice, chan)
    assert "Ladybug Dash — lobby" in lobby.text() and "1. alice" in lobby.text()
    assert [b.label for b in lobby.buttons()] == [
        "Join",
        "Leave",
        "Start",
        "Cancel",
        "Add easy bot",
        "Add normal bot",
        "Add hard bot",
        "How to play",
    ]
    assert lobby.find_button(label="Start").disabled  # one player is not enough

    await click(emu, world.bob, lobby, "Join")
    await click(emu, world.carol, lobby, "Join")
    await until_text(emu, lobby, "3. carol")
    await click(emu, world.carol, lobby, "Leave")
    await emu.wait_for(lambda: "carol" not in lobby.text(), timeout=WAIT)

    refused = await click(emu, world.bob, lobby, "Start")
    assert "Only the member who opened the game" in told(refused)
    assert "lobby" in lobby.text()

    assert told(await click(emu, world.alice, lobby, "Start")) == ""
    await emu.wait_for(lambda: lobby.has_button(label="claim"), timeout=WAIT)
    assert "Ladybug Dash" in lobby.text() and "lobby" not in lobby.text()


async def test_lobby_misuse_gets_clear_private_answers(world: World) -> None:
    emu, chan = world.emulator, world.channel
    lobby = await open_game(emu, world.alice, chan)

    busy = await emu.slash(world.bob, chan, "bugs new bug-off")
    assert busy.ephemeral and "already a game in this channel" in told(busy)
    assert "already" in told(await click(emu, world.alice, lobby, "Join"))
    assert "not" in told(await click(emu, world.bob, lobby, "Leave")).lower()
    assert "needs 2 to 4 players; 1 has joined" in told(
        await emu.slash(world.alice, chan, "bugs start")
    )
    # Each game offers only its own options: Discord itself refuses another game's.
    with pytest.raises(EmulatorError, match="has no option 'clock'"):
        await emu.slash(world.bob, chan, "bugs new bug-off", clock="1")

    for user in (world.bob, world.carol, world.dave):
        await click(emu, user, lobby, "Join")
    await until_text(emu, lobby, "(4/4)")
    await emu.wait_for(lambda: lobby.find_button(label="Join").disabled, timeout=WAIT)
    full = await emu.slash(world.eve, chan, "bugs join")
    assert "full" in told(full).lower()

    assert "Only the member who opened" in told(await emu.slash(world.bob, chan, "bugs cancel"))
    await emu.slash(world.alice, chan, "bugs start")
    await emu.wait_for(lambda: lobby.has_button(label="claim"), timeout=WAIT)
    assert "not playing" in told(await emu.slash(world.eve, chan, "bugs leave"))
    assert "started" in told(await emu.slash(world.eve, chan, "bugs join"))
    assert "not playing" in told(await click(emu, world.eve, lobby, "claim"))
    assert "no hidden" not in told(await emu.slash(world.alice, chan, "bugs hand"))
    assert "not playing" in told(await emu.slash(world.eve, chan, "bugs hand"))

    # A member with Manage Channels may cancel someone else's game.
    cancelled = await emu.slash(world.mod, chan, "bugs cancel")
    assert "cancelled" in told(cancelled)
    await until_text(emu, lobby, "cancelled")
    assert lobby.buttons() == []
    assert "no game in this channel" in told(await emu.slash(world.alice, chan, "bugs status"))
    again = await open_game(emu, world.bob, chan)
    assert "lobby" in again.text()


async def test_new_offers_each_game_only_its_own_options_in_words(world: World) -> None:
    emu, guild = world.emulator, world.guild
    (bugs,) = [c for c in emu.commands if c["name"] == "bugs"]
    (new,) = [o for o in bugs["options"] if o["name"] == "new"]
    games = {g["name"]: {o["name"] for o in g.get("options") or []} for g in new["options"]}
    # the bot loads the test game from EXTRA_GAME_MODULES, as this process did (tests/conftest.py)
    # … and the time control every game offers (P-71)
    expected = {
        game.slug: {o.name for o in game.engine.options} | {"speed"} for game in registered()
    }
    assert games == expected

    lobby = await open_game(emu, world.alice, world.channel, "bug-off", first_player="2")
    text = lobby.text()
    assert "Bug Off! — lobby" in text and "First player: the 2nd to join" in text
    assert "first_player" not in text and not RULE_CODE.search(text)

    tiles = emu.add_text_channel(guild, "tiles")
    with pytest.raises(EmulatorError, match="has no option 'first_player'"):
        await emu.slash(world.bob, tiles, "bugs new bugs-and-co", first_player="1")
    lobby = await open_game(emu, world.bob, tiles, "bugs-and-co", extra_set="three-eyed")
    assert "Extra tiles (5–6 players): three-eyed bugs" in lobby.text()
    assert "extra_set" not in lobby.text()

    bag = await open_game(emu, world.carol, emu.add_text_channel(guild, "bag"), "bag-of-bugs")
    assert "Bag of Bugs — lobby" in bag.text() and "Options" not in bag.text()
    run = await open_game(
        emu, world.dave, emu.add_text_channel(guild, "run"), "bug-run", mode="powers"
    )
    assert "Hero powers: with hero powers" in run.text() and "mode" not in run.text()


async def test_status_and_rules(world: World) -> None:
    emu, chan = world.emulator, world.channel
    await start_game(emu, world.alice, [world.bob], chan)
    status = told(await emu.slash(world.carol, chan, "bugs status"))
    assert "Ladybug Dash" in status and "playing" in status and "alice" in status
    rules = await emu.slash(world.carol, chan, "bugs rules", game="bag-of-bugs")
    assert rules.ephemeral and "Drawer" in told(rules)


@pytest.mark.parametrize("world", [{"bot_player_delay": 0.05}], indirect=True)
async def test_a_bot_player_fills_a_seat_and_plays_its_turns(world: World) -> None:
    emu, chan = world.emulator, world.channel
    lobby = await open_game(emu, world.alice, chan)
    assert "Only the member who opened" in told(await click(emu, world.bob, lobby, "Add easy bot"))
    assert told(await click(emu, world.alice, lobby, "Add easy bot")) == ""
    await until_text(emu, lobby, "2. 🤖 Easy bot")
    await emu.wait_for(lambda: not lobby.find_button(label="Start").disabled, timeout=WAIT)
    await click(emu, world.alice, lobby, "Start")
    # Alice plays her picks; the bot claims, cheers and picks on its own, to the end.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 2 * WAIT
    while "game over" not in (text := lobby.text()):
        assert loop.time() < deadline, f"no game over within {2 * WAIT} s: {text}"
        if "**to_pick**: 0" in text and lobby.has_button(label="pick 2"):
            await emu.click(world.alice, lobby, lobby.find_button(label="pick 2"))
        await asyncio.sleep(0.05)  # a poll: the loop ends on the state, not on time
    text = await until_text(emu, lobby, "game over", timeout=WAIT)
    assert "🤖 Easy bot" in text
    assert emu.dms(world.alice)  # the human got her hand; the bot needs no DMs
