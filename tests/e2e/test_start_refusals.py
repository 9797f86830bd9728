"""A database the bot cannot use stops ``python -m bot`` at start with one line on stderr that
says what is wrong and what to do, exit code 3 and no traceback (P-40), as a second process on
the same file does (P-22): a missing folder, a file that is not a database, a read-only folder
and a full disk. The last two run the bot on a tmpfs of its own (``unshare``: a private mount
namespace, as an unprivileged user too where user namespaces are allowed), skipped, saying why,
where that cannot be had.

Discord is out of reach for every one of these bots: the refusal must come first (a bot that does
not refuse would try Discord again and again, and be killed at the time limit)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from tests.support.databases import SqliteDatabases

from .command_line import run_cli
from .conftest import TOKEN
from .helpers import free_port

REFUSED = 3


def dead_discord() -> dict[str, str]:
    port = free_port()  # a port where nothing listens (yet)
    return {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
        "RETRY_MAX_DELAY": "0.5",
    }


async def start(tmp_path: Path, database: Path, prefix: tuple[str, ...] = ()) -> tuple[int, str]:
    code, _, err = await run_cli(
        tmp_path, prefix=prefix, DATABASE_URL=f"sqlite+aiosqlite:///{database}", **dead_discord()
    )
    assert "Traceback" not in err, err
    return code, err


# -- a tmpfs of the bot's own ----------------------------------------------------------------

ON_TMPFS = """
folder=$1; options=$2; setup=$3; shift 3
mount -t tmpfs -o "$options" tmpfs "$folder" || exit 97
eval "$setup" || exit 98
exec "$@"
"""
"""Mounts a tmpfs on ``folder`` in the process's own mount namespace (nobody else sees it, and
it goes when the process does), runs ``setup`` there, then execs the bot."""


@cache
def no_tmpfs_reason() -> str | None:
    """Why a private tmpfs cannot be mounted here, or None."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return "no unshare(1) here"
    probe = subprocess.run(
        [unshare, "--user", "--map-root-user", "--mount", "sh", "-c", "mount -t tmpfs t /mnt"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if probe.returncode != 0:
        return f"cannot mount a private tmpfs ({probe.stderr.strip() or probe.returncode})"
    return None


def on_tmpfs(folder: Path, options: str, setup: str = "true") -> tuple[str, ...]:
    reason = no_tmpfs_reason()
    if reason is not None:
        pytest.skip(reason)
    folder.mkdir()
    unshare = ("unshare", "--user", "--map-root-user", "--mount")
    return (*unshare, "sh", "-c", ON_TMPFS, "sh", str(folder), options, setup)


FILL = 'head -c 4000000 /dev/zero > "$folder/filler" 2>/dev/null; true'
"""Writes until the disk is full."""


async def migrated(databases: SqliteDatabases, where: Path) -> Path:
    """A database at the newest schema in ``where``, as a bot leaves it."""
    url = await asyncio.to_thread(databases.create, where)
    return Path(url.removeprefix("sqlite+aiosqlite:///"))


# -- the tests -----------------------------------------------------------------------------------


async def test_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "no" / "such"
    code, err = await start(tmp_path, folder / "bugtable.db")
    assert code == REFUSED
    assert err.splitlines() == [
        f"bugtable: the folder {folder} of DATABASE_URL's database does not exist: create it, "
        "or point DATABASE_URL at a file in an existing folder."
    ]
    assert not folder.exists()  # nothing was made on the way


async def test_a_file_that_is_not_a_database_is_one_line_and_left_as_it_was(
    tmp_path: Path,
) -> None:
    database = tmp_path / "bugtable.db"
    database.write_text("my notes, not a database\n" * 200)
    code, err = await start(tmp_path, database)
    assert code == REFUSED
    assert err.splitlines() == [
        f"bugtable: {database} is not a SQLite database: point DATABASE_URL at the bot's "
        "database, or move that file away and the bot starts a new one."
    ]
    assert database.read_text() == "my notes, not a database\n" * 200
    assert sorted(os.listdir(tmp_path)) == ["bugtable.db", "bugtable.db.lock"]


def read_only_line(folder: Path) -> list[str]:
    return [
        f"bugtable: {folder} is on a read-only file system, and the bot writes its database "
        "there: make it writable, or point DATABASE_URL at a writable folder."
    ]


def full_line(database: Path) -> str:
    return (
        f"bugtable: no space left on the disk holding {database}: free some space there, or "
        "point DATABASE_URL at another disk."
    )


async def test_a_read_only_folder_is_one_line(tmp_path: Path) -> None:
    """The issue's case: the lock file cannot be made (``OSError: Read-only file system``)."""
    folder = tmp_path / "ro"
    code, err = await start(tmp_path, folder / "bugtable.db", on_tmpfs(folder, "ro,size=64k"))
    assert code == REFUSED
    assert err.splitlines() == read_only_line(folder)


async def test_a_database_on_a_file_system_made_read_only_is_one_line(
    tmp_path: Path, sqlite_databases: SqliteDatabases
) -> None:
    """The bot ran there before (its database and lock file are there), then the file system
    was remounted read-only."""
    template = await migrated(sqlite_databases, tmp_path)
    folder = tmp_path / "was-rw"
    setup = f'cp {template} "$folder/" && echo 1 > "$folder/bugtable.db.lock"'
    setup += ' && mount -o remount,ro "$folder"'
    code, err = await start(tmp_path, folder / "bugtable.db", on_tmpfs(folder, "size=1m", setup))
    assert code == REFUSED
    assert err.splitlines() == read_only_line(folder)


async def test_a_full_disk_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "full"
    database = folder / "bugtable.db"
    code, err = await start(tmp_path, database, on_tmpfs(folder, "size=64k", FILL))
    assert code == REFUSED
    assert err.splitlines() == [full_line(database)]


async def test_a_disk_that_filled_up_under_an_existing_database_is_one_line(
    tmp_path: Path, sqlite_databases: SqliteDatabases
) -> None:
    """The lock file can still be written (its old page is reused); SQLite cannot make its
    write-ahead log's index."""
    template = await migrated(sqlite_databases, tmp_path)
    folder = tmp_path / "filled"
    database = folder / "bugtable.db"
    setup = f'cp {template} "$folder/" && echo 1 > "$folder/bugtable.db.lock" && {FILL}'
    code, err = await start(tmp_path, database, on_tmpfs(folder, "size=1m", setup))
    assert code == REFUSED
    assert err.splitlines() == [full_line(database)]


async def test_a_disk_that_fills_up_under_the_first_migration_is_one_line(
    tmp_path: Path,
) -> None:
    """Room for the database's first page and its journal files, not for its tables: the check
    passes and the schema's migration fails. The last line says it, without an error's trace."""
    folder = tmp_path / "nearly"
    database = folder / "bugtable.db"
    setup = f'{FILL}; truncate -s -64k "$folder/filler"'
    code, err = await start(tmp_path, database, on_tmpfs(folder, "size=1m", setup))
    assert code == REFUSED
    assert err.splitlines()[-1] == full_line(database)
    assert " ERROR " not in err and "Traceback" not in err, err


async def test_sync_refuses_a_file_that_is_not_a_database_the_same_way(tmp_path: Path) -> None:
    database = tmp_path / "bugtable.db"
    database.write_text("not a database")
    code, _, err = await run_cli(
        tmp_path, "sync", DATABASE_URL=f"sqlite+aiosqlite:///{database}", **dead_discord()
    )
    assert code == REFUSED and "Traceback" not in err
    assert err.splitlines() == [
        f"bugtable: {database} is not a SQLite database: point DATABASE_URL at the bot's "
        "database, or move that file away and the bot starts a new one."
    ]
