"""Board pictures: rendered off the event loop once per picture, uploaded only when they change."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gc
import os
import random
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from multiprocessing import resource_tracker
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.child import WORKER_NICENESS, may_leave_idle_class
from bot.discord.publisher import Publisher
from bot.discord.render import edit_kwargs, send_kwargs
from bot.picture_cache import ImageCache
from bot.settings import Settings
from bot.store import GameStatus
from bot.ui.presenter import presenter_for
from bot.ui.public_log import PublicLog
from bot.ui.specs import EmbedSpec, ImageSpec, MessageSpec
from tests.support.clock import ManualClock
from tests.support.sched_probe import own_class, own_niceness, slow_own_class
from tests.support.tables import act, make_table
from tests.support.wait import until

REPO = Path(__file__).resolve().parents[2]


def picture(key: str, calls: list[str]) -> ImageSpec:
    def render() -> bytes:
        calls.append(threading.current_thread().name)
        return f"png:{key}".encode()

    return ImageSpec("board.png", key, render)


async def test_a_picture_is_rendered_once_in_a_worker_thread() -> None:
    calls: list[str] = []
    cache = ImageCache(size=2)
    image = picture("a", calls)
    results = await asyncio.gather(*(cache.png(image) for _ in range(5)))
    assert results == [b"png:a"] * 5
    assert len(calls) == 1 and calls[0] != threading.current_thread().name
    await cache.png(picture("b", calls))
    await cache.png(picture("c", calls))  # evicts "a", the oldest
    await cache.png(image)
    assert cache.renders == 4


def test_an_unchanged_picture_is_kept_and_a_new_one_replaces_it() -> None:
    spec = MessageSpec(embed=EmbedSpec(title="t"), image=picture("a", []))
    sent = send_kwargs(spec, 1, 1, b"png")
    assert isinstance(sent["file"], discord.File) and sent["file"].filename == "board.png"
    assert sent["embed"].image.url == "attachment://board.png"
    new = edit_kwargs(spec, 1, 2, b"png")
    assert [f.filename for f in new["attachments"]] == ["board.png"]
    kept = edit_kwargs(spec, 1, 2, shown=spec.image)
    assert "attachments" not in kept and kept["embed"].image.url == "attachment://board.png"
    gone = edit_kwargs(MessageSpec(embed=EmbedSpec(title="t")), 1, 3, shown=spec.image)
    assert gone["attachments"] == [] and gone["embed"].image.url is None
    plain = edit_kwargs(MessageSpec(content="x"), 1, 1)
    assert "attachments" not in plain


class RecordingChannel:
    id = 20

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                channel.edits.append(kwargs)

        return Partial()


async def test_the_publisher_uploads_a_board_picture_only_when_it_changes() -> None:
    channel = RecordingChannel()
    # Pacing is not under test here: a limit no test reaches, so no edit waits out a window.
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, board_edit_interval=0.0, channel_edit_limit=1000, picture_interval=0.0
    )

    class Store:
        shared = False  # one process (P-36)

        async def set_message(self, *args: Any) -> None:
            return None

    fake_bot: Any = SimpleNamespace(
        settings=settings, store=Store(), get_partial_messageable=lambda _id: channel
    )
    publisher = Publisher(fake_bot, fake_bot.store, settings, PublicLog())
    table = make_table("bug-run", 3, 5, names=["ann", "ben", "cat"])
    # bots get no DMs: only the board is synced here
    table.seats = [dataclasses.replace(s, is_bot=True) for s in table.seats]
    publisher.remember_board(table.id, 99)
    engine = table.running()
    presenter = presenter_for("bug-run")
    rng = random.Random(5)
    uploads, shown_key = 0, None
    for _ in range(30):
        (board,) = presenter.boards(table.view())
        assert board.image is not None
        publisher.mark_dirty(table)
        await publisher.flush()
        edit = channel.edits[-1]
        # uploaded exactly when the picture changed; otherwise the message keeps its picture
        assert ("attachments" in edit) == (board.image.key != shown_key)
        assert edit["embed"].image.url == "attachment://bug-run.png"
        if "attachments" in edit:
            uploads += 1
            assert [f.filename for f in edit["attachments"]] == ["bug-run.png"]
        shown_key = board.image.key
        # a change the picture does not draw (a log line): edited, the picture kept as it is
        publisher.log.add(table.id, [f"note {len(channel.edits)}"])
        publisher.mark_dirty(table)
        await publisher.flush()
        assert channel.edits[-1] is not edit and "attachments" not in channel.edits[-1]
        (seat,) = engine.waiting_for()
        act(table, seat, rng.choice(engine.legal_actions(seat)))
    assert uploads > 1
    assert publisher.images.renders == uploads


@pytest.fixture
def no_tracker_left() -> Iterator[None]:
    """Picture processes are spawned, which starts multiprocessing's resource tracker: it would
    live as long as this test process, so it is stopped with the test (P-43)."""
    yield
    gc.collect()  # the pools' semaphores are let go before the tracker that would unlink them
    resource_tracker._resource_tracker._stop()  # type: ignore[attr-defined]


@pytest.mark.usefixtures("no_tracker_left")
async def test_pictures_are_drawn_by_a_worker_process_and_come_out_the_same() -> None:
    """A Bug Run board drawn by the picture process is the same PNG as one drawn here; a
    renderer that cannot go to another process (a closure) is drawn in a thread instead."""
    table = make_table("bug-run", 3, seed=4)
    (board,) = presenter_for("bug-run").boards(table.view())
    assert board.image is not None
    cache = ImageCache(processes=1)
    try:
        drawn = await cache.png(board.image)
        assert drawn == board.image.render()
        assert cache.workers is not None and cache.workers._pool is not None
        calls: list[str] = []
        assert await cache.png(picture("closure", calls)) == b"png:closure"
        assert len(calls) == 1  # it ran here, in a worker thread
        # A picture can wait a few milliseconds, a click cannot: the process runs at a lower
        # priority than the bot, so where the cores are busy the event loop goes first (P-86).
        theirs = int(await cache.workers.run(own_niceness))
        assert theirs == min(os.nice(0) + WORKER_NICENESS, 19)
    finally:
        cache.close(wait=True)
    assert cache.workers._pool is None


def picture_pids(cache: ImageCache) -> list[int]:
    assert cache.workers is not None and cache.workers._pool is not None
    return list(cache.workers._pool._processes)  # type: ignore[attr-defined]


idle_class = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not may_leave_idle_class(),
    reason="Linux's idle class, where this process could leave it again",
)


@idle_class
@pytest.mark.usefixtures("no_tracker_left")
async def test_the_picture_process_draws_in_the_idle_class_and_waits_outside_it() -> None:
    """A picture takes only CPU time nothing else wants, and a waking event loop takes the core
    from it at once; between pictures the process is back in the ordinary class at its
    niceness, so a closed pool or an orphan ends at once however busy the machine (P-89)."""
    cache = ImageCache(processes=1)
    try:
        assert cache.workers is not None
        assert int(await cache.workers.run(own_class)) == os.SCHED_IDLE
        (pid,) = picture_pids(cache)
        assert os.sched_getscheduler(pid) == os.SCHED_OTHER
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(os.nice(0) + WORKER_NICENESS, 19)
    finally:
        cache.close(wait=True)


@idle_class
@pytest.mark.usefixtures("no_tracker_left")
async def test_a_drawing_that_outlasts_the_idle_limit_finishes_outside_the_idle_class() -> None:
    """On a machine kept busy for long the idle class gets almost no CPU: a drawing still under
    way after the limit is raised out of it and finishes at the process's niceness (P-96); a
    quicker one stays in it to its end."""
    cache = ImageCache(processes=1, idle_limit=0.3)
    try:
        assert cache.workers is not None
        assert int(await cache.workers.run(own_class)) == os.SCHED_IDLE
        assert int(await cache.workers.run(functools.partial(slow_own_class, 1.5))) == (
            os.SCHED_OTHER
        )
        assert int(await cache.workers.run(own_class)) == os.SCHED_IDLE  # the next one is in it
    finally:
        cache.close(wait=True)


@idle_class
@pytest.mark.usefixtures("no_tracker_left")
async def test_closing_the_pool_takes_its_drawings_out_of_the_idle_class() -> None:
    """The drawing under way is raised out of the idle class when the pool closes, and one the
    pool had already handed over is not drawn in it: either would otherwise finish, and its
    process end, only on CPU time nothing else wants (seconds on a busy machine)."""
    cache = ImageCache(processes=1)
    assert cache.workers is not None
    workers = cache.workers
    await workers.run(functools.partial(bytes, 0))  # a picklable no-op starts it
    (pid,) = picture_pids(cache)
    assert workers._pool is not None
    manager = workers._pool._executor_manager_thread  # type: ignore[attr-defined]
    assert manager is not None
    drawing = asyncio.ensure_future(workers.run(functools.partial(slow_own_class, 0.5)))
    handed = asyncio.ensure_future(workers.run(functools.partial(slow_own_class, 0.0)))
    await until(lambda: os.sched_getscheduler(pid) == os.SCHED_IDLE)
    cache.close()
    assert os.sched_getscheduler(pid) == os.SCHED_OTHER
    assert int(await drawing) == os.SCHED_OTHER  # raised out while it drew
    with contextlib.suppress(asyncio.CancelledError):  # unless the pool let it go unstarted
        assert int(await handed) == os.SCHED_OTHER
    await asyncio.to_thread(manager.join)  # it ends once the process has
    assert not manager.is_alive()


@pytest.mark.usefixtures("no_tracker_left")
# A killed worker leaves CPython's broken pool unlinking a semaphore twice, which it reports as
# an ignored FileNotFoundError: multiprocessing's own, not the bot's.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
async def test_a_dead_picture_process_is_replaced() -> None:
    """The process dies: that picture is drawn in a thread, and the next goes to a new process."""
    table = make_table("bug-run", 2, seed=5)
    engine = table.running()
    images = []
    for _ in range(2):
        (board,) = presenter_for("bug-run").boards(table.view())
        assert board.image is not None
        images.append(board.image)
        seat = next(s for s in sorted(engine.waiting_for()) if s >= 0)
        act(table, seat, engine.legal_actions(seat)[0])
    assert images[0].key != images[1].key
    cache = ImageCache(processes=1)
    try:
        workers = cache.workers
        assert workers is not None
        await workers.run(functools.partial(bytes, 0))  # a picklable no-op starts it
        pool = workers._pool
        assert pool is not None
        for process in list(pool._processes.values()):
            process.kill()
            process.join()
        assert await cache.png(images[0]) == images[0].render()
        assert workers._pool is None  # given up: the next picture starts a new one
        assert await cache.png(images[1]) == images[1].render()
        assert workers._pool is not None and workers._pool is not pool
        del pool  # let go of the dead one's semaphores too (see no_tracker_left)
    finally:
        cache.close(wait=True)


ORPHANING_BOT = """
import asyncio, os, signal
from bot.picture_cache import PictureWorkers

async def main():
    workers = PictureWorkers(1)
    print(await workers.run(os.getpid), flush=True)  # the picture process's pid
    os.kill(os.getpid(), signal.SIGKILL)  # no shutdown, as kill -9

asyncio.run(main())
"""


def test_a_picture_process_ends_when_the_bot_is_killed(tmp_path: Path) -> None:
    """kill -9 of the bot leaves nobody to shut its picture pool down: the picture process
    notices and ends, instead of living on as an orphan of init."""
    bot = subprocess.Popen(
        [sys.executable, "-c", ORPHANING_BOT], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    assert bot.stdout is not None
    with bot.stdout:  # only the first line: an orphan would hold the pipe open for ever
        worker = int(bot.stdout.readline())
    assert bot.wait(timeout=60) == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while _alive(worker):
        if time.monotonic() > deadline:
            os.kill(worker, signal.SIGKILL)
            raise AssertionError(f"picture process {worker} outlived its bot")
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


# -- a click on the board: answered at once, its picture follows (P-57) ------------------------


class GatedPictures:
    """The publisher's pictures, drawn only when the test lets them (``release``)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.gate = asyncio.Event()

    def cached(self, image: ImageSpec) -> bytes | None:
        return None

    async def png(self, image: ImageSpec) -> bytes:
        self.asked.append(image.key)
        await self.gate.wait()
        return f"png:{image.key}".encode()

    def close(self, *, wait: bool = False) -> None:
        return None


class FakeClick:
    """A component interaction on message ``message_id`` by ``user_id``: records how it was
    answered (its response, then edits through its token)."""

    def __init__(self, message_id: int, user_id: int, *, fail_edit: bool = False) -> None:
        self.message = SimpleNamespace(id=message_id)
        self.user = SimpleNamespace(id=user_id)
        self.responded: list[dict[str, Any]] = []
        self.token_edits: list[dict[str, Any]] = []
        self.fail_edit = fail_edit
        click = self

        class Response:
            def is_done(self) -> bool:
                return bool(click.responded)

            async def edit_message(self, **kwargs: Any) -> None:
                click.responded.append(kwargs)

        self.response = Response()

    async def edit_original_response(self, **kwargs: Any) -> None:
        if self.fail_edit:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="boom"), "boom")
        self.token_edits.append(kwargs)


def board_publisher(
    picture_interval: float = 0.0, clock: ManualClock | None = None
) -> tuple[Publisher, RecordingChannel, Any]:
    """A publisher of one Bug Run game's board (message 99), its channel, and the table;
    its board's pictures at most every ``picture_interval`` seconds (P-86) of ``clock``."""
    channel = RecordingChannel()
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        board_edit_interval=0.0,
        channel_edit_limit=1000,
        picture_processes=0,
        picture_interval=picture_interval,
    )

    class Store:
        shared = False

        async def set_message(self, *args: Any) -> None:
            return None

    fake_bot: Any = SimpleNamespace(
        settings=settings, store=Store(), get_partial_messageable=lambda _id: channel
    )
    timing: dict[str, Any] = {} if clock is None else {"clock": clock, "sleep": clock.sleep}
    publisher = Publisher(fake_bot, fake_bot.store, settings, PublicLog(), **timing)
    table = make_table("bug-run", 3, 5, names=["ann", "ben", "cat"])
    table.seats = [dataclasses.replace(s, is_bot=True) for s in table.seats]  # no DMs here
    publisher.remember_board(table.id, 99)
    return publisher, channel, table


async def board_shown(
    gated: GatedPictures, picture_interval: float = 0.0, clock: ManualClock | None = None
) -> tuple[Publisher, RecordingChannel, Any, int]:
    """``board_publisher()`` once its board shows its first picture; from then on pictures
    are drawn by ``gated``. The channel edits made so far are counted."""
    publisher, channel, table = board_publisher(picture_interval, clock)
    publisher.mark_dirty(table)
    await publisher.flush()
    assert "attachments" in channel.edits[-1]
    publisher.images = gated  # type: ignore[assignment]
    return publisher, channel, table, len(channel.edits)


def next_picture(table: Any, rng: random.Random) -> str:
    """Play until the board's picture changes; its new key."""
    presenter = presenter_for("bug-run")
    (before,) = presenter.boards(table.view())
    engine = table.running()
    while True:
        (seat,) = engine.waiting_for()
        act(table, seat, rng.choice(engine.legal_actions(seat)))
        (board,) = presenter.boards(table.view())
        assert board.image is not None and before.image is not None
        if board.image.key != before.image.key:
            return board.image.key


async def test_a_board_click_is_answered_before_its_picture_is_drawn() -> None:
    gated = GatedPictures()
    publisher, channel, table, edits_before = await board_shown(gated)
    key = next_picture(table, random.Random(1))

    click = FakeClick(99, 100)
    # (a click whose answer waited for its picture would wait here for ever)
    assert await asyncio.wait_for(publisher.answer_click(click, table), 5)  # type: ignore[arg-type]
    # Answered at once: the new text, the picture the board already carries (no upload) ...
    (answer,) = click.responded
    assert "attachments" not in answer
    assert answer["embed"].image.url == "attachment://bug-run.png"
    await asyncio.sleep(0.01)
    assert gated.asked == [key] and click.token_edits == []
    # ... and the new picture follows through the click's own token, not a channel edit.
    gated.gate.set()
    await publisher.flush()
    (follow,) = click.token_edits
    assert [f.filename for f in follow["attachments"]] == ["bug-run.png"]
    assert len(channel.edits) == edits_before


async def test_a_picture_being_drawn_is_put_on_and_one_waiting_its_turn_gives_way() -> None:
    """A picture that a newer state replaces while it waits its turn (P-86) is never drawn;
    one already being drawn is put on all the same, with the board's newest text, so a stream
    of moves still gets a picture every interval; the newest state's follows in its turn."""
    clock = ManualClock()
    gated = GatedPictures()
    publisher, channel, table, edits_before = await board_shown(gated, 2.0, clock)
    rng = random.Random(2)
    first, second, third = FakeClick(99, 100), FakeClick(99, 100), FakeClick(99, 100)
    next_picture(table, rng)
    assert await publisher.answer_click(first, table)  # type: ignore[arg-type]
    drawn = next_picture(table, rng)
    assert await publisher.answer_click(second, table)  # type: ignore[arg-type]
    await until(lambda: clock.sleepers == 1, what="the newest picture waiting its turn")
    clock.advance(2.0)
    await until(lambda: gated.asked == [drawn], what="the second picture being drawn")
    newest = next_picture(table, rng)
    assert await publisher.answer_click(third, table)  # type: ignore[arg-type]
    (third_answer,) = third.responded
    await until(lambda: clock.sleepers == 1, what="the third picture waiting its turn")
    gated.gate.set()
    await until(lambda: second.token_edits, what="the picture drawn put on")
    (put_on,) = second.token_edits
    assert put_on["attachments"][0].fp.read() == f"png:{drawn}".encode()
    assert put_on["embed"].description == third_answer["embed"].description  # newest text
    clock.advance(2.0)
    await asyncio.wait_for(publisher.flush(), 10)
    assert first.token_edits == []  # it gave way before it was drawn
    (follow,) = third.token_edits
    assert follow["attachments"][0].fp.read() == f"png:{newest}".encode()
    assert gated.asked == [drawn, newest]
    assert len(channel.edits) == edits_before


async def test_a_picture_that_gives_way_is_freed_without_a_collection() -> None:
    """A picture overtaken while it waits its turn (P-86) is cancelled; its task, and all
    its frames held, are freed by reference counting once nothing waits on it, not left to a
    garbage collection (``collector.forget_cancellation``)."""
    clock = ManualClock()
    gated = GatedPictures()
    publisher, _, table, _ = await board_shown(gated, 2.0, clock)
    pictures = publisher._state(table.id).pictures
    rng = random.Random(2)
    gc.disable()
    try:
        next_picture(table, rng)
        assert await publisher.answer_click(FakeClick(99, 100), table)  # type: ignore[arg-type]
        (first,) = pictures.values()
        overtaken = weakref.ref(first.task)
        del first
        await until(lambda: clock.sleepers == 1, what="the first picture waiting its turn")
        next_picture(table, rng)
        second = FakeClick(99, 100)
        assert await publisher.answer_click(second, table)  # type: ignore[arg-type]
        clock.advance(2.0)
        gated.gate.set()
        await asyncio.wait_for(publisher.flush(), 10)
        assert len(second.token_edits) == 1 and gated.asked == [gated.asked[-1]]
        await until(lambda: overtaken() is None, what="the overtaken picture freed")
    finally:
        gc.enable()


async def test_a_picture_that_cannot_follow_its_click_is_put_on_by_the_pump() -> None:
    gated = GatedPictures()
    gated.gate.set()
    publisher, channel, table, edits_before = await board_shown(gated)
    key = next_picture(table, random.Random(3))
    click = FakeClick(99, 100, fail_edit=True)
    assert await publisher.answer_click(click, table)  # type: ignore[arg-type]
    await publisher.flush()
    (edit,) = channel.edits[edits_before:]
    assert edit["attachments"][0].fp.read() == f"png:{key}".encode()


async def test_the_first_picture_of_a_board_follows_its_click_too() -> None:
    """Start turns the lobby into the board: the click is answered at once without a picture,
    and the first picture follows with the embed that shows it."""
    publisher, channel, table = board_publisher()
    gated = GatedPictures()
    publisher.images = gated  # type: ignore[assignment]
    click = FakeClick(99, 100)
    assert await asyncio.wait_for(publisher.answer_click(click, table), 5)  # type: ignore[arg-type]
    (answer,) = click.responded
    assert "attachments" not in answer and answer["embed"].image.url is None
    gated.gate.set()
    await publisher.flush()
    (follow,) = click.token_edits
    assert [f.filename for f in follow["attachments"]] == ["bug-run.png"]
    assert follow["embed"].image.url == "attachment://bug-run.png"
    assert follow["embed"].title == answer["embed"].title
    assert channel.edits == []


# -- a board's pictures at most every PICTURE_INTERVAL (P-86) ---------------------------------


async def test_a_board_gets_a_picture_at_most_every_interval_of_its_newest_state() -> None:
    """Moves answered on the board before its next picture is due are each answered at once
    with their new text; one picture follows, of the newest state, once it falls due. The
    next move after a quiet interval gets its picture at once."""
    clock = ManualClock()
    gated = GatedPictures()
    gated.gate.set()
    publisher, channel, table, edits_before = await board_shown(gated, 2.0, clock)
    rng = random.Random(4)
    clicks = []
    for _ in range(3):
        newest = next_picture(table, rng)
        click = FakeClick(99, 100)
        assert await publisher.answer_click(click, table)  # type: ignore[arg-type]
        (answer,) = click.responded  # the new text at once, the old picture kept
        assert "attachments" not in answer
        assert answer["embed"].image.url == "attachment://bug-run.png"
        clicks.append(click)
    await until(lambda: clock.sleepers == 1, what="only the newest picture waiting its turn")
    clock.advance(1.9)
    await asyncio.sleep(0.01)
    assert gated.asked == []
    clock.advance(0.1)
    await asyncio.wait_for(publisher.flush(), 10)
    assert gated.asked == [newest]
    assert [c.token_edits for c in clicks[:2]] == [[], []]
    (follow,) = clicks[2].token_edits
    assert follow["attachments"][0].fp.read() == f"png:{newest}".encode()
    assert len(channel.edits) == edits_before

    clock.advance(2.0)
    later = next_picture(table, rng)
    click = FakeClick(99, 100)
    assert await publisher.answer_click(click, table)  # type: ignore[arg-type]
    await asyncio.wait_for(publisher.flush(), 10)  # nothing waits on the clock
    assert gated.asked == [newest, later]
    assert click.token_edits[0]["attachments"][0].fp.read() == f"png:{later}".encode()


async def test_a_board_edit_before_its_picture_is_due_keeps_the_old_one_until_it_is() -> None:
    """The publisher's own edit of the board (a move made elsewhere) shows the new text at
    once with the picture the board carries, and puts the new picture on when it is due."""
    clock = ManualClock()
    gated = GatedPictures()
    gated.gate.set()
    publisher, channel, table, edits_before = await board_shown(gated, 2.0, clock)
    before = channel.edits[-1]["embed"]
    key = next_picture(table, random.Random(6))
    publisher.mark_dirty(table)
    await until(lambda: len(channel.edits) > edits_before, what="the board's edit")
    (edit,) = channel.edits[edits_before:]
    assert "attachments" not in edit and edit["embed"].image.url == "attachment://bug-run.png"
    shown = publisher.board_embed(table)
    assert shown is not None and edit["embed"].description == shown.description
    assert edit["embed"].to_dict() != before.to_dict()
    assert gated.asked == []
    await until(lambda: clock.sleepers == 1, what="the board's picture waiting its turn")
    clock.advance(2.0)
    await asyncio.wait_for(publisher.flush(), 10)
    (again,) = channel.edits[edits_before + 1 :]
    assert again["attachments"][0].fp.read() == f"png:{key}".encode()
    assert gated.asked == [key]


def play_to_the_end(table: Any, seed: int) -> ImageSpec:
    """Random legal moves until the game is over, recorded as finished; its last picture."""
    engine = table.running()
    rng = random.Random(seed)
    while not engine.is_over:
        (seat,) = engine.waiting_for()
        act(table, seat, rng.choice(engine.legal_actions(seat)))
    table.game = dataclasses.replace(table.game, status=GameStatus.FINISHED)
    (board,) = presenter_for("bug-run").boards(table.view())
    assert board.image is not None
    return board.image


async def test_the_last_picture_of_a_game_is_never_held_back() -> None:
    """A game that ends before its board's next picture is due shows its final picture at
    once, in the publisher's edit as after a click: nothing is left to redraw it later. The
    final words do not wait for it: while it is being drawn they go out beside the old one."""
    clock = ManualClock()
    gated = GatedPictures()
    publisher, channel, table, edits_before = await board_shown(gated, 2.0, clock)
    final = play_to_the_end(table, 8)
    publisher.mark_dirty(table)
    await until(lambda: len(channel.edits) > edits_before, what="the final words")
    (words,) = channel.edits[edits_before:]
    assert "wins" in words["embed"].description and "attachments" not in words
    assert gated.asked == [final.key]  # being drawn meanwhile
    gated.gate.set()
    await asyncio.wait_for(publisher.flush(), 10)  # nothing waits on the clock
    (_, edit) = channel.edits[edits_before:]
    assert edit["attachments"][0].fp.read() == f"png:{final.key}".encode()
    assert edit["embed"].description == words["embed"].description

    publisher, channel, table, edits_before = await board_shown(GatedPictures(), 2.0, clock)
    publisher.images.gate.set()  # type: ignore[attr-defined]
    final = play_to_the_end(table, 9)
    click = FakeClick(99, 100)
    assert await publisher.answer_click(click, table)  # type: ignore[arg-type]
    await asyncio.wait_for(publisher.flush(), 10)
    (follow,) = click.token_edits
    assert follow["attachments"][0].fp.read() == f"png:{final.key}".encode()
