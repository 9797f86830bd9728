"""A process started with ``die_with_parent`` (the tests' bots and commands, the bench's floor)
ends with the process that started it, even one killed with kill -9, so a crashed or
timed-out run leaves no bot behind to compete for the CPU."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

KILLED_PARENT = """
import os, signal, subprocess, sys
from bot.child import die_with_parent
options = {"preexec_fn": die_with_parent} if sys.argv[1] == "dies" else {}
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], **options)
print(child.pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("started", ["dies", "lives"])
def test_a_child_started_to_die_with_its_parent_ends_when_the_parent_is_killed(
    started: str,
) -> None:
    """With ``die_with_parent`` the child ends at once; without it, it outlives its parent
    (the test can fail)."""
    parent = subprocess.Popen(
        [sys.executable, "-c", KILLED_PARENT, started], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    with parent.stdout:
        child = int(parent.stdout.readline())
    try:
        assert parent.wait(timeout=60) == -signal.SIGKILL
        deadline = time.monotonic() + (10 if started == "dies" else 1)
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert alive(child) is (started == "lives")
    finally:
        if alive(child):
            os.kill(child, signal.SIGKILL)
