"""Bring a database to the newest schema. Alembic owns the schema; the bot calls
:func:`upgrade_to_head` at start, from inside its running event loop.

A database already at the newest revision (every start but the first after an upgrade) is
recognised without Alembic: importing it is a sixth of the bot's start-up time."""

from __future__ import annotations

import logging
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text
from sqlalchemy.pool import NullPool

from .database import create_engine, writer

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)

#: The advisory lock (PostgreSQL) that processes starting at once upgrade under, in turn.
MIGRATE_LOCK = 0x6274_0003

#: ``migrations/`` next to the ``bot`` package: at the repository root in a checkout, and in
#: site-packages when installed (pyproject.toml ships it as a top-level folder of the wheel).
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

#: A migration file: ``NNNN_what_it_does.py`` whose revision id is ``NNNN`` and whose
#: ``down_revision`` is the one before (tests/bot/test_store_migrations.py holds every file to it).
MIGRATION_FILE = re.compile(r"^(\d{4})_\w+\.py$")


@cache
def newest_revision() -> str:
    """The head revision, read off the migration files' names (no Alembic import)."""
    numbers = [
        m[1] for f in (MIGRATIONS_DIR / "versions").iterdir() if (m := MIGRATION_FILE.match(f.name))
    ]
    if not numbers:
        raise RuntimeError(f"no migrations in {MIGRATIONS_DIR / 'versions'}")
    return max(numbers)


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config that needs no ``alembic.ini`` (the bot may run from any directory).

    The URL travels in ``attributes``, not in the ini options: configparser would choke on the
    ``%`` of a percent-encoded password.
    """
    if not (MIGRATIONS_DIR / "env.py").is_file():
        raise RuntimeError(
            f"bugtable's migrations are not at {MIGRATIONS_DIR}: install bugtable again "
            "(`pip install .`, or `pip install -e .` in a checkout; see README.md)."
        )
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.attributes["url"] = url
    return config


async def upgrade_to_head(url: str) -> None:
    """Upgrade the database at ``url`` to the newest revision, without blocking the event loop.

    Alembic's commands are synchronous, so they run via ``run_sync`` on an async connection that
    ``migrations/env.py`` picks up from ``config.attributes`` (no nested event loop). On SQLite the
    transaction takes the write lock first, and on PostgreSQL an advisory lock, so two processes
    starting at once take turns (the second finds the schema at head).
    """
    engine = create_engine(url, poolclass=NullPool)
    try:
        async with writer(engine).begin() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATE_LOCK}
                )
            before = await conn.run_sync(_revision)
            if before != newest_revision():
                await conn.run_sync(_upgrade, alembic_config(url))
                # One line instead of Alembic's one per step (its loggers sit at WARNING).
                if before is None:
                    log.info("database schema created at revision %s", newest_revision())
                else:
                    log.info("database schema upgraded from %s to %s", before, newest_revision())
    finally:
        await engine.dispose()


def _revision(connection: Connection) -> str | None:
    """The revision the database is at, as Alembic recorded it (None: never migrated)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _upgrade(connection: Connection, config: Config) -> None:
    from alembic import command

    config.attributes["connection"] = connection
    command.upgrade(config, "head")
