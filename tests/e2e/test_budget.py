"""Discord's global request budget (P-45, issue #21): a click that changes its own message is
answered by that message's update in the click's response, DMs go by channel id, and a whole
game looks up no user and opens each member's DM once."""

from __future__ import annotations

from .conftest import World
from .helpers import UPDATE_MESSAGE, WAIT, click, play_dash, start_game, told


async def test_a_board_click_is_answered_by_the_board_itself(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan)
    await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
    path = rf"/channels/{chan.id}/messages/{board.id}$"
    edits = emu.count_requests("PATCH", path)
    claim = board.find_button(label="claim").custom_id
    result = await click(emu, world.bob, board, "claim")
    # The new state is on the board when the click is acknowledged: no edit came first.
    assert result.type == UPDATE_MESSAGE and result.message is board
    assert "**phase**: pick" in board.text()
    assert emu.count_requests("PATCH", path) == edits
    # The same click again (a double click Discord delivers with the board as it is now, which
    # no longer carries that button) is answered as one from an earlier turn, and runs nothing.
    emu.interactions.deliver_stale_clicks = True
    again = await emu.click(world.bob, board, claim)
    emu.interactions.deliver_stale_clicks = False
    assert "earlier turn" in told(again) and again.ephemeral
    assert "**phase**: pick" in board.text()


async def test_a_whole_game_looks_up_no_user_and_opens_each_dm_once(world: World) -> None:
    emu, chan = world.emulator, world.channel
    seats = [world.alice, world.bob]
    before = len(emu.requests)
    board = await start_game(emu, world.alice, [world.bob], chan)
    text = await play_dash(emu, board, seats, [world.alice, world.bob, world.alice])
    assert "game over" in text
    routes = emu.route_counts(before)
    assert routes["GET /users/{user}"] == 0, routes
    assert [emu.dm_opens(u.id) for u in seats] == [1, 1]
    # Every claim was answered by the board's own update: the publisher edits the board only
    # for the picks (each answered privately), fewer times than the game has moves.
    board_edits = emu.count_requests("PATCH", rf"/channels/{chan.id}/messages/{board.id}$")
    assert board_edits <= 3 * len(seats), board_edits
