"""Running as some of the bot's shards: ``python -m bot --shards 0-3 --shard-count 8``.

A big bot runs as several processes over one PostgreSQL store, each with a range of shards;
Discord sends each shard the events of its guilds (``(guild_id >> 22) % shard_count``) and DMs
to shard 0. Any process may so get a click for any game: the host's game lock and reload make
that safe (P-36). What this module adds is the bot itself and its IDENTIFYs, which every
process takes in turn through the store (one per rate-limit bucket per ``IDENTIFY_WINDOW``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

from ..settings import Settings
from .client import BugtableBot

log = logging.getLogger(__name__)


class ShardedBugtableBot(BugtableBot, commands.AutoShardedBot):
    """bugtable on the shards ``shard_ids`` of ``shard_count``."""

    def __init__(
        self, settings: Settings, shard_ids: list[int], shard_count: int, **options: Any
    ) -> None:
        super().__init__(settings, shard_ids=shard_ids, shard_count=shard_count, **options)
        self.max_concurrency = 1

    async def setup_hook(self) -> None:
        await super().setup_hook()
        try:  # how many shards may IDENTIFY at once (Discord's session start limit)
            _, _, limits = await self.http.get_bot_gateway()
            self.max_concurrency = max(1, int(limits.get("max_concurrency", 1)))
        except (discord.HTTPException, discord.GatewayNotFound, KeyError, TypeError, ValueError):
            log.warning("session start limit unknown: one IDENTIFY at a time")
        log.info(
            "running shards %s of %s (max_concurrency %s)",
            self.shard_ids,
            self.shard_count,
            self.max_concurrency,
        )

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's IDENTIFY slot, shared with every other process on the store."""
        window = self.settings.identify_window
        if not self.store.shared:  # one process: discord.py's own spacing
            if not initial:
                await asyncio.sleep(window)
            return
        bucket = (shard_id or 0) % self.max_concurrency
        async with self.store.identify_slot(bucket, window):
            log.info("shard %s may IDENTIFY (bucket %s)", shard_id, bucket)


def make_bot(settings: Settings, **options: Any) -> BugtableBot:
    """The bot ``settings`` ask for: sharded when SHARD_COUNT is set, else one plain client."""
    shards = settings.shards()
    if shards is None or settings.shard_count is None:
        return BugtableBot(settings, **options)
    return ShardedBugtableBot(settings, shards, settings.shard_count, **options)
