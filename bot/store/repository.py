"""The Store: every read and write the bot makes, each in one transaction, gathered from the
parts that do one job each (``lobby``, ``commit``, ``reads``, ``stats``, ``members``, ``meta``
on ``base``). Callers hold one Store, as the host, the Discord layer and the web pages share one
engine, write queue and group-commit writer.

Invariants live in the database where they can (one unfinished game per channel, unique seats,
the version check), so they hold even across processes. Writes on SQLite take the write lock at
BEGIN (see ``database.WRITE_OPTION``); on PostgreSQL they lock the game row first. Either way,
concurrent lobby operations on one game run one after another.
"""

from __future__ import annotations

from .base import SNAPSHOT_EVERY
from .commit import CommitStore
from .database import BUSY_TIMEOUT, SYNCHRONOUS, create_engine, sqlite_file
from .lobby import LobbyStore
from .members import MemberSettingsStore
from .meta import MetaStore
from .migrate import upgrade_to_head
from .pg_writer import PostgresWriter
from .reads import GameReads
from .server_settings import ServerSettingsStore
from .stats import StatsStore
from .writer import SQLiteWriter


class Store(
    LobbyStore,
    CommitStore,
    GameReads,
    StatsStore,
    MemberSettingsStore,
    ServerSettingsStore,
    MetaStore,
):
    """Async persistence for games. Build it with :meth:`open`; close it with :meth:`close`."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrate: bool = True,
        busy_timeout: float = BUSY_TIMEOUT,
        snapshot_every: int = SNAPSHOT_EVERY,
        group_commit: bool = True,
        synchronous: str = SYNCHRONOUS,
    ) -> Store:
        """Connect to ``url``, first upgrading its schema to head unless ``migrate`` is False.
        On SQLite, a statement waits ``busy_timeout`` seconds for another process's write lock
        before it fails. A SQLite file and PostgreSQL commit actions through a group-commit
        writer unless ``group_commit`` is False (benches compare the two)."""
        if migrate:
            await upgrade_to_head(url)
        engine = create_engine(url, busy_timeout=busy_timeout, synchronous=synchronous)
        store = cls(engine, snapshot_every=snapshot_every)
        path = sqlite_file(url)
        if group_commit and path is not None:
            writer = SQLiteWriter(
                path,
                busy_timeout=busy_timeout,
                serial=store._queued,
                serial_free=store._queue_free,
                synchronous=synchronous,
            )
            await writer.presize_wal()
            store._writer = writer
        elif group_commit and engine.dialect.name == "postgresql":
            store._writer = PostgresWriter(engine.url)
        return store
