"""The host: lobby rules, arrival-order actions committed before they are seen, timers, results."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

from bot.host.errors import (
    AlreadyStarted,
    GameGone,
    HostError,
    NotAllowed,
    NotStarted,
    StaleButton,
    TooFast,
    UnknownGame,
)
from bot.host.host import Host
from bot.host.table import Outcome, Table
from bot.settings import Settings
from bot.store import AlreadySeated, ChannelBusy, NotSeated, Store, TableFull
from bot.store.models import Game
from rules.core import SYSTEM, RuleError, replay
from tests.support.calls import counting_calls
from tests.support.state import stored_state
from tests.support.wait import until

from .conftest import FakeClock

CHANNEL = 500
ALICE, BOB, CAROL, DAVE, EVE = 1, 2, 3, 4, 5


async def lobby(host: Host, *joiners: int, options: dict[str, str] | None = None) -> Table:
    table = await host.open(
        "ladybug-dash", guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice", options=options
    )
    for user in joiners:
        await host.join(table.id, user, f"user{user}")
    return table


async def started(host: Host, *joiners: int, options: dict[str, str] | None = None) -> Table:
    table = await lobby(host, *joiners, options=options)
    return await host.start(table.id, ALICE)


async def test_lobby_join_leave_and_seat_order(host: Host) -> None:
    table = await lobby(host, BOB, CAROL)
    assert [s.user_id for s in table.seats] == [ALICE, BOB, CAROL]
    await host.leave(table.id, BOB)
    await host.join(table.id, DAVE, "dave")
    table = await host.start(table.id, ALICE)
    assert table.status == "playing"
    assert [table.user_at(i).user_id for i in range(3)] == [ALICE, CAROL, DAVE]
    assert table.seat_of(DAVE) == 2 and table.seat_of(BOB) is None


async def test_lobby_misuse_is_refused_and_changes_nothing(host: Host, store: Store) -> None:
    table = await lobby(host, BOB)
    with pytest.raises(ChannelBusy):
        await host.open("ladybug-dash", guild_id=9, channel_id=CHANNEL, user_id=CAROL, name="c")
    with pytest.raises(AlreadySeated):
        await host.join(table.id, BOB, "bob")
    with pytest.raises(NotSeated, match="not at this table"):
        await host.leave(table.id, CAROL)
    await host.join(table.id, CAROL, "carol")
    await host.join(table.id, DAVE, "dave")
    with pytest.raises(TableFull):
        await host.join(table.id, EVE, "eve")
    with pytest.raises(NotAllowed):
        await host.start(table.id, BOB)
    with pytest.raises(NotAllowed):
        await host.cancel(table.id, BOB)
    with pytest.raises(NotStarted):
        await host.act(table.id, ALICE, {"type": "claim"})
    with pytest.raises(UnknownGame):
        await host.open("chess", guild_id=9, channel_id=77, user_id=1, name="a")
    with pytest.raises(RuleError, match="one of"):
        await host.open(
            "ladybug-dash", guild_id=9, channel_id=78, user_id=1, name="a", options={"clock": "5"}
        )
    assert [s.user_id for s in await store.seats(table.id)] == [ALICE, BOB, CAROL, DAVE]
    assert (await store.get_game(table.id)).status == "lobby"  # type: ignore[union-attr]


async def test_start_needs_the_player_range_and_privilege(host: Host) -> None:
    table = await lobby(host)
    with pytest.raises(HostError, match="needs 2 to 4 players; 1 has joined"):
        await host.start(table.id, ALICE)
    await host.join(table.id, BOB, "bob")
    table = await host.start(table.id, BOB, privileged=True)
    assert table.status == "playing"
    with pytest.raises(AlreadyStarted):
        await host.start(table.id, ALICE)
    with pytest.raises(AlreadyStarted):
        await host.join(table.id, CAROL, "carol")
    with pytest.raises(
        NotSeated, match="not playing"
    ):  # during play, only a player may leave (to a bot, P-30)
        await host.leave(table.id, CAROL)


async def test_cancel_frees_the_channel(host: Host) -> None:
    table = await lobby(host, BOB)
    await host.cancel(table.id, ALICE)
    assert await host.table_in_channel(CHANNEL) is None
    again = await lobby(host)
    assert again.id != table.id


def test_the_test_game_passes_the_one_legality_gate_like_every_game() -> None:
    """Ladybug Dash proves the host only if it is played as real games are: through
    ``Engine.apply``'s check, its own ``_apply`` and ``refusal``."""
    from rules.core import Engine
    from tests.support.testgame import LadybugDash

    assert "apply" not in vars(LadybugDash) and LadybugDash.apply is Engine.apply
    game = LadybugDash.new(2, 1)
    game.apply(0, {"type": "claim"})
    before = game.to_dict()
    for action in ({"type": "pick", "n": True}, {"type": "pick", "n": 4}):
        with pytest.raises(RuleError, match="Pick 1, 2 or 3"):  # a look-alike is not listed
            game.apply(0, action)
    assert game.to_dict() == before


async def test_act_checks_seat_turn_and_rules_and_a_refusal_changes_nothing(
    host: Host, store: Store
) -> None:
    table = await started(host, BOB)
    with pytest.raises(NotSeated):
        await host.act(table.id, CAROL, {"type": "claim"})
    with pytest.raises(StaleButton):
        await host.act(table.id, ALICE, {"type": "claim"}, turn=table.running().turn + 5)
    version = table.game.version
    snapshot = table.running().to_dict()
    with pytest.raises(RuleError, match="Nobody is picking"):
        await host.act(table.id, BOB, {"type": "pick", "n": 2})
    assert table.game.version == version and table.running().to_dict() == snapshot
    assert await store.actions(table.id) == []

    outcome = await host.act(table.id, BOB, {"type": "claim"}, turn=table.running().turn)
    assert [e.type for e in outcome.events] == ["claimed"]
    stored = await store.get_game(table.id)
    assert stored is not None and stored.version == version + 1
    assert await stored_state(store, table.id) == table.running().to_dict()
    assert [(a.seat, a.action) for a in await store.actions(table.id)] == [(1, {"type": "claim"})]


async def test_a_one_winner_race_has_exactly_one_winner(host: Host, store: Store) -> None:
    table = await started(host, BOB, CAROL, DAVE)
    turn = table.running().turn
    results = await asyncio.gather(
        *(host.act(table.id, u, {"type": "claim"}, turn=turn) for u in (ALICE, BOB, CAROL, DAVE)),
        return_exceptions=True,
    )
    wins = [r for r in results if isinstance(r, Outcome)]
    losses = [r for r in results if not isinstance(r, Outcome)]
    assert len(wins) == 1
    # The others arrive after the turn moved on: answered as stale, never applied.
    assert all(isinstance(e, StaleButton | RuleError) for e in losses) and len(losses) == 3
    assert sum(table.running().view(None)["prizes"]) == 1
    assert len(await store.actions(table.id)) == 1


async def test_a_race_without_turn_check_is_decided_by_the_engine(host: Host) -> None:
    table = await started(host, BOB)
    results = await asyncio.gather(
        host.act(table.id, ALICE, {"type": "claim"}),
        host.act(table.id, BOB, {"type": "claim"}),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Outcome) for r in results) == 1
    loser = next(r for r in results if not isinstance(r, Outcome))
    assert isinstance(loser, RuleError) and loser.code == "taken"


async def test_failed_commit_rolls_the_engine_back(
    host: Host, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await started(host, BOB)
    before = table.running().to_dict()

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "record_action", broken)
    with pytest.raises(OSError):
        await host.act(table.id, ALICE, {"type": "claim"})
    assert table.running().to_dict() == before


async def test_failed_commit_between_snapshots_rolls_back_to_the_last_committed_move(
    host: Host, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between two stored snapshots the table keeps the moves since the last one (P-33): a
    failed commit goes back to that snapshot plus those moves, not to the snapshot alone."""
    table = await started(host, BOB)
    await host.act(table.id, ALICE, {"type": "claim"})
    picker = table.user_at(table.running().view(None)["to_pick"]).user_id
    await host.act(table.id, picker, {"type": "pick", "n": 2})
    assert (table.game.last_seq, table.game.snapshot_seq, len(table.tail)) == (2, 0, 2)
    before = table.running().to_dict()
    assert before == await stored_state(store, table.id)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "record_action", broken)
    other = next(u for u in (ALICE, BOB) if u != picker)
    with pytest.raises(OSError):
        await host.act(table.id, other, {"type": "pick", "n": 1})
    assert table.running().to_dict() == before


async def play_round(host: Host, table: Table, claimer: int) -> None:
    await host.act(table.id, claimer, {"type": "claim"})
    for seat in range(table.running().players):
        await host.act(table.id, table.user_at(seat).user_id, {"type": "pick", "n": 3})


async def test_a_whole_game_writes_results_and_its_log_replays(host: Host, store: Store) -> None:
    table = await started(host, BOB, CAROL)
    for claimer in (ALICE, BOB, ALICE):
        await play_round(host, table, claimer)
    engine = table.running()
    assert engine.is_over
    record = await store.get_game(table.id)
    assert record is not None and record.status == "finished"
    results = {r.user_id: r for r in await store.results(table.id)}
    assert {u: r.score for u, r in results.items()} == {
        table.user_at(s).user_id: engine.scores()[s] for s in range(3)
    }
    assert {u for u, r in results.items() if r.winner} == {
        table.user_at(s).user_id for s in engine.winners()
    }
    assert all(r.rank == 1 for r in results.values() if r.winner)
    log = [(a.seat, a.action) for a in await store.actions(table.id)]
    again = replay("ladybug-dash", 3, record.seed, record.options, log)
    assert again.to_dict() == record.snapshot
    assert await store.timers(table.id) == []
    with pytest.raises(GameGone, match="results are on its board"):
        await host.act(table.id, ALICE, {"type": "claim"})


async def test_deadline_is_persisted_and_fires_a_system_action(host: Host, store: Store) -> None:
    table = await started(host, BOB, options={"clock": "1"})
    await host.act(table.id, BOB, {"type": "claim"})
    timers = await store.timers(table.id)
    assert [t.action for t in timers] == [{"type": "timeout"}]
    assert timers[0].due_at == host.clock() + __import__("datetime").timedelta(seconds=1)
    outcome = await host.fire_timer(table.id, timers[0].key)
    assert outcome is not None and outcome.seat == SYSTEM
    assert table.running().view(None)["picks_made"] == [1, 0]
    assert (await store.actions(table.id))[-1].seat == SYSTEM
    # The next player's clock is a new timer, not the old one.
    (new_timer,) = await store.timers(table.id)
    assert new_timer.key != timers[0].key
    # A timer the game no longer wants does nothing.
    assert await host.fire_timer(table.id, timers[0].key) is None


async def test_a_move_that_leaves_the_deadlines_as_they_were_neither_stores_nor_schedules_them(
    host: Host, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Most moves keep the game's deadlines: the store is told none changed (``timers=None``)
    and the scheduler is not asked again; a move that changes them does both."""
    table = await started(host, BOB, options={"clock": "1"})
    told: list[object] = []
    record = store.record_action

    async def spied(*args: Any, **kwargs: Any) -> Any:
        told.append(kwargs["timers"])
        return await record(*args, **kwargs)

    monkeypatch.setattr(store, "record_action", spied)
    scheduled = counting_calls(monkeypatch, host.scheduler, "set_game")
    for _ in range(3):  # the race: no deadline before or after
        await host.act(table.id, ALICE, {"type": "cheer"})
    assert told == [None, None, None] and scheduled == []
    await host.act(table.id, BOB, {"type": "claim"})  # the pick's clock starts
    (timer,) = told[-1]  # type: ignore[misc]
    assert scheduled == [1] and host.scheduler.pending(table.id) == {timer.key: timer.due_at}
    assert [t.key for t in await store.timers(table.id)] == [timer.key]


async def test_the_scheduler_fires_a_deadline_when_it_falls_due(
    host: Host, clock: FakeClock
) -> None:
    table = await started(host, BOB, options={"clock": "1"})
    await host.act(table.id, ALICE, {"type": "claim"})
    await until(lambda: clock.sleepers == 1, what="the clock's alarm asleep")
    clock.advance(0.9)
    assert clock.sleepers == 1  # not woken: not due yet
    assert table.running().view(None)["picks_made"] == [0, 0]
    clock.advance(0.1)
    await until(lambda: table.running().view(None)["picks_made"] == [1, 0], what="the timeout")


async def test_an_overdue_deadline_fires_before_a_later_action(
    host: Host, clock: FakeClock
) -> None:
    table = await started(host, BOB)
    await host.act(table.id, ALICE, {"type": "claim"})
    host.scheduler.drop_game(table.id)  # keep the alarm from firing on its own
    clock.advance(31)
    # Bob clicks after Alice's 30 s clock ran out: her timeout is applied first, then Bob picks.
    outcome = await host.act(table.id, BOB, {"type": "pick", "n": 2})
    assert outcome.seat == 1
    assert table.running().view(None)["picks_made"] == [1, 1]


async def test_restart_restores_games_and_fires_overdue_deadlines(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    first = Host(store, settings, clock=clock)
    table = await started(first, BOB)
    await first.act(table.id, BOB, {"type": "claim"})
    await first.close()  # the process dies; only the database remains

    clock.advance(120)
    fired: list[Outcome | None] = []
    loaded: list[tuple[int, list[str]]] = []

    class Spy:
        def table_changed(self, t: Table, outcome: Outcome | None) -> None:
            fired.append(outcome)

    second = Host(store, settings, clock=clock, sleep=clock.sleep)
    second.listeners.append(Spy())
    second.loaders.append(lambda t, done: loaded.append((t.id, [o.action["type"] for o in done])))
    try:
        assert await second.restore() == []  # no bot moves it: loaded at its first use (P-32)
        assert second.tables == {}
        # Nothing can fire before the timers are resumed: no alarm is set.
        assert second.scheduler.pending(table.id) == {} and fired == []
        second.resume_timers()
        await until(lambda: fired, what="the overdue deadline")
        # The overdue deadline loaded the game (its log replayed for the loaders) and fired.
        assert loaded == [(table.id, ["claim"])]
        assert fired[0] is not None and fired[0].seat == SYSTEM
        restored = second.tables[table.id]
        assert restored.seat_of(BOB) == 1
        assert restored.running().view(None)["picks_made"] == [1, 0]
        assert await second.table(table.id) is restored
    finally:
        await second.close()


async def test_a_game_loads_once_at_first_use_as_it_was(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    """After a restart, clicks arriving together on a game not loaded yet share one load, and
    the table is the game as committed (snapshot plus the actions after it)."""
    first = Host(store, settings, clock=clock)
    table = await started(first, BOB)
    await first.act(table.id, BOB, {"type": "claim"})
    snapshot = table.running().to_dict()
    await first.close()

    second = Host(store, settings, clock=clock)
    loads: list[int] = []
    second.loaders.append(lambda t, done: loads.append(t.id))
    try:
        await second.restore()
        second.resume_timers()
        tables = await asyncio.gather(*(second.table(table.id) for _ in range(5)))
        assert loads == [table.id] and all(t is tables[0] for t in tables)
        assert tables[0].running().to_dict() == snapshot
        picker = tables[0].user_at(tables[0].running().view(None)["to_pick"]).user_id
        outcome = await second.act(table.id, picker, {"type": "pick", "n": 2})
        assert second.tables[table.id] is tables[0] and outcome.view.game == tables[0].game
        assert (await store.actions(table.id))[-1].seq == 2
    finally:
        await second.close()


async def test_a_log_that_does_not_give_the_stored_snapshot_is_reported_at_first_use(
    store: Store, settings: Settings, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """The check the restart used to make for every game runs when a game is first loaded: a
    snapshot the log does not give is reported (the game goes on from the snapshot)."""
    first = Host(store, settings, clock=clock)
    table = await started(first, BOB)
    await first.act(table.id, BOB, {"type": "cheer"})
    await first.close()
    async with store.engine.begin() as conn:  # the stored snapshot (seq 0) says 5 cheers
        snapshot = dict(table.committed or {}, cheers=5)
        await conn.execute(sa.update(Game).where(Game.id == table.id).values(snapshot=snapshot))

    second = Host(store, settings, clock=clock)
    try:
        await second.restore()
        assert "does not give its stored snapshot" not in caplog.text  # not checked at start
        loaded = await second.table(table.id)
        assert "does not give its stored snapshot" in caplog.text
        assert loaded.running().view(None)["cheers"] == 6  # the snapshot, plus the tail
    finally:
        await second.close()


async def test_listeners_hear_every_committed_change(host: Host) -> None:
    heard: list[tuple[str, str | None]] = []

    class Spy:
        def table_changed(self, t: Table, outcome: Outcome | None) -> None:
            heard.append((t.status, outcome.action["type"] if outcome else None))

    host.listeners.append(Spy())
    table = await lobby(host, BOB)
    await host.start(table.id, ALICE)
    await host.act(table.id, ALICE, {"type": "claim"})
    assert heard == [("lobby", None), ("playing", None), ("playing", "claim")]


async def test_paced_actions_need_the_minimum_gap(
    store: Store, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.testgame import DASH_GAP, LadybugDash

    monkeypatch.setattr(LadybugDash, "pacing", {"pick": DASH_GAP})
    gap = settings.timer_seconds(DASH_GAP, None)  # the test game's own timer
    now = [100.0]
    host = Host(store, settings, clock=clock, monotonic=lambda: now[0])
    try:
        table = await started(host, BOB)
        await host.act(table.id, ALICE, {"type": "claim"})
        await host.act(table.id, ALICE, {"type": "pick", "n": 1})
        now[0] += gap / 2
        with pytest.raises(TooFast):
            await host.act(table.id, BOB, {"type": "pick", "n": 1})
        assert table.running().view(None)["picks_made"] == [1, 0]
        now[0] += gap
        await host.act(table.id, BOB, {"type": "pick", "n": 1})
        assert table.running().view(None)["picks_made"] == [1, 1]
    finally:
        await host.close()


async def test_pacing_is_shared_by_setting_and_reset_by_a_new_turn(
    store: Store, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.testgame import DASH_GAP, LadybugDash

    # "cheer" and "claim" share one pacing setting; a claim changes the turn.
    monkeypatch.setattr(LadybugDash, "pacing", {"cheer": DASH_GAP, "claim": DASH_GAP})
    gap = settings.timer_seconds(DASH_GAP, None)
    now = [50.0]
    host = Host(store, settings, clock=clock, monotonic=lambda: now[0])
    try:
        table = await started(host, BOB)
        await host.act(table.id, ALICE, {"type": "cheer"})
        with pytest.raises(TooFast):  # same setting, same turn: too soon
            await host.act(table.id, BOB, {"type": "claim"})
        now[0] += gap
        await host.act(table.id, BOB, {"type": "claim"})  # the turn changes: pacing resets
        for seat_user in (ALICE, BOB):
            await host.act(table.id, seat_user, {"type": "pick", "n": 1})
        await host.act(table.id, ALICE, {"type": "cheer"})  # new round, at once
    finally:
        await host.close()


async def test_a_click_while_the_end_is_announced_is_told_the_game_is_over(host: Host) -> None:
    """P-6 without a timing window: the table is finished but still loaded while the
    listeners hear of the end."""
    answers: list[str] = []

    class LateClick:
        async def table_changed(self, table: Table, outcome: Outcome | None) -> None:
            if outcome is not None and outcome.finished:
                try:
                    await host.act(table.id, BOB, {"type": "cheer"})
                except HostError as exc:
                    answers.append(str(exc))

    host.listeners.append(LateClick())
    table = await started(host, BOB)
    for _ in range(3):
        await host.act(table.id, ALICE, {"type": "claim"})
        await host.act(table.id, ALICE, {"type": "pick", "n": 1})
        await host.act(table.id, BOB, {"type": "pick", "n": 1})
    assert table.running().is_over
    assert answers == ["That game is over: the results are on its board."]
