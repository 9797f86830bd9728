"""Fault injection: the database locked longer than its busy timeout, a 429 storm longer than the
retry budget and a second bot process on the same database, all while two games run on their
clocks and bot players alone, at LOG_LEVEL=DEBUG. Every game finishes, every board shows it, and
no log line shows a secret (P-20 … P-23)."""

from __future__ import annotations

import sqlite3
import sys

import pytest

from bot.store import Store
from rules.core import GAMES
from tests.support.leaks import leaks, needles, snapshots_of
from tests.support.processes import run
from tests.support.wait import until

from .conftest import REPO, World
from .helpers import WAIT, click, open_game, until_text

FAULTY = {
    "log_level": "DEBUG",
    "bot_player_delay": 0.05,
    "timers__bugoff_turn": 0.2,
    "database_busy_timeout": 0.2,
    "retry_max_delay": 0.3,
}


async def second_process(world: World) -> tuple[int, str]:
    """``python -m bot`` once more, on the same database (killed if it does not refuse)."""
    done = await run([sys.executable, "-m", "bot"], timeout=90, cwd=REPO, env=world.bot.env())
    return done.code, done.err


@pytest.mark.parametrize("world", [FAULTY], indirect=True)
@pytest.mark.usefixtures("tokens_refused")  # the storm is on the bot's own edits (P-92)
async def test_every_game_finishes_through_a_locked_database_a_429_storm_and_a_second_process(
    world: World,
) -> None:
    emu = world.emulator
    other_channel = emu.add_text_channel(world.guild, "more-games")
    # Nobody clicks after the start: each game moves on its clock and its bot player alone.
    # Ladybug Dash (at least three 1 s clocks long) starts last, right before the faults.
    boards = []
    for user, channel, game, opts in (
        (world.bob, other_channel, "bug-off", {}),
        (world.alice, world.channel, "ladybug-dash", {"clock": "1"}),
    ):
        board = await open_game(emu, user, channel, game, **opts)
        await click(emu, user, board, "Add easy bot")
        await until_text(emu, board, "2. 🤖 Easy bot")
        await emu.wait_for(lambda b=board: not b.find_button(label="Start").disabled, timeout=WAIT)
        # A 429 storm on each board, longer than discord.py's 5 tries and the old 5 retries:
        # the game's first edits after the start meet it.
        emu.rate_limit("PATCH", rf"/messages/{board.id}$", times=40, retry_after=0.01)
        await click(emu, user, board, "Start")
        boards.append(board)

    # The database is locked (another writer) for longer than the busy timeout: while it is,
    # no game can move, and something (a deadline, a bot's move) fails to.
    blocker = sqlite3.connect(world.bot.db_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        await until(lambda: "database is locked" in world.bot.output(), what="a failed write")
        # A second process on the same SQLite file refuses to start, in one line.
        code, err = await second_process(world)
        assert code == 3 and err.strip().count("\n") == 0, err
        assert "is already running the bot on" in err
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()

    for board in boards:
        await until_text(emu, board, "game over", timeout=180)
        assert not any(b.custom_id.startswith("g:") for b in board.buttons() if b.custom_id)

    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        finished = await store.finished_games()
        assert sorted(g.slug for g in finished) == ["bug-off", "ladybug-dash"]
        secret: set[str] = set()
        for game in finished:
            log = await store.actions(game.id)
            assert game.players is not None
            snapshots = snapshots_of(GAMES[game.slug], game.players, game.seed, game.options, log)
            secret |= needles(game.slug, snapshots)
    finally:
        await store.close()
    output = world.bot.output()
    assert " DEBUG " in output or "DEBUG" in output  # really at DEBUG
    assert emu.count_requests("PATCH", r"/messages/\d+$", status=429) == 80
    assert leaks(output, secret) == []
