"""One bot process per SQLite database (P-22): the lock file, and who needs none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.store.lock import DatabaseInUse, lock_database, lock_path


def test_a_second_holder_of_one_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bugtable.db'}"
    first = lock_database(url)
    assert first is not None and first.path == tmp_path / "bugtable.db.lock"
    with pytest.raises(DatabaseInUse) as refused:
        lock_database(url)  # another open file description: as a second process would be
    message = str(refused.value)
    assert "\n" not in message
    assert f"process {os.getpid()} is already running the bot on {tmp_path / 'bugtable.db'}" in (
        message
    )
    first.release()
    again = lock_database(url)  # released (as when the process dies): the next one may run
    assert again is not None
    again.release()


def test_relative_paths_name_one_file_and_other_databases_need_no_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert lock_path("sqlite+aiosqlite:///bugtable.db") == tmp_path / "bugtable.db.lock"
    assert lock_path("sqlite+aiosqlite://") is None
    assert lock_path("sqlite+aiosqlite:///:memory:") is None
    assert lock_database("postgresql+asyncpg://bot:pw@db.example/bugtable") is None
