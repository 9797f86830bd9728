"""What remembering which message shows what (``Store.set_message``) costs the event loop: on
the loop's own SQLite connection (P-59) against the ordinary SQLAlchemy write it replaced.

A bot posting boards, hands and turn pings calls it some 30 times a second at 200 games. Each
mode in turn, ``--rounds`` times, on a temporary SQLite file under ``DATABASE_SYNCHRONOUS=FULL``
with 20 games: the median and p99 of the call's wall time and the median of the event loop's
own CPU time per call (``time.thread_time``), and the ratios.

Run by hand: `.venv/bin/python bench/store_writes.py [--calls 400] [--rounds 2]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import Store
from bot.store.writer import SQLiteWriter


async def measure(ordinary: bool, calls: int) -> tuple[float, float, float]:
    """(loop CPU p50, wall p50, wall p99) in ms of ``calls`` set_message calls."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{folder}/g.db", synchronous="FULL")
        try:
            games = []
            for channel in range(1, 21):
                lobby = await store.create_lobby(
                    slug="bug-off", guild_id=1, channel_id=channel, creator_id=1,
                    creator_name="a", options={}, seed=channel,
                )  # fmt: skip
                games.append(lobby.id)
            writer = store._writer
            assert isinstance(writer, SQLiteWriter)
            if ordinary:  # the loop's path declines: every call takes the SQLAlchemy write
                writer.set_message_now = lambda *_: False  # type: ignore[method-assign]
            cpu, wall = [], []
            for n in range(calls):
                began_cpu, began = time.thread_time(), time.perf_counter()
                await store.set_message(games[n % len(games)], "board", 1, n)
                cpu.append(time.thread_time() - began_cpu)
                wall.append(time.perf_counter() - began)
        finally:
            await store.close()
    wall.sort()
    return (
        statistics.median(cpu) * 1e3,
        statistics.median(wall) * 1e3,
        wall[min(len(wall) - 1, int(0.99 * len(wall)))] * 1e3,
    )


async def main_async(calls: int, rounds: int) -> None:
    figures: dict[str, list[tuple[float, float, float]]] = {"loop": [], "ordinary": []}
    for _ in range(rounds):
        for mode in figures:
            figures[mode].append(await measure(mode == "ordinary", calls))
    print(f"{'set_message':<12}{'loop CPU p50':>14}{'wall p50':>10}{'wall p99':>10}   (ms)")
    for mode, runs in figures.items():
        cpu, p50, p99 = (statistics.median(r[i] for r in runs) for i in range(3))
        print(f"{mode:<12}{cpu:>14.3f}{p50:>10.3f}{p99:>10.3f}")
    loop, ordinary = figures["loop"], figures["ordinary"]
    print(
        "ordinary / loop: loop CPU "
        f"{statistics.median(r[0] for r in ordinary) / statistics.median(r[0] for r in loop):.1f}x,"
        " wall p50 "
        f"{statistics.median(r[1] for r in ordinary) / statistics.median(r[1] for r in loop):.1f}x"
        f" ({calls} calls a round, {rounds} rounds, medians over rounds)"
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
