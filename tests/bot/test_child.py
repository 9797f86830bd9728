"""A process started with ``die_with_parent`` (the tests' bots and commands, the bench's floor)
ends with the process that started it, even one killed with kill -9, so a crashed or
timed-out run leaves no bot behind to compete for the CPU."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import child

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


LEAVES_IDLE = """
import os, sys, threading
from bot.child import may_leave_idle_class
os.nice(10)
said = may_leave_idle_class()
done = []

def try_it():  # in a thread of its own: the class is a thread's, and this one then ends
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    try:
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except PermissionError:
        done.append(False)
    else:
        done.append(os.sched_getscheduler(0) == os.SCHED_OTHER and os.nice(0) == 10)

thread = threading.Thread(target=try_it)
thread.start()
thread.join()
print(said, done[0])
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("setpriv"),
    reason="Linux's idle class; the test takes other users' credentials (util-linux's setpriv)",
)
@pytest.mark.parametrize(
    ("credentials", "leaves"),
    [
        ([], True),  # root, with CAP_SYS_NICE
        (["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"], False),
        (["setpriv", "--inh-caps=-sys_nice", "--bounding-set=-sys_nice"], False),
    ],
    ids=["root", "a user", "root without it"],
)
def test_a_picture_process_enters_the_idle_class_only_where_the_kernel_lets_it_leave(
    credentials: list[str], leaves: bool
) -> None:
    """``may_leave_idle_class`` says what the kernel then does: a process that could not come
    back out of the idle class would end only on CPU time nothing else wants (P-89)."""
    done = subprocess.run(
        [*credentials, sys.executable, "-c", LEAVES_IDLE],
        cwd=REPO,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == [str(leaves), str(leaves)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's idle class")
@pytest.mark.parametrize(("limit", "leaves"), [(10, True), (9, False), (40, True)])
def test_a_nice_limit_that_admits_the_workers_niceness_lets_it_leave_the_idle_class(
    limit: int, leaves: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``CAP_SYS_NICE``, the kernel lets a thread at nice 10 leave the idle class when
    its ``RLIMIT_NICE`` is 10 or more (``20 - nice``): this machine's hard limit is 0 and may not
    be raised, so the limit is given here, and the capability taken away."""
    import resource

    monkeypatch.setattr(child, "_CAP_SYS_NICE", 63)  # a capability nobody has
    monkeypatch.setattr(resource, "getrlimit", lambda which: (limit, limit))
    monkeypatch.setattr(os, "nice", lambda increment: 10)
    assert child.may_leave_idle_class() is leaves


def test_closing_a_pool_where_there_is_no_idle_class_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """macOS and Windows have neither the idle class nor ``sched_getscheduler``: a closing
    picture pool's call to raise its processes out of the class does nothing there."""
    for name in ("SCHED_IDLE", "sched_getscheduler", "sched_setscheduler"):
        monkeypatch.delattr(os, name, raising=False)
    child.leave_idle_class(os.getpid())
