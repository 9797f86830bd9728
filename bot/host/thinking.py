"""Hard bots think in worker processes, never on the event loop (issue #23 item 4).

A search takes up to ``BOT_THINK`` seconds of CPU; on the event loop it would stall every click
of every game, and a thread would hold the interpreter lock as long. ``Thinking`` sends each
search to a process pool of ``BOT_PROCESSES`` workers (one per core by default) and counts the
searches running. When every worker is busy, the bot decides as the ``normal`` player does for
that decision (about a millisecond, here) rather than queue behind other bots' searches and act
late (P-76). A worker that died, or a search that does not come back in time, gets the same
fallback; the pool is made again for the next search.

The workers end with the bot: the pool is shut down with it, and each worker is also killed by
the kernel when the bot dies (``bot.child.start_background_worker``), so no search outlives its process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import importlib
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rules.core.bots import Decision
from rules.core.engine import Engine
from rules.core.player import Bot, SearchRequest, run_search

from ..child import start_background_worker

log = logging.getLogger(__name__)

GRACE = 2.0
"""Seconds past the budget a search may take to come back (a worker starting, a busy machine)
before the bot gives up on it and plays its normal decision."""


def machine_cores() -> int:
    """The cores this process may run on (its affinity where the system says, else all)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _start_worker(parent: int, modules: tuple[str, ...]) -> None:
    """A worker needs the games' rules and bot players only (``EXTRA_GAME_MODULES`` too). It
    runs at a lower priority: where the cores are all busy searching, the kernel still gives
    the event loop the CPU it asks for first, and a search merely takes a little longer."""
    start_background_worker(parent)
    importlib.import_module("rules")
    for module in modules:
        importlib.import_module(module)


def _started() -> None:
    """In a worker: nothing; ``Thinking.warm`` sends it so that the worker starts."""


def _search(request: bytes) -> Decision:
    """In a worker: the search, bounded by the request's seconds on this process's clock."""
    return run_search(pickle.loads(request), time.perf_counter)


@dataclass(frozen=True)
class Thought:
    """A bot's decision and how it was reached (for the metrics and the tests)."""

    decision: Decision
    how: str
    """``quick`` (no thinking: a random move, nothing to do, still waiting), ``normal`` (the
    heuristic), ``searched``, or ``fallback`` (a hard bot's normal decision: no worker free in
    time)."""


class Thinking:
    """The bot players' search workers: at most ``processes`` searches at once."""

    def __init__(
        self, processes: int, *, modules: Sequence[str] = (), grace: float = GRACE
    ) -> None:
        self.processes = processes
        self.modules = tuple(modules)
        self.grace = grace
        self._futures: set[concurrent.futures.Future[Decision]] = set()
        self.fallbacks = 0
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    @property
    def running(self) -> int:
        """Searches handed to a worker and not yet back (a search given up on still counts
        until its worker is free again)."""
        self._futures = {f for f in self._futures if not f.done()}
        return len(self._futures)

    @property
    def saturated(self) -> bool:
        return self.running >= self.processes

    async def decide(self, bot: Bot, engine: Engine) -> Thought:
        """``bot``'s decision now. The engine is read (and copied where needed) before the
        first ``await``: it may move on meanwhile, the decision is for this moment."""
        step = bot.step(engine)
        if step == "normal":
            return Thought(await self._normal(bot, engine), "normal")
        if step != "search":
            quick = bot.quick(engine)
            assert quick is not None  # every step but a search is decided at once
            return Thought(quick, "quick")
        if self.saturated:
            return await self._fallback(bot, engine, "every worker is busy")
        view, plan = bot.looks_at(engine), bot.request(engine)
        future = self._submit(plan)
        if future is None:
            return await self._fallback(bot, engine, "the workers could not start")
        wait = (plan.seconds or 0.0) + self.grace
        try:
            decision = await asyncio.wait_for(asyncio.wrap_future(future), wait)
        except TimeoutError:
            return await self._fallback(bot, engine, f"no answer within {wait:g} s")
        except concurrent.futures.process.BrokenProcessPool:
            self.close()
            return await self._fallback(bot, engine, "a worker died")
        except Exception as exc:  # a search failing is a bug: logged, and the game goes on
            log.exception("a bot's search failed")
            return await self._fallback(bot, engine, type(exc).__name__)
        return Thought(bot.settle(view, decision), "searched")

    async def _fallback(self, bot: Bot, engine: Engine, why: str) -> Thought:
        """The normal decision for this once (the engine may have moved: it is read again)."""
        self.fallbacks += 1
        log.debug("a hard bot plays its normal decision: %s", why)
        view = bot.looks_at(engine)
        return Thought(bot.settle(view, await self._normal(bot, engine)), "fallback")

    async def _normal(self, bot: Bot, engine: Engine) -> Decision:
        """The normal heuristic, in a thread on copies of the position and the memory: it is
        cheap in most games, but Bug Run's tries each option in an imagined game (up to tens
        of milliseconds), and a thread lets the event loop run every switch interval."""
        world, memory = engine.copy(), copy.deepcopy(bot.memory)
        policy = bot.game.heuristic(bot.level)
        action = await asyncio.to_thread(policy, world, bot.seat, memory, bot.rng)
        return Decision(action)

    def warm(self) -> None:
        """Start the workers now, if they are not running: a bot that will search has taken a
        seat. A worker is otherwise started by the first search, which then waits for it to
        spawn and import the rules: seconds at the workers' low priority on a busy machine,
        past the grace, and the bot plays fallbacks until that worker is free."""
        if self._pool is not None:
            return
        try:
            pool = self._open_pool()
            # each one finds no worker idle and starts one
            started = [pool.submit(_started) for _ in range(self.processes)]
        except (RuntimeError, concurrent.futures.process.BrokenProcessPool) as exc:
            log.warning("the bot players' workers could not start (%s)", exc)
            self.close()
            return
        said = threading.Lock()  # held for good by the callback that says it, the last one

        def one_started(_: concurrent.futures.Future[None]) -> None:
            # In the pool's thread, or this one if the future is done already: a future is
            # done before its callbacks run, so the last of them sees every one done.
            if not all(f.done() for f in started) or not said.acquire(blocking=False):
                return
            if all(not f.cancelled() and f.exception() is None for f in started):
                log.info("the bot players' search workers are ready (%d)", self.processes)

        for future in started:
            future.add_done_callback(one_started)

    def _open_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: this process runs threads and an event loop, which a forked
            # child must not inherit half-way
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), self.modules),
            )
        return self._pool

    def _submit(self, request: SearchRequest) -> concurrent.futures.Future[Decision] | None:
        # Pickled here, at once: the pool pickles in a thread of its own, by when the seat's
        # memory (or a list the snapshot shares with the live game) may have moved on.
        try:
            blob = pickle.dumps(request)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # a game's bug
            log.error("a bot's search could not go to a worker (%s)", exc)
            return None
        try:
            future = self._open_pool().submit(_search, blob)
        except (RuntimeError, concurrent.futures.process.BrokenProcessPool) as exc:
            log.warning("the bot players' workers could not take a search (%s)", exc)
            self.close()
            return None
        self._futures.add(future)
        return future

    def close(self) -> None:
        """End the workers now (searches running are dropped: their bots are gone too)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            # The pool's own shutdown lets a worker finish its search first; nobody waits for
            # it, so it is ended here (the executor keeps its processes in ``_processes``).
            processes = list((pool._processes or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
