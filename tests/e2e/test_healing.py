"""Messages that heal (docs/rulings.md P-39): a deleted board is posted again, a channel that
refuses the bot holds only its board and pings, a member whose DM fails holds only their own
DM, and a deleted ping is no trouble. Each through the real bot and discord.py against the
emulator, which answers as Discord does (404 Unknown Message, 403 50013 Missing Permissions,
403 50007 on a DM)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.emulator import Emulator
from bot.emulator.models import Message
from bot.store import Store

from .conftest import World
from .helpers import WAIT, click, start_game, told, until_text

HEALING = {"retry_max_delay": 0.3, "board_edit_interval": 0.01, "ping_after": 0}
"""Failed parts are tried again at most 0.3 s apart, so a test sees the heal soon; turn pings
go at once (P-46), so a test sees them without waiting."""


@contextlib.asynccontextmanager
async def store_of(world: World) -> AsyncIterator[Store]:
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        yield store
    finally:
        await store.close()


def boards(emu: Emulator, channel: Any) -> list[Message]:
    """The channel's live bot messages that carry game buttons (the board, once)."""
    return [
        m
        for m in emu.channel_messages(channel)
        if m.author is emu.bot_user and m.has_button(label="My hand")
    ]


def live_dm(emu: Emulator, user: Any) -> Message:
    (dm,) = [m for m in emu.dms(user) if not m.deleted]
    return dm


async def game_id_of(world: World) -> int:
    async with store_of(world) as store:
        game = await store.active_game_in_channel(world.channel.id)
        assert game is not None
        return game.id


@pytest.mark.parametrize("world", [HEALING], indirect=True)
async def test_a_deleted_board_is_posted_again_once_and_the_store_learns_it(
    world: World,
) -> None:
    emu, alice, bob = world.emulator, world.alice, world.bob
    board = await start_game(emu, alice, [bob], world.channel, "ladybug-dash")
    game_id = await game_id_of(world)
    await emu.wait_for(lambda: len(emu.dms(alice)) == 1 and len(emu.dms(bob)) == 1, timeout=WAIT)
    emu.delete_message(board)

    # Alice claims from her DM: the move is played, and the board comes back with it.
    assert told(await click(emu, alice, live_dm(emu, alice), "claim")) == ""
    again: list[Message] = await emu.wait_for(
        lambda: boards(emu, world.channel) or None, timeout=WAIT
    )
    (new,) = again
    assert new.id != board.id
    await until_text(emu, new, "**prizes**: [1,0]", timeout=WAIT)
    async with store_of(world) as store:  # recorded right after the message is posted

        async def recorded() -> bool:
            return (await store.messages(game_id))["board"].message_id == new.id

        await emu.wait_for(recorded, timeout=WAIT)

    # The new board is the board from now on: edited in place, never posted twice.
    assert "you picked" in told(await click(emu, alice, new, "pick 2"))
    await until_text(emu, new, "**picks_made**: [1,0]", timeout=WAIT)
    assert [m.id for m in boards(emu, world.channel)] == [new.id]
    assert world.bot.output().count(f"game {game_id}: its board message was deleted") == 1


@pytest.mark.parametrize("world", [HEALING], indirect=True)
@pytest.mark.usefixtures("tokens_refused")  # a click's token would still edit the board (P-92)
async def test_a_channel_that_refuses_the_bot_holds_its_board_but_not_the_game(
    world: World,
) -> None:
    """403 50013 on every send and edit in the channel: clicks are answered, DMs are edited,
    the clocks play on; once Send Messages is back the board shows the newest state."""
    emu, alice, bob = world.emulator, world.alice, world.bob
    board = await start_game(emu, alice, [bob], world.channel, "ladybug-dash", clock="1")
    game_id = await game_id_of(world)
    await emu.wait_for(lambda: len(emu.dms(alice)) == 1 and len(emu.dms(bob)) == 1, timeout=WAIT)
    shown = board.text()
    emu.set_bot_permissions(world.channel, send=False)

    assert told(await click(emu, alice, live_dm(emu, alice), "claim")) == ""
    # Nobody clicks now: the 1 s clocks pick for Alice, then for Bob, and the next round
    # begins, all without the board; each one's DM follows.
    async with store_of(world) as store:

        async def round_two() -> bool:
            game = await store.get_game(game_id)
            return game is not None and game.snapshot["round"] == 2

        await emu.wait_for(round_two, timeout=WAIT)
    await until_text(emu, live_dm(emu, alice), "**my_picks**: [1]", timeout=WAIT)
    await until_text(emu, live_dm(emu, bob), "**my_picks**: [1]", timeout=WAIT)
    status = await emu.slash(bob, world.channel, "bugs status")
    assert status.ephemeral and "Ladybug Dash" in status.message.text()  # type: ignore[union-attr]
    assert board.text() == shown

    emu.set_bot_permissions(world.channel, send=True)
    await until_text(emu, board, "**round**: 2", timeout=WAIT)
    healed = f"game {game_id}: channel {world.channel.id} allows the bot again"
    await emu.wait_for(lambda: healed in world.bot.output(), timeout=WAIT)
    output = world.bot.output()
    assert output.count(f"game {game_id}: channel {world.channel.id} refuses the bot") == 1


@pytest.mark.parametrize("world", [HEALING], indirect=True)
async def test_a_dm_that_is_refused_holds_only_that_member(world: World) -> None:
    """Bob's DM answers 403 50007 from one move on: Alice's DM and the board go on, the
    channel says once where Bob finds his hand, and My hand shows it to him privately."""
    emu, alice, bob = world.emulator, world.alice, world.bob
    board = await start_game(emu, alice, [bob], world.channel, "ladybug-dash")
    await emu.wait_for(lambda: len(emu.dms(alice)) == 1 and len(emu.dms(bob)) == 1, timeout=WAIT)
    bobs_dm = live_dm(emu, bob)
    emu.fail(
        "PATCH",
        rf"/channels/{bobs_dm.channel.id}/messages/",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=1000,
    )
    bob_before = bobs_dm.text()
    assert told(await click(emu, alice, board, "claim")) == ""
    await until_text(emu, board, "**prizes**: [1,0]", timeout=WAIT)
    await emu.wait_for(lambda: live_dm(emu, alice).has_button(label="pick 1"), timeout=WAIT)
    assert "you picked" in told(await click(emu, alice, board, "pick 1"))
    await until_text(emu, board, "**to_pick**: 1", timeout=WAIT)

    def notice() -> list[Message]:
        return [
            m
            for m in emu.channel_messages(world.channel)
            if "can't send you direct messages" in m.text() and f"<@{bob.id}>" in m.content
        ]

    await emu.wait_for(notice, timeout=WAIT)
    assert bobs_dm.text() == bob_before and len(notice()) == 1
    hand = await click(emu, bob, board, "My hand")
    assert hand.ephemeral and "my_card" in told(hand)


@pytest.mark.parametrize("world", [HEALING], indirect=True)
async def test_a_ping_deleted_by_a_member_is_replaced_without_trouble(world: World) -> None:
    emu, alice, bob = world.emulator, world.alice, world.bob
    board = await start_game(emu, alice, [bob], world.channel, "ladybug-dash")

    def live_pings() -> list[Message]:
        return [m for m in emu.channel_messages(world.channel) if m.content.startswith("🔔 <@")]

    first: list[Message] = await emu.wait_for(lambda: live_pings() or None, timeout=WAIT)
    emu.delete_message(first[0])  # a member deletes the ping that named both players
    assert told(await click(emu, bob, board, "claim")) == ""
    await until_text(emu, board, "**to_pick**: 0", timeout=WAIT)
    assert "you picked" in told(await click(emu, alice, board, "pick 1"))
    # The game now waits on Bob: a new ping names him (the bot's delete of the old one
    # meets a 404, which is no trouble).
    second: list[Message] = await emu.wait_for(
        lambda: [m for m in live_pings() if m.notified == (bob.id,)] or None, timeout=WAIT
    )
    assert second[0].id > first[0].id and len(live_pings()) == 1
    # The ping and the board's edit go out in the same pass, each on its own (P-39): Bob
    # clicks the board once it shows his move, as a member would.
    await until_text(emu, board, "**to_pick**: 1", timeout=WAIT)
    assert "you picked" in told(await click(emu, bob, board, "pick 2"))
    await until_text(emu, board, "**round**: 2", timeout=WAIT)
    # One ping at a time: round 2's replaces Bob's. It names both: Alice's wait begins, and
    # Bob's pick ended his and the race begins a new one (P-46).
    await emu.wait_for(
        lambda: (
            [set(m.notified) for m in live_pings()] == [{alice.id, bob.id}] and second[0].deleted
        ),
        timeout=WAIT,
    )
    output = world.bot.output()
    assert "Traceback" not in output and "could not update" not in output, output
