"""The bot as its operator's port sees it (``bot.ops``): what kind each interaction is, when
it was first answered, what the metrics read at scrape time, and whether it is ready."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from ..ops.metrics import GameCount, Metrics, Readings
from ..ops.server import Readiness

if TYPE_CHECKING:
    from .client import BugtableBot

CALLBACK = re.compile(r"/interactions/(?P<id>\d+)/[^/]+/callback")
DATABASE_TIMEOUT = 2.0
"""Seconds /readyz waits for the database before it says the database does not answer."""


def interaction_kind(interaction: discord.Interaction[Any]) -> str:
    """``command:bugs new``, ``button:game``, ``button:<host op>``, ``select:game`` or
    ``other``: few values, and none names a member or a secret."""
    data: dict[str, Any] = dict(interaction.data or {})
    if interaction.type is discord.InteractionType.application_command:
        names = [str(data.get("name", ""))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):  # subcommand (group)
            names.append(str(options[0].get("name", "")))
            options = options[0].get("options") or []
        return "command:" + " ".join(names)[:64]
    if interaction.type is discord.InteractionType.component:
        custom_id = str(data.get("custom_id", ""))
        if custom_id.startswith("g:"):
            return "button:game"
        if custom_id.startswith("s:"):
            return "select:game"
        if custom_id.startswith("r:"):
            return "button:rules"
        if custom_id.startswith("h:"):
            return "button:" + custom_id.rsplit(":", 1)[-1][:16]
    return "other"


class AckTimer:
    """Hears every REST answer (``limiter.RequestObserver``): counts it, and the first
    callback of an interaction is its acknowledgement, timed from when Discord made it."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def request_done(self, path: str, exempt: bool, status: int, scope: str | None) -> None:
        self.metrics.note_request(exempt, status, scope)
        match = CALLBACK.fullmatch(path)
        if match is not None and status < 300:
            interaction_id = int(match["id"])
            made = discord.utils.snowflake_time(interaction_id)
            seconds = (discord.utils.utcnow() - made).total_seconds()
            self.metrics.note_ack(interaction_id, max(0.0, seconds))


def readings(bot: BugtableBot) -> Readings:
    def games() -> Iterable[GameCount]:
        loaded: dict[str, int] = {}
        running: dict[str, int] = {}
        for table in bot.host.tables.values():
            loaded[table.slug] = loaded.get(table.slug, 0) + 1
            if table.status == "playing":
                running[table.slug] = running.get(table.slug, 0) + 1
        return [GameCount(slug, n, running.get(slug, 0)) for slug, n in sorted(loaded.items())]

    def gateway() -> Iterable[tuple[int, float]]:
        if isinstance(bot, discord.AutoShardedClient):
            return list(bot.latencies)
        return [(bot.shard_id or 0, bot.latency)]

    return Readings(
        games=games,
        timers_pending=bot.host.scheduler.count,
        commit_groups=lambda: bot.store.group_commits,
        refusals=bot.refusals.count,
        gateway=gateway,
    )


async def readiness(bot: BugtableBot) -> Readiness:
    """Ready: set up, every shard this process runs connected, and the database answering."""
    if bot.stopping:
        return Readiness(False, "stopping")
    if not bot.is_ready() or not hasattr(bot, "store"):
        return Readiness(False, "starting: not connected to the gateway yet")
    if isinstance(bot, discord.AutoShardedClient):
        down = sorted(i for i, shard in bot.shards.items() if shard.is_closed())
        if down:
            return Readiness(False, f"gateway not connected on shard(s) {down}")
    elif bot.ws is None or bot.is_closed():
        return Readiness(False, "gateway not connected")
    try:
        await asyncio.wait_for(bot.store.get_meta("readyz"), DATABASE_TIMEOUT)
    except Exception as exc:  # said in a word: the probe's log is no place for a stack
        return Readiness(False, f"database does not answer ({type(exc).__name__})")
    return Readiness(True, "ready")
