"""The session-end check finds what a test left running, kills it and fails the run, in a plain
run and under pytest-xdist (tests/support/leftovers.py, tests/support/processes.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import RUN_MARK, end_all, live_descendants

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
        while (
            len(
                below := [
                    p for p in live_descendants() if p.pid == child.pid or p.parent == child.pid
                ]
            )
            < 2
        ):
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
    tmp_path: Path, source: str, workers: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    (tmp_path / "test_inner.py").write_text(source)  # the only test file there
    pid_file = tmp_path / "child.pid"
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS", RUN_MARK))
    }
    env.update(PYTHONPATH=str(REPO), CHILD_PID_FILE=str(pid_file))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.support.leftovers", "-n", workers, "-q"],
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
