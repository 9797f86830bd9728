"""Play a whole game through a Host: random legal moves by the seats, deadlines by the clock."""

from __future__ import annotations

import contextlib
import random
from datetime import datetime
from typing import Protocol

from bot.host.errors import HostError
from bot.host.host import Host
from bot.host.table import Table
from rules.core import RuleError


class Clock(Protocol):
    """The host's clock, which the test moves (``tests/bot/conftest.py``'s ``FakeClock``)."""

    now: datetime


async def open_and_start(
    host: Host, slug: str, players: int, *, channel_id: int, first_user: int = 1
) -> Table:
    """A started game of ``players`` members with user ids ``first_user``, ``first_user + 1``…"""
    table = await host.open(
        slug, guild_id=9, channel_id=channel_id, user_id=first_user, name=f"u{first_user}"
    )
    for user in range(first_user + 1, first_user + players):
        await host.join(table.id, user, f"u{user}")
    return await host.start(table.id, first_user)


async def play_out(
    host: Host, table: Table, clock: Clock, rng: random.Random, *, max_steps: int = 20_000
) -> None:
    """Moves by seats the game waits on; when none can move (or now and then), the clock jumps
    to the next deadline, which then fires."""
    for _ in range(max_steps):
        engine = table.running()
        if engine.is_over:
            return
        movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
        if movers and not (table.timers and rng.random() < 0.05):
            seat = rng.choice(movers)
            action = rng.choice(engine.legal_actions(seat))
            user_id = table.user_at(seat).user_id
            # A move that lost a race with a deadline is refused: play what comes next.
            with contextlib.suppress(RuleError, HostError):
                await host.act(table.id, user_id, action, turn=engine.turn)
            continue
        assert table.timers, f"{table.slug} waits on nobody and has no deadline"
        key, due = min(table.timers.items(), key=lambda kv: kv[1])
        clock.now = max(clock.now, due)
        await host.fire_timer(table.id, key)
    raise AssertionError(f"{table.slug} did not end within {max_steps} steps")
