"""A graceful stop (SIGTERM) at the host: nothing new begins, what began commits (P-50)."""

from __future__ import annotations

import asyncio

import pytest

from bot.host.errors import Restarting
from bot.host.host import Host
from bot.store import Store
from tests.support.wait import until

from .test_host import ALICE, BOB, lobby, started


async def test_once_the_gate_closes_no_change_begins_and_none_is_made(
    host: Host, store: Store
) -> None:
    table = await started(host, BOB)
    engine = table.running()
    before = len(await store.actions(table.id))
    assert await host.gate.close(timeout=1.0)
    seat = min(engine.waiting_for())
    with pytest.raises(Restarting) as refused:
        await host.act(table.id, table.user_at(seat).user_id, engine.legal_actions(seat)[0])
    assert "restarting" in str(refused.value).lower()
    for attempt in (
        host.join(table.id, 3, "carol"),
        host.cancel(table.id, ALICE),
        host.open("ladybug-dash", guild_id=9, channel_id=501, user_id=4, name="dave"),
    ):
        with pytest.raises(Restarting):
            await attempt
    assert len(await store.actions(table.id)) == before
    assert await host.fire_timer(table.id, "any") is None  # it stays stored for the next start


async def test_a_change_under_way_when_the_gate_closes_commits_before_the_stop_goes_on(
    host: Host, store: Store
) -> None:
    table = await lobby(host, BOB)
    async with table.lock:  # the start is under way: it waits for the lock, inside the gate
        starting = asyncio.create_task(host.start(table.id, ALICE))
        await until(lambda: host.gate.inside, what="the start inside the gate")
        closing = asyncio.create_task(host.gate.close(timeout=5.0))
        await asyncio.sleep(0.05)
        assert not closing.done()  # the stop waits for it
    assert (await starting).status == "playing"
    assert await closing
    record = await store.get_game(table.id)
    assert record is not None and record.status == "playing"


async def test_a_stop_that_waits_too_long_says_so(host: Host) -> None:
    table = await lobby(host, BOB)
    async with table.lock:
        starting = asyncio.create_task(host.start(table.id, ALICE))
        await until(lambda: host.gate.inside, what="the start inside the gate")
        assert not await host.gate.close(timeout=0.01)
    await starting
