"""Processes the tests start end when the test ends, whatever happens (issue 20).

``run`` runs a command to its end and kills it if it outlives its time limit or the test is
cancelled; ``spawned`` holds one for the length of a ``async with`` and ends it on the way out,
on failure too. ``live_descendants`` lists what this process has left running (read from
/proc, no psutil), which the session-end check in tests/support/leftovers.py reports."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.child import die_with_parent

PROC = Path("/proc")


@dataclass(frozen=True)
class Finished:
    code: int
    out: str
    err: str


async def end(proc: asyncio.subprocess.Process, grace: float = 10.0) -> None:
    """SIGTERM, then SIGKILL if it has not exited within ``grace`` seconds; always reaped."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
    await proc.wait()


async def run(
    argv: Sequence[str],
    *,
    timeout: float = 120.0,  # noqa: ASYNC109 - the process is killed when it runs out
    **options: Any,
) -> Finished:
    """Run ``argv`` to its end (stdout and stderr captured); a process still running after
    ``timeout`` seconds, or when the test is cancelled, is killed and the test fails."""
    options.setdefault("preexec_fn", die_with_parent)  # ends with this process, killed or not
    proc = await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, **options
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        raise AssertionError(f"{argv} still ran after {timeout} s: killed") from None
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return Finished(
        proc.returncode or 0, out.decode(errors="replace"), err.decode(errors="replace")
    )


@contextlib.asynccontextmanager
async def spawned(
    argv: Sequence[str], *, grace: float = 10.0, **options: Any
) -> AsyncIterator[asyncio.subprocess.Process]:
    """``argv`` running for the length of the block, ended (``end``) however the block ends,
    and with this process if it is killed."""
    options.setdefault("preexec_fn", die_with_parent)
    proc = await asyncio.create_subprocess_exec(*argv, **options)
    try:
        yield proc
    finally:
        await end(proc, grace)


@dataclass(frozen=True)
class Running:
    """A live process, as /proc shows it."""

    pid: int
    parent: int
    command: str

    def __str__(self) -> str:
        return f"pid {self.pid} (child of {self.parent}): {self.command}"


def _read(pid: int) -> Running | None:
    """The process ``pid``, or None if it is gone or a zombie (dead, only not yet reaped)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return None
    # "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'
    state, parent = stat[stat.rindex(")") + 2 :].split()[:2]
    if state in ("Z", "X"):
        return None
    command = " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part)
    comm = stat[stat.index("(") + 1 : stat.rindex(")")]
    return Running(pid, int(parent), command or f"[{comm}]")


def live_descendants(pid: int | None = None) -> list[Running]:
    """Every live process below ``pid`` (this one by default): children, theirs, and so on."""
    root = os.getpid() if pid is None else pid
    found: dict[int, Running] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (running := _read(int(entry.name))) is not None:
            found[running.pid] = running
    below: list[Running] = []
    parents = {root}
    while True:
        fresh = [p for p in found.values() if p.parent in parents and p.pid not in parents]
        if not fresh:
            return sorted(below, key=lambda p: p.pid)
        below += fresh
        parents |= {p.pid for p in fresh}


RUN_MARK = "BUGTABLE_TEST_RUN"
"""Set in the environment of a test run's first process, so inherited by everything the run
starts: a process killed with kill -9 leaves its own children to init, out of reach of
``live_descendants``, and the mark still tells they came from this run."""


def _marked(pid: int, mark: bytes) -> bool:
    try:
        environ = (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return False
    return mark in environ.split(b"\0")


WORKER_MARK = "BUGTABLE_TEST_WORKER"
"""Set in each pytest-xdist worker's environment: a worker looks only for its own orphans, not
for those of a test another worker is running still (a browser's crash handlers, which Chromium
hands to init while the browser runs)."""


def orphans(run: str | None = None) -> list[Running]:
    """Live processes of this test run (its mark in their environment) whose parent is not of
    the run: children of a process that was killed, handed to init. The run's first process
    (the mark names it) is not one. In a worker, only those started from that worker."""
    run = os.environ.get(RUN_MARK) if run is None else run
    if not run:
        return []
    mark = f"{RUN_MARK}={run}".encode()
    worker = os.environ.get(WORKER_MARK)
    own = None if worker is None else f"{WORKER_MARK}={worker}".encode()
    first = int(run.split("-")[0])  # /proc shows its environment from before it set the mark
    found: list[Running] = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == first:
            continue
        running = _read(int(entry.name))
        if (
            running is not None
            and running.parent != first
            and _marked(running.pid, mark)
            and (own is None or _marked(running.pid, own))
            and not _marked(running.parent, mark)
        ):
            found.append(running)
    return sorted(found, key=lambda p: p.pid)


def end_all(processes: Sequence[Running], grace: float = 2.0) -> list[Running]:
    """Ask ``processes`` to stop (SIGTERM), SIGKILL those still there after ``grace`` seconds;
    returns those still alive after that (a process that ignores SIGKILL: none, normally)."""
    for process in processes:
        with contextlib.suppress(OSError):
            os.kill(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    left = list(processes)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [p for p in left if _alive(p)]
    for process in left:
        with contextlib.suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)
    time.sleep(0.1)
    return [p for p in left if _alive(p)]


def _alive(process: Running) -> bool:
    """Still the same live process (a pid may be reused: its parent and command must match)."""
    now = _read(process.pid)
    return now is not None and now.command == process.command
