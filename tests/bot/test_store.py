"""The Store API against a fresh database per test: SQLite, then PostgreSQL (``db_url``)."""

from __future__ import annotations

import ast
import asyncio
import dataclasses
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from bot.settings import Settings
from bot.store import (
    ActionRecord,
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    GameRecord,
    GameStatus,
    LobbySeat,
    MessageRecord,
    NotSeated,
    ResultSpec,
    SeatRecord,
    Store,
    StoreError,
    TableFull,
    TimerSpec,
    VersionConflict,
    WrongStatus,
)
from bot.store.writer import SQLiteWriter

REPO = Path(__file__).resolve().parents[2]
T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
GUILD = 900
CHANNEL = 100


async def new_lobby(
    store: Store, *, channel: int = CHANNEL, creator: int = 1, guild: int | None = GUILD
) -> GameRecord:
    return await store.create_lobby(
        slug="bag-of-bugs",
        guild_id=guild,
        channel_id=channel,
        creator_id=creator,
        creator_name=f"user{creator}",
        options={"rounds": "3"},
        seed=12345678901,
    )


async def started_game(
    store: Store,
    users: tuple[int, ...] = (1, 2, 3),
    *,
    channel: int = CHANNEL,
    order: list[int] | None = None,
    timers: list[TimerSpec] | None = None,
    guild: int | None = GUILD,
) -> GameRecord:
    game = await new_lobby(store, channel=channel, creator=users[0], guild=guild)
    for user in users[1:]:
        await store.join(game.id, user_id=user, name=f"user{user}", max_players=len(users))
    lobby = await store.get_game(game.id)
    assert lobby is not None
    return await store.start(
        game.id,
        expected_version=lobby.version,
        seat_order=order or list(users),
        snapshot={"turn": 0},
        timers=timers or [],
    )


async def act(store: Store, game: GameRecord, n: int, **kw: Any) -> GameRecord:
    return await store.record_action(
        game,
        seat=n % 3,
        action={"type": "draw", "n": n},
        snapshot={"turn": n},
        timers=kw.pop("timers", []),
        **kw,
    )


# --------------------------------------------------------------------------- engine


@pytest.mark.sqlite_only("PRAGMAs")
async def test_sqlite_runs_in_wal_with_foreign_keys_and_busy_timeout(store: Store) -> None:
    async with store.engine.connect() as conn:
        assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
        assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
        assert (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar() == 10_000
        assert (await conn.exec_driver_sql("PRAGMA synchronous")).scalar() == 2  # FULL (P-37)


@pytest.mark.parametrize(("mode", "pragma"), [("FULL", 2), ("NORMAL", 1)])
async def test_database_synchronous_reaches_every_sqlite_connection(
    tmp_path: Path, mode: str, pragma: int
) -> None:
    """DATABASE_SYNCHRONOUS (P-37): FULL, the default, fsyncs every commit, NORMAL does not;
    either reaches the pooled connections and the group-commit writer's own connection; a mode
    SQLite does not have is refused."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'sync.db'}"
    store = await Store.open(url, synchronous=mode)
    try:
        async with store.engine.connect() as conn:
            assert (await conn.exec_driver_sql("PRAGMA synchronous")).scalar() == pragma
        writer = store._writer
        assert isinstance(writer, SQLiteWriter)
        found = await asyncio.get_running_loop().run_in_executor(
            writer._executor, lambda: writer._connection().execute("PRAGMA synchronous").fetchone()
        )
        assert found == (pragma,)
    finally:
        await store.close()
    with pytest.raises(ValueError):
        await Store.open(url, synchronous="OFF")
    settings = Settings(_env_file=None, database_synchronous=mode.lower())  # type: ignore[call-arg]
    assert settings.database_synchronous == mode
    assert Settings(_env_file=None).database_synchronous == "FULL"  # type: ignore[call-arg]


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(IntegrityError):
        async with store.engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO seats (game_id, join_seq, user_id, name, is_bot)"
                    " VALUES (999, 1, 1, 'ghost', false)"
                )
            )


async def test_data_survives_close_and_reopen(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}"
    first = await Store.open(url)
    game = await new_lobby(first)
    await first.close()
    second = await Store.open(url)  # migrating an up-to-date database is a no-op
    try:
        assert await second.get_game(game.id) == game
    finally:
        await second.close()


# ---------------------------------------------------------------------------- lobby


async def test_create_lobby_seats_creator_first(store: Store) -> None:
    before = datetime.now(UTC)
    game = await new_lobby(store, creator=7)
    assert isinstance(game, GameRecord)
    assert game.status is GameStatus.LOBBY
    assert (game.slug, game.guild_id, game.channel_id, game.creator_id) == (
        "bag-of-bugs",
        GUILD,
        CHANNEL,
        7,
    )
    assert game.seed == 12345678901
    assert game.options == {"rounds": "3"}
    assert (game.version, game.players, game.snapshot, game.finished_at) == (0, None, None, None)
    assert game.created_at.tzinfo is UTC and before <= game.created_at <= datetime.now(UTC)
    assert await store.seats(game.id) == [
        SeatRecord(game_id=game.id, user_id=7, name="user7", is_bot=False, seat=None, join_seq=1)
    ]
    assert await store.get_game(game.id) == game
    assert await store.active_game_in_channel(CHANNEL) == game
    assert await store.open_lobbies() == [game]
    assert await store.games_in_play() == []


async def test_dm_lobby_has_no_guild(store: Store) -> None:
    game = await new_lobby(store, guild=None)
    assert (await store.get_game(game.id)) == game
    assert game.guild_id is None


async def test_unknown_game_reads_are_empty(store: Store) -> None:
    assert await store.get_game(404) is None
    assert await store.active_game_in_channel(404) is None
    assert await store.seats(404) == []
    assert await store.actions(404) == []
    assert await store.timers(404) == []
    assert await store.messages(404) == {}
    assert await store.results(404) == []


async def test_second_game_in_channel_is_refused(store: Store) -> None:
    first = await new_lobby(store)
    with pytest.raises(ChannelBusy) as busy:
        await new_lobby(store, creator=2)
    assert busy.value.existing_game_id == first.id
    assert str(busy.value) == "There is already a game in this channel."
    # Nothing of the refused lobby was written.
    assert [g.id for g in await store.open_lobbies()] == [first.id]
    # Another channel is independent.
    other = await new_lobby(store, channel=CHANNEL + 1, creator=2)
    assert other.id != first.id


async def test_channel_busy_while_playing_and_free_after_cancel_or_finish(store: Store) -> None:
    game = await started_game(store)
    with pytest.raises(ChannelBusy):
        await new_lobby(store, creator=9)
    await store.cancel(game.id)
    second = await started_game(store)
    assert second.id != game.id
    await act(store, second, 1, results=[ResultSpec(1, 0, 5, 1, True, {})])
    third = await new_lobby(store, creator=9)
    assert third.id not in (game.id, second.id)


async def test_join_in_order_with_bots(store: Store) -> None:
    game = await new_lobby(store)
    await store.join(game.id, user_id=2, name="Ann", max_players=4)
    seats = await store.join(game.id, user_id=-1, name="Bot 1", max_players=4, is_bot=True)
    assert [(s.user_id, s.name, s.is_bot, s.seat, s.join_seq) for s in seats] == [
        (1, "user1", False, None, 1),
        (2, "Ann", False, None, 2),
        (-1, "Bot 1", True, None, 3),
    ]
    assert await store.seats(game.id) == seats
    refreshed = await store.get_game(game.id)
    assert refreshed is not None and refreshed.version == 2  # each join moved the lobby on


async def test_a_rematch_lobby_holds_places_until_each_player_confirms(store: Store) -> None:
    held = [
        LobbySeat(2, "bob", confirmed=False),
        LobbySeat(1, "alice"),
        LobbySeat(-1, "bot", is_bot=True),
        LobbySeat(3, "carol", confirmed=False),
    ]
    game = await store.create_lobby(
        slug="bug-off",
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=1,
        creator_name="alice",
        options={},
        seed=1,
        seats=held,
    )
    seats = await store.seats(game.id)
    assert [(s.user_id, s.confirmed, s.join_seq) for s in seats] == [
        (2, False, 1),
        (1, True, 2),
        (-1, True, 3),
        (3, False, 4),
    ]
    # The held places count: a newcomer finds the table full, the invited player confirms.
    with pytest.raises(TableFull):
        await store.join(game.id, user_id=4, name="dave", max_players=4)
    seats = await store.join(game.id, user_id=2, name="Bob!", max_players=4)
    assert (seats[0].user_id, seats[0].name, seats[0].confirmed) == (2, "Bob!", True)
    with pytest.raises(AlreadySeated):
        await store.join(game.id, user_id=2, name="bob", max_players=4)
    # Starting gives up the place nobody confirmed; the others keep the old order.
    lobby = await store.get_game(game.id)
    assert lobby is not None
    await store.start(
        game.id, expected_version=lobby.version, seat_order=[2, 1, -1], snapshot={}, timers=[]
    )
    assert [(s.user_id, s.seat) for s in await store.seats(game.id)] == [(2, 0), (1, 1), (-1, 2)]
    with pytest.raises(ValueError, match="creator"):
        await store.create_lobby(
            slug="bug-off",
            guild_id=GUILD,
            channel_id=CHANNEL + 1,
            creator_id=1,
            creator_name="alice",
            options={},
            seed=1,
            seats=[LobbySeat(1, "alice", confirmed=False)],
        )


async def test_join_refusals(store: Store) -> None:
    game = await new_lobby(store)
    await store.join(game.id, user_id=2, name="Ann", max_players=2)
    with pytest.raises(AlreadySeated):
        await store.join(game.id, user_id=2, name="Ann", max_players=5)
    with pytest.raises(TableFull) as full:
        await store.join(game.id, user_id=3, name="Bob", max_players=2)
    assert full.value.max_players == 2
    with pytest.raises(GameNotFound):
        await store.join(404, user_id=3, name="Bob", max_players=5)
    assert [s.user_id for s in await store.seats(game.id)] == [1, 2]
    playing = await store.start(
        game.id, expected_version=1, seat_order=[1, 2], snapshot={}, timers=[]
    )
    with pytest.raises(WrongStatus) as wrong:
        await store.join(playing.id, user_id=3, name="Bob", max_players=5)
    assert wrong.value.status == "playing"
    assert str(wrong.value) == "This game has already started."


async def test_leave_keeps_join_order(store: Store) -> None:
    game = await new_lobby(store)
    for user in (2, 3):
        await store.join(game.id, user_id=user, name=f"u{user}", max_players=4)
    seats = await store.leave(game.id, 2)
    assert [s.user_id for s in seats] == [1, 3]
    seats = await store.join(game.id, user_id=2, name="u2", max_players=4)
    assert [(s.user_id, s.join_seq) for s in seats] == [(1, 1), (3, 3), (2, 4)]
    with pytest.raises(NotSeated):
        await store.leave(game.id, 99)
    with pytest.raises(GameNotFound):
        await store.leave(404, 1)
    refreshed = await store.get_game(game.id)
    assert refreshed is not None and refreshed.version == 4


async def test_leave_after_start_is_refused(store: Store) -> None:
    game = await started_game(store)
    with pytest.raises(WrongStatus):
        await store.leave(game.id, 2)
    assert len(await store.seats(game.id)) == 3


# ---------------------------------------------------------------------------- start


async def test_start_assigns_seats_in_given_order(store: Store) -> None:
    timers = [TimerSpec("afk:0", T0, {"type": "afk", "seat": 0})]
    game = await started_game(store, (1, 2, 3), order=[3, 1, 2], timers=timers)
    assert game.status is GameStatus.PLAYING
    assert (game.players, game.snapshot, game.version) == (3, {"turn": 0}, 3)
    assert [(s.seat, s.user_id) for s in await store.seats(game.id)] == [(0, 3), (1, 1), (2, 2)]
    assert [(t.key, t.due_at, t.action) for t in await store.timers(game.id)] == [
        ("afk:0", T0, {"type": "afk", "seat": 0})
    ]
    assert await store.games_in_play() == [game]
    assert await store.open_lobbies() == []
    assert await store.active_game_in_channel(CHANNEL) == game


async def test_start_with_stale_version_changes_nothing(store: Store) -> None:
    game = await new_lobby(store)
    seen = await store.get_game(game.id)
    assert seen is not None
    await store.join(game.id, user_id=2, name="late", max_players=4)  # races the start
    with pytest.raises(VersionConflict) as conflict:
        await store.start(
            game.id, expected_version=seen.version, seat_order=[1], snapshot={}, timers=[]
        )
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    after = await store.get_game(game.id)
    assert after is not None and after.status is GameStatus.LOBBY and after.snapshot is None
    assert all(s.seat is None for s in await store.seats(game.id))


async def test_start_refusals(store: Store) -> None:
    game = await new_lobby(store)
    with pytest.raises(ValueError):
        await store.start(game.id, expected_version=0, seat_order=[1, 2], snapshot={}, timers=[])
    with pytest.raises(ValueError):
        await store.start(
            game.id,
            expected_version=0,
            seat_order=[1],
            snapshot={},
            timers=[TimerSpec("k", T0, {}), TimerSpec("k", T0, {})],
        )
    with pytest.raises(GameNotFound):
        await store.start(404, expected_version=0, seat_order=[1], snapshot={}, timers=[])
    await store.start(game.id, expected_version=0, seat_order=[1], snapshot={}, timers=[])
    with pytest.raises(WrongStatus):
        await store.start(game.id, expected_version=1, seat_order=[1], snapshot={}, timers=[])
    empty = await new_lobby(store, channel=CHANNEL + 1)
    await store.leave(empty.id, 1)
    with pytest.raises(ValueError):
        await store.start(empty.id, expected_version=1, seat_order=[], snapshot={}, timers=[])


# --------------------------------------------------------------------------- cancel


async def test_cancel_lobby_and_game(store: Store) -> None:
    lobby = await new_lobby(store)
    cancelled = await store.cancel(lobby.id)
    assert cancelled.status is GameStatus.CANCELLED
    assert cancelled.finished_at is not None and cancelled.version == lobby.version + 1
    assert await store.active_game_in_channel(CHANNEL) is None
    with pytest.raises(WrongStatus) as wrong:
        await store.cancel(lobby.id)
    assert str(wrong.value) == "This game was cancelled."

    game = await started_game(store, timers=[TimerSpec("t", T0, {"type": "tick"})])
    assert len(await store.timers(game.id)) == 1
    assert (await store.cancel(game.id)).status is GameStatus.CANCELLED
    assert await store.timers(game.id) == []  # a cancelled game fires nothing
    assert await store.games_in_play() == []
    with pytest.raises(GameNotFound):
        await store.cancel(404)


# ---------------------------------------------------------------------------- play


async def test_record_action_appends_and_moves_version(store: Store) -> None:
    game = await started_game(store)
    before = datetime.now(UTC)
    g1 = await act(store, game, 1)
    g2 = await act(store, g1, 2)
    assert (g1.version, g2.version) == (game.version + 1, game.version + 2)
    assert g2.snapshot == {"turn": 2}
    assert (g2.last_seq, g2.snapshot_seq) == (2, 0)
    # Between two snapshots (every SNAPSHOT_EVERY actions) only the log grows.
    assert await store.get_game(game.id) == dataclasses.replace(g2, snapshot={"turn": 0})
    log = await store.actions(game.id)
    assert [(a.seq, a.seat, a.action) for a in log] == [
        (1, 1, {"type": "draw", "n": 1}),
        (2, 2, {"type": "draw", "n": 2}),
    ]
    assert all(isinstance(a, ActionRecord) for a in log)
    assert all(a.at.tzinfo is UTC and a.at >= before for a in log)


async def test_stale_version_is_detected_and_nothing_written(store: Store) -> None:
    timers = [TimerSpec("afk", T0, {"type": "afk"})]
    game = await started_game(store, timers=timers)
    g1 = await act(store, game, 1, timers=timers)
    with pytest.raises(VersionConflict) as conflict:
        await store.record_action(
            game,  # stale: g1 already moved it on
            seat=0,
            action={"type": "stale"},
            snapshot={"turn": "stale"},
            timers=[TimerSpec("other", T0, {})],
            results=[ResultSpec(1, 0, 1, 1, True, {})],
        )
    assert (conflict.value.expected, conflict.value.actual) == (game.version, g1.version)
    assert len(await store.actions(game.id)) == 1
    assert await store.get_game(game.id) == dataclasses.replace(g1, snapshot={"turn": 0})
    assert [t.key for t in await store.timers(game.id)] == ["afk"]
    assert await store.results(game.id) == []


async def test_failure_mid_transaction_rolls_everything_back(store: Store) -> None:
    game = await started_game(store, timers=[TimerSpec("afk", T0, {})])
    duplicate_seat = [ResultSpec(1, 0, 3, 1, True, {}), ResultSpec(2, 0, 1, 2, False, {})]
    with pytest.raises(IntegrityError):
        await act(store, game, 1, results=duplicate_seat)
    assert await store.get_game(game.id) == game
    assert await store.actions(game.id) == []
    assert [t.key for t in await store.timers(game.id)] == ["afk"]


async def test_record_action_refusals(store: Store) -> None:
    lobby = await new_lobby(store)
    with pytest.raises(WrongStatus):
        await act(store, lobby, 1)
    with pytest.raises(GameNotFound):
        await store.record_action(replace(lobby, id=404), seat=0, action={}, snapshot={}, timers=[])
    assert await store.actions(lobby.id) == []


async def test_timers_are_replaced_by_each_action(store: Store) -> None:
    game = await started_game(
        store, timers=[TimerSpec("a", T0, {"n": "a"}), TimerSpec("b", T0, {"n": "b"})]
    )
    later = T0 + timedelta(seconds=30)
    g1 = await act(
        store, game, 1, timers=[TimerSpec("b", later, {"n": "b2"}), TimerSpec("c", T0, {})]
    )
    assert [(t.key, t.due_at, t.action) for t in await store.timers(game.id)] == [
        ("c", T0, {}),
        ("b", later, {"n": "b2"}),
    ]
    await act(store, g1, 2, timers=[])
    assert await store.timers(game.id) == []


async def test_timers_are_ordered_by_instant_across_zones(store: Store) -> None:
    plus2 = timezone(timedelta(hours=2))
    game = await started_game(
        store,
        timers=[
            TimerSpec("soon", T0 + timedelta(seconds=10), {"k": 1}),
            # 13:00+02:00 is 11:00 UTC: due before T0, though its wall clock reads later.
            TimerSpec("zoned", datetime(2030, 1, 1, 13, 0, tzinfo=plus2), {"k": 2}),
        ],
    )
    zoned, soon = await store.timers(game.id)
    assert (zoned.key, soon.key) == ("zoned", "soon")
    assert zoned.due_at == datetime(2030, 1, 1, 11, 0, tzinfo=UTC)
    assert zoned.due_at.tzinfo is UTC


def test_timer_spec_refuses_naive_times() -> None:
    with pytest.raises(ValueError):
        TimerSpec("k", datetime(2030, 1, 1), {})


# -------------------------------------------------------------------------- results


async def test_finishing_stores_results_and_frees_channel(store: Store) -> None:
    game = await started_game(store, timers=[TimerSpec("afk", T0, {})])
    results = [
        ResultSpec(user_id=2, seat=1, score=9, rank=1, winner=True, breakdown={"bugs": 9}),
        ResultSpec(user_id=1, seat=0, score=4, rank=2, winner=False, breakdown={"bugs": 4}),
        ResultSpec(user_id=3, seat=2, score=1, rank=3, winner=False),
    ]
    done = await act(store, game, 1, results=results, timers=[TimerSpec("x", T0, {})])
    assert done.status is GameStatus.FINISHED
    assert done.finished_at is not None and done.finished_at.tzinfo is UTC
    stored = await store.results(game.id)
    assert [(r.seat, r.user_id, r.score, r.rank, r.winner, r.breakdown) for r in stored] == [
        (0, 1, 4, 2, False, {"bugs": 4}),
        (1, 2, 9, 1, True, {"bugs": 9}),
        (2, 3, 1, 3, False, {}),
    ]
    assert await store.timers(game.id) == []  # a finished game keeps no deadlines
    assert await store.active_game_in_channel(CHANNEL) is None
    assert await store.finished_games() == [done]
    with pytest.raises(WrongStatus) as wrong:
        await act(store, done, 2)
    assert str(wrong.value) == "This game is over."
    assert len(await store.actions(game.id)) == 1


async def test_finished_games_newest_first_with_limit(store: Store) -> None:
    ids = []
    for _ in range(3):
        game = await started_game(store)
        await act(store, game, 1, results=[ResultSpec(1, 0, 1, 1, True)])
        ids.append(game.id)
    await store.cancel((await new_lobby(store)).id)  # cancelled games are not "finished"
    assert [g.id for g in await store.finished_games()] == ids[::-1]
    assert [g.id for g in await store.finished_games(limit=2)] == ids[:0:-1]


# ------------------------------------------------------------------------- messages


async def test_set_message_upserts(store: Store) -> None:
    game = await new_lobby(store)
    await store.set_message(game.id, "board", CHANNEL, 1)
    await store.set_message(game.id, "hand:3", 555, 2)
    await store.set_message(game.id, "board", CHANNEL, 3)  # the board was re-posted
    assert await store.messages(game.id) == {
        "board": MessageRecord(game_id=game.id, kind="board", channel_id=CHANNEL, message_id=3),
        "hand:3": MessageRecord(game_id=game.id, kind="hand:3", channel_id=555, message_id=2),
    }
    with pytest.raises(GameNotFound):
        await store.set_message(404, "board", 1, 1)


async def test_meta_values_upsert_and_persist(store: Store) -> None:
    assert await store.get_meta("commands:global") is None
    await store.set_meta("commands:global", "abc")
    await store.set_meta("commands:1", "x")
    await store.set_meta("commands:global", "def")
    assert await store.get_meta("commands:global") == "def"
    assert await store.get_meta("commands:1") == "x"


# --------------------------------------------------------------------------- shapes


async def test_records_are_frozen_values(store: Store) -> None:
    game = await new_lobby(store)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.status = GameStatus.PLAYING  # type: ignore[misc]
    seat = (await store.seats(game.id))[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.seat = 0  # type: ignore[misc]
    assert dataclasses.is_dataclass(game) and dataclasses.is_dataclass(seat)


def test_errors_are_typed_with_player_messages() -> None:
    errors: list[StoreError] = [
        ChannelBusy(1),
        AlreadySeated(1, 2),
        NotSeated(1, 2),
        TableFull(1, 4),
        WrongStatus(1, "finished"),
        VersionConflict(1, 2, 3),
        GameNotFound(1),
    ]
    messages = [str(e) for e in errors]
    assert all(isinstance(e, StoreError) for e in errors)
    assert len(set(messages)) == len(messages)
    assert all(m and len(m) < 100 and m.endswith(".") for m in messages)
    assert "Traceback" not in "".join(messages)


def test_store_never_imports_discord() -> None:
    checked = 0
    for path in (REPO / "bot" / "store").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n.split(".")[0] == "discord" for n in names), path
        checked += 1
    assert checked >= 7  # the package is really there to be checked
