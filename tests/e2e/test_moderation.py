"""Moderation through the emulator and the real bot process (docs/rulings.md P-72, P-73):
`/bugs end` by a moderator and refused for a player, `/bugs kick`, and `/bugs leave` during
play asking first with a button (and **Stay** changing nothing)."""

from __future__ import annotations

from bot.store import Store

from .conftest import World
from .helpers import WAIT, click, start_game, told, until_text

REFUSED = "Only a moderator"


async def test_a_moderator_ends_the_game_and_a_player_may_not(world: World) -> None:
    emu, channel = world.emulator, world.channel
    alice, bob, mod = world.alice, world.bob, world.mod
    board = await start_game(emu, alice, [bob], channel)
    before = board.version()
    refused = await emu.slash(bob, channel, "bugs end", reason="I am losing")
    assert refused.ephemeral and REFUSED in told(refused), told(refused)
    kick = await emu.slash(alice, channel, "bugs kick", member=bob)
    assert kick.ephemeral and REFUSED in told(kick)
    status = told(await emu.slash(alice, channel, "bugs status"))
    assert "playing" in status and board.version() == before

    ended = await emu.slash(mod, channel, "bugs end", reason="spam in the channel")
    assert ended.ephemeral and "You ended" in told(ended), told(ended)
    text = await until_text(emu, board, "ended by a moderator")
    assert "mod" in text and "spam in the channel" in text and "Nobody wins" in text
    assert not board.buttons()
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        assert await store.active_game_in_channel(channel.id) is None
        (summary,) = await store.recent_games(channel_id=channel.id)
        assert summary.game.ended_by == mod.id and await store.results(summary.game.id) == []
    finally:
        await store.close()
    history = told(await emu.slash(alice, channel, "bugs history"))
    assert "⛔ ended by mod (spam in the channel)" in history, history
    last = told(await emu.slash(bob, channel, "bugs status"))
    assert "ended by mod" in last, last
    # The channel is free again.
    again = await emu.slash(alice, channel, "bugs new ladybug-dash")
    assert again.acknowledged and not again.ephemeral


async def test_a_moderator_kicks_a_player_to_a_stand_in(world: World) -> None:
    emu, channel = world.emulator, world.channel
    alice, bob, mod = world.alice, world.bob, world.mod
    board = await start_game(emu, alice, [bob], channel)
    nobody = await emu.slash(mod, channel, "bugs kick", member=world.carol)
    assert nobody.ephemeral and "no seat" in told(nobody), told(nobody)
    kicked = await emu.slash(mod, channel, "bugs kick", member=bob)
    assert kicked.ephemeral and "A bot plays bob's seat" in told(kicked), told(kicked)
    await until_text(emu, board, "🤖 bob")
    await until_text(emu, board, "A moderator handed **bob**'s seat")

    def notice() -> bool:
        return any(
            m.channel is channel
            and m.ephemeral_to is None
            and "a moderator handed your seat" in m.content
            and m.notified == (bob.id,)
            for m in emu.world.messages.values()
        )

    await emu.wait_for(notice, timeout=WAIT)
    back = await emu.slash(bob, channel, "bugs join")
    assert "your seat is yours" in told(back)
    await emu.wait_for(lambda: "🤖 bob" not in board.text(), timeout=WAIT)


async def test_leave_during_play_asks_first_and_stay_changes_nothing(world: World) -> None:
    emu, channel = world.emulator, world.channel
    alice, bob = world.alice, world.bob
    board = await start_game(emu, alice, [bob], channel)
    asked = await emu.slash(bob, channel, "bugs leave")
    question = asked.message
    assert asked.ephemeral and question is not None
    assert "A bot will play your seat" in question.text() and "/bugs join" in question.text()
    assert [b.label for b in question.buttons()] == ["Leave: a bot plays my seat", "Stay"]
    assert "🤖 bob" not in board.text()
    stayed = await click(emu, bob, question, "Stay")
    assert "You stay in the game: nothing changed." in question.text(), told(stayed)
    assert not question.buttons()
    status = told(await emu.slash(alice, channel, "bugs status"))
    assert "🤖" not in status, status

    # Only the member's own click acts, and it says what became of the seat.
    asked = await emu.slash(bob, channel, "bugs leave")
    question = asked.message
    assert question is not None
    await click(emu, bob, question, "Leave: a bot plays my seat")
    assert "You left" in question.text() and "a bot plays your seat now" in question.text()
    await until_text(emu, board, "🤖 bob")
    again = await emu.slash(bob, channel, "bugs leave")
    assert again.ephemeral and "already plays your seat" in told(again), told(again)
    outsider = await emu.slash(world.carol, channel, "bugs leave")
    assert outsider.ephemeral and "not playing" in told(outsider), told(outsider)
