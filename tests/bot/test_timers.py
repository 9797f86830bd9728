"""The in-memory alarms behind persisted deadlines, on a clock the test moves by hand: what has
fired is checked at exact instants, so the tests mean the same on an idle and a loaded machine.
Every alarm waits in one heap behind one sleeping task (never a task per alarm)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.host.timers import TimerScheduler
from tests.support.clock import ManualClock
from tests.support.wait import until


def timer_tasks() -> list[asyncio.Task[object]]:
    """The scheduler's tasks: the one that sleeps until the earliest alarm, and alarms firing."""
    return [
        t
        for t in asyncio.all_tasks()
        if t.get_name() == "timers" or t.get_name().startswith("timer:")
        if not t.done()
    ]


async def asleep(clock: ManualClock) -> None:
    """Wait until the scheduler sleeps on the clock until its earliest alarm."""
    await until(lambda: clock.sleepers == 1, what="the scheduler asleep")


async def test_alarms_fire_in_due_order_and_replacing_the_set_cancels_the_rest() -> None:
    fired: list[tuple[int, str]] = []

    async def fire(game_id: int, key: str) -> None:
        fired.append((game_id, key))

    clock = ManualClock()
    scheduler = TimerScheduler(fire, clock, sleep=clock.sleep)
    now = clock()
    late, soon = now + timedelta(seconds=20), now + timedelta(seconds=5)
    scheduler.set_game(1, [("late", late), ("soon", soon)])
    scheduler.set_game(2, [("other", now + timedelta(seconds=10))])
    scheduler.set_game(1, [("soon", soon)])  # "late" is no longer wanted
    assert scheduler.pending(1) == {"soon": soon}
    await asleep(clock)
    clock.advance(4.9)
    await asleep(clock)  # nothing woke before its time
    assert fired == []
    clock.advance(0.1)
    await until(lambda: fired == [(1, "soon")], what="the first alarm")
    clock.advance(5)
    await until(lambda: fired == [(1, "soon"), (2, "other")], what="the second alarm")
    # Past the cancelled alarm's time: no alarm task is left that could still fire it.
    clock.advance(60)
    await until(lambda: not timer_tasks(), what="every alarm task done")
    assert fired == [(1, "soon"), (2, "other")]
    assert scheduler.pending(1) == {} and scheduler.pending(2) == {}
    await scheduler.close()


async def test_an_overdue_alarm_fires_at_once_and_an_unchanged_one_keeps_running() -> None:
    fired: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        fired.append(key)

    clock = ManualClock()
    scheduler = TimerScheduler(fire, clock, sleep=clock.sleep)
    now = clock()
    due = now + timedelta(seconds=15)
    scheduler.set_game(1, [("past", now - timedelta(seconds=30)), ("keep", due)])
    await until(lambda: fired == ["past"], what="the overdue alarm")  # without moving the clock
    await asleep(clock)
    (runner,) = timer_tasks()  # one task for every alarm, asleep until the earliest
    clock.advance(10)
    scheduler.set_game(1, [("keep", due)])  # same key and time: not set again
    scheduler.set_game(2, [("later", due + timedelta(seconds=60))])  # later: no new wake-up
    assert timer_tasks() == [runner] and clock.sleepers == 1
    clock.advance(5)
    await until(lambda: fired == ["past", "keep"], what="the kept alarm at its first due time")
    await scheduler.close()


async def test_a_failing_alarm_does_not_stop_the_others() -> None:
    fired: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        if key == "bad":
            raise RuntimeError("boom")
        fired.append(key)

    clock = ManualClock()
    scheduler = TimerScheduler(fire, clock, sleep=clock.sleep)
    scheduler.set_game(1, [("bad", clock()), ("good", clock() + timedelta(seconds=5))])
    await until(
        lambda: scheduler.pending(1) == {"bad": clock(), "good": clock() + timedelta(seconds=5)}
    )
    await asleep(clock)  # "bad" failed and waits to try again; "good" waits for its time
    clock.advance(5)
    await until(lambda: fired == ["good"], what="the good alarm")
    await scheduler.close()


async def test_close_cancels_everything() -> None:
    fired: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        fired.append(key)

    clock = ManualClock()
    scheduler = TimerScheduler(fire, clock, sleep=clock.sleep)
    scheduler.set_game(1, [("k", clock() + timedelta(seconds=5))])
    await asleep(clock)
    await scheduler.close()
    assert not timer_tasks() and clock.sleepers == 0
    clock.advance(10)
    scheduler.set_game(1, [("k", clock())])  # a closed scheduler schedules nothing
    assert not timer_tasks() and scheduler.pending(1) == {}
    assert fired == []


async def test_a_failed_alarm_is_tried_again_until_it_fires() -> None:
    calls: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        calls.append(key)
        if len(calls) < 3:
            raise RuntimeError("database is locked")

    clock = ManualClock()
    scheduler = TimerScheduler(fire, clock, max_delay=8, sleep=clock.sleep)
    due = clock()
    scheduler.set_game(1, [("k", due)])
    for tries in (1, 2):
        await until(lambda: len(calls) == tries, what=f"try {tries}")  # noqa: B023
        await until(lambda: scheduler.pending(1) == {"k": due}, what="listed again")
        await asleep(clock)  # waiting to try again, listed meanwhile
        assert scheduler.pending(1) == {"k": due}
        clock.advance(8)
    await until(lambda: len(calls) == 3, what="the third try")
    await until(lambda: not timer_tasks(), what="the alarm done")
    assert scheduler.pending(1) == {}
    await scheduler.close()


async def test_an_alarm_being_retried_stops_when_the_game_no_longer_wants_it() -> None:
    calls: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        calls.append(key)
        raise RuntimeError("database is locked")

    clock = ManualClock()
    scheduler = TimerScheduler(fire, clock, max_delay=30, sleep=clock.sleep)
    due = clock()
    scheduler.set_game(1, [("k", due)])
    await until(lambda: calls and scheduler.pending(1) == {"k": due}, what="a retry listed")
    scheduler.drop_game(1)
    assert scheduler.pending(1) == {}
    clock.advance(60)  # past any retry
    await until(lambda: not timer_tasks(), what="the scheduler idle")
    assert calls == ["k"]
    await scheduler.close()


async def test_an_earlier_alarm_wakes_the_scheduler_and_many_alarms_cost_one_task() -> None:
    fired: list[tuple[int, str]] = []

    async def fire(game_id: int, key: str) -> None:
        fired.append((game_id, key))

    clock = ManualClock()
    scheduler = TimerScheduler(fire, clock, sleep=clock.sleep)
    now = clock()
    for game in range(1, 1001):  # a restart's worth of stored deadlines
        scheduler.set_game(game, [("turn", now + timedelta(seconds=60 + game))])
    await asleep(clock)
    assert len(timer_tasks()) == 1 and scheduler.count() == 1000
    scheduler.set_game(5000, [("countdown", now + timedelta(seconds=10))])  # earlier than all
    await until(lambda: clock.sleepers == 1 and len(timer_tasks()) == 1, what="asleep again")
    clock.advance(10)
    await until(lambda: fired == [(5000, "countdown")], what="the earlier alarm")
    clock.advance(51)
    await until(lambda: fired[-1:] == [(1, "turn")], what="the first game's alarm")
    assert len(fired) == 2
    await scheduler.close()
    assert not timer_tasks()
