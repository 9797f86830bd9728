"""The one line for a database the bot cannot use where it is (P-40): each error met at the lowest
level (an ``OSError`` from the lock file, an error SQLite itself raises) is told in words that
say what to do; an error that is not about the database's place keeps its traceback."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from bot.store import lock
from bot.store.lock import lock_database
from bot.store.usable import DatabaseUnusable, check_database, database_error, explain


def url_of(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.mark.parametrize(
    ("number", "reason", "words"),
    [
        (errno.ENOENT, "missing", "does not exist: create it"),
        (errno.ENOTDIR, "not-a-folder", "is not a folder"),
        (errno.EROFS, "read-only", "is on a read-only file system"),
        (errno.EACCES, "denied", "this user may not write"),
        (errno.EPERM, "denied", "this user may not write"),
        (errno.ENOSPC, "full", "no space left on the disk holding"),
        (errno.EDQUOT, "full", "no space left on the disk holding"),
        (errno.EIO, "other", "cannot use the database"),
    ],
)
def test_each_os_error_is_one_line_saying_what_to_do(
    tmp_path: Path, number: int, reason: str, words: str
) -> None:
    found = explain(tmp_path / "bugtable.db", OSError(number, os.strerror(number)))
    assert found.reason == reason
    assert words in str(found) and "\n" not in str(found)
    assert "DATABASE_URL" in str(found) or reason == "not-a-folder"


@pytest.mark.parametrize(
    ("failing", "number", "reason"),
    [
        ("open", errno.EACCES, "denied"),
        ("open", errno.EROFS, "read-only"),
        ("write", errno.ENOSPC, "full"),
    ],
)
def test_the_lock_file_failing_is_told_in_one_line_and_closes_what_it_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str, number: int, reason: str
) -> None:
    opened: list[int] = []
    real_open = os.open

    def fail(*_: object) -> int:
        raise OSError(number, os.strerror(number))

    def track(*args: object, **kwargs: object) -> int:
        fd = real_open(*args, **kwargs)  # type: ignore[arg-type]
        opened.append(fd)
        return fd

    monkeypatch.setattr(lock.os, "open", fail if failing == "open" else track)
    if failing == "write":
        monkeypatch.setattr(lock.os, "write", fail)
    with pytest.raises(DatabaseUnusable) as refused:
        lock_database(url_of(tmp_path / "bugtable.db"))
    assert refused.value.reason == reason
    assert str(tmp_path) in str(refused.value)
    for fd in opened:
        with pytest.raises(OSError):
            os.fstat(fd)  # closed again


def test_a_text_file_is_not_a_database_and_is_left_as_it_was(tmp_path: Path) -> None:
    database = tmp_path / "bugtable.db"
    database.write_text("notes\n" * 1000)
    with pytest.raises(DatabaseUnusable) as refused:
        check_database(url_of(database))
    assert refused.value.reason == "not-a-database"
    assert database.read_text() == "notes\n" * 1000


def test_a_missing_folder_and_a_folder_in_the_files_place(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable) as refused:
        check_database(url_of(tmp_path / "nope" / "bugtable.db"))
    assert refused.value.reason == "missing" and not (tmp_path / "nope").exists()
    (tmp_path / "bugtable.db").mkdir()
    with pytest.raises(DatabaseUnusable) as refused:
        check_database(url_of(tmp_path / "bugtable.db"))
    assert refused.value.reason == "not-a-file"


def test_a_new_database_is_created_in_wal_mode_and_postgresql_is_not_checked(
    tmp_path: Path,
) -> None:
    database = tmp_path / "bugtable.db"
    check_database(url_of(database))
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    check_database("postgresql+asyncpg://bot@127.0.0.1:1/none")  # nothing to check here
    check_database("sqlite+aiosqlite://")  # in memory


def sqlite_error(database: Path, *statements: str, uri: str | None = None) -> sqlite3.Error:
    """What SQLite itself raises running ``statements`` (the last one fails)."""
    db = sqlite3.connect(uri or database, uri=uri is not None)
    try:
        for statement in statements:
            db.execute(statement)
    except sqlite3.Error as exc:
        return exc
    finally:
        db.close()
    raise AssertionError("no error")


def test_sqlites_own_errors_inside_sqlalchemys_are_told_and_a_bug_is_not(tmp_path: Path) -> None:
    database = tmp_path / "bugtable.db"
    sqlite3.connect(database).close()
    full = sqlite_error(
        database, "PRAGMA max_page_count=1", "CREATE TABLE a (x)", "CREATE TABLE b (x)"
    )
    read_only = sqlite_error(
        database, "CREATE TABLE c (x)", uri=f"file:{database}?mode=ro"
    )  # SQLITE_READONLY
    bug = sqlite_error(database, "SELECT * FROM no_such_table")
    url = url_of(database)
    for error, reason in ((full, "full"), (read_only, "denied")):
        wrapped = OperationalError("INSERT …", {}, error)  # as SQLAlchemy raises it
        try:
            raise RuntimeError("setup_hook failed") from wrapped
        except RuntimeError as outer:
            found = database_error(url, outer)
        assert found is not None and found.reason == reason, (error, found)
    assert database_error(url, OperationalError("SELECT …", {}, bug)) is None
    assert database_error(url, ValueError("no database here")) is None
    assert database_error("postgresql+asyncpg://bot@db/x", full) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a folder without write permission")
def test_a_folder_this_user_may_not_write(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o555)
    try:
        with pytest.raises(DatabaseUnusable) as refused:
            lock_database(url_of(folder / "bugtable.db"))
        assert refused.value.reason == "denied"
    finally:
        folder.chmod(0o755)
