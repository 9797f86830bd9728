"""Leavers and sleepers, through the emulator and the real bot process: `/bugs leave` mid-game
hands the seat to a bot (P-30), a clock that runs out ``AFK_LIMIT`` times in a row does too
(P-31), and `/bugs join` takes the seat back before the game ends."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.emulator import EmulatorError
from bot.emulator.models import Message
from bot.store import Store
from rules.core import SYSTEM

from .conftest import World
from .helpers import WAIT, click, open_game, private, start_game, told, until_text
from .test_bug_off import game_buttons, turn_of
from .test_pings import pings

GAME = "bug-off"
QUICK_BOTS = {"board_edit_interval": 0.01, "bot_player_delay": 0.2, "ping_after": 0}
"""Bots think 0.2 s; turn pings go at once (P-46), so the test sees whom they name now."""


async def stored_actions(world: World) -> list[tuple[int, str]]:
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        game = await store.active_game_in_channel(world.channel.id)
        if game is None:
            (game,) = await store.finished_games()
        return [(a.seat, str(a.action["type"])) for a in await store.actions(game.id)]
    finally:
        await store.close()


async def play_my_turn(world: World, board: Message, user: Any) -> None:
    """Wait for ``user``'s turn on the board, then draw and place by clicks, and for the board
    to show the turn after."""
    emu = world.emulator
    choosing = f"▶ **{user.name}** has drawn and is choosing"

    def my_draw() -> bool:
        if choosing in board.text():
            return True  # a stand-in drew before the member took the seat back
        if f"▶ **{user.name}**'s turn: draw a card." not in board.text():
            return False
        return board.has_button(label="Draw") and not board.find_button(label="Draw").disabled

    def shown_turn() -> int | None:
        return turn_of(board.find_button(label="Draw").custom_id)

    while True:
        await emu.wait_for(my_draw, timeout=WAIT)
        turn = shown_turn()
        assert turn is not None
        if choosing in board.text():
            hand = await click(emu, user, board, "My hand")
            turn -= 1
        else:
            hand = await click(emu, user, board, "Draw")
        panel = private(hand)
        assert panel is not None, told(hand)
        choices = game_buttons(panel, turn + 1)
        if choices:
            break
        # The board still showed a turn that had just passed (a stand-in drew before the
        # member took the seat back, and the board's edit saying so was on its way): the bot
        # says so privately, and the member looks again once the board has caught up.
        assert "from an earlier turn" in panel.text(), panel.text()
        await emu.wait_for(lambda passed=turn: shown_turn() != passed, timeout=WAIT)
    done = await emu.click(user, panel, choices[0])
    assert done.acknowledged and not done.failed, told(done)
    await emu.wait_for(
        lambda: (
            (turn_of(board.find_button(label="Draw").custom_id) or 0) >= turn + 2
            if board.has_button(label="Draw")
            else "game over" in board.text()
        ),
        timeout=WAIT,
    )


async def click_when_enabled(world: World, board: Message, user: Any, label: str) -> Any:
    """Click ``label`` on the board as soon as it is enabled (the stand-in's own moves disable
    it for a moment: on a loaded machine the test may look right then), trying again if it
    was disabled between the look and the click."""
    emu = world.emulator
    deadline = asyncio.get_running_loop().time() + WAIT
    while True:
        await emu.wait_for(
            lambda: board.has_button(label=label) and not board.find_button(label=label).disabled,
            timeout=WAIT,
        )
        try:
            return await click(emu, user, board, label)
        except EmulatorError:
            if asyncio.get_running_loop().time() > deadline:
                raise


@pytest.mark.parametrize("world", [QUICK_BOTS], indirect=True)
async def test_a_leaver_is_played_by_a_bot_until_they_join_again(world: World) -> None:
    emu, channel = world.emulator, world.channel
    alice, bob = world.alice, world.bob
    board = await start_game(emu, alice, [bob], channel, GAME)
    await until_text(emu, board, "'s turn: draw a card.")
    await emu.wait_for(lambda: pings(emu, channel), timeout=WAIT)  # the first turn's ping

    earlier = {m.id for m in pings(emu, channel, deleted=True)}
    asked = await emu.slash(bob, channel, "bugs leave")  # asked first (P-73)
    assert asked.ephemeral and asked.message is not None, told(asked)
    await click(emu, bob, asked.message, "Leave: a bot plays my seat")
    left = asked.message.text()
    assert "a bot plays your seat now" in left and "/bugs join" in left, left
    await until_text(emu, board, "🚪 **bob** left: 🤖 a normal bot plays their seat")
    await until_text(emu, board, "🤖 bob (Normal bot)")  # a normal stand-in (STAND_IN_LEVEL)
    # While away, bob's clicks are refused privately, and he is never pinged.
    refused = await click_when_enabled(world, board, bob, "Draw")
    assert "A bot plays your seat" in told(refused), told(refused)
    again = await emu.slash(bob, channel, "bugs leave")
    assert "already plays your seat" in told(again)

    # Alice plays her turns; the stand-in plays bob's (seat 1 moves while bob clicks nothing).
    seat_of_bob = 1
    for _ in range(2):
        await play_my_turn(world, board, alice)
    moves = await stored_actions(world)
    assert (seat_of_bob, "draw") in moves
    since = [m for m in pings(emu, channel, deleted=True) if m.id not in earlier]
    assert not any(f"<@{bob.id}>" in m.content for m in since)

    back = await emu.slash(bob, channel, "bugs join")
    assert "You are back in Bug Off!" in told(back), told(back)
    await until_text(emu, board, "↩️ **bob** is back and plays their own seat again")
    # His seat waits for him now: he plays his own turns, and is pinged when the next begins.
    await play_my_turn(world, board, bob)
    await play_my_turn(world, board, alice)
    await emu.wait_for(
        lambda: any(m.notified == (bob.id,) for m in pings(emu, channel, deleted=True)),
        timeout=WAIT,
    )
    await play_my_turn(world, board, bob)
    assert "already playing your own seat" in told(await emu.slash(bob, channel, "bugs join"))


@pytest.mark.parametrize(
    "world", [{**QUICK_BOTS, "timers__bugoff_turn": 3.0, "afk_limit": 2}], indirect=True
)
async def test_a_member_whose_clock_keeps_running_out_is_replaced_and_told(
    world: World,
) -> None:
    """Alice plays against a bot and never clicks: her second expired clock hands her seat to a
    stand-in, she is told in the channel, and `/bugs join` gives it back."""
    emu, channel, alice = world.emulator, world.channel, world.alice
    lobby = await open_game(emu, alice, channel, GAME)
    assert told(await click(emu, alice, lobby, "Add easy bot")) == ""
    await emu.wait_for(lambda: not lobby.find_button(label="Start").disabled, timeout=WAIT)
    assert told(await click(emu, alice, lobby, "Start")) == ""
    board = lobby

    def notice() -> Message | None:
        return next(
            (m for m in emu.channel_messages(channel) if m.content.startswith(f"<@{alice.id}>")),
            None,
        )

    found = await emu.wait_for(notice, timeout=WAIT)
    assert "your clock ran out 2 times in a row" in found.content
    assert "/bugs join" in found.content and found.notified == (alice.id,)
    await until_text(emu, board, "💤 **alice**'s clock ran out 2 times in a row")
    moves = await stored_actions(world)
    assert [m for m in moves if m[0] == SYSTEM] == [(SYSTEM, "timeout")] * 2
    # The stand-in now plays her turns, long before her clock would run out.
    await emu.wait_for(
        lambda: f"🃏 🤖 {alice.name} (Normal bot) drew a card" in board.all_text(), timeout=WAIT
    )

    back = await emu.slash(alice, channel, "bugs join")
    assert "You are back" in told(back)
    await until_text(emu, board, "↩️ **alice** is back")
    await play_my_turn(world, board, alice)
