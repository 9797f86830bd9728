"""Fixtures for host tests: a real store (``db_url``: SQLite, then PostgreSQL; tests/conftest.py)
and a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import tests.support.testgame  # noqa: F401  (registers Ladybug Dash)
from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store
from tests.support.clock import ManualClock

FakeClock = ManualClock
"""Wall time and the scheduler's sleeping, both moved by the test (``advance``)."""


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
    host = Host(store, settings, clock=clock, sleep=clock.sleep)
    yield host
    await host.close()
