"""Host speed in-process: what committing an action costs next to the engine applying it.

Per game: random legal play through ``Host.act`` on a temporary SQLite file or PostgreSQL
database (every action committed and durable before ``act`` returns), then the same log replayed on a bare engine; prints
the median and p99 of ``engine.apply`` and of ``Host.act``, the ratio, and the goal of issue 12
(act median ≤ 3 × apply + 0.3 ms, p99 ≤ 5 ms). Then committed actions per second with 1, 20 and
200 games playing at once in one process, and how many actions each SQLite transaction held.
``--compare`` runs the throughput part again without group commit (one transaction per action).
Each figure is measured with ``DATABASE_SYNCHRONOUS=FULL`` (the default: one fsync per committed
group) and with ``NORMAL`` beside it, and on PostgreSQL (``PG``: a database of its own on the
``--postgres`` server, ``synchronous_commit=on``), in turn in the same run.

First, the disk's own floor in the same run: a bare SQLite COMMIT of one row in each mode,
back to back and 50 ms apart (``disk_floor``), which no code of the bot's can go under.

Run by hand: `.venv/bin/python bench/host.py [--actions 400] [--seconds 5] [--compare]`.
The machine is noisy: quote medians and ratios, and run it twice.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.play import Clock, new_table, settings, step
from bot.host.host import Host
from bot.host.table import Table
from bot.store import Store
from bot.store.writer import WAL_WORKING_SIZE
from rules import GAMES
from tests.support.databases import LOCAL, PostgresDatabases

GAMES_PER_PLAYER_SECOND = 40
"""Games opened in advance per player and second of the window, over ``games`` players: a
lone player gets through a short game in a few ms, so it needs many; enough that none runs out
before the window ends (the bench says so if one does)."""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


SYNCHRONOUS = ["FULL"]
"""The SQLite fsync policy of the stores being opened now (each mode in turn), or ``PG``: a
database of its own on the PostgreSQL server (``synchronous_commit=on``, its default)."""
POSTGRES: list[PostgresDatabases] = []
"""The PostgreSQL server's databases, when ``PG`` is measured."""


@contextlib.asynccontextmanager
async def opened(tmp: Path, name: str, *, group: bool = True) -> AsyncIterator[Store]:
    """A new store of the mode measured now (``SYNCHRONOUS[0]``), closed (and dropped) after."""
    mode = SYNCHRONOUS[0]
    if mode == "PG":
        url = await asyncio.to_thread(POSTGRES[0].create, durable=True)
        store = await Store.open(url, migrate=False, group_commit=group)
    else:
        url = f"sqlite+aiosqlite:///{tmp / f'{name}-{mode}.db'}"
        store = await Store.open(url, group_commit=group, synchronous=mode)
    try:
        yield store
    finally:
        await store.close()
        if mode == "PG":
            await asyncio.to_thread(POSTGRES[0].drop, url)


async def per_game(
    slug: str, actions: int, tmp: Path
) -> tuple[list[float], list[float], list[float]]:
    """(apply seconds, act seconds, seconds of the acts that ended a game) over about
    ``actions`` committed moves of ``slug``. A game's last move also writes its results and
    ratings (another, heavier path), so it is counted apart."""
    async with opened(tmp, slug) as store:
        return await _per_game(store, slug, actions)


async def _per_game(
    store: Store, slug: str, actions: int
) -> tuple[list[float], list[float], list[float]]:
    clock = Clock()
    host = Host(store, settings(), clock=clock)
    rng = random.Random(7)
    acts: list[float] = []
    ends: list[float] = []
    tables: list[Table] = []
    try:
        channel = 0
        while len(acts) < actions:
            channel += 1
            cls = GAMES[slug]
            table = await new_table(host, slug, channel, cls.max_players)
            tables.append(table)
            while not table.running().is_over and len(acts) < actions:
                took = await step(host, table, clock, rng)
                if took is not None:
                    (ends if table.running().is_over else acts).append(took)
        applies: list[float] = []
        for table in tables:  # the same logs on bare engines: what the engine alone costs
            record = table.game
            engine = table.engine_cls.new(table.running().players, record.seed, record.options)
            for entry in await store.actions(table.id):
                started = time.perf_counter()
                engine.apply(entry.seat, entry.action)
                applies.append(time.perf_counter() - started)
    finally:
        await host.close()
    return applies, acts, ends


async def throughput(
    games: int, seconds: float, tmp: Path, *, group: bool
) -> tuple[float, float, list[float]]:
    """(committed actions per second, actions per transaction, each commit's seconds in
    ``Host.act``) with ``games`` playing at once. The rate counts only the window in which every
    player was still playing: a player whose games all ended before the deadline stops early,
    and the actions after that are left out of the rate, so it is always ``games`` at once."""
    async with opened(tmp, f"tp-{games}-{group}", group=group) as store:
        return await _throughput(store, games, seconds)


async def _throughput(store: Store, games: int, seconds: float) -> tuple[float, float, list[float]]:
    clock = Clock()
    host = Host(store, settings(), clock=clock)
    slugs = sorted(GAMES)
    commits: list[float] = []
    """When each action was committed (``perf_counter``)."""
    stopped: list[float] = []
    """When each player stopped: its deadline, or its last game's end."""
    acts: list[float] = []
    try:
        # Games are opened before the clock starts (lobbies are another write path): enough
        # for each player to go on to the next when one ends.
        pool = 4 + math.ceil(GAMES_PER_PLAYER_SECOND * seconds / games)
        pools = [
            [
                await new_table(
                    host,
                    slugs[i % len(slugs)],
                    i * pool + n + 1,
                    GAMES[slugs[i % len(slugs)]].max_players,
                )
                for n in range(pool)
            ]
            for i in range(games)
        ]

        async def play(i: int, until: float) -> None:
            rng = random.Random(i)
            try:
                for table in pools[i]:
                    while not table.running().is_over:
                        if time.perf_counter() >= until:
                            return
                        took = await step(host, table, clock, rng)
                        if took is not None:
                            commits.append(time.perf_counter())
                            acts.append(took)
            finally:
                stopped.append(time.perf_counter())

        until = time.perf_counter() + seconds
        groups_before = store.group_commits or 0
        started = time.perf_counter()
        await asyncio.gather(*(play(i, until) for i in range(games)))
        groups = (store.group_commits or 0) - groups_before
    finally:
        await host.close()
    window = min(stopped) - started
    done = sum(1 for at in commits if at <= started + window)
    if window < seconds * 0.9:
        print(f"  (a player ran out of games after {window:.1f} s: open more games per player)")
    return done / window, (len(commits) / groups if groups else 1.0), acts


def disk_floor(path: Path, mode: str, commits: int = 400, gap: float = 0.0) -> list[float]:
    """Seconds of each of ``commits`` bare SQLite COMMITs of one small row, no bot code: WAL,
    ``synchronous`` as ``mode``, the log first grown to its working size as the store grows
    it (``SQLiteWriter.presize_wal``), ``gap`` seconds between two. Under ``FULL`` this is the
    disk's fsync, the part of a committed action no code of the bot's can make shorter (P-37);
    on a virtual disk it is slower when commits are spaced, as a quiet game's clicks are, than
    back to back, as the per-game figures below are."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body BLOB)")
        conn.execute("PRAGMA synchronous=OFF")
        for _ in range(WAL_WORKING_SIZE // 4096):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (body) VALUES (?)", (b"x" * 200,))
            conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        conn.execute(f"PRAGMA synchronous={mode}")
        took: list[float] = []
        for _ in range(commits):
            if gap:
                time.sleep(gap)
            started = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (body) VALUES (?)", (b"x" * 200,))
            conn.execute("COMMIT")
            took.append(time.perf_counter() - started)
        return took
    finally:
        conn.close()


async def main_async(args: argparse.Namespace) -> None:
    modes = ["FULL", "NORMAL"] if args.synchronous == "both" else [args.synchronous]
    if args.postgres != "none":
        POSTGRES.append(PostgresDatabases(args.postgres))
        modes.append("PG")
    print(
        f"SQLite with DATABASE_SYNCHRONOUS {' and '.join(m for m in modes if m != 'PG')}"
        + (", and PostgreSQL (PG, synchronous_commit=on)" if "PG" in modes else "")
        + ", in turn"
    )
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        warm = tmp / "warm"
        warm.mkdir()
        for slug in sorted(GAMES):  # warm-up: imports and first statements are not a click
            await per_game(slug, 30, warm)
        floors: dict[str, float] = {}
        """Each SQLite mode's bare COMMIT, back to back (ms, p50)."""
        for mode in (m for m in modes if m != "PG"):
            floor = disk_floor(tmp / f"floor-{mode}.db", mode)
            floors[mode] = statistics.median(floor) * 1e3
            spaced = disk_floor(tmp / f"spaced-{mode}.db", mode, commits=40, gap=0.05)
            print(
                f"the disk's floor: a bare SQLite COMMIT of one row under {mode} here (no bot"
                f" code), back to back p50 {statistics.median(floor) * 1e3:.3f} ms, p99"
                f" {pct(floor, 0.99) * 1e3:.3f} ms; 50 ms apart p50"
                f" {statistics.median(spaced) * 1e3:.3f} ms"
            )
        print(
            f"{'game':<13}{'sync':<8}{'apply p50':>10}{'p99':>8}{'act p50':>9}{'p99':>8}"
            f"{'act/apply':>10}{'goal p50':>10}{'ok':>4}{'last p50':>10}{'n':>5}   (ms)"
        )
        beyond: dict[tuple[str, str], float] = {}
        """(game, mode) → act p50 less the mode's bare COMMIT (ms): the bot's own part."""
        for slug in sorted(GAMES):
            for mode in modes:
                SYNCHRONOUS[0] = mode
                applies, acts, ends = await per_game(slug, args.actions, tmp)
                a50, a99 = statistics.median(applies) * 1e3, pct(applies, 0.99) * 1e3
                h50, h99 = statistics.median(acts) * 1e3, pct(acts, 0.99) * 1e3
                if mode in floors:
                    beyond[slug, mode] = h50 - floors[mode]
                goal = 3 * a50 + 0.3
                ok = "yes" if h50 <= goal and h99 <= 5 else "no"
                last = statistics.median(ends) * 1e3 if ends else float("nan")
                print(
                    f"{slug:<13}{mode:<8}{a50:>10.3f}{a99:>8.3f}{h50:>9.3f}{h99:>8.3f}"
                    f"{h50 / a50:>10.1f}{goal:>10.3f}{ok:>4}{last:>10.3f}{len(ends):>5}"
                )
        print(
            f"(one game at a time; about {args.actions} committed actions per game; goal: act p50"
            " ≤ 3 × apply p50 + 0.3 ms and p99 ≤ 5 ms; a game's last move, which also writes its"
            " results and ratings, is counted apart: 'last p50' over 'n' games)"
        )
        if "FULL" in floors and "NORMAL" in floors:
            # The same moves and statements either way: what differs past the sync itself is
            # how fast the same code runs right after the thread slept through an fsync.
            parts = ", ".join(
                f"{slug} {beyond[slug, 'FULL']:.3f} vs {beyond[slug, 'NORMAL']:.3f} ms"
                f" ({beyond[slug, 'FULL'] / beyond[slug, 'NORMAL']:.2f}x)"
                for slug in sorted(GAMES)
            )
            print(
                "act p50 less the bare COMMIT of its mode, FULL vs NORMAL (the same code and"
                f" statements; under FULL they run after each fsync's sleep): {parts}"
            )
        print()
        commits = [True, False] if args.compare else [True]
        print(
            f"{'games at once':<15}{'sync':<8}{'commit':<14}{'actions/s':>11}{'actions/txn':>13}"
            f"{'act p50':>9}{'p99':>8}   (ms)"
        )
        for games in (1, 20, 200):
            for group in commits:
                for mode in modes:
                    SYNCHRONOUS[0] = mode
                    rate, per_txn, acts = await throughput(games, args.seconds, tmp, group=group)
                    kind = "group" if group else "one by one"
                    p50, p99 = statistics.median(acts) * 1e3, pct(acts, 0.99) * 1e3
                    print(
                        f"{games:<15}{mode:<8}{kind:<14}{rate:>11.0f}{per_txn:>13.1f}"
                        f"{p50:>9.3f}{p99:>8.3f}"
                    )
        print(f"({args.seconds:.0f} s each, random play of every game, one process)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--compare", action="store_true", help="also without group commit")
    parser.add_argument(
        "--synchronous",
        choices=["both", "FULL", "NORMAL"],
        default="both",
        help="DATABASE_SYNCHRONOUS to measure: FULL (the default), NORMAL, or both in turn (P-37)",
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TEST_DATABASE_URL") or LOCAL,
        help="PostgreSQL server measured beside SQLite (none: SQLite only)",
    )
    args = parser.parse_args()
    try:
        asyncio.run(main_async(args))
    finally:
        for databases in POSTGRES:
            databases.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
