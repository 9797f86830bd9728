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
