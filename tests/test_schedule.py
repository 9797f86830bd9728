"""The run's order (tests/support/schedule.py): longest modules first, a module's tests in
their own order, unknown modules at the median; times recorded only from a passing run."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from tests.support.schedule import TimeRecorder, load_times, longest_first

ROOT = Path("/repo")


@dataclass
class FakeItem:
    path: Path
    name: str


def items(*names: str) -> list[pytest.Item]:
    """``"a::t1"`` is test t1 of tests/a.py."""
    out = []
    for name in names:
        module, test = name.split("::")
        out.append(FakeItem(ROOT / "tests" / f"{module}.py", test))
    return cast(list[pytest.Item], out)


def order(ordered: list[pytest.Item]) -> list[str]:
    return [f"{cast(Any, i).path.stem}::{cast(Any, i).name}" for i in ordered]


def test_longest_modules_first_and_each_modules_tests_keep_their_order() -> None:
    collected = items("a::1", "a::2", "b::1", "c::1", "c::2", "c::3")
    times = {"tests/a.py": 1.0, "tests/b.py": 9.0, "tests/c.py": 5.0}
    assert order(longest_first(collected, times, ROOT)) == [
        "b::1",
        "c::1",
        "c::2",
        "c::3",
        "a::1",
        "a::2",
    ]


def test_an_unknown_module_goes_by_the_median_and_ties_keep_collection_order() -> None:
    collected = items("a::1", "new::1", "b::1", "c::1", "d::1")
    times = {"tests/a.py": 1.0, "tests/b.py": 5.0, "tests/c.py": 9.0, "tests/d.py": 5.0}
    # The median of 1, 5, 5, 9 is 5: "new" ties with b and d and stays before them.
    assert order(longest_first(collected, times, ROOT)) == [
        "c::1",
        "new::1",
        "b::1",
        "d::1",
        "a::1",
    ]


def test_the_modules_under_last_come_after_the_rest_each_part_longest_first() -> None:
    collected = items("e2e/x::1", "a::1", "e2e/y::1", "e2e/y::2", "b::1")
    times = {"tests/a.py": 1.0, "tests/b.py": 5.0, "tests/e2e/x.py": 9.0, "tests/e2e/y.py": 20.0}
    assert order(longest_first(collected, times, ROOT, last=ROOT / "tests" / "e2e")) == [
        "b::1",
        "a::1",
        "y::1",
        "y::2",
        "x::1",
    ]


def test_without_times_the_modules_keep_the_collection_order() -> None:
    collected = items("b::1", "b::2", "a::1", "c::1")
    assert order(longest_first(collected, {}, ROOT)) == ["b::1", "b::2", "a::1", "c::1"]


def test_times_are_recorded_per_module_only_from_a_passing_run(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    path = tmp_path / "tests" / "module_times.json"
    recorder = TimeRecorder(path)
    for nodeid, seconds in (
        ("tests/a.py::t1", 0.25),
        ("tests/a.py::t2", 1.0),
        ("tests/b.py::t", 3),
    ):
        recorder.pytest_runtest_logreport(cast(Any, _Report(nodeid, seconds)))
    recorder.pytest_sessionfinish(cast(Any, None), exitstatus=1)
    assert not path.exists()
    recorder.pytest_sessionfinish(cast(Any, None), exitstatus=0)
    assert list(json.loads(path.read_text()).items()) == [("tests/b.py", 3.0), ("tests/a.py", 1.2)]
    assert load_times(path) == {"tests/b.py": 3.0, "tests/a.py": 1.2}
    assert load_times(tmp_path / "absent.json") == {}


def test_a_partial_run_updates_its_modules_and_drops_deleted_ones(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    for name in ("a.py", "b.py"):
        (tests / name).write_text("")
    path = tests / "module_times.json"
    path.write_text(json.dumps({"tests/a.py": 5.0, "tests/b.py": 2.0, "tests/gone.py": 9.0}))
    recorder = TimeRecorder(path)
    recorder.pytest_runtest_logreport(cast(Any, _Report("tests/b.py::t", 7.0)))
    recorder.pytest_sessionfinish(cast(Any, None), exitstatus=0)
    assert load_times(path) == {"tests/b.py": 7.0, "tests/a.py": 5.0}


@dataclass
class _Report:
    nodeid: str
    duration: float
