"""At the end of a test session no process a test started may still run (issue 20, P-43).

Each pytest process (every xdist worker, and the controller or a plain run) lists its live
descendants when its session ends, after every fixture is torn down: those still there after a
short grace are killed, and the run fails, naming them. A worker hands what it found to the
controller (``workeroutput``), which prints it in the summary: a worker's own output is not shown.
tests/conftest.py registers ``LeftoverProcesses``; ``-p tests.support.leftovers`` does too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator
from typing import Any

import pytest

from .processes import RUN_MARK, WORKER_MARK, Running, end_all, live_descendants, orphans

KEY = "bugtable_leftover_processes"
GRACE = 3.0
"""Seconds a process that is on its way out (a browser's helpers after it closed) is given."""


def leftovers(grace: float = GRACE) -> list[Running]:
    """This process's live descendants, and the run's orphans (``orphans``), that are still
    there after ``grace`` seconds."""
    deadline = time.monotonic() + grace
    found = _left()
    while found and time.monotonic() < deadline:
        time.sleep(0.1)
        found = _left()
    return found


def _left() -> list[Running]:
    below = live_descendants()
    pids = {p.pid for p in below}
    return below + [p for p in orphans() if p.pid not in pids]


class LeftoverProcesses:
    """The session-end check, as a pytest plugin."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.found: list[str] = []

    # The innermost wrapper: after every session-end hook (pytest-xdist ending its workers),
    # before the outer ones (the summary, a worker's report to the controller).
    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None]:
        yield
        left = leftovers()
        where = getattr(self.config, "workerinput", {}).get("workerid", "pytest")
        if left:
            stuck = end_all(left)
            self.found += [
                f"{where}: {process}" + (" (would not die)" if process in stuck else " (killed)")
                for process in left
            ]
        workeroutput: dict[str, Any] | None = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:  # a worker: the controller reports
            workeroutput[KEY] = self.found
        if self.found:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """A worker finished: keep what it found."""
        self.found += getattr(node, "workeroutput", {}).get(KEY, [])

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.found:
            return
        terminalreporter.section("processes left running", sep="=", red=True, bold=True)
        for line in self.found:
            terminalreporter.write_line(line, red=True)
        terminalreporter.write_line(
            "A test started these and did not end them; the run fails "
            "(tests/support/processes.py: run, spawned).",
            red=True,
        )


def pytest_configure(config: pytest.Config) -> None:
    """Registers the check when this module is loaded as a plugin (``-p``)."""
    register(config)


def register(config: pytest.Config) -> None:
    # The first process of the run marks it; xdist workers and all they start inherit the mark.
    os.environ.setdefault(RUN_MARK, f"{os.getpid()}-{time.time_ns()}")
    # A worker marks what it starts as its own too; the controller, which checks last, has none.
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker is not None:
        os.environ[WORKER_MARK] = str(worker)
    else:  # a run inside a test's worker is a run of its own
        os.environ.pop(WORKER_MARK, None)
    if not config.pluginmanager.has_plugin("bugtable-leftovers"):
        config.pluginmanager.register(LeftoverProcesses(config), "bugtable-leftovers")
