"""End-to-end speed through the emulator, with the bot as a separate process.

Measures interaction → acknowledgement latency (median, p99) and sustained clicks per second for
(a) a no-op button ("My hand": reads state, writes nothing) and (b) a real game action that is
committed to the database before it is acknowledged (Ladybug Dash's "cheer"), in the same run,
and prints the ratio b/a. Several channels play at once to load the bot; in both phases both
players of every table click in a loop, so the two are measured at the same concurrency. By
default it runs with 4 channels and again with 50 (a fresh bot each time).

Run by hand: `.venv/bin/python bench/e2e.py [--channels 4,50] [--seconds 10]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.emulator import Emulator  # noqa: E402
from tests.e2e.conftest import TOKEN, BotProcess  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def timed_click(
    emu: Emulator, user: Any, message: Any, custom_id: str, out: list[float]
) -> Any:
    started = time.perf_counter()
    result = await emu.click(user, message, custom_id)
    if result.acknowledged and not result.failed:
        out.append(time.perf_counter() - started)
    return result


async def start_table(emu: Emulator, channel: Any, users: list[Any]) -> Any:
    result = await emu.slash(users[0], channel, "bugs new ladybug-dash")
    board = await result.wait_message()
    for user in users[1:]:
        await emu.click(user, board, board.find_button(label="Join").custom_id)
    await emu.wait_for(lambda: not board.find_button(label="Start").disabled, timeout=10)
    await emu.click(users[0], board, board.find_button(label="Start").custom_id)
    await emu.wait_for(lambda: board.has_button(label="claim"), timeout=10)
    return board


async def noop_loop(emu: Emulator, board: Any, user: Any, until: float, out: list[float]) -> int:
    clicks = 0
    while time.perf_counter() < until:
        await timed_click(emu, user, board, board.find_button(label="My hand").custom_id, out)
        clicks += 1
    return clicks


async def cheer_loop(emu: Emulator, board: Any, user: Any, until: float, out: list[float]) -> int:
    """Ladybug Dash's "cheer": a real action, checked, applied and committed before the ack."""
    clicks = 0
    while time.perf_counter() < until:
        await timed_click(emu, user, board, board.find_button(label="cheer").custom_id, out)
        clicks += 1
    return clicks


async def measure(channels: int, seconds: float) -> None:
    emu = Emulator(token=TOKEN)
    await emu.start()
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(
            emu, Path(tmp), board_edit_interval=0.75, log_level="WARNING"
        )  # production default
        await bot.start()
        try:
            guild = emu.add_guild("bench")
            tables = []
            for i in range(channels):
                chan = emu.add_text_channel(guild, f"t{i}")
                users = [emu.add_user(f"u{i}a"), emu.add_user(f"u{i}b")]
                tables.append((chan, users))
            # (a) no-op: both players of every table press My hand in a loop.
            boards = [await start_table(emu, c, u) for c, u in tables]
            noop: list[float] = []
            until = time.perf_counter() + seconds
            started = time.perf_counter()
            counts = await asyncio.gather(
                *(
                    noop_loop(emu, b, user, until, noop)
                    for b, (_, users) in zip(boards, tables, strict=True)
                    for user in users
                )
            )
            noop_rate = sum(counts) / (time.perf_counter() - started)
            # (b) committed game actions, both players of every table cheering at once.
            acts: list[float] = []
            until = time.perf_counter() + seconds
            started = time.perf_counter()
            counts = await asyncio.gather(
                *(
                    cheer_loop(emu, b, user, until, acts)
                    for b, (_, users) in zip(boards, tables, strict=True)
                    for user in users
                )
            )
            act_rate = sum(counts) / (time.perf_counter() - started)
        finally:
            await bot.stop()
            await emu.stop()

    def row(name: str, lat: list[float], rate: float) -> str:
        return (
            f"{name:<28}{statistics.median(lat) * 1000:>10.2f}{pct(lat, 0.99) * 1000:>10.2f}"
            f"{rate:>12.1f}{len(lat):>9}"
        )

    print(f"{'':<28}{'p50 ms':>10}{'p99 ms':>10}{'clicks/s':>12}{'clicks':>9}")
    print(row("(a) no-op (My hand)", noop, noop_rate))
    print(row("(b) game action (commit)", acts, act_rate))
    print(
        f"ratio b/a: latency p50 {statistics.median(acts) / statistics.median(noop):.2f}×, "
        f"p99 {pct(acts, 0.99) / pct(noop, 0.99):.2f}×, throughput {act_rate / noop_rate:.2f}×"
    )
    print(
        f"({channels} channels in parallel, {2 * channels} clickers in each phase, "
        f"{seconds:.0f} s per phase, bot in its own process)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--channels", default="4,50", help="comma-separated runs")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for channels in (int(c) for c in args.channels.split(",")):
        asyncio.run(measure(channels, args.seconds))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
