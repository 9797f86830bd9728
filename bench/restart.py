"""Restart speed with many unfinished games, and the memory a loaded idle game takes.

Builds a SQLite file with ``--games`` unfinished games (10,000 by default): a few hundred really
played through the host (random legal moves of every game, deadlines persisted), then copied in
SQL under new ids, channels and web tokens. Then, as a restarted bot does: opens the store,
``Host.restore()`` (deadlines noted, bot games loaded) and ``resume_timers()`` — the time until
it can answer clicks — and the first use of some games (load, log check, first act). Last, the
memory of idle loaded games, measured with tracemalloc.

Run by hand: `.venv/bin/python bench/restart.py [--games 10000] [--played 200]`. Quote medians.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from host import Clock, new_table, pct, settings, step

from bot.host.host import Host
from bot.store import Store
from rules import GAMES

TABLES = ("seats", "actions", "timers")


async def build(path: Path, played: int, games: int) -> None:
    """``played`` games through the host, then copies up to ``games`` unfinished ones."""
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    clock = Clock()
    host = Host(store, settings(), clock=clock)
    slugs = sorted(GAMES)
    try:
        for i in range(played):
            slug = slugs[i % len(slugs)]
            table = await new_table(host, slug, i + 1, GAMES[slug].max_players)
            rng = random.Random(i)
            for _ in range(rng.randrange(0, 60)):
                if table.running().is_over:
                    break
                await step(host, table, clock, rng)
    finally:
        await host.close()
        await store.close()
    db = sqlite3.connect(path, isolation_level=None)
    try:
        (stride,) = db.execute("SELECT max(id) FROM games").fetchone()
        copies = (
            games // db.execute("SELECT count(*) FROM games WHERE status = 'playing'").fetchone()[0]
        )
        columns = {t: [r[1] for r in db.execute(f"PRAGMA table_info({t})")] for t in TABLES}
        game_cols = [r[1] for r in db.execute("PRAGMA table_info(games)")]
        db.execute("BEGIN")
        for k in range(1, copies + 1):
            offset = k * stride
            select = ", ".join(
                f"id + {offset}" if c == "id"
                else f"channel_id + {offset * 1000}" if c == "channel_id"
                else "lower(hex(randomblob(12)))" if c == "web_token"
                else c
                for c in game_cols
            )  # fmt: skip
            db.execute(
                f"INSERT INTO games ({', '.join(game_cols)}) SELECT {select} FROM games "
                f"WHERE status = 'playing' AND id <= {stride}"
            )
            for table, cols in columns.items():
                picked = ", ".join(
                    f"game_id + {offset}" if c == "game_id" else "NULL" if c == "id" else c
                    for c in cols
                )
                db.execute(
                    f"INSERT INTO {table} ({', '.join(cols)}) SELECT {picked} FROM {table} "
                    f"WHERE game_id IN (SELECT id FROM games WHERE id <= {stride} "
                    "AND status = 'playing')"
                )
        db.execute("COMMIT")
    finally:
        db.close()


async def restart(path: Path, sample: int) -> None:
    url = f"sqlite+aiosqlite:///{path}"
    started = time.perf_counter()
    store = await Store.open(url)
    opened = time.perf_counter()
    host = Host(store, settings())
    loaded = await host.restore()
    host.resume_timers()
    ready = time.perf_counter()
    try:
        db = sqlite3.connect(path)
        ids = [r[0] for r in db.execute("SELECT id FROM games WHERE status = 'playing'")]
        timers = db.execute("SELECT count(*) FROM timers").fetchone()[0]
        logged = db.execute("SELECT count(*) FROM actions").fetchone()[0]
        db.close()
        print(f"{len(ids)} unfinished games, {logged} logged actions, {timers} deadlines")
        print(
            f"ready to answer clicks in {ready - started:.2f} s "
            f"(store open + migrate check {opened - started:.2f} s, restore + timers "
            f"{ready - opened:.2f} s; {len(loaded)} game(s) loaded at start)"
        )
        rng = random.Random(1)
        firsts: list[float] = []
        for game_id in rng.sample(ids, min(sample, len(ids))):
            t0 = time.perf_counter()
            await host.table(game_id)
            firsts.append(time.perf_counter() - t0)
        print(
            f"first use of a game (load snapshot + tail, replay check): median "
            f"{statistics.median(firsts) * 1e3:.2f} ms, p99 {pct(firsts, 0.99) * 1e3:.2f} ms "
            f"over {len(firsts)} games"
        )
        # Memory of idle loaded games: tables loaded with tracemalloc on.
        rest = [i for i in ids if i not in host.tables][: max(sample, 500)]
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for game_id in rest:
            await host.table(game_id)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
        print(f"memory per idle loaded game: {grown / len(rest) / 1024:.1f} kB over {len(rest)}")
    finally:
        await host.close()
        await store.close()


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "restart.db"
        t0 = time.perf_counter()
        await build(path, args.played, args.games)
        print(f"(built in {time.perf_counter() - t0:.1f} s)")
        await restart(path, args.sample)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--played", type=int, default=200)
    parser.add_argument("--sample", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
