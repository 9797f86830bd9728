"""Scale: committed actions per second and the commit's latency, SQLite and PostgreSQL side by
side, with one and two bot processes.

Each process is a real Host with its own Store acting through ``Host.act`` exactly as a click
would (the version compare-and-set, the group commit, durable before ``act`` returns: SQLite
with ``DATABASE_SYNCHRONOUS=FULL``, PostgreSQL with ``synchronous_commit=on``, the defaults).
The moves are real moves of the four games, dealt round the slots: each time, a seat the game
waits on makes a random legal move, sent with its turn as a button carries it (a game waiting
only on a deadline jumps its clock to it and fires it). A game that ends is followed by its
slot's spare. Loads:

- ``own``: every process plays its own games (as shards do). Two processes play twice the games.
- ``cross``: every process acts on the same games (as DM clicks arriving on shard 0 for shard
  1's games do, at worst): the loser of a race is refused (its turn is stale, or the move no
  longer legal), as a late click, after reloading the table the other process moved on.

Two paces: ``max`` (every slot acts again as soon as its last action returned: throughput) and
``--rate`` actions per second per process, spread evenly over the slots (the latency at that
load). Each worker counts only its own window, from the moment it started playing (after its
tables were loaded and every worker was ready) to its end; a process's rate is its committed
actions over its own window, and processes' rates add up. Latency is ``Host.act``'s (or the
deadline's firing), over every committed action of the window. Figures are medians over
``--runs`` runs. SQLite is one process per file (P-22): it has no two-process rows.

Run by hand: `.venv/bin/python bench/scale.py [--url postgresql+asyncpg://…] [--games 200]
[--rate 1000] [--seconds 5] [--runs 3]`. The URL defaults to TEST_DATABASE_URL, else the local
server; each run works in a database of its own, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.play import SHIPPED, Clock, new_table, settings, step  # noqa: E402
from bot.host.errors import GameGone  # noqa: E402
from bot.host.host import Host  # noqa: E402
from bot.store import Store  # noqa: E402
from rules import GAMES  # noqa: E402
from tests.support.databases import PostgresDatabases  # noqa: E402
from tests.support.processes import end  # noqa: E402

LOCAL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
_channels = iter(range(10_000, 10**9))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def play_slot(
    host: Host, slot: list[int], clock: Clock, stop: float, gap: float, seed: int
) -> tuple[list[float], int]:
    """Play the slot's games one after the other until ``stop``, one action every ``gap``
    seconds (0: as fast as commits allow). (Each committed action's seconds, refusals.)"""
    rng = random.Random(seed)
    took: list[float] = []
    refused = 0
    games = iter(slot)
    game_id = next(games, None)
    due = time.perf_counter() + rng.random() * gap  # slots spread over the gap
    while game_id is not None:
        if gap:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            due += gap
        if time.perf_counter() >= stop:
            break
        try:
            table = await host.table(game_id)
        except GameGone:  # ended (here, or in the other process)
            table = None
        if table is None or table.status != "playing" or table.running().is_over:
            game_id = next(games, None)
            continue
        seconds = await step(host, table, clock, rng)
        if seconds is None:
            refused += 1
        else:
            took.append(seconds)
    return took, refused


async def worker(job: dict[str, object]) -> None:
    """One bot process: load its games, say "ready", wait for "go", play for the window, print
    what it committed in its own window (JSON)."""
    logging.disable(logging.WARNING)  # a lost race logs a reload: not the bench's output
    url = str(job["url"])
    slots = [list(map(int, s)) for s in job["slots"]]  # type: ignore[attr-defined]
    seconds, gap = float(job["seconds"]), float(job["gap"])  # type: ignore[arg-type]
    store = await Store.open(url, migrate=False)
    clock = Clock(datetime.now(UTC))
    host = Host(store, settings(), clock=clock)
    try:
        for game_id in (g for slot in slots for g in slot):
            await host.table(game_id)  # loaded before the window, as a running bot has them
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        started = time.perf_counter()
        stop = started + seconds
        results = await asyncio.gather(
            *(
                play_slot(host, slot, clock, stop, gap, os.getpid() * 1000 + i)
                for i, slot in enumerate(slots)
            )
        )
        elapsed = time.perf_counter() - started
        took = [t for ts, _ in results for t in ts]
        refused = sum(r for _, r in results)
        print(json.dumps({"took": took, "refused": refused, "elapsed": elapsed}), flush=True)
    finally:
        await host.close()
        await store.close()


async def new_games(url: str, count: int) -> list[int]:
    """``count`` games of the four, in turn, each opened, joined by its most players and
    started through the host, as members would."""
    store = await Store.open(url, migrate=False)
    host = Host(store, settings())
    try:
        ids = []
        for n in range(count):
            slug = SHIPPED[n % len(SHIPPED)]
            table = await new_table(host, slug, next(_channels), GAMES[slug].max_players)
            ids.append(table.id)
        return ids
    finally:
        await host.close()
        await store.close()


def slots_of(ids: list[int], games: int) -> list[list[int]]:
    """``games`` slots, each a game and its spares (ids dealt round the slots)."""
    return [ids[i::games] for i in range(games)]


@dataclass(frozen=True)
class Outcome:
    committed: float
    """Committed actions per second: each process's own count over its own window, added."""
    refused: float
    took: list[float]


async def one_run(url: str, processes: int, load: str, args: argparse.Namespace) -> Outcome:
    per_slot = 1 + args.spares
    games = args.games
    if load == "own":
        ids = await new_games(url, games * per_slot * processes)
        size = games * per_slot
        jobs = [slots_of(ids[i * size : (i + 1) * size], games) for i in range(processes)]
    else:
        jobs = [slots_of(await new_games(url, games * per_slot), games)] * processes
    gap = games / args.rate if args.pace == "rate" else 0.0
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--worker",
            json.dumps({"url": url, "slots": job, "seconds": args.seconds, "gap": gap}),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for job in jobs
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            if (await proc.stdout.readline()).strip() != b"ready":
                raise SystemExit("a worker failed to start")
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(b"go\n")
            await proc.stdin.drain()
        rate, refused, took = 0.0, 0.0, []
        for proc in procs:
            out, _ = await proc.communicate()
            if proc.returncode:
                raise SystemExit(f"a worker failed ({proc.returncode})")
            result = json.loads(out.decode().strip().splitlines()[-1])
            rate += len(result["took"]) / result["elapsed"]
            refused += result["refused"] / result["elapsed"]
            took += result["took"]
    finally:
        for proc in procs:
            await end(proc)
    return Outcome(rate, refused, took)


class Databases:
    """A new database per run: a SQLite file (FULL), or one on the PostgreSQL server."""

    def __init__(self, pg_url: str, folder: Path) -> None:
        self.postgres = PostgresDatabases(pg_url)
        self.folder = folder
        self._files = 0

    def create(self, backend: str) -> str:
        if backend == "postgresql":
            return self.postgres.create(durable=True)
        self._files += 1
        return f"sqlite+aiosqlite:///{self.folder / f'scale-{self._files}.db'}"

    def drop(self, backend: str, url: str) -> None:
        if backend == "postgresql":
            self.postgres.drop(url)


CASES = [("sqlite", 1, "own"), ("postgresql", 1, "own"), ("postgresql", 2, "own"),
         ("postgresql", 2, "cross")]  # fmt: skip


async def report(args: argparse.Namespace, databases: Databases) -> None:
    pace = "as fast as commits allow" if args.pace == "max" else f"{args.rate}/s per process"
    print(
        f"Scale: real moves of the four games through Host.act, {args.games} games per process"
        f" ({args.games} in all for cross), {pace}, {args.seconds:g} s windows, median of"
        f" {args.runs} runs"
    )
    print(
        f"{'database':<12}{'procs':>6}{'load':>7}{'actions/s':>11}{'runs':>20}{'× 1 proc':>10}"
        f"{'× SQLite':>10}{'act p50':>9}{'p99':>8}{'refused/s':>11}   (ms)"
    )
    single: dict[str, float] = {}
    for backend, processes, load in CASES:
        if backend not in args.databases:
            continue
        outcomes = []
        for _ in range(args.runs):
            url = await asyncio.to_thread(databases.create, backend)
            try:
                if backend == "sqlite":
                    await (await Store.open(url)).close()  # at head before the games
                outcomes.append(await one_run(url, processes, load, args))
            finally:
                await asyncio.to_thread(databases.drop, backend, url)
        rates = [o.committed for o in outcomes]
        median = statistics.median(rates)
        if processes == 1:
            single[backend] = median
        runs = ", ".join(f"{r:.0f}" for r in rates)
        took = [t for o in outcomes for t in o.took]
        per_run50 = statistics.median(pct(o.took, 0.5) for o in outcomes) * 1e3
        per_run99 = statistics.median(pct(o.took, 0.99) for o in outcomes) * 1e3
        refused = statistics.median(o.refused for o in outcomes)
        one = median / single[backend] if backend in single else float("nan")
        vs = median / single["sqlite"] if "sqlite" in single and processes == 1 else float("nan")
        print(
            f"{backend:<12}{processes:>6}{load:>7}{median:>11.0f}{runs:>20}{one:>10.2f}"
            f"{vs:>10.2f}{per_run50:>9.2f}{per_run99:>8.2f}{refused:>11.0f}"
        )
        del took
    print(
        f"(latency: median over runs of each run's p50 and p99; machine: {os.cpu_count()} cores,"
        " shared with other work)"
    )


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        asyncio.run(worker(json.loads(sys.argv[2])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL") or LOCAL)
    parser.add_argument("--games", type=int, default=200, help="games playing per process")
    parser.add_argument("--spares", type=int, default=1, help="games per slot after the first")
    parser.add_argument("--pace", choices=["max", "rate"], default="max")
    parser.add_argument("--rate", type=float, default=1000.0, help="actions/s per process")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--databases", nargs="+", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"]
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        databases = Databases(args.url, Path(folder))
        try:
            asyncio.run(report(args, databases))
        finally:
            databases.postgres.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
