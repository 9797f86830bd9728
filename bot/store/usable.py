"""Whether this process can use its SQLite database, checked when the bot starts (P-40).

A folder that does not exist or may not be written, a full disk and a file that is not a database
would otherwise surface as a traceback from deep inside SQLite or the lock file, or, with Discord
out of reach, not at all. Each stops the bot with one line saying what is wrong and what to do,
before it connects to Discord. The same words explain such an error met later in the start (a
disk that fills up while the first start creates the tables).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path

from .database import sqlite_file

#: SQLite's primary result codes (``sqlite3.Error.sqlite_errorcode & 0xFF``).
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26

FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
DENIED_ERRNOS = {errno.EACCES, errno.EPERM}


class DatabaseUnusable(Exception):
    """The database cannot be used where DATABASE_URL puts it; the message is one line a human
    can act on, ``reason`` what kind of trouble it is (``other`` when none of the known ones)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def database_path(url: str) -> Path | None:
    """The SQLite file of ``url``, absolute; None for other databases and SQLite in memory."""
    file = sqlite_file(url)
    return None if file is None else Path(file).resolve()


def check_database(url: str) -> None:
    """Open the database as the bot will, taking its write lock once; raise DatabaseUnusable if
    that fails. A new database is created here (its first page, in WAL mode); nothing else is
    written. Nothing to check for PostgreSQL (its errors name the server)."""
    path = database_path(url)
    if path is None:
        return
    if not path.parent.is_dir():  # sqlite3 would say only "unable to open database file"
        raise explain(path, FileNotFoundError(errno.ENOENT, "No such file or directory"))
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=10, isolation_level=None)) as db:
            db.execute("PRAGMA journal_mode=WAL")  # reads the header; writes it when new
            db.execute("SELECT count(*) FROM sqlite_master").fetchall()
            db.execute("BEGIN IMMEDIATE")  # the write lock, with the journal files it needs
            db.execute("ROLLBACK")
    except (sqlite3.Error, OSError) as exc:
        raise explain(path, exc) from None


def database_error(url: str, error: BaseException) -> DatabaseUnusable | None:
    """One line for a SQLite or file-system error anywhere in ``error``'s chain (SQLAlchemy
    wraps SQLite's as ``.orig``) that comes from the database's place (``explain`` knows it)
    when ``url`` is a SQLite file; None otherwise, so a bug keeps its traceback."""
    path = database_path(url)
    if path is None:
        return None
    seen: set[int] = set()
    stack: list[BaseException | None] = [error]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, sqlite3.Error):
            found = explain(path, current)
            return None if found.reason == "other" else found
        orig = getattr(current, "orig", None)
        stack += [orig if isinstance(orig, BaseException) else None]
        stack += [current.__cause__, current.__context__]
    return None


def explain(path: Path, error: BaseException) -> DatabaseUnusable:
    """The one line for ``error``, met opening or writing the database ``path`` or its lock."""
    folder = path.parent
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    number = error.errno if isinstance(error, OSError) else None
    if number == errno.ENOENT or (primary == SQLITE_CANTOPEN and not folder.is_dir()):
        return DatabaseUnusable(
            f"the folder {folder} of DATABASE_URL's database does not exist: create it, or "
            "point DATABASE_URL at a file in an existing folder.",
            "missing",
        )
    if number == errno.ENOTDIR:
        return DatabaseUnusable(
            f"{folder} is not a folder: point DATABASE_URL at a file in an existing folder.",
            "not-a-folder",
        )
    if primary == SQLITE_NOTADB:
        return DatabaseUnusable(
            f"{path} is not a SQLite database: point DATABASE_URL at the bot's database, or "
            "move that file away and the bot starts a new one.",
            "not-a-database",
        )
    if primary == SQLITE_CORRUPT:
        return DatabaseUnusable(
            f"{path} is damaged ({_detail(error)}): restore it from a backup, or move it away "
            "and the bot starts a new one.",
            "damaged",
        )
    full = number in FULL_ERRNOS or primary == SQLITE_FULL
    if full or (primary == SQLITE_IOERR and _no_space(folder)):
        return DatabaseUnusable(
            f"no space left on the disk holding {path}: free some space there, or point "
            "DATABASE_URL at another disk.",
            "full",
        )
    if primary == SQLITE_CANTOPEN and path.is_dir():
        return DatabaseUnusable(
            f"{path} is a folder: point DATABASE_URL at a file (the bot creates it).", "not-a-file"
        )
    cannot_open = primary == SQLITE_CANTOPEN and not os.access(folder, os.W_OK)
    unwritable = number in DENIED_ERRNOS or primary == SQLITE_READONLY or cannot_open
    if number == errno.EROFS or ((unwritable or primary == SQLITE_IOERR) and _read_only(folder)):
        return DatabaseUnusable(
            f"{folder} is on a read-only file system, and the bot writes its database there: "
            "make it writable, or point DATABASE_URL at a writable folder.",
            "read-only",
        )
    if unwritable:
        return DatabaseUnusable(
            f"this user may not write {path} or its folder ({_detail(error)}): give it write "
            f"access to {folder} and the {path.name}* files there, or point DATABASE_URL at a "
            "folder it may write.",
            "denied",
        )
    return DatabaseUnusable(
        f"cannot use the database {path} ({_detail(error)}): check DATABASE_URL and that file.",
        "other",
    )


def _detail(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return " ".join(str(error).split()) or type(error).__name__


def _no_space(folder: Path) -> bool:
    stats = _statvfs(folder)
    return stats is not None and stats.f_bavail == 0


def _read_only(folder: Path) -> bool:
    stats = _statvfs(folder)
    return stats is not None and bool(stats.f_flag & getattr(os, "ST_RDONLY", 0))


def _statvfs(folder: Path) -> os.statvfs_result | None:
    if not hasattr(os, "statvfs"):  # pragma: no cover - Windows
        return None
    try:
        return os.statvfs(folder)
    except OSError:
        return None
