"""The bot's process hands the interpreter's lock to its threads within 0.5 ms (issue #21), so
SQLite's writer and aiosqlite's connections never wait 5 ms per statement behind a busy loop;
only the bot's own process does (a test process is left as it is)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from bot import cli, switching
from bot.settings import Settings


def test_the_bot_process_sets_the_switch_interval_before_it_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[float] = []
    before = sys.getswitchinterval()

    def run(main: Any) -> None:
        seen.append(sys.getswitchinterval())
        main.close()  # never started: nothing to await

    monkeypatch.setattr(cli.event_loop, "run", run)
    monkeypatch.setattr(cli, "_setup_logging", lambda: None)
    monkeypatch.setattr(cli.collector, "tune", lambda: None)
    try:
        cli._run_bot(Settings(), "token")
    finally:
        sys.setswitchinterval(before)
    assert seen == [switching.SWITCH_INTERVAL]
    assert switching.SWITCH_INTERVAL == 0.0005
