"""Scale-out on PostgreSQL: committed moves per second with 1 and with 2 bot processes.

Each process is a real Host with its own Store (pool, advisory-lock pool, tables) acting through
``Host.act`` exactly as a click would: the game's advisory lock, the version compare-and-set and
the commit. The moves are real moves of Bug Off! (three players): the player whose turn it is
draws, then places or scores one of their cards, each move picked at random among the legal
ones of the table as the process has it, and sent with its turn as a button carries it. A
game that ends is followed by the next of its slot's spare games. Two loads:

- ``own``: every process plays its own games (as shards do: a guild's games live on its shard's
  process). Two processes play twice the games of one.
- ``shared``: every process acts on the same games (as DM clicks on shard 0 do, at worst): each
  action waits for the game's lock and often reloads a table the other process moved on; the
  loser of a race is refused (its turn is stale, or the move no longer legal), as a late click.

Committed moves are counted in the database (rows of ``actions`` written inside the window),
not by the workers; refused moves are counted by the workers. Figures are medians over
``--runs`` runs; the machine is shared and noisy.

Run by hand: `.venv/bin/python bench/scale.py [--url postgresql+asyncpg://…] [--games 8]
[--spares 3] [--seconds 5] [--runs 3]`. The URL defaults to TEST_DATABASE_URL, else the local server; the
bench works in a database of its own, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pydantic import SecretStr  # noqa: E402
from sqlalchemy import text  # noqa: E402

from bot.host.errors import HostError  # noqa: E402
from bot.host.host import Host  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.store import Store  # noqa: E402
from rules.core import RuleError  # noqa: E402
from tests.support.databases import PostgresDatabases  # noqa: E402
from tests.support.processes import end  # noqa: E402

LOCAL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
GAME = "bug-off"
PLAYERS = (1, 2, 3)
"""The members' user ids, in seat order (join order)."""
_channels = iter(range(10_000, 10**9))


def settings() -> Settings:
    return Settings(_env_file=None, discord_token=SecretStr("t" * 30))  # type: ignore[call-arg]


async def play_slot(host: Host, slot: list[int], stop: float, rng: random.Random) -> int:
    """Play the slot's games one after the other, as fast as commits allow, until ``stop``:
    each time, the player whose turn it is makes a random legal move. Returns the moves the
    game refused (a race lost to the other process)."""
    refused = 0
    games = iter(slot)
    game_id = next(games, None)
    while game_id is not None and time.time() < stop:
        engine = (await host.table(game_id)).running()
        if engine.is_over:
            game_id = next(games, None)
            continue
        (seat,) = engine.waiting_for()
        action = rng.choice(engine.legal_actions(seat))
        try:
            await host.act(game_id, PLAYERS[seat], action, turn=engine.turn)
        except (RuleError, HostError):
            refused += 1
    return refused


async def worker(url: str, slots: list[list[int]], start_at: float, seconds: float) -> None:
    """One bot process: play every slot within the window; print the refused moves (JSON)."""
    store = await Store.open(url, migrate=False)
    host = Host(store, settings())
    try:
        for game_id in (g for slot in slots for g in slot):
            await host.table(game_id)  # loaded before the window, as a running bot has them
        await asyncio.sleep(max(0.0, start_at - time.time()))
        stop = start_at + seconds
        rng = random.Random(os.getpid())
        refused = await asyncio.gather(*(play_slot(host, slot, stop, rng) for slot in slots))
        print(json.dumps({"refused": sum(refused)}))
    finally:
        await host.close()
        await store.close()


async def new_games(url: str, count: int) -> list[int]:
    """``count`` Bug Off! games opened, joined and started through the host, as members would."""
    store = await Store.open(url, migrate=False)
    host = Host(store, settings())
    try:
        ids = []
        for _ in range(count):
            table = await host.open(
                GAME, guild_id=1, channel_id=next(_channels), user_id=PLAYERS[0], name="p1"
            )
            for user_id in PLAYERS[1:]:
                await host.join(table.id, user_id, f"p{user_id}")
            await host.start(table.id, PLAYERS[0])
            ids.append(table.id)
        return ids
    finally:
        await host.close()
        await store.close()


def slots_of(ids: list[int], games: int) -> list[list[int]]:
    """``games`` slots, each a game and its spares (ids dealt round the slots)."""
    return [ids[i::games] for i in range(games)]


async def committed(url: str) -> int:
    store = await Store.open(url, migrate=False)
    try:
        async with store.engine.connect() as conn:
            return int(await conn.scalar(text("SELECT count(*) FROM actions")) or 0)
    finally:
        await store.close()


@dataclass(frozen=True)
class Outcome:
    committed: float
    """Committed moves per second, counted in the database."""
    refused: float
    """Moves per second the game refused, counted by the workers."""


async def one_run(
    url: str, processes: int, games: int, spares: int, seconds: float, load: str
) -> Outcome:
    """Committed and refused moves per second of ``processes`` workers over one window."""
    per_slot = 1 + spares
    if load == "own":
        ids = await new_games(url, games * per_slot * processes)
        parts = [ids[i * games * per_slot : (i + 1) * games * per_slot] for i in range(processes)]
        jobs = [slots_of(part, games) for part in parts]
    else:
        jobs = [slots_of(await new_games(url, games * per_slot), games)] * processes
    start_at = time.time() + 2.0 + processes  # every worker has connected by then
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--worker",
            json.dumps({"url": url, "slots": job, "start_at": start_at, "seconds": seconds}),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
        )
        for job in jobs
    ]
    try:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        before = await committed(url)
        await asyncio.sleep(seconds)
        after = await committed(url)
        refused = 0
        for proc in procs:
            out, _ = await proc.communicate()
            if proc.returncode:
                raise SystemExit(f"a worker failed ({proc.returncode})")
            refused += int(json.loads(out.decode().strip().splitlines()[-1])["refused"])
    finally:
        for proc in procs:
            await end(proc)
    return Outcome((after - before) / seconds, refused / seconds)


async def report(args: argparse.Namespace, url: str) -> None:
    print(
        f"PostgreSQL scale-out: real Bug Off! moves (3 players) through Host.act, {args.games} "
        f"game(s) per process (own) or in all ({args.games}, shared), each with {args.spares} "
        f"spare(s) for when it ends, {args.seconds:g} s windows, median of {args.runs} runs"
    )
    print(
        f"{'load':<8}{'processes':>10}{'moves/s':>10}{'runs':>24}{'× 1 process':>14}"
        f"{'refused/s':>11}"
    )
    for load in ("own", "shared"):
        single = 0.0
        for processes in (1, 2):
            outcomes = [
                await one_run(url, processes, args.games, args.spares, args.seconds, load)
                for _ in range(args.runs)
            ]
            rates = [o.committed for o in outcomes]
            median = statistics.median(rates)
            single = single or median
            runs = ", ".join(f"{r:.0f}" for r in rates)
            refused = statistics.median(o.refused for o in outcomes)
            print(
                f"{load:<8}{processes:>10}{median:>10.0f}{runs:>24}{median / single:>14.2f}"
                f"{refused:>11.0f}"
            )
    print(f"(machine: {os.cpu_count()} cores, shared with other work)")


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        job = json.loads(sys.argv[2])
        asyncio.run(worker(job["url"], job["slots"], job["start_at"], job["seconds"]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL") or LOCAL)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--spares", type=int, default=3, help="games per slot after the first")
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
