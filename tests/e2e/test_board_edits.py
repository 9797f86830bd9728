"""Bursts of changes become a few edits of the board, the newest state wins, 429s are survived."""

from __future__ import annotations

import pytest

from .conftest import World
from .helpers import click, start_game, until_text


@pytest.mark.parametrize("world", [{"board_edit_interval": 1.0}], indirect=True)
async def test_a_burst_of_actions_is_coalesced_and_the_newest_state_wins(world: World) -> None:
    emu, chan = world.emulator, world.channel
    players = [world.alice, world.bob, world.carol, world.dave]
    board = await start_game(emu, world.alice, players[1:], chan)
    path = rf"/channels/{chan.id}/messages/{board.id}$"
    before = emu.count_requests("PATCH", path)

    await click(emu, world.alice, board, "claim")
    for user in players:
        # Each pick is accepted in turn, far faster than the board may be edited.
        hand = (await click(emu, user, board, "My hand")).message
        assert hand is not None
        await emu.click(user, hand, hand.find_button(label="pick 1"))
    text = await until_text(emu, board, "**round**: 2", timeout=10)
    assert "**picks_made**: [1,1,1,1]" in text
    # A later action's edit comes after every edit of the burst: once the board shows it, the
    # burst's edits are all counted (no sleeping and hoping they are done).
    await click(emu, world.alice, board, "claim")
    await until_text(emu, board, "**phase**: pick", timeout=10)
    edits = emu.count_requests("PATCH", path) - before - 1
    assert 1 <= edits <= 3, edits  # five accepted actions, at most three edits


async def test_rate_limited_edits_are_retried_and_the_board_catches_up(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan)
    emu.rate_limit("PATCH", rf"/channels/{chan.id}/messages/{board.id}$", times=2, retry_after=0.3)
    await click(emu, world.alice, board, "claim")
    await until_text(emu, board, "**phase**: pick", timeout=10)
    path = rf"/channels/{chan.id}/messages/{board.id}$"
    assert emu.count_requests("PATCH", path, status=429) == 2
