"""Whole games played through a real Host (and so stored as the bot stores them), and a client
for the game pages' app, for the web tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp.test_utils import TestClient, TestServer

from bot.host.host import Host
from bot.host.table import Table
from bot.web.replays import Replays
from bot.web.server import build_app
from rules.core import Rng

FIRST_USER = 100
NAMES = ("Ann", "Bo <b>", "Cy & co", "Di", "Ed", "Flo")
"""Seat names; two carry HTML metacharacters, which the pages must show as typed."""


async def open_game(
    host: Host,
    slug: str,
    players: int,
    *,
    channel: int,
    options: dict[str, str] | None = None,
) -> Table:
    table = await host.open(
        slug,
        guild_id=1,
        channel_id=channel,
        user_id=FIRST_USER,
        name=NAMES[0],
        options=options,
    )
    for seat in range(1, players):
        await host.join(table.id, FIRST_USER + seat, NAMES[seat])
    return await host.start(table.id, FIRST_USER)


async def play(
    host: Host, table: Table, rng: Rng, *, moves: int | None = None, timer_chance: float = 0.05
) -> None:
    """Random legal moves by the seated players, and now and then (or when nobody can move) a
    deadline fired as the host would: until the game ends, or for ``moves`` moves."""
    done = 0
    while not table.running().is_over and (moves is None or done < moves):
        engine = table.running()
        movers = [s for s in sorted(engine.waiting_for()) if engine.legal_actions(s)]
        deadlines = [d for d in engine.deadlines() if d.key in table.timers]
        if deadlines and (not movers or rng.random() < timer_chance):
            await host.fire_timer(table.id, rng.choice(deadlines).key)
        elif movers:
            seat = rng.choice(movers)
            action = rng.choice(engine.legal_actions(seat))
            await host.act(table.id, table.user_at(seat).user_id, action, turn=engine.turn)
        else:
            raise AssertionError(f"{table.slug}: nobody can move and no deadline is pending")
        done += 1


@asynccontextmanager
async def web_client(replays: Replays) -> AsyncIterator[TestClient[object, object]]:
    async with TestClient(TestServer(build_app(replays))) as client:
        yield client
