"""Bursts of changes become a few edits of the board, the newest state wins, 429s are survived.

A click on the board itself is answered by updating the board in the click's response (P-45),
which is never an edit of the publisher's; these tests change the game from elsewhere (a
private reply's buttons, a slash command), so the publisher's own edits are what they see. Those
go through the token of the last click on the board when they can (P-92, tested in
``test_message_hooks.py``); these tests refuse every token, to see the bot's own edits."""

from __future__ import annotations

import pytest

from .conftest import World
from .helpers import WAIT, click, open_game, private, start_game, until_text


async def from_hand(world: World, user: object, board: object, label: str) -> None:
    """Click ``label`` on the member's private **My hand** reply (not on the board)."""
    hand = private(await click(world.emulator, user, board, "My hand"))  # type: ignore[arg-type]
    assert hand is not None
    await world.emulator.click(user, hand, hand.find_button(label=label))


@pytest.mark.parametrize("world", [{"board_edit_interval": 1.0}], indirect=True)
@pytest.mark.usefixtures("tokens_refused")
async def test_a_burst_of_actions_is_coalesced_and_the_newest_state_wins(world: World) -> None:
    emu, chan = world.emulator, world.channel
    players = [world.alice, world.bob, world.carol, world.dave]
    board = await start_game(emu, world.alice, players[1:], chan)
    path = rf"/channels/{chan.id}/messages/{board.id}$"
    before = emu.count_requests("PATCH", path)

    await from_hand(world, world.alice, board, "claim")
    for user in players:
        # Each pick is accepted in turn, far faster than the board may be edited.
        await from_hand(world, user, board, "pick 1")
    text = await until_text(emu, board, "**round**: 2", timeout=WAIT)
    assert "**picks_made**: [1,1,1,1]" in text
    # A later action's edit comes after every edit of the burst: once the board shows it, the
    # burst's edits are all counted (no sleeping and hoping they are done).
    await from_hand(world, world.alice, board, "claim")
    await until_text(emu, board, "**phase**: pick", timeout=WAIT)
    edits = emu.count_requests("PATCH", path) - before - 1
    assert 1 <= edits <= 3, edits  # five accepted actions, at most three edits
    assert emu.count_requests("PATCH", path) - before >= 2  # the publisher's edits, counted


@pytest.mark.usefixtures("tokens_refused")
async def test_rate_limited_edits_are_retried_and_the_board_catches_up(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan)
    emu.rate_limit("PATCH", rf"/channels/{chan.id}/messages/{board.id}$", times=2, retry_after=0.3)
    await from_hand(world, world.alice, board, "claim")
    await until_text(emu, board, "**phase**: pick", timeout=WAIT)
    path = rf"/channels/{chan.id}/messages/{board.id}$"
    assert emu.count_requests("PATCH", path, status=429) == 2


@pytest.mark.parametrize("world", [{"retry_max_delay": 0.2}], indirect=True)
@pytest.mark.usefixtures("tokens_refused")
async def test_boards_converge_after_a_429_storm_longer_than_the_retry_budget(
    world: World,
) -> None:
    emu, chan = world.emulator, world.channel
    lobby = await open_game(emu, world.alice, chan)
    await click(emu, world.bob, lobby, "Join")
    await until_text(emu, lobby, "(2/4)")
    path = rf"/channels/{chan.id}/messages/{lobby.id}$"
    # discord.py tries each edit 5 times; the publisher used to give up after 5 more tries.
    emu.rate_limit("PATCH", path, times=60, retry_after=0.01)
    assert (await emu.slash(world.carol, chan, "bugs join")).acknowledged
    await until_text(emu, lobby, "(3/4)", timeout=60)
    assert emu.count_requests("PATCH", path, status=429) == 60
    assert not lobby.find_button(label="Start").disabled

    emu.rate_limit("PATCH", path, times=60, retry_after=0.01)
    assert (await emu.slash(world.alice, chan, "bugs cancel")).acknowledged
    await until_text(emu, lobby, "cancelled", timeout=60)
    assert not lobby.buttons()  # a cancelled game keeps no live buttons
