"""Prove an installed bugtable (a wheel in a venv outside the source tree) migrates a new
database and serves: the emulator and the ``bugtable`` command from that venv, a fresh SQLite
database, then both processes ended with their process groups (nothing left behind).

Usage: ``VENV/bin/python .ci/installed_bot.py VENV WORKDIR``. Standard library only, and run
from WORKDIR, so nothing here can import the checkout's ``bot`` by accident."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

TIMEOUT = 40.0
"""Seconds the bot is given to migrate and connect (about two on an idle machine)."""


class Output:
    """A process's output, read by a thread as it comes, so a wait can look for a line."""

    def __init__(self, proc: subprocess.Popen[str], name: str) -> None:
        self.lines: list[str] = []
        self.name = name
        assert proc.stdout is not None
        self._thread = threading.Thread(target=self._read, args=(proc.stdout,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if text in line:
                    return line
            time.sleep(0.05)
        raise SystemExit(f"{self.name} never said {text!r}:\n" + "\n".join(self.lines))


@contextlib.contextmanager
def started(argv: list[str], env: dict[str, str], name: str) -> Iterator[Output]:
    """``argv`` in its own process group, ended (TERM, then KILL) with the whole group."""
    proc = subprocess.Popen(
        argv,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        yield Output(proc, name)
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)
            try:
                proc.wait(10)
                break
            except subprocess.TimeoutExpired:
                continue
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever the group started, too


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(venv: Path, workdir: Path) -> None:
    python, bugtable = venv / "bin" / "python", venv / "bin" / "bugtable"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PYTHON"))}
    env.update(PYTHONUNBUFFERED="1", LOG_LEVEL="INFO")

    where = subprocess.run(
        [python, "-c", "import bot, migrations; print(bot.__file__, list(migrations.__path__)[0])"],
        env=env,
        cwd=workdir,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for path in where:
        if not Path(path).resolve().is_relative_to(venv.resolve()):
            raise SystemExit(f"the installed bot imports from outside its venv: {path}")
    print(f"bot and migrations from {Path(where[0]).parent.parent}")

    database = workdir / "new.db"
    port = free_port()
    with started([str(python), "-m", "bot.emulator"], env, "the emulator") as emulator:
        for name in ("DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DISCORD_TOKEN"):
            env[name] = emulator.wait_for(f"{name}=").split("=", 1)[1]
        env.update(DATABASE_URL=f"sqlite+aiosqlite:///{database}", WEB_PORT=str(port))
        with started([str(bugtable)], env, "bugtable") as bot:
            print(bot.wait_for("bugtable ready"))
            print(emulator.wait_for("gateway IDENTIFY #1 accepted"))
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/icon.svg") as reply:
                assert reply.status == 200 and b"<svg" in reply.read(), "no static files"
            print("the web server serves its static files")
    with contextlib.closing(sqlite3.connect(database)) as db:
        (revision,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
    newest = max(p.name[:4] for p in (Path(where[1]) / "versions").glob("[0-9]*.py"))
    if revision != newest:
        raise SystemExit(f"the database is at revision {revision}, not {newest}")
    print(f"the new database was migrated to revision {revision}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
