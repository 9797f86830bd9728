"""`/bugtable`, a server's settings (issue #24), through the real bot process and the emulator:
only members with Manage Server see or use it, every answer is private, bad values change
nothing, a setting takes effect on the next game and never on one under way (P-64), and the
settings and their audit trail survive a restart."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.emulator import EmulatorError
from bot.emulator.models import MANAGE_GUILD
from bot.store import Store

from .conftest import World
from .helpers import WAIT, click, free_port, open_game, start_game, told, until_text
from .test_bug_off import FAST, new_game
from .test_pings import pinged

PORT = free_port()


async def admin_of(world: World, name: str = "admin") -> Any:
    """A member whose role gives Manage Server (and nothing else)."""
    emu = world.emulator
    role = emu.add_role(world.guild, f"{name}s", permissions=MANAGE_GUILD)
    admin = emu.add_user(name, guilds=[world.guild])
    emu.give_role(admin, role)
    await emu.settle()  # the bot has heard of the role before the admin's first command
    return admin


async def stored(world: World) -> tuple[dict[str, Any], int]:
    """The server's stored settings, and how many changes its audit trail holds."""
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        settings = await store.server_settings(world.guild.id)
        changes = await store.server_setting_changes(world.guild.id, limit=1000)
        return settings, len(changes)
    finally:
        await store.close()


async def bugtable(world: World, user: Any, command: str, **options: Any) -> str:
    """Run `/bugtable <command>` and return its private answer (asserting it was private)."""
    result = await world.emulator.slash(user, world.channel, f"bugtable {command}", **options)
    assert result.ephemeral, result
    return told(result)


async def test_only_members_with_manage_server_see_or_use_it(world: World) -> None:
    emu, chan = world.emulator, world.channel
    (command,) = [c for c in emu.interactions.all_commands() if c["name"] == "bugtable"]
    assert command["default_member_permissions"] == str(MANAGE_GUILD)
    assert command["contexts"] == [0]  # servers only
    # Discord's client does not offer it to a member without Manage Server (Manage Channels
    # is not enough) ...
    for member in (world.alice, world.mod):
        with pytest.raises(EmulatorError, match="lacks permissions"):
            await emu.slash(member, chan, "bugtable show")
    # ... and one who sends it anyway is refused privately, and nothing is stored.
    for path, options in (
        ("bugtable show", {}),
        ("bugtable replays", {"public": False}),
        ("bugtable channels clear", {}),
        ("bugtable game", {"game": "ladybug-dash", "enabled": False}),  # made at start
    ):
        refused = await emu.forge_slash(world.mod, chan, path, **options)
        assert refused.ephemeral and "Manage Server" in told(refused), told(refused)
    assert await stored(world) == ({}, 0)

    admin = await admin_of(world)
    shown = await bugtable(world, admin, "show")
    assert "Public replay links of finished games: **on**" in shown
    assert shown.count("⚙️") == 1  # the legend: every setting is at the bot's default
    assert "Recent changes__\nnone yet" in shown


async def test_games_open_only_in_the_allowed_channels(world: World) -> None:
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world)
    lounge = emu.add_text_channel(world.guild, "lounge")
    arena = emu.add_text_channel(world.guild, "arena")
    await emu.settle()
    saved = await bugtable(world, admin, "channels add", channel=lounge)
    assert "Saved" in saved and f"<#{lounge.id}>" in saved
    await bugtable(world, admin, "channels add", channel=arena)

    refused = await emu.slash(world.alice, chan, "bugs new ladybug-dash")
    assert refused.ephemeral
    assert f"<#{lounge.id}>" in told(refused) and f"<#{arena.id}>" in told(refused)
    assert not [m for m in emu.visible_to(world.alice) if m.channel is chan and not m.ephemeral_to]
    await open_game(emu, world.alice, lounge)  # an allowed channel opens as always

    await bugtable(world, admin, "channels remove", channel=lounge)
    await bugtable(world, admin, "channels remove", channel=arena)  # the list empty: any
    await open_game(emu, world.bob, chan)
    shown = await bugtable(world, admin, "show")
    assert "Channels where games may open: **any channel**" in shown


async def test_a_setting_takes_effect_on_the_next_game_not_the_running_one(world: World) -> None:
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world)
    lobby = await open_game(emu, world.alice, chan)  # opened under the defaults

    await bugtable(world, admin, "bots", easy=False, normal=False, hard=False)
    await bugtable(world, admin, "game", game="ladybug-dash", enabled=False)
    # The lobby under way keeps the policy it opened with: bots may still sit in.
    assert told(await click(emu, world.alice, lobby, "Add easy bot")) == ""
    await until_text(emu, lobby, "Easy bot")
    assert "This server's settings" not in lobby.text()
    await click(emu, world.alice, lobby, "Start")
    await emu.wait_for(lambda: lobby.has_button(label="claim"), timeout=WAIT)
    assert told(await emu.slash(world.mod, chan, "bugs cancel")).endswith("was cancelled.")

    # The next game gets the new settings: this one is off, and no bots in another one.
    refused = await emu.slash(world.alice, chan, "bugs new ladybug-dash")
    assert refused.ephemeral and "turned that game off" in told(refused)
    await bugtable(world, admin, "game", game="ladybug-dash", enabled=True)
    lobby = await open_game(emu, world.alice, chan)
    assert "This server's settings" in lobby.text() and "Bots: not allowed" in lobby.text()
    assert not [b for b in lobby.buttons() if "bot" in b.label]  # no Add bot at all
    assert "Easy bot" not in lobby.text()
    status = told(await emu.slash(world.bob, chan, "bugs status"))
    assert "This server's settings: Bots: not allowed" in status


async def test_the_speeds_the_admins_allow_are_what_bugs_new_offers(world: World) -> None:
    """The stored settings reach `/bugs new <game> speed:` (P-71): a game's default speed,
    and a speed the server forbids refused privately with the allowed ones, nothing opened."""
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world)
    await bugtable(world, admin, "game", game="bug-off", speed="slow")
    await bugtable(world, admin, "speeds", fast=False, **{"turn-based": False})
    refused = await emu.slash(world.alice, chan, "bugs new bug-off", speed="turn-based")
    assert refused.ephemeral, told(refused)
    assert "does not allow `turn-based`" in told(refused), told(refused)
    assert "`normal`, `slow`" in told(refused), told(refused)
    # Nothing was opened (a lobby here would refuse the next one), and left out, the speed is
    # the game's default.
    opened = await emu.slash(world.alice, chan, "bugs new bug-off")
    lobby = await opened.wait_message(timeout=WAIT)
    assert "Slow" in lobby.text(), lobby.text()


async def test_the_moderator_role_moderates_like_manage_channels(world: World) -> None:
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world)
    helpers = emu.add_role(world.guild, "helpers")
    emu.give_role(world.carol, helpers)
    await emu.settle()
    lobby = await open_game(emu, world.alice, chan)
    assert "Only the member who opened" in told(await click(emu, world.carol, lobby, "Cancel"))

    await bugtable(world, admin, "moderator", role=helpers)
    # Who moderates changes at once, as Discord's own permissions do (P-65).
    assert told(await click(emu, world.carol, lobby, "Cancel")) == ""
    await until_text(emu, lobby, "cancelled")
    await bugtable(world, admin, "moderator")  # none again
    lobby = await open_game(emu, world.alice, chan)
    assert "Only the member who opened" in told(await click(emu, world.carol, lobby, "Cancel"))


async def test_bad_values_are_refused_privately_and_change_nothing(world: World) -> None:
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world)
    elsewhere = emu.add_guild("Other Club")
    foreign_channel = emu.add_text_channel(elsewhere, "games")
    foreign_role = emu.add_role(elsewhere, "their mods")
    await emu.settle()
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("bugtable standins", {"afk-limit": -1}, "-1 is not a whole number of 0 or more"),
        ("bugtable pings", {"after": -5.0}, "-5.0 is not a number of seconds of 0 or more"),
        ("bugtable channels add", {"channel": foreign_channel}, "not one of this server's"),
        ("bugtable moderator", {"role": foreign_role}, "not one of this server's"),
        ("bugtable moderator", {"role": world.guild.everyone}, "@everyone cannot"),
        (
            "bugtable speeds",
            {"fast": False, "normal": False, "slow": False, "turn-based": False},
            "At least one speed",
        ),
        ("bugtable speeds", {"normal": False}, "would start at normal"),
        ("bugtable game", {"game": "ladybug-dash", "speed": "warp"}, "'warp' is not a speed"),
        ("bugtable game", {"game": "ladybug-dash"}, "at least one value"),
        ("bugtable channels remove", {"channel": chan}, "not on the list"),
    ]
    for path, options, words in cases:  # as a member's client sends them (choices aside)
        send = emu.forge_slash if path == "bugtable game" and "speed" in options else emu.slash
        result = await send(admin, chan, path, **options)
        assert result.ephemeral and words in told(result), (path, told(result))
    assert await stored(world) == ({}, 0)


@pytest.mark.parametrize("world", [{"web_port": PORT}], indirect=True)
async def test_private_replays_leave_the_finished_board_without_a_link(world: World) -> None:
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world)
    board = await start_game(emu, world.alice, [world.bob], chan)
    await bugtable(world, admin, "replays", public=False)
    # The game under way opened with public replays: its finished board links to its replay.
    await play_through(world, board)
    await emu.wait_for(lambda: board.has_button(label="Replay this game"), timeout=WAIT)

    board = await start_game(emu, world.alice, [world.bob], chan)
    status = told(await emu.slash(world.bob, chan, "bugs status"))
    page = status.split("Watch: ", 1)[1].split()[0]  # watching it live stays open
    async with aiohttp.ClientSession() as http, http.get(f"{page}/moves") as response:
        assert response.status == 200
    await play_through(world, board)
    assert not board.has_button(label="Replay this game")
    assert "Rematch" in [b.label for b in board.buttons()]
    # Once it is over, its page is no replay for anyone: as if there were none.
    async with aiohttp.ClientSession() as http, http.get(f"{page}/moves") as response:
        assert response.status == 404
    assert "Page:" not in told(await emu.slash(world.bob, chan, "bugs status"))


async def play_through(world: World, board: Any) -> None:
    """Three rounds of Ladybug Dash, bob claiming and both picking 1."""
    emu = world.emulator
    for _ in range(3):
        await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
        await click(emu, world.bob, board, "claim")
        for seat, user in enumerate([world.alice, world.bob]):
            await until_text(emu, board, f"**to_pick**: {seat}")
            await click(emu, user, board, "pick 1")
    await until_text(emu, board, "game over")


async def test_settings_and_their_audit_trail_survive_a_restart(world: World) -> None:
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world, "ada")
    lounge = emu.add_text_channel(world.guild, "lounge")
    await emu.settle()
    await bugtable(world, admin, "channels add", channel=lounge)
    await bugtable(world, admin, "standins", **{"afk-limit": 0})
    saved = await bugtable(world, admin, "pings", default=False, after=45.0)
    assert "`pings_default`: on (default) → off" in saved and "45 s" in saved

    await world.bot.kill()
    await world.bot.start()
    shown = await bugtable(world, admin, "show")
    assert f"Channels where games may open: **<#{lounge.id}>** ⚙️" in shown
    assert "AFK limit (missed clocks before a stand-in): **never** ⚙️" in shown
    assert "Pings for members who have not chosen: **off** ⚙️" in shown
    assert "Ping after: **45 s** ⚙️" in shown
    trail = shown.split("__Recent changes__", 1)[1]
    assert trail.count("**ada**") == 4 and f"<@{admin.id}>" in trail
    assert trail.index("`ping_after`") < trail.index("`channels`")  # newest first
    refused = await emu.slash(world.alice, chan, "bugs new ladybug-dash")
    assert f"<#{lounge.id}>" in told(refused)

    reset = await bugtable(world, admin, "reset", setting="all")
    assert "`channels`: <#" in reset and "→ any channel (default)" in reset
    assert "`afk_limit`: never → 3 in a row (the bot's AFK_LIMIT)" in reset
    assert await stored(world) == ({}, 8)
    await open_game(emu, world.alice, chan)


@pytest.mark.parametrize("world", [{**FAST, "ping_after": 600}], indirect=True)
async def test_a_servers_ping_default_and_delay_apply_to_its_games(world: World) -> None:
    """The bot's PING_AFTER (600 s) would ping nobody in this test: the server's 0 does, and
    only the member who chose pings, since the server's default is off (P-66)."""
    emu, chan = world.emulator, world.channel
    admin = await admin_of(world)
    await bugtable(world, admin, "pings", default=False, after=0.0)
    shown = told(await emu.slash(world.alice, chan, "bugs settings"))
    assert "Turn pings: off" in shown and "server's default" in shown
    assert "Turn pings: on" in told(await emu.slash(world.bob, chan, "bugs settings", pings=True))

    game = await new_game(world, [world.alice, world.bob], seed=22)
    try:
        turn: int | None = 0
        waits = {world.alice: 0, world.bob: 0}
        for _ in range(3):  # A, B, A or B, A, B: each waited on, bob after alice
            assert turn is not None
            ready = await game.ready(turn)
            assert ready is not None
            user = ready[0]
            # The board names them: the pass that drew it had their ping due (after 0 s).
            line = f"🔔 Your move: <@{user.id}>"
            await emu.wait_for(lambda: line in game.board.content, timeout=WAIT)  # noqa: B023
            waits[user] += 1
            turn = await game.play_turn(turn, lambda user: "reply")
        await emu.wait_for(lambda: pinged(game, world.bob) >= waits[world.bob], timeout=WAIT)
        assert pinged(game, world.alice) == 0 and waits[world.alice] >= 1
    finally:
        await game.store.close()
