"""Alembic environment: async engines, usable from the CLI and from a running event loop.

- CLI (``alembic upgrade head``): the URL comes from ``DATABASE_URL`` or ``alembic.ini``, and a
  fresh event loop runs the migration.
- In-process (``bot.store.migrate.upgrade_to_head``): the caller already holds a connection inside
  its loop and passes it in ``config.attributes["connection"]``.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection
from sqlalchemy.pool import NullPool

from bot.store.database import create_engine, is_sqlite, writer
from bot.store.models import Base

config = context.config

if config.config_file_name is not None:
    # Only the CLI has an ini file; in the bot, logging belongs to the bot.
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    """The caller's URL first, then ``DATABASE_URL``, then ``alembic.ini``."""
    url = (
        config.attributes.get("url")
        or os.environ.get("DATABASE_URL")
        or config.get_main_option("sqlalchemy.url")
    )
    if not url:
        raise RuntimeError("No database URL: set DATABASE_URL or sqlalchemy.url in alembic.ini")
    return str(url)


def run_migrations_offline() -> None:
    """Emit SQL to stdout (``alembic upgrade head --sql``) without a database."""
    url = database_url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=is_sqlite(url),
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    """Run the migrations on a live (sync-facing) connection."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things; batch mode recreates tables instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        # Our SQLite connections BEGIN explicitly (bot.store.database), so DDL is transactional
        # there too and a failed upgrade leaves nothing half done.
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations(url: str) -> None:
    """Open our own engine (same PRAGMAs as the bot) and migrate in one transaction."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        async with writer(engine).begin() as conn:
            await conn.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(run_async_migrations(database_url()))
    else:
        do_run_migrations(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
