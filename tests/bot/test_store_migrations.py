"""Alembic owns the schema: head must equal the models, and upgrading must work from the CLI
and from inside the bot's running event loop."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from bot.speeds import control_of
from bot.store import ResultSpec, Store, upgrade_to_head
from bot.store.database import create_engine
from bot.store.migrate import MIGRATION_FILE, MIGRATIONS_DIR, alembic_config, newest_revision
from bot.store.models import UNFINISHED_SQL, Base
from tests.support.processes import run

REPO = Path(__file__).resolve().parents[2]
TABLES = {
    "games",
    "seats",
    "actions",
    "messages",
    "timers",
    "results",
    "meta",
    "ratings",
    "member_settings",
    "server_settings",
    "server_setting_changes",
}
SERVER_SETTINGS = {"server_settings", "server_setting_changes"}
"""Tables from 0008 on."""


def head() -> str:
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


async def inspect_db(url: str, fn: Any) -> Any:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(fn)
    finally:
        await engine.dispose()


def _diff(connection: sa.Connection, metadata: sa.MetaData) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


def _state(connection: sa.Connection) -> tuple[set[str], str | None]:
    tables = set(sa.inspect(connection).get_table_names())
    version = None
    if "alembic_version" in tables:
        version = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    return tables - {"alembic_version"}, version


async def test_upgrade_inside_running_loop_is_idempotent(empty_db_url: str) -> None:
    url = empty_db_url
    await upgrade_to_head(url)
    await upgrade_to_head(url)
    assert await inspect_db(url, _state) == (TABLES, head())


async def test_head_matches_models(empty_db_url: str) -> None:
    url = empty_db_url
    await upgrade_to_head(url)
    assert await inspect_db(url, lambda c: _diff(c, Base.metadata)) == []


async def test_model_comparison_is_not_vacuous(empty_db_url: str) -> None:
    """A model change the migration lacks must show up, or the test above proves nothing."""
    url = empty_db_url
    await upgrade_to_head(url)
    changed = sa.MetaData(naming_convention=Base.metadata.naming_convention)
    for table in Base.metadata.tables.values():
        table.to_metadata(changed)
    changed.tables["games"].append_column(sa.Column("extra", sa.Integer(), nullable=True))
    sa.Index("ix_seats_user_id", changed.tables["seats"].c.user_id)
    diff = await inspect_db(url, lambda c: _diff(c, changed))
    kinds = sorted(d[0] for d in diff)
    assert kinds == ["add_column", "add_index"]


async def test_partial_unique_index_is_the_models(empty_db_url: str) -> None:
    """Alembic's comparison ignores index predicates, so check this one by hand."""
    url = empty_db_url
    await upgrade_to_head(url)

    def indexes(connection: sa.Connection) -> dict[str, Any]:
        return {str(i["name"]): i for i in sa.inspect(connection).get_indexes("games")}

    index = (await inspect_db(url, indexes))["uq_games_active_channel"]
    assert index["unique"] and index["column_names"] == ["channel_id"]
    if url.startswith("sqlite"):
        assert str(index["dialect_options"]["sqlite_where"]) == UNFINISHED_SQL
    else:  # PostgreSQL hands back its own rendering of the predicate
        where = str(index["dialect_options"]["postgresql_where"])
        assert "'lobby'" in where and "'playing'" in where and "'finished'" not in where
    model_index = next(
        i for i in Base.metadata.tables["games"].indexes if i.name == "uq_games_active_channel"
    )
    assert str(model_index.dialect_options["sqlite"]["where"]) == UNFINISHED_SQL
    assert str(model_index.dialect_options["postgresql"]["where"]) == UNFINISHED_SQL


async def test_database_enforces_one_unfinished_game_per_channel(empty_db_url: str) -> None:
    url = empty_db_url
    store = await Store.open(url)
    try:
        first = await store.create_lobby(
            slug="bug-off",
            guild_id=1,
            channel_id=42,
            creator_id=1,
            creator_name="a",
            options={},
            seed=1,
        )
        insert = sa.text(
            "INSERT INTO games (slug, guild_id, channel_id, creator_id, status, seed, options,"
            " version, created_at, updated_at)"
            " VALUES ('bug-off', 1, :channel, 2, :status, 1, '{}', 0,"
            " '2030-01-01 00:00:00', '2030-01-01 00:00:00')"
        )

        async def raw(channel: int, status: str) -> bool:
            try:
                async with store.engine.begin() as conn:
                    await conn.execute(insert, {"channel": channel, "status": status})
            except sa.exc.IntegrityError:
                return False
            return True

        assert not await raw(42, "lobby")
        assert not await raw(42, "playing")
        assert await raw(42, "finished")
        assert await raw(42, "cancelled")
        assert await raw(42, "finished")  # any number of ended games
        assert await raw(43, "playing")  # another channel
        assert not await raw(42, "bogus")  # the status check constraint
        await store.cancel(first.id)
        assert await raw(42, "playing")  # the channel is free once the lobby is cancelled
        assert not await raw(42, "lobby")
    finally:
        await store.close()


async def test_downgrade_to_base_and_back(empty_db_url: str) -> None:
    url = empty_db_url
    await upgrade_to_head(url)
    engine = create_engine(url)
    try:

        def downgrade(connection: sa.Connection) -> None:
            config = alembic_config(url)
            config.attributes["connection"] = connection
            command.downgrade(config, "base")

        async with engine.begin() as conn:
            await conn.run_sync(downgrade)
    finally:
        await engine.dispose()
    assert await inspect_db(url, _state) == (set(), None)
    await upgrade_to_head(url)
    assert await inspect_db(url, _state) == (TABLES, head())


async def test_cli_upgrade_head_on_fresh_file(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{db}"}
    alembic = Path(sys.executable).with_name("alembic")
    done = await run([str(alembic), "upgrade", "head"], timeout=90, cwd=REPO, env=env)
    assert done.code == 0, done.err
    assert "Running upgrade  -> 0001" in done.err
    assert "Running upgrade 0001 -> 0002" in done.err
    assert db.exists()
    url = f"sqlite+aiosqlite:///{db}"
    assert await inspect_db(url, _state) == (TABLES, head())
    assert await inspect_db(url, lambda c: _diff(c, Base.metadata)) == []


def test_each_migration_file_is_named_by_its_revision_and_follows_the_one_before() -> None:
    """What lets the bot know the head without importing Alembic (``newest_revision``)."""
    scripts = ScriptDirectory.from_config(alembic_config())
    chain = list(reversed(list(scripts.walk_revisions())))
    assert [s.down_revision for s in chain] == [None, *(s.revision for s in chain[:-1])]
    for script in chain:
        assert script.path is not None
        match = MIGRATION_FILE.match(Path(script.path).name)
        assert match is not None and match[1] == script.revision, script.path
    files = [f.name for f in (MIGRATIONS_DIR / "versions").iterdir() if f.suffix == ".py"]
    assert len(files) == len(chain)  # no stray migration file the chain leaves out
    assert newest_revision() == head() == chain[-1].revision


async def test_a_database_at_head_starts_without_alembic_and_one_behind_is_upgraded(
    db_url: str,
) -> None:
    check = (
        "import asyncio, sys\n"
        "from bot.store import upgrade_to_head\n"
        "asyncio.run(upgrade_to_head(sys.argv[1]))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))\n"
    )

    async def upgrade_in_a_new_process() -> str:
        done = await run([sys.executable, "-c", check, db_url], timeout=90, cwd=REPO)
        assert done.code == 0, done.err
        return done.out.strip()

    assert await upgrade_in_a_new_process() == "[]"
    previous = str(int(head()) - 1).zfill(4)
    await _run(db_url, _migrate(db_url, previous, down=True))
    assert await inspect_db(db_url, _state) != (TABLES, head())
    assert await upgrade_in_a_new_process() != "[]"  # Alembic did the upgrade
    assert await inspect_db(db_url, _state) == (TABLES, head())
    assert await inspect_db(db_url, lambda c: _diff(c, Base.metadata)) == []


def _migrate(url: str, revision: str, *, down: bool = False) -> Any:
    def run(connection: sa.Connection) -> None:
        config = alembic_config(url)
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)

    return run


async def _run(url: str, fn: Any) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(fn)
    finally:
        await engine.dispose()


async def test_upgrade_from_0001_with_data_keeps_it_and_rates_from_then_on(
    empty_db_url: str,
) -> None:
    """A live database at 0001 (a finished game, a lobby) upgrades to head: its seats become
    confirmed places, its results stay, and the next finished game is rated."""
    url = empty_db_url
    await _run(url, _migrate(url, "0001"))
    assert await inspect_db(url, _state) == (
        TABLES - {"ratings", "member_settings"} - SERVER_SETTINGS,
        "0001",
    )
    rows = [
        "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed, options,"
        " players, version, created_at, updated_at, finished_at) VALUES"
        " (1, 'ladybug-dash', 9, 50, 1, 'finished', 7, '{}', 2, 5,"
        " '2030-01-01 00:00:00', '2030-01-01 00:10:00', '2030-01-01 00:10:00'),"
        " (2, 'ladybug-dash', 9, 51, 1, 'lobby', 8, '{}', NULL, 1,"
        " '2030-01-02 00:00:00', '2030-01-02 00:00:00', NULL)",
        "INSERT INTO seats (game_id, seat, join_seq, user_id, name, is_bot) VALUES"
        " (1, 0, 1, 1, 'alice', false), (1, 1, 2, 2, 'bob', false),"
        " (2, NULL, 1, 1, 'alice', false), (2, NULL, 2, 2, 'bob', false)",
        "INSERT INTO results (game_id, seat, user_id, score, rank, winner, breakdown) VALUES"
        " (1, 0, 1, 20, 1, true, '{}'), (1, 1, 2, 12, 2, false, '{}')",
    ]

    def fill(connection: sa.Connection) -> None:
        for row in rows:
            connection.exec_driver_sql(row)

    await _run(url, fill)
    await upgrade_to_head(url)
    assert await inspect_db(url, _state) == (TABLES, head())
    assert await inspect_db(url, lambda c: _diff(c, Base.metadata)) == []

    store = await Store.open(url)
    try:
        assert [(s.user_id, s.confirmed) for s in await store.seats(2)] == [(1, True), (2, True)]
        assert [(r.user_id, r.score) for r in await store.results(1)] == [(1, 20), (2, 12)]
        assert await store.leaderboard(9, "ladybug-dash") == []  # no history is re-rated
        (summary,) = await store.recent_games(guild_id=9)
        assert [(p.name, p.score, p.winner) for p in summary.players] == [
            ("alice", 20, True),
            ("bob", 12, False),
        ]
        # The lobby from before the upgrade starts and finishes like any other, and is rated.
        lobby = await store.get_game(2)
        assert lobby is not None
        game = await store.start(
            2, expected_version=lobby.version, seat_order=[1, 2], snapshot={}, timers=[]
        )
        await store.record_action(
            game,
            seat=0,
            action={"type": "x"},
            snapshot={},
            timers=None,
            results=[ResultSpec(1, 0, 3, 2, False), ResultSpec(2, 1, 9, 1, True)],
        )
        board = await store.leaderboard(9, "ladybug-dash")
        assert [(e.name, e.games, e.wins) for e in board] == [("bob", 2, 1), ("alice", 2, 1)]
    finally:
        await store.close()

    # And back down to 0001: the data is still there.
    await _run(url, _migrate(url, "0001", down=True))
    assert await inspect_db(url, _state) == (
        TABLES - {"ratings", "member_settings"} - SERVER_SETTINGS,
        "0001",
    )


async def test_0004_adds_member_settings_whose_defaults_need_no_rows(empty_db_url: str) -> None:
    """A database at 0003 upgrades to 0004: every member has pings on without a row, a change
    is kept, every existing seat is played by its member (not away), and downgrading drops the
    table and the column again."""
    url = empty_db_url
    await _run(url, _migrate(url, "0003"))
    assert await inspect_db(url, _state) == (TABLES - {"member_settings"} - SERVER_SETTINGS, "0003")

    def fill(connection: sa.Connection) -> None:
        connection.exec_driver_sql(
            "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed, options,"
            " players, version, created_at, updated_at) VALUES (1, 'ladybug-dash', 9, 50, 1,"
            " 'playing', 7, '{}', 2, 3, '2030-01-01 00:00:00', '2030-01-01 00:00:00')"
        )
        connection.exec_driver_sql(
            "INSERT INTO seats (game_id, seat, join_seq, user_id, name, is_bot, confirmed)"
            " VALUES (1, 0, 1, 1, 'alice', false, true), (1, 1, 2, 2, 'bob', false, true)"
        )

    await _run(url, fill)
    await _run(url, _migrate(url, "0004"))
    assert await inspect_db(url, _state) == (TABLES - SERVER_SETTINGS, "0004")
    await _run(url, _migrate(url, "head"))  # the models (and so the store) are at head
    store = await Store.open(url, migrate=False)
    try:
        before = await store.member_settings([1, 2])
        assert [(s.user_id, s.pings) for s in before.values()] == [(1, True), (2, True)]
        await store.set_member_settings(2, pings=False)
        await store.set_member_settings(2, pings=False)  # setting it again changes nothing
        after = await store.member_settings([1, 2, 3])
        assert {uid: s.pings for uid, s in after.items()} == {1: True, 2: False, 3: True}
        assert await store.member_settings([]) == {}
        assert [s.away for s in await store.seats(1)] == [False, False]
        game = await store.get_game(1)
        assert game is not None
        _, seats = await store.set_away(1, 2, away=True, expected_version=game.version)
        assert [(s.user_id, s.away) for s in seats] == [(1, False), (2, True)]
    finally:
        await store.close()
    await _run(url, _migrate(url, "0003", down=True))
    assert await inspect_db(url, _state) == (TABLES - {"member_settings"} - SERVER_SETTINGS, "0003")


async def test_0005_marks_every_stored_snapshot_as_following_the_newest_action(
    tmp_path: Path,
) -> None:
    """Before 0005 every action rewrote the snapshot: an existing game's snapshot follows its
    newest action, so it loads with no tail to replay; a game without actions has 0 for both."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"
    await _run(url, _migrate(url, "0004"))

    def fill(connection: sa.Connection) -> None:
        for game_id, channel in ((1, 50), (2, 51)):
            connection.exec_driver_sql(
                "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed,"
                " options, players, snapshot, version, created_at, updated_at) VALUES"
                f" ({game_id}, 'ladybug-dash', 9, {channel}, 1, 'playing', 7, '{{}}', 2,"
                " '{\"n\": 3}', 3, '2030-01-01 00:00:00', '2030-01-01 00:00:00')"
            )
        for seq in (1, 2, 3):
            connection.exec_driver_sql(
                "INSERT INTO actions (game_id, seq, seat, action, at) VALUES"
                f" (1, {seq}, 0, '{{}}', '2030-01-01 00:00:00')"
            )

    await _run(url, fill)
    await _run(url, _migrate(url, "head"))  # 0005, and what follows it (the models are at head)
    store = await Store.open(url, migrate=False)
    try:
        played, fresh = await store.get_game(1), await store.get_game(2)
        assert played is not None and (played.last_seq, played.snapshot_seq) == (3, 3)
        assert fresh is not None and (fresh.last_seq, fresh.snapshot_seq) == (0, 0)
    finally:
        await store.close()
    await _run(url, _migrate(url, "0004", down=True))
    assert await inspect_db(url, _state) == (TABLES - SERVER_SETTINGS, "0004")


async def test_0007_drops_the_lobby_message_column_and_keeps_the_games(tmp_path: Path) -> None:
    """``games.lobby_message_id`` was never written: 0007 drops it, every game and its seats
    stay as they were, and downgrading adds it back empty."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"
    await _run(url, _migrate(url, "0004"))

    def columns(connection: sa.Connection) -> list[str]:
        return [c["name"] for c in sa.inspect(connection).get_columns("games")]

    def fill(connection: sa.Connection) -> None:
        connection.exec_driver_sql(
            "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed, options,"
            " players, version, created_at, updated_at, web_token) VALUES (1, 'ladybug-dash', 9,"
            " 50, 1, 'playing', 7, '{}', 2, 3, '2030-01-01 00:00:00', '2030-01-01 00:00:00', 'T')"
        )
        connection.exec_driver_sql(
            "INSERT INTO seats (game_id, seat, join_seq, user_id, name, is_bot, confirmed)"
            " VALUES (1, 0, 1, 1, 'alice', 0, 1), (1, 1, 2, 2, 'bob', 0, 1)"
        )

    await _run(url, fill)
    assert "lobby_message_id" in await inspect_db(url, columns)
    await _run(url, _migrate(url, "head"))  # the Store's models are head's
    assert "lobby_message_id" not in await inspect_db(url, columns)
    await _run(url, _migrate(url, "head"))  # the models (and so the store) are at head
    store = await Store.open(url, migrate=False)
    try:
        game = await store.get_game(1)
        assert game is not None and (game.seed, game.version, game.web_token) == (7, 3, "T")
    finally:
        await store.close()

    def seat_names(connection: sa.Connection) -> list[str]:
        return list(
            connection.exec_driver_sql("SELECT name FROM seats ORDER BY join_seq").scalars()
        )

    # Its seats too: the games table is altered in place, never rebuilt (which would cascade to
    # every row that refers to a game). Read as rows: today's store reads later columns too.
    assert await inspect_db(url, seat_names) == ["alice", "bob"]
    await _run(url, _migrate(url, "0004", down=True))
    assert "lobby_message_id" in await inspect_db(url, columns)


async def test_0009_old_games_read_as_normal_and_keep_their_seats(empty_db_url: str) -> None:
    """0009 adds the time control and who ended a game, empty: a game stored before reads as
    ``normal`` (P-71) and not ended, with its seats (no table rebuilt), on both databases;
    downgrading drops the four columns again."""
    url = empty_db_url
    await _run(url, _migrate(url, "0008"))

    def columns(connection: sa.Connection) -> list[str]:
        return [c["name"] for c in sa.inspect(connection).get_columns("games")]

    def fill(connection: sa.Connection) -> None:
        connection.exec_driver_sql(
            "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed, options,"
            " players, version, created_at, updated_at, web_token) VALUES (1, 'ladybug-dash', 9,"
            " 50, 1, 'playing', 7, '{}', 2, 3, '2030-01-01 00:00:00', '2030-01-01 00:00:00', 'T')"
        )
        connection.exec_driver_sql(
            "INSERT INTO seats (game_id, seat, join_seq, user_id, name, is_bot, confirmed)"
            " VALUES (1, 0, 1, 1, 'alice', false, true), (1, 1, 2, 2, 'bob', false, true)"
        )

    await _run(url, fill)
    await _run(url, _migrate(url, "0009"))
    added = {"time_control", "ended_by", "ended_by_name", "end_reason"}
    assert added <= set(await inspect_db(url, columns))
    await _run(url, _migrate(url, "head"))  # the Store's models are head's
    store = await Store.open(url, migrate=False)
    try:
        game = await store.get_game(1)
        assert game is not None and (game.time_control, game.ended_by) == (None, None)
        assert control_of(game.time_control).speed == "normal"
        assert [s.name for s in await store.seats(1)] == ["alice", "bob"]
    finally:
        await store.close()
    await _run(url, _migrate(url, "0008", down=True))
    assert not added & set(await inspect_db(url, columns))


async def test_0006_makes_documents_jsonb_on_postgresql_only(empty_db_url: str) -> None:
    """Snapshots stay json (P-35); the other documents become jsonb on PostgreSQL, and go back
    on downgrade with their data. SQLite has no jsonb: nothing changes there."""
    url = empty_db_url
    await upgrade_to_head(url)

    def types(connection: sa.Connection) -> dict[str, str]:
        inspector = sa.inspect(connection)
        return {
            f"{table}.{column['name']}": type(column["type"]).__name__.upper()
            for table in ("games", "actions", "timers", "results")
            for column in inspector.get_columns(table)
            if column["name"] in ("options", "snapshot", "action", "breakdown")
        }

    jsonb = "JSONB" if not url.startswith("sqlite") else "JSON"
    assert await inspect_db(url, types) == {
        "games.options": jsonb,
        "games.snapshot": "JSON",
        "actions.action": jsonb,
        "timers.action": jsonb,
        "results.breakdown": jsonb,
    }
    store = await Store.open(url, migrate=False)
    try:
        lobby = await store.create_lobby(
            slug="bug-off", guild_id=1, channel_id=5, creator_id=1, creator_name="a",
            options={"b": "1", "a": "2"}, seed=1,
        )  # fmt: skip
    finally:
        await store.close()
    await _run(url, _migrate(url, "0005", down=True))
    assert set((await inspect_db(url, types)).values()) == {"JSON"}

    def options(connection: sa.Connection) -> Any:
        # Read by hand: the Store's models are head's (0008 gave games a column).
        games = sa.table("games", sa.column("id"), sa.column("options", sa.JSON()))
        return connection.execute(
            sa.select(games.c.options).where(games.c.id == lobby.id)
        ).scalar_one()

    assert await inspect_db(url, options) == {"a": "2", "b": "1"}


async def test_0010_reads_every_older_bot_seat_as_easy(empty_db_url: str) -> None:
    """Bots and stand-ins seated before levels played at random: after 0010 each reads as an
    easy bot (and a downgrade drops the column, the seats kept), on SQLite and PostgreSQL."""
    url = empty_db_url
    await _run(url, _migrate(url, "0009"))

    def fill(connection: sa.Connection) -> None:
        connection.exec_driver_sql(
            "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed, options,"
            " players, version, created_at, updated_at, web_token) VALUES (1, 'ladybug-dash', 9,"
            " 50, 1, 'playing', 7, '{}', 2, 3, '2030-01-01 00:00:00', '2030-01-01 00:00:00', 'T')"
        )
        connection.exec_driver_sql(
            "INSERT INTO seats (game_id, seat, join_seq, user_id, name, is_bot, confirmed, away)"
            " VALUES (1, 0, 1, 1, 'alice', false, true, true),"
            " (1, 1, 2, -1, 'Bot 1', true, true, false)"
        )

    def seat_names(connection: sa.Connection) -> list[str]:
        return list(
            connection.exec_driver_sql("SELECT name FROM seats ORDER BY join_seq").scalars()
        )

    await _run(url, fill)
    await _run(url, _migrate(url, "0010"))
    store = await Store.open(url, migrate=False)
    try:
        seats = await store.seats(1)
        assert [(s.name, s.away, s.is_bot, s.bot_level) for s in seats] == [
            ("alice", True, False, "easy"),
            ("Bot 1", False, True, "easy"),
        ]
    finally:
        await store.close()
    await _run(url, _migrate(url, "0009", down=True))
    assert await inspect_db(url, seat_names) == ["alice", "Bot 1"]


async def test_0011_keeps_every_timer_in_one_b_tree_and_back(empty_db_url: str) -> None:
    """After 0011 the timers have no ``due_at`` index and, on SQLite, no rowid (one b-tree, so
    a move replacing its deadline writes one page of them); every timer is kept, still read
    in due order, and a downgrade builds the table and its index as they were."""
    url = empty_db_url
    await _run(url, _migrate(url, "0010"))

    def fill(connection: sa.Connection) -> None:
        connection.exec_driver_sql(
            "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed, options,"
            " players, version, created_at, updated_at, web_token) VALUES (1, 'ladybug-dash', 9,"
            " 50, 1, 'playing', 7, '{}', 2, 3, '2030-01-01 00:00:00', '2030-01-01 00:00:00', 'T')"
        )
        connection.exec_driver_sql(
            "INSERT INTO timers (game_id, key, due_at, action, created_at) VALUES"
            " (1, 'late', '2030-01-01 00:00:09', '{}', '2030-01-01 00:00:00'),"
            " (1, 'soon', '2030-01-01 00:00:05', '{}', '2030-01-01 00:00:00')"
        )

    def layout(connection: sa.Connection) -> tuple[list[str], bool]:
        indexes = [i["name"] for i in sa.inspect(connection).get_indexes("timers")]
        rowid = True
        if connection.dialect.name == "sqlite":
            sql = connection.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'timers'"
            ).scalar()
            rowid = "WITHOUT ROWID" not in str(sql).upper()
        return indexes, rowid

    await _run(url, fill)
    await _run(url, _migrate(url, "0011"))
    sqlite = url.startswith("sqlite")
    assert await inspect_db(url, layout) == ([], not sqlite)
    store = await Store.open(url, migrate=False)
    try:
        assert [t.key for t in await store.all_timers()] == ["soon", "late"]
    finally:
        await store.close()
    await _run(url, _migrate(url, "0010", down=True))
    assert await inspect_db(url, layout) == (["ix_timers_due_at"], True)
    assert await inspect_db(
        url, lambda c: c.exec_driver_sql("SELECT key FROM timers ORDER BY key").scalars().all()
    ) == ["late", "soon"]


async def test_0008_adds_server_settings_and_keeps_every_game_at_the_defaults(
    empty_db_url: str,
) -> None:
    """The settings tables start empty, an existing game gets no policy (it plays at the
    defaults, P-64) and keeps its seats; downgrading takes all three away again."""
    url = empty_db_url
    await _run(url, _migrate(url, "0007"))

    def fill(connection: sa.Connection) -> None:
        connection.exec_driver_sql(
            "INSERT INTO games (id, slug, guild_id, channel_id, creator_id, status, seed, options,"
            " players, version, created_at, updated_at, web_token) VALUES (1, 'ladybug-dash', 9,"
            " 50, 1, 'lobby', 7, '{}', NULL, 0, '2030-01-01 00:00:00+00',"
            " '2030-01-01 00:00:00+00', 'T')"
        )
        connection.exec_driver_sql(
            "INSERT INTO seats (game_id, seat, join_seq, user_id, name, is_bot, confirmed, away)"
            " VALUES (1, NULL, 1, 1, 'alice', false, true, false)"
        )

    await _run(url, fill)
    await _run(url, _migrate(url, "head"))
    assert await inspect_db(url, _state) == (TABLES, head())
    store = await Store.open(url, migrate=False)
    try:
        game = await store.get_game(1)
        assert game is not None and game.policy is None and game.web_token == "T"
        assert [s.name for s in await store.seats(1)] == ["alice"]
        assert await store.server_settings(9) == {}
    finally:
        await store.close()
    await _run(url, _migrate(url, "0007", down=True))
    assert await inspect_db(url, _state) == (TABLES - SERVER_SETTINGS, "0007")

    def columns(connection: sa.Connection) -> list[str]:
        return [c["name"] for c in sa.inspect(connection).get_columns("games")]

    assert "policy" not in await inspect_db(url, columns)
    seats = await inspect_db(url, lambda c: c.exec_driver_sql("SELECT name FROM seats").all())
    assert [tuple(s) for s in seats] == [("alice",)]
