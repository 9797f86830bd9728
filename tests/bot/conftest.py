"""Fixtures for host tests: a real store (``db_url``: SQLite, then PostgreSQL; tests/conftest.py)
and a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

import tests.support.testgame  # noqa: F401  (registers Ladybug Dash)
from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store


class FakeClock:
    """Wall time the tests can move forward."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def settings() -> Settings:
    return Settings(_env_file=None, discord_token="t" * 30)  # type: ignore[call-arg]


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    store = await Store.open(db_url)
    yield store
    await store.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def host(store: Store, settings: Settings, clock: FakeClock) -> AsyncIterator[Host]:
    host = Host(store, settings, clock=clock)
    yield host
    await host.close()
