"""Every interaction gets an answer (P-24): custom ids and select values that bugtable did not make
(garbled, forged, oversized, deeply nested, numbers too big for the database) are answered
privately and logged in one short line without the payload; `/bugs` refuses in DMs."""

from __future__ import annotations

import json

import pytest

from bot.emulator.interactions import InteractionResult

from .conftest import World
from .helpers import open_game, start_game, told

INVALID = "That button is not valid."
HUGE = "z" * 20_000
NESTED = "[" * 5_000 + "]" * 5_000
BIG = "9" * 30

BAD_BUTTONS = [
    pytest.param("nonsense", id="no-template"),
    pytest.param("g:1:1:{not json}", id="not-json"),
    pytest.param('g:1:1:{"type":' + NESTED + "}", id="deeply-nested"),
    pytest.param('g:1:1:{"type":"' + HUGE + '"}', id="20kB"),
    pytest.param('g:1:1:{"type":"x","a":[[[[[1]]]]]}', id="too-deep"),
    pytest.param("g:" + BIG + ':1:{"type":"claim"}', id="30-digit-game"),
    pytest.param("h:" + BIG + ":join", id="30-digit-lobby"),
    pytest.param("s:1:" + BIG + ":0", id="30-digit-turn"),
    pytest.param("g:1:1:{}\n" + HUGE, id="newline"),
]


def assert_refused(result: InteractionResult) -> None:
    assert result.acknowledged and not result.failed, result
    assert result.ephemeral and told(result) == INVALID


def assert_quiet_log(world: World) -> None:
    output = world.bot.output()
    assert "Traceback" not in output and "OverflowError" not in output
    assert "zzzzzzzzzz" not in output and "[[[[[[[[[[" not in output and BIG not in output


@pytest.mark.parametrize("custom_id", BAD_BUTTONS)
async def test_a_forged_button_is_answered_privately_and_logged_without_it(
    world: World, custom_id: str
) -> None:
    emu = world.emulator
    board = await start_game(emu, world.alice, [world.bob], world.channel)
    assert_refused(await emu.forge_click(world.alice, board, custom_id))
    assert_quiet_log(world)
    assert "refused an invalid component from user" in world.bot.output()


async def test_forged_select_values_and_clicks_from_nowhere_are_answered(world: World) -> None:
    emu = world.emulator
    board = await start_game(emu, world.alice, [world.bob], world.channel)
    game_id = board.buttons()[0].custom_id.split(":")[1]  # type: ignore[union-attr]
    select = f"s:{game_id}:1:0"
    for values in (["{oops"], [HUGE], ['{"type":' + NESTED + "}"], ["[1]"]):
        assert_refused(await emu.forge_click(world.alice, board, select, values))
    # A well-formed id that is not on the message it claims to come from: discord.py drops it.
    claim = json.dumps({"type": "claim"}, separators=(",", ":"))
    result = await emu.forge_click(world.alice, board, f"g:{game_id}:7:{claim}", on_message=False)
    assert_refused(result)
    assert_quiet_log(world)


async def test_bugs_commands_refuse_in_direct_messages(world: World) -> None:
    emu, dm = world.emulator, world.emulator.dm_channel(world.alice)
    for command, options in (
        ("bugs new ladybug-dash", {}),
        ("bugs status", {}),
        ("bugs join", {}),
        ("bugs history", {}),
        ("bugs settings", {}),
        ("bugs leaderboard", {"game": "ladybug-dash"}),  # made when the bot starts, like new
        ("bugs rules", {"game": "ladybug-dash"}),
    ):
        result = await emu.forge_slash(world.alice, dm, command, **options)
        assert result.acknowledged and result.ephemeral
        assert "server channel" in told(result)
    # ... and nothing was opened there: the channel is still free for a real game.
    await open_game(emu, world.alice, world.channel)
    assert not [m for m in emu.dms(world.alice) if m.buttons()]


async def test_a_forged_game_name_is_answered_without_echoing_it(world: World) -> None:
    emu = world.emulator
    (bugs,) = [c for c in emu.commands if c["name"] == "bugs"]  # beside /bugtable
    new = {"name": "new", "type": 2, "options": [{"name": HUGE, "type": 1}]}
    data = {"id": bugs["id"], "name": "bugs", "type": 1, "options": [new]}
    result = await emu.interactions.forged(2, world.alice, world.channel, data, name="bugs")
    assert result.acknowledged and result.ephemeral
    assert told(result) == "That command is not valid.", told(result)
    assert_quiet_log(world)


async def test_forged_commands_and_modal_submits_are_answered(world: World) -> None:
    emu = world.emulator
    result = await emu.forge_slash(world.alice, world.channel, "bugs new ladybug-dash", clock=HUGE)
    assert told(result) == "Option 'clock' must be one of: 30, 1."  # the engine's own answer
    (bugs,) = [c for c in emu.commands if c["name"] == "bugs"]  # beside /bugtable
    unknown = {"id": bugs["id"], "name": "bugs", "type": 1, "options": [{"name": HUGE, "type": 1}]}
    result = await emu.interactions.forged(2, world.alice, world.channel, unknown, name="bugs")
    assert result.acknowledged and result.ephemeral
    assert told(result) == "That command is not valid.", told(result)
    # bugtable never opens a modal, so no modal submit is its own.
    submit = {"custom_id": HUGE, "components": []}
    modal = await emu.interactions.forged(5, world.alice, world.channel, submit)
    assert modal.acknowledged and modal.ephemeral and told(modal) == INVALID
    assert_quiet_log(world)


INVALID_COMMAND = "That command is not valid."


def assert_command_refused(world: World, result: InteractionResult) -> None:
    assert result.acknowledged and not result.failed, result
    assert result.ephemeral and told(result) == INVALID_COMMAND, told(result)
    line = f"refused an invalid command from user {world.alice.id} in channel {world.channel.id}"
    assert line in world.bot.output()


async def test_an_undeclared_option_on_bugs_new_opens_no_lobby(world: World) -> None:
    """Only a forged client sends it; discord.py alone would ignore the option and open one."""
    emu = world.emulator
    forged = emu.forge_slash(world.alice, world.channel, "bugs new bag-of-bugs", nonexistent="x")
    assert_command_refused(world, await forged)
    # ... beside a declared one, too.
    result = await emu.forge_slash(
        world.alice, world.channel, "bugs new ladybug-dash", clock="1", nonexistent="x"
    )
    assert_command_refused(world, result)
    assert emu.channel_messages(world.channel) == []  # no lobby was posted
    await open_game(emu, world.alice, world.channel)  # the channel is still free
    assert "nonexistent" not in world.bot.output()
    assert_quiet_log(world)


async def test_undeclared_options_on_other_commands_and_at_any_level_are_refused(
    world: World,
) -> None:
    emu = world.emulator
    for command, options in (
        ("bugs status", {"nonexistent": "x"}),
        ("bugs rules", {"game": "bug-off", "verbose": "yes"}),
        ("bugs settings", {"pings": False, "volume": "11"}),
    ):
        result = await emu.forge_slash(world.alice, world.channel, command, **options)
        assert_command_refused(world, result)
    (bugs,) = [c for c in emu.commands if c["name"] == "bugs"]  # beside /bugtable
    status = {"name": "status", "type": 1, "options": []}
    new = {"name": "new", "type": 2, "options": [{"name": "bag-of-bugs", "type": 1}]}
    for options in (
        [status, {"name": "junk", "type": 3, "value": "x"}],  # beside the subcommand
        [new, {"name": "junk", "type": 3, "value": "x"}],  # beside the subcommand group
        [status, {"name": "history", "type": 1, "options": []}],  # two subcommands
        [{"name": "new", "type": 2, "options": [*new["options"], status]}],  # two, one deeper
        [{"name": "status", "type": 2, "options": []}],  # a subcommand sent as a group
        [{"name": "rules", "type": 1, "options": [{"name": "game", "type": 4, "value": 1}]}],
        [
            {
                "name": "rules",
                "type": 1,
                "options": [{"name": "game", "type": 3, "value": "bug-off"}] * 2,  # twice
            }
        ],
    ):
        data = {"id": bugs["id"], "name": "bugs", "type": 1, "options": options}
        result = await emu.interactions.forged(2, world.alice, world.channel, data, name="bugs")
        assert_command_refused(world, result)
    assert emu.channel_messages(world.channel) == []
    assert "junk" not in world.bot.output()
    # What is declared still works, forged or not.
    result = await emu.forge_slash(world.alice, world.channel, "bugs rules", game="bug-off")
    assert result.ephemeral and "Bug Off" in told(result)
    assert_quiet_log(world)
