"""The session-end check finds what a test left running, kills it and fails the run, in a plain
run and under pytest-xdist (tests/support/leftovers.py, tests/support/processes.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import RUN_MARK, WORKER_MARK, end_all, live_descendants

REPO = Path(__file__).resolve().parents[1]

LEAKY = """
import os, subprocess

def test_forgets_its_child():
    child = subprocess.Popen(["sleep", "600"])
    with open(os.environ["CHILD_PID_FILE"], "w") as out:
        out.write(str(child.pid))
"""
ORPHANING = """
import os, subprocess

def test_orphans_its_grandchild():
    # the shell ends at once: its sleep is handed to init, no longer below this process
    subprocess.run(["sh", "-c", "sleep 600 & echo $! > " + os.environ["CHILD_PID_FILE"]], check=True)
"""
STILL_RUNNING = """
import os, pathlib, signal, subprocess, time

def test_orphans_a_process_it_ends_itself_later():
    # Its child goes to init, as a browser's crash handler does, and lives on while the other
    # worker (test_quick.py) ends its session: that worker must leave it alone.
    out = pathlib.Path(os.environ["CHILD_PID_FILE"])
    subprocess.run(["sh", "-c", "sleep 600 & echo $! > " + str(out)], check=True)
    pid = int(out.read_text())
    checked = pathlib.Path(os.environ["QUICK_PID_FILE"] + ".checked")

    def running(pid):  # a zombie (ended, not reaped yet) has ended
        try:
            stat = pathlib.Path("/proc", str(pid), "stat").read_text()
        except OSError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")

    deadline = time.monotonic() + 60
    while not checked.exists():
        assert time.monotonic() < deadline, "the other worker never checked"
        time.sleep(0.05)
    assert running(pid), "the other worker killed it"
    os.kill(pid, signal.SIGKILL)
"""
QUICK = """
import os, pathlib

def test_quick():
    pathlib.Path(os.environ["QUICK_PID_FILE"]).write_text(str(os.getpid()))
"""
SAYS_CHECKED = """
import os, pathlib, pytest

@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session):
    # outermost: after the session-end check for leftovers has run in this worker
    result = yield
    quick = pathlib.Path(os.environ["QUICK_PID_FILE"])
    if quick.exists() and quick.read_text() == str(os.getpid()):
        pathlib.Path(str(quick) + ".checked").write_text("done")
    return result
"""
TIDY = """
import subprocess

def test_ends_its_child():
    subprocess.run(["true"], check=True)
"""


def gone(pid: int, timeout: float = 30) -> bool:
    """Whether ``pid`` has ended (a zombie waiting to be reaped counts as ended)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_a_child_and_its_child_are_listed_until_they_are_ended() -> None:
    child = subprocess.Popen(["sh", "-c", "sleep 600 & wait"])
    try:
        deadline = time.monotonic() + 30
        # Until the shell's child has become ``sleep``: between its fork and its exec it is a
        # copy of the shell, with the shell's command line (a loaded machine shows it so).
        while True:
            below = [p for p in live_descendants() if child.pid in (p.pid, p.parent)]
            if any(p.parent == child.pid and p.command == "sleep 600" for p in below):
                break
            assert time.monotonic() < deadline, below
            time.sleep(0.02)
        shell, sleeper = sorted(below, key=lambda p: p.pid != child.pid)
        assert shell.command == "sh -c sleep 600 & wait" and sleeper.command == "sleep 600"
        assert end_all(below) == []
    finally:
        child.kill()
        child.wait()
    assert gone(sleeper.pid)
    assert not [p for p in live_descendants() if p.pid in (shell.pid, sleeper.pid)]


def inner_pytest(
    tmp_path: Path, source: str, workers: str, *more: str, **files: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    (tmp_path / "test_inner.py").write_text(source)  # the only test file there, but ``files``
    for name, text in files.items():
        (tmp_path / f"{name}.py").write_text(text)
    pid_file = tmp_path / "child.pid"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "HYPOTHESIS", RUN_MARK, WORKER_MARK))
    }
    env.update(
        PYTHONPATH=str(REPO), CHILD_PID_FILE=str(pid_file), QUICK_PID_FILE=str(tmp_path / "q")
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.support.leftovers",
            "-n",
            workers,
            "-q",
            *more,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done, pid_file


@pytest.mark.parametrize(
    ("source", "workers"),
    [(LEAKY, "0"), (LEAKY, "2"), (ORPHANING, "0"), (ORPHANING, "2")],
    ids=["plain", "xdist", "orphan-plain", "orphan-xdist"],
)
def test_a_process_left_running_is_killed_and_fails_the_run(
    tmp_path: Path, source: str, workers: str
) -> None:
    done, pid_file = inner_pytest(tmp_path, source, workers)
    pid = int(pid_file.read_text())
    assert "1 passed" in done.stdout, done.stdout + done.stderr
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    assert "processes left running" in done.stdout
    assert f"pid {pid} " in done.stdout and "sleep 600 (killed)" in done.stdout, done.stdout
    assert gone(pid)


def test_a_run_that_ends_its_processes_passes(tmp_path: Path) -> None:
    done, _ = inner_pytest(tmp_path, TIDY, "2")
    assert done.returncode == pytest.ExitCode.OK, done.stdout + done.stderr
    assert "processes left running" not in done.stdout


def test_a_worker_leaves_the_orphans_of_another_workers_test_alone(tmp_path: Path) -> None:
    """A worker that ends its session while another worker's test still runs a process handed
    to init (a browser's crash handler) neither kills it nor fails the run for it."""
    done, pid_file = inner_pytest(
        tmp_path, STILL_RUNNING, "2", "--dist", "loadfile", test_quick=QUICK, conftest=SAYS_CHECKED
    )
    assert done.returncode == pytest.ExitCode.OK, done.stdout + done.stderr
    assert "2 passed" in done.stdout
    assert gone(int(pid_file.read_text()))
