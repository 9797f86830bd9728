"""Scale-out on PostgreSQL: committed actions per second with 1 and with 2 bot processes.

Each process is a real Host with its own Store (pool, advisory-lock pool, tables) acting through
``Host.act`` exactly as a click would: the game's advisory lock, the version compare-and-set and
the commit. Two loads:

- ``own``: every process plays its own games (as shards do: a guild's games live on its shard's
  process). Two processes play twice the games of one.
- ``shared``: every process acts on the same games (as DM clicks on shard 0 do, at worst): each
  action waits for the game's lock and often reloads a table the other process moved on.

Committed actions are counted in the database (rows of ``actions`` written inside the window),
not by the workers. Figures are medians over ``--runs`` runs; the machine is shared and noisy.

Run by hand: `.venv/bin/python bench/scale.py [--url postgresql+asyncpg://…] [--games 8]
[--seconds 5] [--runs 3]`. The URL defaults to TEST_DATABASE_URL, else the local server; the
bench works in a database of its own, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

import tests.support.testgame  # noqa: E402, F401  (registers Ladybug Dash)
from bot.host.host import Host  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.support.databases import PostgresDatabases  # noqa: E402

LOCAL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
ALICE, BOB = 1, 2
_channels = iter(range(10_000, 10**9))


def settings() -> Settings:
    return Settings(_env_file=None, discord_token="t" * 30)  # type: ignore[call-arg]


async def worker(url: str, game_ids: list[int], start_at: float, seconds: float) -> None:
    """One bot process: cheer in every game, as fast as commits allow, within the window."""
    store = await Store.open(url, migrate=False)
    host = Host(store, settings())
    try:
        for game_id in game_ids:
            await host.table(game_id)  # loaded before the window, as a running bot has them
        await asyncio.sleep(max(0.0, start_at - time.time()))
        stop = start_at + seconds

        async def play(game_id: int) -> None:
            while time.time() < stop:
                await host.act(game_id, ALICE, {"type": "cheer"})

        await asyncio.gather(*(play(g) for g in game_ids))
    finally:
        await host.close()
        await store.close()


async def new_games(url: str, count: int) -> list[int]:
    store = await Store.open(url, migrate=False)
    host = Host(store, settings())
    try:
        ids = []
        for _ in range(count):
            table = await host.open(
                "ladybug-dash", guild_id=1, channel_id=next(_channels), user_id=ALICE, name="a"
            )
            await host.join(table.id, BOB, "b")
            await host.start(table.id, ALICE)
            ids.append(table.id)
        return ids
    finally:
        await host.close()
        await store.close()


async def committed(url: str) -> int:
    store = await Store.open(url, migrate=False)
    try:
        async with store.engine.connect() as conn:
            return int(await conn.scalar(text("SELECT count(*) FROM actions")) or 0)
    finally:
        await store.close()


async def one_run(url: str, processes: int, games: int, seconds: float, load: str) -> float:
    """Committed actions per second of ``processes`` workers over one window."""
    if load == "own":
        ids = await new_games(url, games * processes)
        slices = [ids[i * games : (i + 1) * games] for i in range(processes)]
    else:
        ids = await new_games(url, games)
        slices = [ids] * processes
    start_at = time.time() + 2.0 + processes  # every worker has connected by then
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--worker",
            json.dumps({"url": url, "ids": part, "start_at": start_at, "seconds": seconds}),
            cwd=ROOT,
        )
        for part in slices
    ]
    await asyncio.sleep(max(0.0, start_at - time.time()))
    before = await committed(url)
    await asyncio.sleep(seconds)
    after = await committed(url)
    for proc in procs:
        await proc.wait()
        if proc.returncode:
            raise SystemExit(f"a worker failed ({proc.returncode})")
    return (after - before) / seconds


async def report(args: argparse.Namespace, url: str) -> None:
    print(
        f"PostgreSQL scale-out: Ladybug Dash cheers through Host.act, {args.games} game(s) "
        f"per process (own) or in all ({args.games}, shared), {args.seconds:g} s windows, "
        f"median of {args.runs} runs"
    )
    print(f"{'load':<8}{'processes':>10}{'actions/s':>12}{'runs':>28}{'× 1 process':>14}")
    for load in ("own", "shared"):
        single = 0.0
        for processes in (1, 2):
            rates = [
                await one_run(url, processes, args.games, args.seconds, load)
                for _ in range(args.runs)
            ]
            median = statistics.median(rates)
            single = single or median
            runs = ", ".join(f"{r:.0f}" for r in rates)
            print(f"{load:<8}{processes:>10}{median:>12.0f}{runs:>28}{median / single:>14.2f}")
    print(f"(machine: {os.cpu_count()} cores, shared with other work)")


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        job = json.loads(sys.argv[2])
        asyncio.run(worker(job["url"], job["ids"], job["start_at"], job["seconds"]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL") or LOCAL)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    databases = PostgresDatabases(args.url)
    url = databases.create()
    try:
        asyncio.run(report(args, url))
    finally:
        databases.drop(url)
        databases.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
