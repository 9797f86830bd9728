"""Turn pings (docs/rulings.md P-28): when a game starts waiting on a member, one short channel
message mentions them; the next ping replaces it, and it goes when the game no longer waits on
them. The board names whom the game waits on without notifying anyone, and `/bugs settings`
turns a member's pings off."""

from __future__ import annotations

from typing import Any

import pytest

from bot.emulator import Emulator
from bot.emulator.models import Message

from .conftest import World
from .helpers import WAIT, told
from .test_bug_off import FAST, Game, new_game


def pings(emu: Emulator, channel: Any, *, deleted: bool = False) -> list[Message]:
    """The channel's turn pings, oldest first (``deleted``: those already gone too)."""
    return sorted(
        (
            m
            for m in emu.world.messages.values()
            if m.channel is channel
            and m.ephemeral_to is None
            and m.content.startswith("🔔 <@")
            and (deleted or not m.deleted)
        ),
        key=lambda m: m.id,
    )


async def ping_for(game: Game, user: Any) -> Message:
    """Until the one live ping notifies ``user`` (and only them)."""
    emu, channel = game.emu, game.world.channel

    def found() -> Message | None:
        live = pings(emu, channel)
        return live[0] if len(live) == 1 and live[0].notified == (user.id,) else None

    message: Message = await emu.wait_for(found, timeout=WAIT)
    return message


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_turn_ping_mentions_the_player_once_and_the_next_one_replaces_it(
    world: World,
) -> None:
    emu = world.emulator
    game = await new_game(world, [world.alice, world.bob], seed=21)
    try:
        ready = await game.ready(0)
        assert ready is not None
        first_player, turn = ready
        other = world.bob if first_player is world.alice else world.alice
        first = await ping_for(game, first_player)
        assert "your turn, press **Draw**" in first.content and "/bugs settings" in first.content
        # The board names the player too, in an edit that notifies nobody.
        assert f"🔔 Your move: <@{first_player.id}>" in game.board.content
        assert game.board.notified == ()

        # Drawing keeps the game waiting on the same player: no new ping.
        next_turn = await game.play_turn(turn, lambda user: "reply")
        assert next_turn is not None
        second = await ping_for(game, other)
        assert first.deleted and second.id > first.id
        await emu.wait_for(lambda: f"Your move: <@{other.id}>" in game.board.content, timeout=WAIT)
        assert f"<@{first_player.id}>" not in game.board.content

        await game.play_turn(next_turn, lambda user: "reply")
        third = await ping_for(game, first_player)
        assert second.deleted and [m.id for m in pings(emu, world.channel)] == [third.id]
        # One ping per turn, each for the player whose turn began, each notifying only them.
        assert [m.notified for m in pings(emu, world.channel, deleted=True)] == [
            (first_player.id,),
            (other.id,),
            (first_player.id,),
        ]
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_pings_switched_off_in_settings_leave_the_board_naming_the_member(
    world: World,
) -> None:
    emu, channel, bob = world.emulator, world.channel, world.bob
    shown = told(await emu.slash(bob, channel, "bugs settings"))
    assert "Turn pings: on" in shown
    off = await emu.slash(bob, channel, "bugs settings", pings=False)
    assert off.ephemeral and "Saved. 🔕 **Turn pings: off.**" in told(off)
    assert "Turn pings: off" in told(await emu.slash(bob, channel, "bugs settings"))

    game = await new_game(world, [world.alice, bob], seed=22)
    try:
        turn: int | None = 0
        # Play until alice has been pinged twice: bob's turn came and went in between.
        while len([m for m in pings(emu, channel, deleted=True) if m.notified]) < 2:
            assert turn is not None
            turn = await game.play_turn(turn, lambda user: "reply")
        ever = pings(emu, channel, deleted=True)
        assert all(m.notified == (world.alice.id,) for m in ever)
        assert not any(f"<@{bob.id}>" in m.content for m in ever)
        # The board named bob while it was his turn, and that edit notified nobody.
        versions = [*game.board.history, game.board.version()]
        assert any(f"🔔 Your move: <@{bob.id}>" in v.content for v in versions)
        assert game.board.notified == ()

        back = await emu.slash(bob, channel, "bugs settings", pings=True)
        assert "Turn pings: on" in told(back)
        while not any(m.notified == (bob.id,) for m in pings(emu, channel, deleted=True)):
            assert turn is not None
            turn = await game.play_turn(turn, lambda user: "reply")
    finally:
        await game.store.close()
