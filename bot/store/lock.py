"""One bot process per SQLite database (P-22).

Two processes on one SQLite file would each keep their own tables in memory and refuse each
other's moves; SQLite has no row locks to make that safe. So ``python -m bot`` holds an OS lock on
``<database>.lock`` for as long as it runs, and a second one refuses to start. The OS drops the
lock when the process dies, even by SIGKILL. PostgreSQL needs no such lock. Taking it is the
first write of a start: a folder that is missing, read-only or full is said in one line here
(``DatabaseUnusable``, P-40).
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url

from .usable import explain

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; run one process by hand
    fcntl = None  # type: ignore[assignment]


class DatabaseInUse(Exception):
    """Another bot process holds the database; the message is one line a human can act on."""


class ProcessLock:
    """An open, locked lock file; closing it releases the lock."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def lock_path(url: str) -> Path | None:
    """``<database>.lock`` for a SQLite file; None for other databases and in-memory SQLite."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database).resolve()
    return path.with_name(path.name + ".lock")


def lock_database(url: str) -> ProcessLock | None:
    """Hold the database's lock for the life of this process (None if it needs none).

    Raises DatabaseInUse if another process holds it, DatabaseUnusable if the lock file cannot
    be made or written (the folder is missing or read-only, the disk is full)."""
    path = lock_path(url)
    if path is None or fcntl is None:
        return None
    database = path.with_name(path.name.removesuffix(".lock"))
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise explain(database, exc) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        who = f"process {holder}" if holder.isdigit() else "another process"
        raise DatabaseInUse(
            f"{who} is already running the bot on {database}: stop it first, or give this one "
            "its own DATABASE_URL."
        ) from None
    try:
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
    except OSError as exc:
        os.close(fd)
        raise explain(database, exc) from None
    return ProcessLock(fd, path)
