"""Two hosts on one database, each with its own store: what two bot processes have."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store


@asynccontextmanager
async def two_hosts_on(url: str, settings: Settings) -> AsyncIterator[tuple[Host, Host]]:
    """Two hosts on ``url`` (the first store migrates it); closed in the order a shutdown
    closes them: the hosts, then their stores."""
    first, second = await Store.open(url), await Store.open(url, migrate=False)
    pair = Host(first, settings), Host(second, settings)
    try:
        yield pair
    finally:
        for host in pair:
            await host.close()
        await first.close()
        await second.close()
