"""Worker processes end with the bot that started them (pictures, bot players' searches), and
yield the CPU to it."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event

T = TypeVar("T")

PARENT_CHECK_SECONDS = 1.0
"""How often a worker process looks whether the bot that started it still runs."""

WORKER_NICENESS = 10
"""How much lower a worker's priority is than the bot's (``nice``)."""


_PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None
"""libc's ``prctl``, found once here: a ``preexec_fn`` runs between fork and exec, where a
lookup or an import could wait on a lock another thread of the parent held."""


def die_with_parent() -> None:
    """Have the kernel kill this process (SIGKILL) when the one that started it ends, however
    that ends (PR_SET_PDEATHSIG, Linux only; it outlives an exec, so it also serves as a
    ``preexec_fn``). Nothing elsewhere."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def end_with(parent: int) -> None:
    """A worker process's initializer: it ends when the bot that started it ends, however that
    ends (a kill -9 leaves no one to shut the pool down, and the orphan would live on). On Linux
    the kernel kills it at once (``die_with_parent``); elsewhere, and as a fallback, a thread
    looks every second whether it has been handed to another parent."""
    die_with_parent()
    if os.getppid() != parent:  # the bot ended before the line above took effect
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def start_background_worker(parent: int) -> None:
    """A worker process's initializer: it ends with the bot (``end_with``) and runs at a lower
    priority. Its work (a picture, a bot's search) can wait a few milliseconds; the event loop's
    cannot, since every click of every game waits behind it. Where the cores are all busy, the
    kernel then gives the event loop the CPU it asks for first."""
    end_with(parent)
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


# -- drawing in the idle class (pictures only, P-89) ------------------------------------------
_CAP_SYS_NICE = 23
"""The capability that lets a thread raise its own scheduling priority (``capabilities(7)``)."""


_closing: Event | None = None
"""In a picture process that may leave the idle class (``may_leave_idle_class``): set by the
bot when it closes the pool (``PictureWorkers.close``); ``None``: it never enters the class."""


def may_leave_idle_class() -> bool:
    """Whether this process could come back out of Linux's idle scheduling class once in it.

    Leaving it counts as raising one's priority: the kernel allows it to a thread with
    ``CAP_SYS_NICE`` (root outside a container, or given it) or whose ``RLIMIT_NICE`` admits its
    niceness (``20 - nice <= limit``; systemd's ``LimitNICE=10`` for nice 10), and to nothing
    else. A process that could not leave must never enter: it would end, and be ended by its
    parent, only on CPU time nothing else wants."""
    if not hasattr(os, "SCHED_IDLE"):  # pragma: no cover - not on Linux
        return False
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NICE)
    if soft == resource.RLIM_INFINITY or 20 - os.nice(0) <= soft:
        return True
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:  # pragma: no cover - no procfs
        return False
    for line in status.splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> _CAP_SYS_NICE & 1)
    return False  # pragma: no cover - every Linux prints it


def start_picture_worker(parent: int, closing: Event) -> None:
    """A picture process's initializer: a background worker (``start_background_worker``) whose
    drawings may run in the idle class (``idle_while_drawing``) where it can leave it again."""
    global _closing
    start_background_worker(parent)
    _closing = closing if may_leave_idle_class() else None


IDLE_LIMIT = 5.0
"""Seconds a drawing may stay in the idle class before it is raised out of it to finish at the
worker's niceness (P-96): on a machine kept busy for long, the idle class gets almost no CPU,
and a picture would come minutes late or never."""


def idle_while_drawing(draw: Callable[[], T], limit: float = IDLE_LIMIT) -> T:
    """``draw()`` in Linux's idle scheduling class (``SCHED_IDLE``), then back to the ordinary
    class at the worker's niceness: the picture takes only CPU time nothing else wants, and any
    waking thread of another process takes the core from it at once; waiting for work, ending
    and exiting are done in the ordinary class, so a pool that is closed, or whose bot ended,
    goes at once however busy the machine is. Where the process could not leave the idle class
    (``may_leave_idle_class``), or once the bot closes the pool, it draws at its niceness alone.

    Why: at 200 games Bug Run's pictures came in bursts (boards redrawn every
    ``PICTURE_INTERVAL`` drift into step), and in those seconds the bot's event loop waited for
    a core 40-65 ms in every 250 ms with the picture process at nice 10 or 19, a quarter of that
    with it in the idle class: a niced process still takes its share of a busy core. A drawing
    still under way after ``limit`` seconds is raised out of the class (P-96)."""
    closing = _closing
    if closing is None or closing.is_set():
        return draw()
    # Started before this thread enters the class: a thread is born in its creator's class,
    # and this one must run when it is due however busy the machine is.
    raise_out = threading.Timer(limit, leave_idle_class, args=(threading.get_native_id(),))
    raise_out.daemon = True
    raise_out.start()
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    # Looked at again once in the class: the bot sets the flag before it raises its processes
    # out of the class, so one of the two always sees the other.
    if closing.is_set():
        leave_idle_class(0)
    try:
        return draw()
    finally:
        raise_out.cancel()
        leave_idle_class(0)


def leave_idle_class(pid: int) -> None:
    """Put process ``pid`` (0: this thread) back in the ordinary class at its niceness (the
    legacy call keeps a process's nice value); nothing if it is not in the idle class or may
    not leave it, or on a system without the class (macOS, Windows)."""
    if not hasattr(os, "SCHED_IDLE"):  # pragma: no cover - not on Linux
        return
    with contextlib.suppress(OSError):
        if os.sched_getscheduler(pid) == os.SCHED_IDLE:
            os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))
