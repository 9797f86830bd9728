"""The in-memory alarms behind persisted deadlines."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

from bot.host.timers import TimerScheduler, utcnow
from tests.support.wait import until


async def test_alarms_fire_in_due_order_and_replacing_the_set_cancels_the_rest() -> None:
    fired: list[tuple[int, str]] = []

    async def fire(game_id: int, key: str) -> None:
        fired.append((game_id, key))

    scheduler = TimerScheduler(fire)
    now = utcnow()
    scheduler.set_game(
        1, [("late", now + timedelta(seconds=0.2)), ("soon", now + timedelta(seconds=0.05))]
    )
    scheduler.set_game(2, [("other", now + timedelta(seconds=0.1))])
    scheduler.set_game(1, [("soon", now + timedelta(seconds=0.05))])  # "late" is no longer wanted
    await asyncio.sleep(0.35)
    assert fired == [(1, "soon"), (2, "other")]
    assert scheduler.pending(1) == {} and scheduler.pending(2) == {}
    await scheduler.close()


async def test_an_overdue_alarm_fires_at_once_and_an_unchanged_one_keeps_running() -> None:
    fired: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        fired.append(key)

    scheduler = TimerScheduler(fire)
    now = utcnow()
    due = now + timedelta(seconds=0.15)
    scheduler.set_game(1, [("past", now - timedelta(seconds=30)), ("keep", due)])
    await asyncio.sleep(0.05)
    assert fired == ["past"]
    scheduler.set_game(1, [("keep", due)])  # same key and time: not restarted
    await asyncio.sleep(0.15)
    assert fired == ["past", "keep"]
    await scheduler.close()


async def test_a_failing_alarm_does_not_stop_the_others() -> None:
    fired: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        if key == "bad":
            raise RuntimeError("boom")
        fired.append(key)

    scheduler = TimerScheduler(fire)
    now = utcnow()
    scheduler.set_game(1, [("bad", now), ("good", now + timedelta(seconds=0.05))])
    await asyncio.sleep(0.15)
    assert fired == ["good"]
    await scheduler.close()


async def test_close_cancels_everything() -> None:
    fired: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        fired.append(key)

    scheduler = TimerScheduler(fire)
    scheduler.set_game(1, [("k", utcnow() + timedelta(seconds=0.05))])
    await scheduler.close()
    await asyncio.sleep(0.1)
    assert fired == []
    scheduler.set_game(1, [("k", utcnow())])  # a closed scheduler schedules nothing
    await asyncio.sleep(0.02)
    assert fired == []


async def test_a_failed_alarm_is_tried_again_until_it_fires() -> None:
    calls: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        calls.append(key)
        if len(calls) < 3:
            raise RuntimeError("database is locked")

    scheduler = TimerScheduler(fire, max_delay=0.05)
    scheduler.set_game(1, [("k", utcnow())])
    await until(lambda: len(calls) == 3, what="the third try")
    await until(lambda: scheduler.pending(1) == {}, what="the alarm done")
    await scheduler.close()


async def test_an_alarm_being_retried_stops_when_the_game_no_longer_wants_it() -> None:
    calls: list[str] = []

    async def fire(game_id: int, key: str) -> None:
        calls.append(key)
        raise RuntimeError("database is locked")

    scheduler = TimerScheduler(fire, max_delay=30)
    due = utcnow()
    scheduler.set_game(1, [("k", due)])
    await until(lambda: calls and scheduler.pending(1) == {"k": due}, what="a retry listed")
    (task,) = [t for t in asyncio.all_tasks() if t.get_name() == "timer:1:k"]
    scheduler.drop_game(1)
    assert scheduler.pending(1) == {}
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert task.cancelled()
    await scheduler.close()
