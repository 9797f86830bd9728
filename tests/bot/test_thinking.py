"""Hard bots think in worker processes (issue #23 item 4, P-76): a search's decision comes
back from a worker as the same search here would make it; when every worker is busy a bot plays
its normal decision at once instead of queueing; the workers end with the pool."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.child import WORKER_NICENESS
from bot.host.thinking import Thinking
from rules.core import Engine, get_game
from rules.core.bots import Budget
from rules.core.player import Bot, SearchRequest, bot_for, run_search
from rules.core.rng import Rng
from tests.support.sched_probe import may_enter_idle_class
from tests.support.wait import until
from tests.support.workers import no_resource_tracker, workers

ROOT = Path(__file__).resolve().parents[2]
GAME = "bug-off"
"""Turn-based, with several options from its first move: any game with bot players would do;
the pool is what is tested."""


def position() -> tuple[Engine, int]:
    """A game at a seat's first decision with several options (the draws before it made)."""
    engine = get_game(GAME).new(3, 11)
    while True:
        seat = next(s for s in sorted(engine.waiting_for()) if s >= 0)
        actions = engine.legal_actions(seat)
        if len(actions) > 1:
            return engine, seat
        engine.apply(seat, actions[0])


def hard(seat: int, budget: Budget, seed: int = 5) -> Bot:
    return bot_for(GAME, seat, "hard", Rng(seed), budget)


__all__ = ["no_resource_tracker"]  # the module's fixture: its workers end, then the tracker

GRACE = 60.0
"""A worker's start may take seconds on a loaded machine: the tests wait (the bot does not)."""


@pytest.fixture
async def thinking() -> AsyncIterator[Thinking]:
    pool = Thinking(1, grace=GRACE)
    try:
        yield pool
    finally:
        pool.close()


async def test_a_search_in_a_worker_decides_as_the_same_search_here(thinking: Thinking) -> None:
    engine, seat = position()
    budget = Budget(simulations=24)  # no seconds: the count alone bounds it, so it replays
    request = hard(seat, budget).plan(engine)
    assert isinstance(request, SearchRequest)
    here = run_search(request)
    thought = await thinking.decide(hard(seat, budget), engine)
    assert thought.how == "searched"
    assert thought.decision == here and here.simulations >= 24
    assert workers(), "the search ran in this process, not a worker"


async def test_a_saturated_pool_makes_a_bot_play_normal_at_once(thinking: Thinking) -> None:
    engine, seat = position()
    long = Budget(simulations=10**9, seconds=3.0)  # holds the only worker for about 3 s
    first = asyncio.create_task(thinking.decide(hard(seat, long), engine))
    await until(lambda: thinking.running == 1, timeout=30, what="the first search running")
    assert thinking.saturated

    second = hard(seat, Budget(simulations=24), seed=9)
    twin = hard(seat, Budget(simulations=24), seed=9)
    fallback = await thinking.decide(second, engine)
    assert fallback.how == "fallback" and thinking.fallbacks == 1
    # The normal player's decision, from the same generator state.
    assert fallback.decision.action == twin.fallback(engine).action
    assert not first.done(), "the fallback waited for the running search"

    searched = await first
    assert searched.how == "searched" and searched.decision.simulations > 0
    await until(lambda: not thinking.saturated, timeout=30, what="the worker free again")
    assert (await thinking.decide(hard(seat, Budget(simulations=8)), engine)).how == "searched"


async def test_a_bot_that_needs_no_search_never_reaches_the_pool(thinking: Thinking) -> None:
    engine, seat = position()
    for level, how in (("easy", "quick"), ("normal", "normal")):
        thought = await thinking.decide(bot_for(GAME, seat, level, Rng(1)), engine)
        assert thought.how == how and thought.decision.action is not None
        assert thought.decision == bot_for(GAME, seat, level, Rng(1)).decide(engine)
    assert thinking.running == 0 and thinking._pool is None  # no worker was started


async def test_the_workers_end_with_the_pool() -> None:
    engine, seat = position()
    before = workers()
    thinking = Thinking(2, grace=GRACE)
    try:
        assert (await thinking.decide(hard(seat, Budget(simulations=8)), engine)).how == "searched"
        started = workers() - before
        assert started, "no worker process was started"
    finally:
        thinking.close()
    await until(lambda: not started & workers(), timeout=30, what="the workers to end")


async def test_warming_starts_every_worker_before_the_first_search(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A hard bot's seat warms the pool (``BotPlayers.table_changed``): its first search then
    finds its worker running, instead of waiting for one to spawn and import the rules. The
    log says when the workers are ready (tests/e2e/test_bot_levels.py waits for it)."""
    engine, seat = position()
    before = workers()
    thinking = Thinking(2, grace=GRACE)
    caplog.set_level(logging.INFO, "bot.host.thinking")
    try:
        thinking.warm()
        await until(lambda: len(workers() - before) == 2, timeout=30, what="two workers")
        await until(lambda: "search workers are ready (2)" in caplog.text, timeout=30, what="ready")
        started = workers() - before
        thinking.warm()  # warm already: nothing more is started
        assert (await thinking.decide(hard(seat, Budget(simulations=8)), engine)).how == "searched"
        assert workers() - before == started and thinking.running == 0
    finally:
        thinking.close()
    await until(lambda: not started & workers(), timeout=30, what="the workers to end")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's scheduling classes")
async def test_a_search_worker_runs_niced_but_never_in_the_idle_class() -> None:
    """A game waits on a bot's search: its worker runs at a lower priority than the bot, so
    the event loop gets a busy core first, but never in the idle class the picture process
    draws in, where a machine kept busy by others would stall the game (P-89)."""
    engine, seat = position()
    before = workers()
    thinking = Thinking(1, grace=GRACE)
    try:
        assert (await thinking.decide(hard(seat, Budget(simulations=8)), engine)).how == "searched"
        (worker,) = workers() - before
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(os.nice(0) + WORKER_NICENESS, 19)
        assert os.sched_getscheduler(worker) == os.SCHED_OTHER
        assert thinking._pool is not None  # and nothing there may draw in the idle class
        assert thinking._pool.submit(may_enter_idle_class).result(timeout=30) is False
    finally:
        thinking.close()
    await until(lambda: worker not in workers(), timeout=30, what="the worker to end")


ORPHANING_BOT = """
import asyncio, os, signal
from bot.host.thinking import Thinking
from rules.core.bots import Budget
from tests.bot.test_thinking import hard, position

async def main():
    engine, seat = position()
    thinking = Thinking(1, grace=60)
    search = asyncio.create_task(thinking.decide(hard(seat, Budget(10**9, 60.0)), engine))
    while thinking.running == 0:
        await asyncio.sleep(0.01)
    print(*thinking._pool._processes, flush=True)  # the worker's pid, busy searching
    os.kill(os.getpid(), signal.SIGKILL)  # no shutdown, as kill -9

asyncio.run(main())
"""


def test_a_searching_worker_ends_when_the_bot_is_killed() -> None:
    """kill -9 of the bot leaves nobody to shut its pool down: a worker in the middle of a 60 s
    search ends at once (PR_SET_PDEATHSIG) instead of living on as an orphan of init."""
    bot = subprocess.Popen(
        [sys.executable, "-c", ORPHANING_BOT], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert bot.stdout is not None
    with bot.stdout:  # only the first line: an orphan would hold the pipe open for ever
        worker = int(bot.stdout.readline())
    assert bot.wait(timeout=60) == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while alive(worker):  # a poll with a bound: the kernel's kill is not an event we can await
        if time.monotonic() > deadline:
            os.kill(worker, signal.SIGKILL)
            raise AssertionError(f"search worker {worker} outlived its bot")
        time.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")
