"""Hypothesis profiles: ``dev`` (the default, quick) and ``ci`` (more examples), chosen by
``HYPOTHESIS_PROFILE``. Neither has a deadline: a loaded machine must not fail a test.

Also the database fixtures: ``db_url`` (a migrated database) and ``empty_db_url`` run each test
once on SQLite and once on PostgreSQL (see tests/support/databases.py); mark a test
``sqlite_only`` when what it checks exists only there.

And the order modules run in: longest first, from ``tests/module_times.json``
(tests/support/schedule.py); ``--record-module-times`` rewrites that file after a passing run.

And the games: the shipped ones and the test game, loaded as the bot loads them.

And at the session's end, on every worker: no process a test started is left running
(tests/support/leftovers.py); any that is, is killed and fails the run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from bot.games import load_game_modules
from tests.support import leftovers
from tests.support.databases import (
    BACKENDS,
    PostgresDatabases,
    SqliteDatabases,
    postgres_header,
    postgres_unavailable,
    postgres_url,
)
from tests.support.examples import PROFILE
from tests.support.schedule import TimeRecorder, load_times, longest_first

# Publishers made inside a test process draw their pictures in a thread: a picture process
# would outlive the test that started it (P-43). The bots the end-to-end tests start run the
# deployed default, a picture process (tests/e2e/conftest.py).
os.environ["PICTURE_PROCESSES"] = "0"

TEST_GAME_MODULES = "tests.support.testgame"
"""The test game, registered as the bots the end-to-end tests start register it (their
EXTRA_GAME_MODULES, tests/e2e/conftest.py): every test that goes over the registered games
(bot/games.py) goes over it too."""
load_game_modules(TEST_GAME_MODULES.split(","))

settings.register_profile(
    "dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(PROFILE)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-module-times",
        action="store_true",
        help="after a passing whole run, write tests/module_times.json (the run's order)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only(why): checks something only SQLite has; no PostgreSQL case"
    )
    leftovers.register(config)
    # Only where the reports arrive: the controller under pytest-xdist, or a plain run.
    if config.getoption("record_module_times") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(TimeRecorder(), "module-times")


def pytest_report_header(config: pytest.Config) -> str:
    """Which PostgreSQL the PostgreSQL cases use, or why they are skipped."""
    return postgres_header()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest modules first, the end-to-end ones after the rest (tests/support/schedule.py)."""
    e2e = Path(__file__).parent / "e2e"
    items[:] = longest_first(items, load_times(), config.rootpath, last=e2e)


@pytest.fixture(scope="session")
def sqlite_databases(tmp_path_factory: pytest.TempPathFactory) -> SqliteDatabases:
    return SqliteDatabases(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases]:
    reason = postgres_unavailable()
    if reason is not None:
        pytest.skip(reason)
    url = postgres_url()
    assert url is not None
    databases = PostgresDatabases(url)
    yield databases
    databases.close()


def _database(request: pytest.FixtureRequest, tmp_path: Path, *, migrated: bool) -> Iterator[str]:
    backend = request.param
    if backend == "sqlite":
        yield request.getfixturevalue("sqlite_databases").create(tmp_path, migrated=migrated)
        return
    marker = request.node.get_closest_marker("sqlite_only")
    if marker is not None:
        pytest.skip(f"SQLite only: {marker.args[0] if marker.args else 'SQLite-specific'}")
    databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
    url = databases.create(migrated=migrated)
    yield url
    databases.drop(url)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database at the newest schema, new for this test: SQLite, then PostgreSQL."""
    yield from _database(request, tmp_path, migrated=True)


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database (no tables), new for this test: SQLite, then PostgreSQL."""
    yield from _database(request, tmp_path, migrated=False)
