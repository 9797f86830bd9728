"""The 3 s acknowledgement guard: slow answers are deferred once, fast ones never."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import discord

from bot.discord.edge import AckGuard
from tests.support.wait import until


class FakeResponse:
    """A response whose deferral takes until ``finish`` is set (at once by default)."""

    def __init__(self, *, held: bool = False) -> None:
        self.defers = 0
        self.done = False
        self.finish = asyncio.Event()
        if not held:
            self.finish.set()

    def is_done(self) -> bool:
        return self.done

    async def defer(self) -> None:
        self.defers += 1
        await self.finish.wait()
        self.done = True


class FakeInteraction:
    """An interaction Discord made ``age`` seconds ago (its id says when)."""

    def __init__(self, response: FakeResponse, age: float = 0.0) -> None:
        self.response = response
        made = discord.utils.utcnow() - timedelta(seconds=age)
        self.id = discord.utils.time_snowflake(made)


def guard_for(response: FakeResponse, after: float) -> AckGuard:
    interaction: Any = FakeInteraction(response)
    return AckGuard(interaction, after=after)


async def test_a_fast_answer_is_never_deferred() -> None:
    response = FakeResponse()
    guard = guard_for(response, after=0.05)
    await guard.settle()
    # The guard's timer is cancelled: it can never defer, even after its time.
    assert guard.timer.cancelled() and guard.deferral is None
    await asyncio.sleep(0.1)
    assert response.defers == 0 and not response.done


async def test_a_slow_answer_is_deferred_once() -> None:
    response = FakeResponse()
    guard = guard_for(response, after=0.02)
    await until(lambda: response.done, what="the deferral")
    await guard.settle()
    assert response.defers == 1 and response.done


async def test_settling_during_the_deferral_waits_for_it() -> None:
    response = FakeResponse(held=True)
    guard = guard_for(response, after=0.01)
    await until(lambda: response.defers, what="the deferral on its way")
    assert guard.deferring and not response.done
    settling = asyncio.create_task(guard.settle())
    await asyncio.sleep(0)  # settle() runs up to its wait for the deferral
    assert not settling.done()
    response.finish.set()
    await settling
    assert response.done and response.defers == 1


def test_the_three_seconds_run_from_when_discord_made_the_interaction() -> None:
    """A process that gets to a click late (its event loop lagging under load) defers that much
    sooner, and at once when it is past the guard's time already; a clock behind Discord's
    waits the whole time, never longer."""
    # a whole millisecond, which an id holds exactly
    made = discord.utils.snowflake_time(discord.utils.time_snowflake(discord.utils.utcnow()))
    interaction: Any = FakeInteraction(FakeResponse())
    interaction.id = discord.utils.time_snowflake(made)

    async def guards() -> list[float]:
        found = []
        for late in (0.0, 0.5, 1.9, 2.5, -3.0):
            guard = AckGuard(interaction, now=made + timedelta(seconds=late))
            found.append(round(guard.after, 3))
            await guard.settle()
        return found

    assert asyncio.run(guards()) == [2.0, 1.5, 0.1, 0.0, 2.0]
