"""The order test modules start in: longest first, so the run ends together.

pytest-xdist (``--dist loadfile --no-loadscope-reorder``) hands each worker one module at a time,
in collection order. Left to itself it starts with the modules that have the most tests, and the
two longest single tests (a game on Discord's real 5 s window, a fault-injection run on clocks)
came last: one worker ran alone for half a minute after the others had finished. Starting the
longest modules first (the classic longest-processing-time rule) leaves short modules to fill
the end.

The end-to-end modules come after all the others. Their bots are shared by the modules of a
worker and answered by emulators in the worker's event loop, which runs only while an e2e test
does: a worker that left for other modules and came back had to stop its bots in between and
start them again (``tests/e2e/conftest.py``), each start 1.5-2 s of a core. In one block, a
worker starts its bots once.

The times come from ``tests/module_times.json``, written by a run with
``--record-module-times``. They only order the run: stale or missing times make it slower,
never wrong; a module the file does not know goes by the median.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

TIMES_FILE = Path(__file__).resolve().parents[1] / "module_times.json"


def load_times(path: Path = TIMES_FILE) -> dict[str, float]:
    """Seconds per module (path from the repository root), or nothing if never recorded."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    return {str(module): float(seconds) for module, seconds in data.items()}


def longest_first(
    items: list[pytest.Item], times: Mapping[str, float], root: Path, *, last: Path | None = None
) -> list[pytest.Item]:
    """``items`` with whole modules reordered by their time, longest first; the tests of a
    module keep their order, and modules of equal time keep theirs. The modules under ``last``
    come after all the others (longest first among themselves)."""
    default = statistics.median(times.values()) if times else 0.0
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(module_of(item, root), index)

    def key(pair: tuple[int, pytest.Item]) -> tuple[bool, float, int, int]:
        index, item = pair
        module = module_of(item, root)
        later = last is not None and last in item.path.parents
        return (later, -times.get(module, default), first_seen[module], index)

    return [item for _, item in sorted(enumerate(items), key=key)]


def module_of(item: pytest.Item, root: Path) -> str:
    return item.path.relative_to(root).as_posix()


class TimeRecorder:
    """Sums the setup, call and teardown time of every test per module; after a run that
    passed, writes them into ``tests/module_times.json``. A partial run updates the modules it
    ran; a module whose file is gone is dropped."""

    def __init__(self, path: Path = TIMES_FILE) -> None:
        self.path = path
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid.split("::", 1)[0]] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if exitstatus != 0 or not self.seconds:
            return
        root = self.path.parent.parent
        times = {m: t for m, t in load_times(self.path).items() if (root / m).is_file()}
        self.path.write_text(dumps({**times, **self.seconds}))


def dumps(seconds: Mapping[str, float]) -> str:
    """Longest first, one module per line, to the tenth of a second (diffs stay readable)."""
    ordered: Iterable[tuple[str, float]] = sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0]))
    return json.dumps({module: round(value, 1) for module, value in ordered}, indent=0) + "\n"
