"""Whole games, one-winner races, closed DMs and replays, through the real bot process."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store
from rules.core import SYSTEM, replay
from tests.support.wait import until

from .conftest import World
from .helpers import SILENT, WAIT, click, private, start_game, told, until_text


async def stored(world: World) -> Store:
    return await Store.open(world.bot.db_url, migrate=False)


async def test_a_whole_game_is_played_scored_stored_and_replays(world: World) -> None:
    emu, chan = world.emulator, world.channel
    players = [world.alice, world.bob, world.carol]
    board = await start_game(emu, world.alice, players[1:], chan)
    for round_no, claimer in enumerate((world.bob, world.carol, world.bob), start=1):
        await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
        assert told(await click(emu, claimer, board, "claim")) == ""
        for seat, user in enumerate(players):
            await until_text(emu, board, f"**to_pick**: {seat}")
            result = await click(emu, user, board, "pick 2")
            assert told(result) == "you picked: n 2", (round_no, seat)
    text = await until_text(emu, board, "game over")
    assert "**bob** wins!" in text or "share the win" in text

    store = await stored(world)
    try:
        (game,) = await store.finished_games()
        results = {r.user_id: r for r in await store.results(game.id)}
        assert {u.id for u in players} == set(results)
        assert results[world.bob.id].score >= 16  # two prizes (10) + three picks of 2 (6)
        assert all(r.breakdown["total"] == r.score for r in results.values())
        log = [(a.seat, a.action) for a in await store.actions(game.id)]
        assert len(log) == 3 * (1 + 3)
        again = replay(game.slug, game.players or 0, game.seed, game.options, log)
        assert again.to_dict() == game.snapshot
    finally:
        await store.close()


async def test_two_members_click_the_same_prize_at_the_same_instant(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob, world.carol], chan)
    button = board.find_button(label="claim")
    results = await asyncio.gather(
        emu.click(world.alice, board, button),
        emu.click(world.bob, board, button),
        emu.click(world.carol, board, button),
    )
    assert all(r.acknowledged and not r.failed for r in results)
    winners = [r for r in results if r.type in SILENT and not told(r)]
    losers = [told(r) for r in results if told(r)]
    assert len(winners) == 1 and len(losers) == 2
    assert all("earlier turn" in t or "Too late" in t for t in losers), losers
    await until_text(emu, board, "**phase**: pick")
    store = await stored(world)
    try:
        game = await store.active_game_in_channel(chan.id)
        assert game is not None
        assert [a.action for a in await store.actions(game.id)] == [{"type": "claim"}]
        assert sum(game.snapshot["prizes"]) == 1  # type: ignore[index]
    finally:
        await store.close()


async def test_stale_buttons_and_wrong_turns_are_answered_and_change_nothing(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan)
    await click(emu, world.alice, board, "claim")
    await until_text(emu, board, "**phase**: pick")
    # Alice opens her hand privately: it offers her picks for this turn.
    hand = private(await click(emu, world.alice, board, "My hand"))
    assert hand is not None and hand.ephemeral and hand.has_button(label="pick 1")
    # Held from before the pick: the bot may take it off the message any moment after.
    pick = hand.find_button(label="pick 1")
    wrong = await click(emu, world.bob, board, "pick 1")
    assert "not your turn" in told(wrong)
    double = await asyncio.gather(
        emu.click(world.alice, board, board.find_button(label="pick 3")),
        emu.click(world.alice, board, board.find_button(label="pick 3")),
    )
    assert sorted(bool(told(r)) for r in double) == [True, True]
    assert sum("earlier turn" in told(r) for r in double) == 1  # the second click is stale
    await until_text(emu, board, "**picks_made**: [1,0]")
    # The pick's answer went to Alice's panel, the message "My hand" showed (P-48): its old
    # buttons are gone, and Discord refuses a click on a button that is gone.
    await emu.wait_for(lambda: not hand.buttons(), timeout=WAIT)
    assert "you picked: n 3" in hand.text()
    assert (await emu.click(world.alice, hand, pick)).stale  # refused: it never reached the bot
    assert "**picks_made**: [1,0]" in board.text()
    store = await stored(world)
    try:
        game = await store.active_game_in_channel(chan.id)
        assert game is not None and len(await store.actions(game.id)) == 2
    finally:
        await store.close()


async def test_closed_dms_fall_back_to_my_hand(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.shy], chan)
    notice = await emu.wait_for(
        lambda: next(
            (m for m in emu.channel_messages(chan) if "can't send you direct messages" in m.text()),
            None,
        ),
        timeout=WAIT,
    )
    assert f"<@{world.shy.id}>" in notice.content and "my_card" not in notice.text()
    alice_dm = await emu.wait_for(lambda: emu.dms(world.alice), timeout=WAIT)
    assert "my_card" in alice_dm[-1].text()
    assert emu.dms(world.shy) == []

    hand = await click(emu, world.shy, board, "My hand")
    assert hand.ephemeral and "my_card" in told(hand)
    slash_hand = await emu.slash(world.shy, chan, "bugs hand")
    assert "my_card" in told(slash_hand)
    # Nothing private ever reached the channel, and nobody saw another player's hand.
    assert all("my_card" not in m.all_text() for m in emu.channel_messages(chan))
    store = await stored(world)
    try:
        game = await store.active_game_in_channel(chan.id)
        assert game is not None and game.snapshot is not None
        cards = game.snapshot["cards"]
    finally:
        await store.close()
    assert f"**my_card**: {cards[0]}" in alice_dm[-1].text()
    assert f"**my_card**: {cards[1]}" in told(hand)


async def test_a_timer_fires_a_system_action_and_is_announced(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan, clock="1")
    await click(emu, world.bob, board, "claim")
    await until_text(emu, board, "timeout true", timeout=WAIT)
    store = await stored(world)
    try:
        game = await store.active_game_in_channel(chan.id)
        assert game is not None
        assert [a.seat for a in await store.actions(game.id)][:2] == [1, SYSTEM]
    finally:
        await store.close()


@pytest.mark.parametrize("world", [{"log_level": "DEBUG"}], indirect=True)
async def test_even_debug_logs_never_show_a_hand(world: World) -> None:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob], chan)
    await emu.wait_for(lambda: emu.dms(world.alice) and emu.dms(world.bob), timeout=WAIT)
    await click(emu, world.alice, board, "claim")
    await click(emu, world.alice, board, "My hand")
    await until_text(emu, board, "**phase**: pick")
    # A later interaction is a marker: a button bugtable never made, which it logs refusing.
    # Once that line is in the log, everything logged about the clicks before it is too.
    body = {
        "content": "marker",
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "X", "custom_id": "x"}]}
        ],
    }
    marker = emu.world.new_message(emu.dm_channel(world.carol), body)
    await emu.click(world.carol, marker, marker.buttons()[0])
    refused = f"refused an invalid component from user {world.carol.id}"
    output = await until(
        lambda: refused in (out := world.bot.output()) and out, what="the marker in the log"
    )
    assert "DEBUG" in output  # the bot really logged at DEBUG
    assert "my_card" not in output and "you picked" not in output
