"""How to play in the game (P-54), through the real discord.py bot and the emulator: `/bugs
rules` pages turned by Previous and Next in their own message, the How to play button of a
lobby and a board, answered privately and for nothing of the global budget, after a restart too."""

from __future__ import annotations

from bot.discord.edge import INVALID
from bot.emulator.models import Message
from bot.ui.howto import pages_of

from .conftest import World
from .helpers import WAIT, click, open_game, private, told

UPDATE_MESSAGE = 7


async def test_rules_pages_turn_in_their_own_private_message(world: World) -> None:
    emu, chan = world.emulator, world.channel
    pages = pages_of("bug-off")
    assert [p.title for p in pages] == ["Overview", "A turn", "Scoring", "The buttons"]
    before = len(emu.requests)
    asked = await emu.slash(world.alice, chan, "bugs rules", game="bug-off")
    first = await asked.wait_message(timeout=WAIT)
    assert asked.ephemeral and first.ephemeral
    assert "How to play Bug Off!: Overview" in first.text()
    assert "Page 1 of 4" in first.text()
    assert first.find_button(label="Previous").disabled
    assert not first.find_button(label="Next").disabled

    for number, page in enumerate(pages[1:], start=2):
        turned = await click(emu, world.alice, first, "Next")
        assert turned.type == UPDATE_MESSAGE and turned.message is first
        assert f"Page {number} of 4" in first.text() and page.title in first.text()
    assert first.find_button(label="Next").disabled
    # The worked example is there, lettered like everything a person reads (P-53).
    await click(emu, world.alice, first, "Previous")
    assert "Worked example" in first.text() and "🟥R" in first.text()
    assert len(emu.ephemerals_created(world.alice)) == 1
    # Every answer went through the interactions' own tokens: none of the global budget.
    assert emu.request_counts(before)["global"] == 0


async def test_how_to_play_on_a_lobby_and_a_board_answers_privately_after_a_restart(
    world: World,
) -> None:
    emu, chan = world.emulator, world.channel
    lobby = await open_game(emu, world.alice, chan, "bag-of-bugs")
    assert lobby.find_button(label="How to play").custom_id == "r:bag-of-bugs:0"
    shown = private(await click(emu, world.dave, lobby, "How to play"))
    assert shown is not None and "How to play Bag of Bugs: Overview" in shown.text()

    for user in (world.bob, world.carol):
        await click(emu, user, lobby, "Join")
    await emu.wait_for(lambda: not lobby.find_button(label="Start").disabled, timeout=WAIT)
    await click(emu, world.alice, lobby, "Start")
    board = lobby  # the lobby message becomes the board
    await emu.wait_for(lambda: not board.has_button(label="Join"), timeout=WAIT)
    await emu.wait_for(lambda: board.has_button(label="How to play"), timeout=WAIT)
    await world.bot.kill()
    await world.bot.start()
    again = private(await click(emu, world.eve, board, "How to play"))
    assert again is not None and again.ephemeral and "Page 1 of 4" in again.text()
    turned = await click(emu, world.eve, again, "Next")
    assert turned.type == UPDATE_MESSAGE and "A turn" in again.text()


async def test_a_forged_rules_button_is_not_valid(world: World) -> None:
    emu, chan = world.emulator, world.channel
    lobby: Message = await open_game(emu, world.alice, chan, "bug-off")
    for forged in ("r:bug-off:9", "r:no-such-game:0", "r:Bug-Off:0"):
        result = await emu.forge_click(world.bob, lobby, forged)
        assert result.ephemeral and told(result) == INVALID, forged
