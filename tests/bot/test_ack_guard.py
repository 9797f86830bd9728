"""The 3 s acknowledgement guard: slow answers are deferred once, fast ones never."""

from __future__ import annotations

import asyncio
from typing import Any

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
    def __init__(self, response: FakeResponse) -> None:
        self.response = response
        self.id = 1


def guard_for(response: FakeResponse, after: float) -> AckGuard:
    interaction: Any = FakeInteraction(response)
    return AckGuard(interaction, after=after)


async def test_a_fast_answer_is_never_deferred() -> None:
    response = FakeResponse()
    guard = guard_for(response, after=0.05)
    await guard.settle()
    # The guard's task is cancelled, not sleeping on: it can never defer (awaited, not slept on).
    await asyncio.gather(guard.task, return_exceptions=True)
    assert guard.task.cancelled()
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
