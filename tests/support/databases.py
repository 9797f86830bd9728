"""The databases store and host tests run against: SQLite always, PostgreSQL whenever a server
answers: the one ``TEST_DATABASE_URL`` names, or, with it unset, the local one CI uses
(``LOCAL``), so a plain ``pytest`` runs the PostgreSQL cases wherever that server is up.
``TEST_DATABASE_URL=none`` turns them off. Where they cannot run they are skipped with the reason,
and pytest's header says which server is used, or why none (``postgres_header``, P-42).

Each PostgreSQL test gets its own database, cloned from one migrated template per test session
(``CREATE DATABASE … TEMPLATE``: tens of milliseconds, far less than migrating), and dropped
afterwards. Its commits do not wait for the server's disk (``synchronous_commit = off``): the
tests kill bot processes, never the server, and a commit acknowledged to a client that dies is
kept all the same. Names carry the process id, so parallel runs (and pytest-xdist's workers) on
one server never collide."""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
from functools import cache
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.store import upgrade_to_head

ENV = "TEST_DATABASE_URL"
LOCAL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
"""The server looked for when ``TEST_DATABASE_URL`` is unset (as on the project's machines:
PostgreSQL 15, trust auth)."""
OFF = "none"
"""``TEST_DATABASE_URL=none``: no PostgreSQL cases, even where a local server answers."""
BACKENDS = ("sqlite", "postgresql")
_names = itertools.count(1)


def _setting() -> str:
    return os.environ.get(ENV, "").strip()


def postgres_url() -> str | None:
    """The server tests may use (an asyncpg URL): ``TEST_DATABASE_URL``, else ``LOCAL``; None
    when turned off."""
    given = _setting()
    if given.lower() == OFF:
        return None
    return given or LOCAL


@cache
def postgres_unavailable() -> str | None:
    """Why PostgreSQL cases cannot run (the skip reason), or None when they can."""
    url = postgres_url()
    if url is None:
        return f"{ENV}={OFF}: PostgreSQL cases skipped"
    try:
        _admin(url, "SELECT 1")
    except Exception as exc:
        where = ENV if _setting() else f"{ENV} is unset and the local server ({LOCAL})"
        return f"{where} does not answer ({type(exc).__name__}: {exc}): PostgreSQL cases skipped"
    return None


def postgres_header() -> str:
    """pytest's header line: which PostgreSQL the cases run on, or why they are skipped."""
    reason = postgres_unavailable()
    if reason is not None:
        return f"PostgreSQL: none ({reason})"
    url = postgres_url()
    assert url is not None
    source = ENV if _setting() else f"{ENV} unset, the local server answered"
    return f"PostgreSQL: {make_url(url).render_as_string(hide_password=True)} ({source})"


def _admin(url: str, *statements: str) -> None:
    """Run statements outside any transaction (CREATE/DROP DATABASE need that)."""
    import asyncpg  # only needed where PostgreSQL is

    async def run() -> None:
        parsed = make_url(url)
        conn = await asyncpg.connect(
            host=parsed.host or "127.0.0.1",
            port=parsed.port or 5432,
            user=parsed.username,
            password=parsed.password,
            database=parsed.database or "postgres",
            # A bound, not a measure: whether the server answers at all was asked at the start
            # (``postgres_unavailable``); under the suite's load a connection once took over 3 s.
            timeout=30,
        )
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


def with_database(url: str, name: str) -> str:
    return make_url(url).set(database=name).render_as_string(hide_password=False)


class PostgresDatabases:
    """Fresh databases on the test server, all cloned from one migrated template."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = f"bt_{os.getpid()}"
        self._template: str | None = None

    def template(self) -> str:
        if self._template is None:
            name = f"{self.prefix}_template"
            _admin(self.url, f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}")
            asyncio.run(upgrade_to_head(with_database(self.url, name)))
            self._template = name
        return self._template

    def create(self, *, migrated: bool = True, durable: bool = False) -> str:
        """A new database's URL: at head (a copy of the template), or empty. Its commits wait
        for the server's disk only if ``durable`` (as the server's default does: benches)."""
        name = f"{self.prefix}_{next(_names)}"
        template = f" TEMPLATE {self.template()}" if migrated else ""
        setting = "on" if durable else "off"
        _admin(
            self.url,
            f"CREATE DATABASE {name}{template}",
            f"ALTER DATABASE {name} SET synchronous_commit = {setting}",
        )
        return with_database(self.url, name)

    def drop(self, url: str) -> None:
        name = make_url(url).database
        _admin(self.url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def close(self) -> None:
        if self._template is not None:
            _admin(self.url, f"DROP DATABASE IF EXISTS {self._template} WITH (FORCE)")
            self._template = None


class SqliteDatabases:
    """Fresh SQLite files, copies of one migrated template file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._template: Path | None = None

    def create(self, where: Path, *, migrated: bool = True) -> str:
        db = where / "bugtable.db"
        if migrated:
            if self._template is None:
                template = self.folder / "template.db"
                asyncio.run(upgrade_to_head(f"sqlite+aiosqlite:///{template}"))
                self._template = template
            shutil.copyfile(self._template, db)
        return f"sqlite+aiosqlite:///{db}"
