"""What the host benches share: a wall clock that jumps to deadlines, bench settings, opening a
game as members would, and one random legal move of any of the four games."""

from __future__ import annotations

import contextlib
import random
import time
from datetime import UTC, datetime, timedelta

from bot.host.errors import HostError
from bot.host.host import Host
from bot.host.table import Table
from bot.settings import Settings
from bot.store import StoreError
from rules import GAMES
from rules.core import RuleError

SHIPPED = sorted(GAMES)
"""The four games (``rules`` alone registers no test game)."""


class Clock:
    """Wall time that moves only when a bench jumps to a deadline (no timer fires alone)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def settings() -> Settings:
    # No pacing gaps (the benches measure the write path, not Bag of Bugs' reveal spacing), and
    # no stand-ins: clocks running out in real time while hundreds of games are set up must
    # not hand the bench's seats to bots.
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="t" * 30, timers={"bag_min_gap": 0.0}, afk_limit=0
    )


async def new_table(host: Host, slug: str, channel: int, players: int) -> Table:
    """A game of ``slug`` opened, joined by ``players`` members and started."""
    first = channel * 10
    table = await host.open(slug, guild_id=1, channel_id=channel, user_id=first, name="p0")
    for n in range(1, players):
        await host.join(table.id, first + n, f"p{n}")
    return await host.start(table.id, first)


async def step(host: Host, table: Table, clock: Clock, rng: random.Random) -> float | None:
    """One random legal move of a seat the game waits on, sent with its turn as a button carries
    it (or, if only a deadline can move the game, the clock jumps to it and it fires): the
    seconds the commit took in ``Host.act`` / ``fire_timer``, None if nothing was committed (a
    refusal: a race lost to another process)."""
    engine = table.running()
    movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
    if movers:
        seat = rng.choice(movers)
        action = rng.choice(engine.legal_actions(seat))
        user = table.user_at(seat).user_id
        started = time.perf_counter()
        with contextlib.suppress(RuleError, HostError, StoreError):
            await host.act(table.id, user, action, turn=engine.turn)
            return time.perf_counter() - started
        return None
    if table.timers:
        key, due = min(table.timers.items(), key=lambda kv: kv[1])
        clock.now = max(clock.now, due) + timedelta(microseconds=1)
        started = time.perf_counter()
        if await host.fire_timer(table.id, key) is not None:
            return time.perf_counter() - started
    return None
