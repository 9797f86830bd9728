"""What a member does in a test: open a game, click by label, read what they were told."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import socket
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.emulator import Emulator
from bot.emulator.interactions import InteractionResult
from bot.emulator.models import Message
from bot.ui.presenter import BOARD_COPY_FOOTER

DEFERRED_UPDATE, UPDATE_MESSAGE = 6, 7
SILENT = (DEFERRED_UPDATE, UPDATE_MESSAGE)
"""A click answered without a word to the clicker: acknowledged (6), or by updating the
message it came from in the click's own response (7, P-45)."""
WAIT = 60.0
"""Seconds a test waits for the state it expects (a board's text, a button, a DM) before it
fails: what an idle machine shows within a second may take many on one whose cores are shared
by more test workers and bot processes than it has. A test never waits for time to pass (P-44)."""


#: Ports a test worker hands out (``free_port``): this many for each worker, below the range the
#: kernel picks from for outgoing connections and port-0 binds.
PORTS_PER_WORKER = 500
_handed_out = itertools.count()


def free_port() -> int:
    """A port nobody listens on now (for a bot's WEB_PORT or METRICS_PORT), which nothing else
    will be given before the test binds it.

    A port the kernel chose (bind to port 0) was given back to the kernel's pool of ephemeral
    ports: picked when a module was collected and bound minutes later, one was taken in
    between by an outgoing connection or another worker's port-0 bind (a fresh-clone CI run
    failed so). So the ports come from below that pool, each worker its own slice of them (the
    suite runs ``-n`` workers, ``PYTEST_XDIST_WORKER`` ``gw0``, ``gw1``, …), each handed out
    once, skipping any a process of another kind listens on."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    low = _ephemeral_low() - 10_000
    for _ in range(PORTS_PER_WORKER):
        port = low + (worker * PORTS_PER_WORKER + next(_handed_out) % PORTS_PER_WORKER) % 10_000
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port in this worker's slice")


def _ephemeral_low() -> int:
    """The lowest port the kernel hands out for outgoing connections and port-0 binds."""
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
    except OSError:
        return 32768  # Linux's default
    return int(text.split()[0])


async def open_game(
    emu: Emulator, user: Any, channel: Any, game: str = "ladybug-dash", **opts: str
) -> Message:
    result = await emu.slash(user, channel, f"bugs new {game}", **opts)
    assert result.acknowledged and not result.ephemeral, result
    return await result.wait_message(timeout=WAIT)


async def click(emu: Emulator, user: Any, message: Message, label: str) -> InteractionResult:
    button = message.find_button(label=label)
    result = await emu.click(user, message, button.custom_id)
    assert result.acknowledged, f"{label} by {user} was not acknowledged"
    return result


def private(result: InteractionResult) -> Message | None:
    """The ephemeral message that showed a member their private answer: a new reply (the
    response or a followup), their panel updated by this click's response (type 7 on it), or
    their panel edited in place while this click was answered (P-48). ``None``: none."""
    if result.ephemeral and result.message is not None and result.type != DEFERRED_UPDATE:
        return result.message
    for followup in result.followups:
        if followup.ephemeral:
            return followup
    return result.panel


def settled_with_board(message: Message) -> bool:
    """Whether ``message`` (a panel) shows the copy of the board a move made on it left
    beneath it (P-85)."""
    embeds = message.version().embeds
    return bool(embeds) and (embeds[-1].get("footer") or {}).get("text") == BOARD_COPY_FOOTER


def told(result: InteractionResult) -> str:
    """The private answer a member got, as it read then (empty if the click was accepted
    silently)."""
    if result.ephemeral and result.message is not None and result.type != DEFERRED_UPDATE:
        if settled_with_board(result.message):
            return ""  # the clicked panel settled, the board beneath it (P-85): nothing told
        return result.message.text()
    for followup in result.followups:
        if followup.ephemeral:
            return followup.text()
    return result.panel_text or ""


def dms_ever(emu: Emulator, user: Any) -> list[Message]:
    """Every DM the bot ever sent ``user``, deleted ones included (each notified them once)."""
    return [
        m
        for m in emu.visible_to(user, include_deleted=True)
        if m.channel.recipient is user and m.ephemeral_to is None
    ]


async def until_text(emu: Emulator, message: Message, needle: str, timeout: float = WAIT) -> str:  # noqa: ASYNC109
    try:
        await emu.wait_for(lambda: needle in message.text(), timeout=timeout)
    except TimeoutError:
        raise AssertionError(f"{needle!r} never appeared in {message.text()!r}") from None
    return message.text()


async def start_game(
    emu: Emulator,
    creator: Any,
    others: list[Any],
    channel: Any,
    game: str = "ladybug-dash",
    timeout: float = WAIT,  # noqa: ASYNC109
    **opts: str,
) -> Message:
    """Open, fill and start a game; returns the board (the lobby message, now edited)."""
    board = await open_game(emu, creator, channel, game, **opts)
    for user in others:
        assert told(await click(emu, user, board, "Join")) == ""
    await until_text(emu, board, f"({len(others) + 1}/", timeout=timeout)
    await emu.wait_for(lambda: not board.find_button(label="Start").disabled, timeout=timeout)
    assert told(await click(emu, creator, board, "Start")) == ""
    await emu.wait_for(lambda: not board.has_button(label="Join"), timeout=timeout)
    return board


async def card_of(emu: Emulator, user: Any, board: Message) -> int:
    """A Ladybug Dash player's secret card, as **My hand** shows it to them."""
    text = told(await click(emu, user, board, "My hand"))
    found = re.search(r"\*\*my_card\*\*: (\d)", text)
    assert found, text
    return int(found[1])


async def play_dash(
    emu: Emulator,
    board: Message,
    seats: list[Any],
    claims: list[Any],
    picks: dict[Any, list[int]] | None = None,
) -> str:
    """Play a started Ladybug Dash to its end: ``claims[r]`` takes round r's prize and each
    player picks ``picks[user][r]`` (1 by default). Returns the final board's text."""
    for round_no, claimer in enumerate(claims):
        await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
        assert told(await click(emu, claimer, board, "claim")) == ""
        for seat, user in enumerate(seats):
            await until_text(emu, board, f"**to_pick**: {seat}")
            n = (picks or {}).get(user, [1, 1, 1])[round_no]
            assert told(await click(emu, user, board, f"pick {n}")) == f"you picked: n {n}"
    return await until_text(emu, board, "game over")


# -- deadlines, read and moved in the database of a bot that is down ------------------------

_SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"
"""How the store writes a UTC time into SQLite (naive, microseconds always present)."""


def deadlines(db_path: Path, game_id: int) -> dict[str, datetime]:
    """The game's stored deadlines (key → due, UTC), read straight from the database."""
    with contextlib.closing(sqlite3.connect(db_path, timeout=30)) as db:
        rows = db.execute("SELECT key, due_at FROM timers WHERE game_id = ?", (game_id,))
        return {key: datetime.fromisoformat(due).replace(tzinfo=UTC) for key, due in rows}


def move_deadlines(db_path: Path, game_id: int, due: datetime) -> None:
    """Make every deadline of the game fall due at ``due``: the test's clock for a bot that is
    down (time passes, or does not, while it is away) without waiting in real time."""
    stored = due.astimezone(UTC).replace(tzinfo=None).strftime(_SQLITE_TIME)
    with contextlib.closing(sqlite3.connect(db_path, timeout=30)) as db, db:
        db.execute("UPDATE timers SET due_at = ? WHERE game_id = ?", (stored, game_id))


CHROMIUM_ARGS = ["--disable-crash-reporter", "--disable-breakpad"]
"""Chromium for the browser tests runs without its crash reporter: the reporter's handler is a
process of its own which, on a loaded machine, may outlive the browser's close (the run then
fails: P-43)."""
