"""Rematch from the final board, through the real bot process (docs/rulings.md P-12)."""

from __future__ import annotations

from bot.store import Store

from .conftest import World
from .helpers import WAIT, click, play_dash, start_game, told, until_text


async def test_rematch_same_seats_confirm_and_a_new_game_starts(world: World) -> None:
    emu, chan = world.emulator, world.channel
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    board = await start_game(emu, alice, [bob, carol], chan)
    await play_dash(emu, board, [alice, bob, carol], [alice, bob, carol])
    await emu.wait_for(lambda: board.has_button(label="Rematch"), timeout=WAIT)

    # The button is a persistent host button: it works after the bot restarts.
    await world.bot.kill()
    await world.bot.start()

    refused = await click(emu, dave, board, "Rematch")
    assert refused.ephemeral and "Only the players of that game" in told(refused)

    asked = await click(emu, bob, board, "Rematch")
    assert asked.acknowledged and not asked.ephemeral
    lobby = await asked.wait_message()
    assert lobby.id != board.id and lobby.channel is chan
    text = lobby.text()
    assert "Ladybug Dash — lobby" in text and "Clock: 30" in text
    assert lobby.content.startswith("🔁 Rematch!")
    assert f"<@{alice.id}>" in lobby.content and f"<@{carol.id}>" in lobby.content
    assert f"<@{bob.id}>" not in lobby.content
    assert "1. alice — invited" in text and "2. bob\n" in text and "3. carol — invited" in text
    assert "Players (1/4)" in text and lobby.find_button(label="Start").disabled

    # Another rematch while this lobby holds the channel is refused privately.
    busy = await click(emu, carol, board, "Rematch")
    assert busy.ephemeral and "already a game in this channel" in told(busy)

    # The previous players confirm with Join; only the opener (bob) may start.
    assert told(await click(emu, carol, lobby, "Join")) == ""
    assert told(await click(emu, alice, lobby, "Join")) == ""
    await until_text(emu, lobby, "Players (3/4)")
    await emu.wait_for(lambda: "invited" not in lobby.text() and not lobby.content, timeout=WAIT)
    await emu.wait_for(lambda: not lobby.find_button(label="Start").disabled, timeout=WAIT)
    assert "Only the member who opened" in told(await click(emu, alice, lobby, "Start"))
    assert told(await click(emu, bob, lobby, "Start")) == ""
    await emu.wait_for(lambda: lobby.has_button(label="claim"), timeout=WAIT)

    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        (old,) = await store.finished_games()
        new = await store.active_game_in_channel(chan.id)
        assert new is not None and new.status == "playing" and new.id != old.id
        assert (new.slug, new.options, new.creator_id) == (old.slug, old.options, bob.id)
        seats = [(s.seat, s.user_id) for s in await store.seats(new.id)]
        assert seats == [(s.seat, s.user_id) for s in await store.seats(old.id)]
    finally:
        await store.close()
