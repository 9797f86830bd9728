"""Board pictures: rendered off the event loop once per picture, uploaded only when they change."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
from types import SimpleNamespace
from typing import Any

import discord

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.discord.images import ImageCache
from bot.discord.publisher import Publisher
from bot.discord.render import edit_kwargs, send_kwargs
from bot.settings import Settings
from bot.ui.presenter import presenter_for
from bot.ui.public_log import PublicLog
from bot.ui.specs import EmbedSpec, ImageSpec, MessageSpec
from tests.support.tables import act, make_table


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
        _env_file=None, board_edit_interval=0.0, channel_edit_limit=1000
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
        (board,) = presenter.boards(table)
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
