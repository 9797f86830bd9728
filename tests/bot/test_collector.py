"""The bot's process sets Python's garbage collector for a long-running server (issue #21):
the thresholds before it loads anything, the heap frozen once it is up; a test process that
hosts a bot is left as it is."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest

from bot import cli, collector
from bot.discord.client import BugtableBot
from bot.settings import Settings

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_process_tunes_then_freezes_what_start_up_left() -> None:
    code = (
        "import gc\n"
        "from bot import collector\n"
        "default = gc.get_threshold()\n"
        "collector.tune()\n"
        "tuned = gc.get_threshold()\n"
        "kept = [[i] for i in range(1000)]\n"
        "collector.settle()\n"
        "print(default, tuned, gc.get_freeze_count() >= 1000, len(gc.get_objects()) < 1000)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\n")[0]
    young = (collector.YOUNG, collector.MIDDLE, collector.OLD)
    assert out == f"(700, 10, 10) {young} True True"


def test_the_command_line_settles_its_own_bot_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m bot`` asks its bot to freeze the heap once up; a bot made elsewhere (the
    tests', the demo's) does not, so no test process freezes what it later frees."""
    made: dict[str, Any] = {}
    monkeypatch.setattr(cli, "make_bot", lambda settings, **options: made.update(options))
    cli.own_bot(Settings())
    assert made == {"settle_heap": True}
    assert BugtableBot.__init__.__kwdefaults__["settle_heap"] is False


def a_task_that_holds_itself(payload: object) -> asyncio.Task[None]:
    """A task whose frames refer back to it, as a picture follow's do (its closure holds the
    ``PictureFollow`` that holds the task): cancelled, it is a cycle through its error."""
    box: dict[str, Any] = {"payload": payload}

    async def wait() -> None:
        await asyncio.sleep(3600)
        box.clear()

    box["task"] = task = asyncio.create_task(wait())
    return task


@pytest.mark.parametrize("forget", [True, False])
async def test_a_cancelled_task_is_freed_without_waiting_for_a_collection(forget: bool) -> None:
    """With ``forget_cancellation`` a cancelled task and all its frames held are freed by
    reference counting alone; without it they wait for the collector (the test can fail)."""

    class Payload:
        pass

    gc.disable()
    try:
        payload = Payload()
        alive = weakref.ref(payload)
        task = a_task_that_holds_itself(payload)
        del payload
        if forget:
            task.add_done_callback(collector.forget_cancellation)
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.wait({task})
        await asyncio.sleep(0)  # the done callbacks run
        assert task.cancelled()
        del task
        assert (alive() is None) is forget
        gc.collect()
        assert alive() is None  # the collector finds it either way
    finally:
        gc.enable()
