"""No log level shows a secret (P-11, P-20): whole games of every engine at DEBUG, every record
scanned for the hidden parts of every snapshot the game went through."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator

import pytest

from bot.cli import keep_secrets_out_of_logs, quiet_start
from bot.games import game_for, games
from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store
from rules.core import GAMES
from tests.support.leaks import leaks, needles, snapshots_of
from tests.support.playout import open_and_start, play_out

from .conftest import FakeClock

GAMES_AND_PLAYERS = [
    (game.slug, min(max(game.engine.min_players, 3), game.engine.max_players)) for game in games()
]
"""Every registered game (the test game too), with three players where it takes three."""


@pytest.fixture
def debug_logging(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Logging as ``python -m bot`` sets it up with LOG_LEVEL=DEBUG; levels restored after."""
    manager = logging.root.manager
    before = {name: logging.getLogger(name).level for name in list(manager.loggerDict)}
    caplog.set_level(logging.DEBUG)
    keep_secrets_out_of_logs(logging.DEBUG)
    quiet_start(logging.DEBUG)  # Alembic's steps at DEBUG, whatever an earlier test left
    yield caplog
    for name, level in before.items():
        logging.getLogger(name).setLevel(level)


def rendered(caplog: pytest.LogCaptureFixture) -> str:
    """Every record as a handler would write it, tracebacks included."""
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return "\n".join(formatter.format(record) for record in caplog.records)


@pytest.mark.parametrize(("slug", "players"), GAMES_AND_PLAYERS)
async def test_a_whole_game_at_debug_logs_no_hand_deck_tile_or_loot(
    slug: str,
    players: int,
    empty_db_url: str,
    clock: FakeClock,
    debug_logging: pytest.LogCaptureFixture,
) -> None:
    settings = Settings(_env_file=None, discord_token="t" * 30, timers={"bag_min_gap": 0})  # type: ignore[call-arg]
    store = await Store.open(empty_db_url)  # migrating logs too: scanned with the rest
    host = Host(store, settings, clock=clock)
    try:
        table = await open_and_start(host, slug, players, channel_id=700)
        await play_out(host, table, clock, random.Random(3))
        log = await store.actions(table.id)
        record = await store.get_game(table.id)
        assert record is not None and record.status == "finished"
    finally:
        await host.close()
        await store.close()
    secret = needles(slug, snapshots_of(GAMES[slug], players, record.seed, record.options, log))
    # The RNG state and at least one hidden part; the test game's secret cards (1-6 each) are
    # too short to tell from other text, so for it the RNG state alone is scanned for.
    record = game_for(slug)
    assert record is not None
    assert len(secret) >= (5 if record.shipped else 4)
    text = rendered(debug_logging)
    assert any(r.levelno == logging.DEBUG for r in debug_logging.records)  # really at DEBUG
    assert leaks(text, secret) == []


def test_the_scan_finds_a_snapshot_in_a_statement_log_line() -> None:
    engine = GAMES["bug-off"].new(3, 5)
    snapshot = engine.to_dict()
    line = f"executing functools.partial(<execute>, 'UPDATE games SET snapshot=?', ({snapshot!r},))"
    assert leaks(line, needles("bug-off", [snapshot]))
