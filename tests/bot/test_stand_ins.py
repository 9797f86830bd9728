"""Seats a bot plays for a member: one who left with `/bugs leave` (P-30), one whose clock ran
out ``afk_limit`` times in a row (P-31); `/bugs join` takes the seat back."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.host.bots import BotPlayers
from bot.host.errors import NotAway, SeatAway
from bot.host.host import Host
from bot.host.table import Outcome, SeatChange, Table
from bot.settings import Settings
from bot.store import NotSeated, Store
from tests.support.wait import until

from .conftest import FakeClock

CHANNEL = 700
ALICE, BOB, CAROL = 1, 2, 3


class Heard:
    """A host listener noting the seat changes it is told of (the host then clears them)."""

    def __init__(self, host: Host) -> None:
        self.changes: list[tuple[int, str, int]] = []
        self.views: list[SeatChange] = []
        host.listeners.append(self)

    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        self.changes += [(c.seat, c.why, c.strikes) for c in table.seat_changes]
        self.views += table.seat_changes


async def started(host: Host, slug: str = "ladybug-dash", **options: str) -> Table:
    table = await host.open(
        slug, guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice", options=options
    )
    await host.join(table.id, BOB, "bob")
    return await host.start(table.id, ALICE)


async def test_a_member_who_leaves_mid_game_gets_a_stand_in_and_can_take_it_back(
    host: Host, store: Store, settings: Settings, clock: FakeClock
) -> None:
    table = await started(host)
    heard = Heard(host)
    await host.leave(table.id, BOB)
    assert table.user_at(1).away and table.bot_plays(1) and not table.bot_plays(0)
    assert table.names() == ["alice", "🤖 bob (Normal bot)"]
    assert heard.changes == [(1, "left", 0)] and table.seat_changes == []
    # the table as the change left it
    assert heard.views[0].view.names() == ["alice", "🤖 bob (Normal bot)"]
    assert [s.away for s in await store.seats(table.id)] == [False, True]
    # The member's own clicks are refused while the bot plays; the bot's go through.
    with pytest.raises(SeatAway):
        await host.act(table.id, BOB, {"type": "claim"})
    await host.act(table.id, BOB, {"type": "claim"}, by_bot=True)
    with pytest.raises(SeatAway, match="already"):
        await host.leave(table.id, BOB)
    with pytest.raises(NotSeated):
        await host.leave(table.id, CAROL)

    # The seat survives a restart as it was, then its member takes it back.
    other = Host(store, settings, clock=clock)
    try:
        (restored,) = await other.restore()
        assert restored.names() == ["alice", "🤖 bob (Normal bot)"]
    finally:
        await other.close()
    await host.join(table.id, BOB, "bob")
    assert not table.user_at(1).away and table.names() == ["alice", "bob"]
    assert heard.changes[-1] == (1, "back", 0)
    with pytest.raises(NotAway):
        await host.join(table.id, BOB, "bob")
    view = table.running().view(None)
    if view["phase"] == "pick" and view["to_pick"] == 1:
        await host.act(table.id, BOB, {"type": "pick", "n": 1})


async def test_the_bot_plays_a_leavers_turns_and_stops_when_they_are_back(host: Host) -> None:
    """Three players, so the test decides when the stand-in may move: after it picks for bob
    the game waits on carol alone, and bob is back before the next race (which waits on every
    seat, the stand-in's too) opens."""
    bots = BotPlayers(host, delay=0.01, rng=random.Random(3))
    host.listeners.append(bots)
    try:
        table = await host.open(
            "ladybug-dash", guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice"
        )
        await host.join(table.id, BOB, "bob")
        await host.join(table.id, CAROL, "carol")
        await host.start(table.id, ALICE)
        await host.act(table.id, ALICE, {"type": "claim"})  # alice picks first, then bob
        await host.leave(table.id, BOB)
        await host.act(table.id, ALICE, {"type": "pick", "n": 1})
        await until(  # the stand-in picks for bob; then only carol may move
            lambda: table.running().view(None)["picks_made"] == [1, 1, 0], what="bob's pick"
        )
        await host.join(table.id, BOB, "bob")
        await host.act(table.id, CAROL, {"type": "pick", "n": 1})  # the next race opens
        await host.act(table.id, ALICE, {"type": "claim"})
        await host.act(table.id, ALICE, {"type": "pick", "n": 2})
        # Bob's seat is his again: no stand-in move is on its way any more (awaited, not
        # slept on), and his turn waits for him.
        seat = table.seat_of(BOB)
        assert seat is not None and not table.bot_plays(seat)
        moves = [t for t in asyncio.all_tasks() if t.get_name().startswith(f"bot:{table.id}:")]
        await asyncio.gather(*moves)
        assert table.running().view(None)["to_pick"] == 1
        await host.act(table.id, BOB, {"type": "pick", "n": 3})
    finally:
        await bots.close()


async def expire(host: Host, table: Table, clock: FakeClock) -> None:
    """The running clock of the game runs out (fired by hand: the scheduler is stopped)."""
    host.scheduler.drop_game(table.id)
    clock.advance(120)
    (key,) = table.timers
    assert await host.fire_timer(table.id, key) is not None


async def play_turn(host: Host, table: Table, user: int) -> None:
    await host.act(table.id, user, {"type": "draw"})
    seat = table.require_seat(user)
    await host.act(table.id, user, table.running().legal_actions(seat)[0])


async def test_a_member_whose_clock_runs_out_three_times_in_a_row_gets_a_stand_in(
    host: Host, clock: FakeClock
) -> None:
    table = await started(host, "bug-off", first_player="1")
    heard = Heard(host)
    (sleeper,) = table.running().waiting_for()
    users = [ALICE, BOB]
    player = users[1 - sleeper]
    # One sleeps; the other plays, and their moves do not excuse the sleeper's clock.
    await expire(host, table, clock)
    await play_turn(host, table, player)
    await expire(host, table, clock)
    assert table.clock_strikes == {sleeper: 2} and not table.user_at(sleeper).away
    # The sleeper plays once: the count starts again.
    await play_turn(host, table, player)
    await play_turn(host, table, users[sleeper])
    assert table.clock_strikes == {}
    for _ in range(2):
        await play_turn(host, table, player)
        await expire(host, table, clock)
    await play_turn(host, table, player)
    assert table.clock_strikes == {sleeper: 2}
    await expire(host, table, clock)
    name = "alice" if sleeper == 0 else "bob"
    assert table.user_at(sleeper).away and table.names()[sleeper] == f"🤖 {name} (Normal bot)"
    assert heard.changes[-1] == (sleeper, "clock", 3)
    assert table.clock_strikes == {}
    # The other player's clock running out now counts for them alone.
    assert table.running().waiting_for() == {1 - sleeper}
    await expire(host, table, clock)
    assert table.clock_strikes == {1 - sleeper: 1}


async def test_a_limit_of_zero_never_replaces_anyone(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    host = Host(store, settings.model_copy(update={"afk_limit": 0}), clock=clock)
    try:
        table = await started(host, "bug-off", first_player="1")
        (sleeper,) = table.running().waiting_for()
        for _ in range(4):
            await expire(host, table, clock)
            await play_turn(host, table, [ALICE, BOB][1 - sleeper])
        assert table.clock_strikes == {sleeper: 4} and not table.user_at(sleeper).away
    finally:
        await host.close()


async def test_a_clock_that_ran_out_on_a_move_barely_on_screen_is_no_strike(
    host: Host, clock: FakeClock
) -> None:
    """P-84: the board shows the move late (the bot's edits wait out Discord's limits under
    load): a clock that runs out when the move was on screen for less than half of it is no
    strike, while one that ran out on a move shown long enough still is."""
    table = await started(host, "bug-off", first_player="1")
    (sleeper,) = table.running().waiting_for()
    asked: list[int] = []
    shown: dict[int, float] = {}

    def on_screen(game_id: int, turn: int) -> float | None:
        asked.append(turn)
        return shown.get(turn, 0.0) if game_id == table.id else None

    host.on_screen = on_screen
    player = [ALICE, BOB][1 - sleeper]
    turn = table.running().turn
    shown[turn] = 10.0  # Bug Off!'s 60 s turn clock: the board showed the move for 10 s
    await expire(host, table, clock)
    assert asked == [turn] and table.clock_strikes == {}
    await play_turn(host, table, player)
    shown[table.running().turn] = 45.0  # on screen for 45 s of 60: a strike
    await expire(host, table, clock)
    assert table.clock_strikes == {sleeper: 1}
    await play_turn(host, table, player)
    await expire(host, table, clock)  # the board still shows an earlier turn: 0 s
    assert table.clock_strikes == {sleeper: 1} and not table.user_at(sleeper).away
    host.on_screen = lambda game_id, turn: None  # a process that does not show the game
    await play_turn(host, table, player)
    await expire(host, table, clock)
    assert table.clock_strikes == {sleeper: 2}
