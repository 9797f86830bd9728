"""Bring a database to the newest schema. Alembic owns the schema; the bot calls
:func:`upgrade_to_head` at start, from inside its running event loop."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text
from sqlalchemy.pool import NullPool

from .database import create_engine, writer

#: The advisory lock (PostgreSQL) that processes starting at once upgrade under, in turn.
MIGRATE_LOCK = 0x6274_0003

#: ``migrations/`` at the repository root (next to ``alembic.ini``).
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config that needs no ``alembic.ini`` (the bot may run from any directory).

    The URL travels in ``attributes``, not in the ini options: configparser would choke on the
    ``%`` of a percent-encoded password.
    """
    if not (MIGRATIONS_DIR / "env.py").is_file():
        raise RuntimeError(
            f"bugtable's migrations are not at {MIGRATIONS_DIR}: run the bot from its source "
            "checkout, installed with `pip install -e .` (see README.md)."
        )
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
            await conn.run_sync(_upgrade, alembic_config(url))
    finally:
        await engine.dispose()


def _upgrade(connection: Connection, config: Config) -> None:
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
