"""Engine creation: the one place that knows SQLite needs help to be a good server database."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

#: Execution option marking a connection that will write: on SQLite its transaction starts with
#: ``BEGIN IMMEDIATE`` so the write lock is taken up front. Otherwise two deferred transactions
#: can both read ("2 seats taken") and then one fails to upgrade to a writer with SQLITE_BUSY,
#: which busy_timeout cannot wait out.
WRITE_OPTION = "bugtable_write"

#: How long (s) a SQLite connection waits for another writer before giving up (the
#: ``DATABASE_BUSY_TIMEOUT`` setting). What then fails is retried by its caller.
BUSY_TIMEOUT = 10.0


def is_sqlite(url: str) -> bool:
    """Whether the URL names a SQLite database (the PRAGMAs and BEGIN handling apply)."""
    return make_url(url).get_backend_name() == "sqlite"


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL, or None (another database, or SQLite in memory, which a second
    connection would not see)."""
    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    if database.startswith("file:") or parsed.query.get("mode") == "memory":
        return None
    return database


#: SQLite's ``synchronous`` PRAGMA (the ``DATABASE_SYNCHRONOUS`` setting, P-37). With WAL,
#: NORMAL keeps every commit through a crash of the process and FULL (the default) through a
#: power loss too, as PostgreSQL does by default.
SYNCHRONOUS = "FULL"
SYNCHRONOUS_MODES = ("NORMAL", "FULL")


def create_engine(
    url: str,
    *,
    busy_timeout: float = BUSY_TIMEOUT,
    synchronous: str = SYNCHRONOUS,
    **kwargs: Any,
) -> AsyncEngine:
    """An async engine for ``url``; on SQLite with WAL, foreign keys, busy timeout and explicit
    transaction control installed on every connection.

    Statement parameters are whole snapshots (every hand, the deck order): they are kept out of
    SQLAlchemy's log lines and exception messages, which reach the bot's log (P-20)."""
    kwargs.setdefault("hide_parameters", True)
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        if synchronous not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}")
        _install_sqlite_listeners(engine, round(busy_timeout * 1000), synchronous)
    return engine


def writer(engine: AsyncEngine) -> AsyncEngine:
    """The same engine (same pool) whose transactions announce they will write."""
    return engine.execution_options(**{WRITE_OPTION: True})


def _install_sqlite_listeners(engine: AsyncEngine, busy_timeout_ms: int, synchronous: str) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Take transaction control away from the sqlite3 module (its legacy mode never BEGINs
        # before a SELECT); SQLAlchemy's "begin" event below emits BEGIN itself.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            # WAL: readers never block the writer and vice versa. A memory database answers
            # "memory" and stays as it is, which is fine.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms:d}")
            cursor.execute(f"PRAGMA synchronous={synchronous}")  # NORMAL: WAL makes it safe
        finally:
            cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")
