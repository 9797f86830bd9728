"""Games stored by the code before issue 13 (commit 974b191) load, read and play on unchanged.

``tests/fixtures/old_games.db`` was written by that commit's ``Store`` and ``Host``, and
``old_games.json`` is what that code said about each game (``tests/fixtures/make_old_db.py``);
``old_games.pg.sql`` is the same games as it stored them on PostgreSQL.
Today's code opens a copy (migrating it to head) and must say the same: snapshots byte for byte
(key order included), views, legal actions, deadlines, the public log, scores, results and
stats; then every game still open, played on by the script's seeded random policy, reaches the
end it reached under the old code.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import URL, make_url

from bot.host.host import Host
from bot.host.table import Table
from bot.settings import Settings
from bot.store import Store
from rules.core import GAMES, get_game
from tests.fixtures.make_old_db import (
    OPEN,
    START,
    NoAlarms,
    digest,
    game_facts,
    play_on,
    record_facts,
    replay,
    stats,
)
from tests.support.clock import ManualClock

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SIDECAR: dict[str, Any] = json.loads((FIXTURES / "old_games.json").read_text(encoding="utf-8"))
GAMES_BEFORE: list[dict[str, Any]] = SIDECAR["games"]


@pytest.fixture
def clock() -> ManualClock:
    """Where the old script's clock started, before every stored deadline: nothing is overdue
    while the games are read."""
    return ManualClock(START)


@pytest.fixture
async def old_store(empty_db_url: str) -> AsyncIterator[Store]:
    """A copy of the old database, opened (and so migrated to head) by today's store: the
    SQLite file, or on PostgreSQL the same games as the old code stored them there (a dump)."""
    url = make_url(empty_db_url)
    if url.get_backend_name() == "sqlite":
        assert url.database is not None
        shutil.copyfile(FIXTURES / "old_games.db", url.database)
    else:
        await restore_dump(url, (FIXTURES / "old_games.pg.sql").read_text(encoding="utf-8"))
    store = await Store.open(empty_db_url)
    yield store
    await store.close()


async def restore_dump(url: URL, dump: str) -> None:
    """Run ``pg_dump``'s plain SQL (INSERTs, no psql commands) in the empty database."""
    import asyncpg  # only needed where PostgreSQL is

    conn = await asyncpg.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        user=url.username,
        password=url.password,
        database=url.database,
    )
    try:
        await conn.execute(dump)
    finally:
        await conn.close()


@pytest.fixture
async def old_host(old_store: Store, settings: Settings, clock: ManualClock) -> AsyncIterator[Host]:
    """Today's host on the old database. As in the script, deadlines fire only where the play
    says (an overdue one before a move, or ``step`` firing the next): the host's own alarms are
    off, since one starting after the clock jumped past its due time would fire whenever the
    event loop gets to it, and the same moves would not be made at both commits."""

    def monotonic() -> float:
        return clock.now.timestamp()

    host = Host(old_store, settings, clock=clock, monotonic=monotonic, sleep=clock.sleep)
    host.scheduler = NoAlarms()  # type: ignore[assignment]
    yield host
    await host.close()


async def differences(host: Host, before: dict[str, Any]) -> AsyncIterator[str]:
    """Every way today's code reads this stored game differently from the old code."""
    store = host.store
    record = await store.get_game(before["id"])
    assert record is not None, f"game {before['id']} is missing"
    seats = await store.seats(record.id)
    actions = await store.actions(record.id)
    now = record_facts(record, seats, actions)
    cls = get_game(record.slug)
    if record.snapshot is not None:
        if record.status in ("lobby", "playing"):
            table = await host.table(record.id)  # loaded the way a click loads it
        else:
            table = Table(record, cls, seats, engine=cls.from_dict(record.snapshot))
        engine = table.running()
        # Re-serialised by today's engine: a renamed, added or reordered key shows here.
        now["snapshot"] = digest(engine.to_dict())
        now["turn"] = engine.turn
        now["is_over"] = engine.is_over
        lines, replayed = replay(table, record.seed, record.options, actions)
        if digest(replayed) != before["snapshot"]:
            yield "replaying the action log does not give the stored snapshot"
        # Key order included: on PostgreSQL snapshots stay json, not jsonb (P-35, migration 0006).
        if digest(record.snapshot) != before["snapshot"]:
            yield "the stored snapshot changed in the migration"
        now["log_lines"] = len(lines)
        now["log"] = digest([before_levels(line) for line in lines])
        now["names"] = [before_levels(name) for name in table.names()]
        now.update(await game_facts(store, record, engine))
        if record.status == "playing":
            stored = {t.key: t.due_at for t in await store.timers(record.id)}
            if table.timers != stored:
                yield f"the loaded table's timers {table.timers} are not the stored ones"
    for key in sorted(before.keys() - {"id"} | now.keys()):
        if before.get(key) != now.get(key):
            yield f"{key}: was {before.get(key)!r}, now {now.get(key)!r}"


def before_levels(text: str) -> str:
    """What the old code said for a seat a stand-in plays: since bot levels (issue #23) its
    name also says the stand-in's level (``🤖 bob (Easy bot)``), and an old stand-in reads as
    the random player it was, easy (P-78). Only that suffix is taken out; all else compares."""
    return text.replace(" (Easy bot)", "")


async def all_differences(host: Host) -> list[str]:
    found = []
    for before in GAMES_BEFORE:
        found += [
            f"game {before['id']} ({before['slug']}, {before['status']}): {problem}"
            async for problem in differences(host, before)
        ]
    return found


async def test_stats_read_as_they_did(old_store: Store) -> None:
    """Leaderboards, members' records and history: results and ratings written by the old
    code read the same."""
    now = json.loads(json.dumps(await stats(old_store, SIDECAR["stats"]["leaderboards"])))
    assert now == SIDECAR["stats"]
    assert all(SIDECAR["stats"]["leaderboards"].values())


def test_the_fixture_covers_every_game_and_state() -> None:
    """What the checks below run over: every game, every player count finished, games in play
    with deadlines pending and with a seat a bot plays, lobbies."""
    for slug, cls in GAMES.items():
        if slug not in {"bag-of-bugs", "bug-off", "bug-run", "bugs-and-co"}:
            continue  # a test-only game
        mine = [g for g in GAMES_BEFORE if g["slug"] == slug]
        finished = {g["players"] for g in mine if g["status"] == "finished"}
        assert finished == set(range(cls.min_players, cls.max_players + 1)), slug
        playing = [g for g in mine if g["status"] == "playing"]
        assert any(g["timers"] for g in playing), slug
        assert any(g["status"] == "lobby" for g in mine), slug
    assert any(s["away"] for g in GAMES_BEFORE for s in g["seats"])
    assert any(not s["confirmed"] for g in GAMES_BEFORE for s in g["seats"])


async def test_old_games_read_as_they_did(old_host: Host, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    found = await all_differences(old_host)
    assert not found, "\n".join(found)
    # Loading checks each game's log against its snapshot (the Host's replay check): silent.
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_changed_snapshot_key_is_caught(
    old_host: Host, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The checks above can fail: an engine writing one key under another name is found, by
    the comparison and by the Host's own replay check as it loads the game."""
    cls = get_game("bug-off")
    original = cls.to_dict

    def renamed(self: Any) -> dict[str, Any]:
        data = original(self)
        first = next(iter(data))
        return {f"{first}_renamed" if k == first else k: v for k, v in data.items()}

    monkeypatch.setattr(cls, "to_dict", renamed)
    found = await all_differences(old_host)
    assert found
    assert all("(bug-off," in problem for problem in found)
    assert any("snapshot: was" in problem for problem in found)
    assert any(r.levelno == logging.ERROR and r.name == "bot.host.host" for r in caplog.records)


async def test_open_games_play_on_as_they_did(old_host: Host, clock: ManualClock) -> None:
    """Every lobby and game in play, played to its end by the script's seeded random policy:
    the same moves reach the same ends (snapshots, scores, stored results) as with the old code."""
    open_games = [g["id"] for g in GAMES_BEFORE if g["status"] in OPEN]
    assert len(open_games) == len(SIDECAR["played_on"])
    ends = json.loads(json.dumps(await play_on(old_host, clock, open_games)))
    for game_id, before in SIDECAR["played_on"].items():
        assert ends[game_id] == before, f"game {game_id}"
        assert before["status"] == "finished"


async def test_old_games_logs_read_with_letters_as_new_ones_do(old_store: Store) -> None:
    """How an old game's log reads (P-53): its lines are rebuilt as they were, bare colour
    glyphs and all (the proof above pins them byte for byte), and reach people lettered on the
    board and on the web page, like a new game's."""
    from bot.discord.render import send_kwargs
    from bot.ui.marks import LETTERS
    from bot.ui.presenter import presenter_for
    from bot.web.html import lines_html

    bare = re.compile("|".join(f"{re.escape(g)}(?!{letter})" for g, letter in LETTERS.items()))
    checked = set()
    for before in GAMES_BEFORE:
        if before["slug"] not in ("bag-of-bugs", "bug-off") or before["status"] != "finished":
            continue
        record = await old_store.get_game(before["id"])
        assert record is not None and record.snapshot is not None
        seats = await old_store.seats(record.id)
        cls = get_game(record.slug)
        table = Table(record, cls, seats, engine=cls.from_dict(record.snapshot))
        actions = await old_store.actions(record.id)
        lines, _ = replay(table, record.seed, record.options, actions)
        assert digest(lines) == before["log"]
        if not any(bare.search(line) for line in lines):
            continue
        board = presenter_for(record.slug).boards(table.view(), lines)[0]
        embed = send_kwargs(board, record.id, 0)["embed"].to_dict()
        shown = "\n".join(f["value"] for f in embed.get("fields", []))
        assert bare.search("\n".join(lines[-8:])) and not bare.search(shown)
        assert any(f"{glyph}{letter}" in shown for glyph, letter in LETTERS.items())
        assert not bare.search(lines_html(lines))
        checked.add(record.slug)
    assert checked == {"bag-of-bugs", "bug-off"}
