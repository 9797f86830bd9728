"""Where a FULL commit's time goes: the sync itself, and the processor going idle while it waits.

``Host.act`` under ``DATABASE_SYNCHRONOUS=FULL`` costs more than ``NORMAL`` plus the sync: on a
virtual machine whose processor halts while the thread waits for the disk, everything after the
wait (and the next action's work) runs slower. This bench separates the two, per game, with
random legal play through ``Host.act`` on a temporary SQLite file (as ``bench/host.py``):

- ``NORMAL``: no sync (the floor of the host's own work);
- ``+ spin``: ``NORMAL``, then after each COMMIT a busy wait as long as a sync takes here;
- ``+ sleep``: the same wait, sleeping (the processor may go idle);
- ``+ sync``: the same COMMIT, then an ``fdatasync`` of the write-ahead log (what ``FULL`` does);
- ``FULL``: SQLite's own sync at each COMMIT.

For each: ``act`` p50, the added wait's p50, and ``act`` minus that wait: the host's own work,
which stays as in ``NORMAL`` when the processor keeps busy (spin) and grows when it goes idle
(sleep, sync, FULL). Against the goal of issue #25 (``act`` p50 ≤ 3 × ``apply`` + 0.3 ms).

Run by hand: `.venv/bin/python bench/sync_wake.py [--actions 600] [--games bug-off,...]`.
The machine is noisy: quote medians and ratios, and run it twice.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench.host as host_bench
from bot.store import writer
from rules import GAMES

MODES = ("NORMAL", "+ spin", "+ sleep", "+ sync", "FULL")


class _Waits:
    """What runs after each COMMIT of the writer's own connections, and how long it took."""

    def __init__(self) -> None:
        self.after: Callable[[str], None] | None = None
        self.took: list[float] = []


WAITS = _Waits()


class _Connection(sqlite3.Connection):
    """The writer's connection, with ``WAITS.after`` run after each COMMIT."""

    def __init__(self, path: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(path, *args, **kwargs)
        self.path = str(path)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        cursor = super().execute(sql, *args)
        if sql == "COMMIT" and WAITS.after is not None:
            started = time.perf_counter()
            WAITS.after(self.path)
            WAITS.took.append(time.perf_counter() - started)
        return cursor


def _sync(path: str) -> None:
    fd = os.open(f"{path}-wal", os.O_RDONLY)
    try:
        os.fdatasync(fd)
    finally:
        os.close(fd)


def _spin(seconds: float) -> Callable[[str], None]:
    def wait(_: str) -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            pass

    return wait


def _sleep(seconds: float) -> Callable[[str], None]:
    return lambda _: time.sleep(seconds)


def sync_seconds(tmp: Path, rounds: int = 300) -> float:
    """The median time of writing one page to a file and syncing it, on this disk."""
    path = tmp / "probe"
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, b"\0" * (1 << 20))
        os.fsync(fd)
        took = []
        for i in range(rounds):
            started = time.perf_counter()
            os.pwrite(fd, b"x" * 4096, (i % 200) * 4096)
            os.fdatasync(fd)
            took.append(time.perf_counter() - started)
    finally:
        os.close(fd)
    return statistics.median(took)


async def measure(slug: str, mode: str, actions: int, tmp: Path, wait: float) -> tuple[float, ...]:
    """(apply p50, act p50, added wait p50) in ms for ``mode``."""
    WAITS.took = []
    WAITS.after = {
        "+ spin": _spin(wait),
        "+ sleep": _sleep(wait),
        "+ sync": _sync,
    }.get(mode)
    host_bench.SYNCHRONOUS[0] = "FULL" if mode == "FULL" else "NORMAL"
    folder = tmp / f"{slug}-{MODES.index(mode)}"
    folder.mkdir()
    try:
        applies, acts, _ = await host_bench.per_game(slug, actions, folder)
    finally:
        WAITS.after = None
    added = statistics.median(WAITS.took) if WAITS.took else 0.0
    return statistics.median(applies) * 1e3, statistics.median(acts) * 1e3, added * 1e3


async def main_async(args: argparse.Namespace) -> None:
    games = args.games.split(",") if args.games else sorted(GAMES)
    connect = sqlite3.connect
    writer.sqlite3.connect = lambda *a, **k: connect(*a, **{**k, "factory": _Connection})  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            wait = sync_seconds(tmp)
            print(f"one page written and synced on this disk: {wait * 1e3:.3f} ms (p50)")
            warm = tmp / "warm"
            warm.mkdir()
            await host_bench.per_game(games[0], 50, warm)
            print(
                f"{'game':<13}{'mode':<9}{'apply p50':>10}{'act p50':>9}{'wait p50':>10}"
                f"{'act-wait':>10}{'goal':>8}   (ms)"
            )
            for slug in games:
                for mode in MODES:
                    apply, act, added = await measure(slug, mode, args.actions, tmp, wait)
                    goal = 3 * apply + 0.3
                    print(
                        f"{slug:<13}{mode:<9}{apply:>10.3f}{act:>9.3f}{added:>10.3f}"
                        f"{act - added:>10.3f}{goal:>8.3f}"
                    )
    finally:
        writer.sqlite3.connect = connect  # type: ignore[assignment]
    print(
        "(one game at a time, random legal play; 'wait': what was added after each COMMIT; "
        "'act-wait': the host's own work; FULL's sync is inside its COMMIT, so its wait is 0)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    asyncio.run(main_async(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
