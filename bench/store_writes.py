"""What the store's writes beside the actions cost the event loop: on the loop's own SQLite
connection (P-59) against the ordinary async SQLAlchemy write they replaced.

- ``set_message`` (which message shows what): a bot posting boards, hands and turn pings calls
  it some 30 times a second at 200 games;
- a game's last move (``record_action`` with its results, ratings of three members): about two
  a second at 200 games.

Each mode in turn, ``--rounds`` times, on a temporary SQLite file under
``DATABASE_SYNCHRONOUS=FULL``: the median and p99 of the call's wall time and the median of the
event loop's own CPU time per call (``time.thread_time``), and the ratios.

Run by hand: `.venv/bin/python bench/store_writes.py [--calls 400] [--rounds 2]`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import LobbySeat, ResultSpec, Store
from bot.store.writer import SQLiteWriter

Figures = tuple[float, float, float]
"""(loop CPU p50, wall p50, wall p99) in ms."""


def figures(cpu: list[float], wall: list[float]) -> Figures:
    wall = sorted(wall)
    return (
        statistics.median(cpu) * 1e3,
        statistics.median(wall) * 1e3,
        wall[min(len(wall) - 1, int(0.99 * len(wall)))] * 1e3,
    )


@contextlib.asynccontextmanager
async def fresh_store() -> AsyncIterator[tuple[Store, SQLiteWriter]]:
    """A store on a new SQLite file under FULL, and its writer, closed after."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{folder}/g.db", synchronous="FULL")
        try:
            writer = store._writer
            assert isinstance(writer, SQLiteWriter)
            yield store, writer
        finally:
            await store.close()


class Timer:
    """The loop's CPU time and the wall time of each timed call."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []

    async def time(self, call: Awaitable[object]) -> None:
        began_cpu, began = time.thread_time(), time.perf_counter()
        await call
        self.cpu.append(time.thread_time() - began_cpu)
        self.wall.append(time.perf_counter() - began)

    def figures(self) -> Figures:
        return figures(self.cpu, self.wall)


async def measure(ordinary: bool, calls: int) -> Figures:
    """``calls`` set_message calls."""
    timer = Timer()
    async with fresh_store() as (store, writer):
        games = []
        for channel in range(1, 21):
            lobby = await store.create_lobby(
                slug="bug-off", guild_id=1, channel_id=channel, creator_id=1,
                creator_name="a", options={}, seed=channel,
            )  # fmt: skip
            games.append(lobby.id)
        if ordinary:  # the loop's path declines: every call takes the SQLAlchemy write
            writer.set_message_now = lambda *_: False  # type: ignore[method-assign]
        for n in range(calls):
            await timer.time(store.set_message(games[n % len(games)], "board", 1, n))
    return timer.figures()


async def measure_ends(ordinary: bool, calls: int) -> Figures:
    """``calls`` games of three members ended (their last move, results and ratings)."""
    timer = Timer()
    async with fresh_store() as (store, writer):
        if ordinary:
            writer.transact_now = lambda _: None  # type: ignore[method-assign,assignment]
        for n in range(calls):
            members = [3 * (n % 10) + k + 1 for k in range(3)]
            lobby = await store.create_lobby(
                slug="bug-off", guild_id=1, channel_id=n + 1, creator_id=members[0],
                creator_name="a", options={}, seed=n,
                seats=[LobbySeat(u, f"m{u}") for u in members],
            )  # fmt: skip
            game = await store.start(
                lobby.id, expected_version=lobby.version, seat_order=members,
                snapshot={}, timers=[],
            )  # fmt: skip
            results = [
                ResultSpec(user_id=u, seat=k, score=9 - k, rank=k + 1, winner=k == 0)
                for k, u in enumerate(members)
            ]
            last = store.record_action(
                game, seat=0, action={"type": "end"}, snapshot={}, timers=None, results=results
            )
            await timer.time(last)
    return timer.figures()


async def main_async(calls: int, rounds: int) -> None:
    print(f"{'write':<12}{'way':<10}{'loop CPU p50':>14}{'wall p50':>10}{'wall p99':>10}   (ms)")
    for name, run, count in (
        ("set_message", measure, calls),
        ("last move", measure_ends, max(1, calls // 4)),
    ):
        found: dict[str, list[Figures]] = {"loop": [], "ordinary": []}
        for _ in range(rounds):
            for way in found:
                found[way].append(await run(way == "ordinary", count))
        medians = {
            way: tuple(statistics.median(r[i] for r in runs) for i in range(3))
            for way, runs in found.items()
        }
        for way, (cpu, p50, p99) in medians.items():
            print(f"{name:<12}{way:<10}{cpu:>14.3f}{p50:>10.3f}{p99:>10.3f}")
        loop, ordinary = medians["loop"], medians["ordinary"]
        print(
            f"{'':<12}ordinary / loop: loop CPU {ordinary[0] / loop[0]:.1f}x, wall p50"
            f" {ordinary[1] / loop[1]:.1f}x ({count} calls a round, {rounds} rounds,"
            " medians over rounds)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main_async(args.calls, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
