"""Races the host must never lose: concurrent joins, lobbies and actions on one database (SQLite, then PostgreSQL)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store import (
    AlreadySeated,
    ChannelBusy,
    GameRecord,
    SeatRecord,
    Store,
    TableFull,
    VersionConflict,
)


@pytest.fixture
def url(db_url: str) -> str:
    return db_url


async def lobby(store: Store, channel: int = 100, creator: int = 1) -> GameRecord:
    return await store.create_lobby(
        slug="bug-run",
        guild_id=1,
        channel_id=channel,
        creator_id=creator,
        creator_name="host",
        options={},
        seed=7,
    )


def split(outcomes: list[Any]) -> tuple[list[Any], list[BaseException]]:
    ok = [o for o in outcomes if not isinstance(o, BaseException)]
    failed = [o for o in outcomes if isinstance(o, BaseException)]
    return ok, failed


async def test_concurrent_joins_never_overfill(store: Store) -> None:
    game = await lobby(store)
    outcomes = await asyncio.gather(
        *(store.join(game.id, user_id=100 + i, name=f"p{i}", max_players=3) for i in range(12)),
        return_exceptions=True,
    )
    ok, failed = split(outcomes)
    assert len(ok) == 2  # the creator holds the first of the 3 places
    assert len(failed) == 10 and all(isinstance(e, TableFull) for e in failed)
    seats = await store.seats(game.id)
    assert len(seats) == 3
    assert [s.join_seq for s in seats] == [1, 2, 3]
    assert {s.user_id for s in seats[1:]} == {s.user_id for r in ok for s in r if s.user_id != 1}


async def test_concurrent_joins_of_one_user_seat_once(store: Store) -> None:
    game = await lobby(store)
    outcomes = await asyncio.gather(
        *(store.join(game.id, user_id=5, name="twitchy", max_players=6) for _ in range(6)),
        return_exceptions=True,
    )
    ok, failed = split(outcomes)
    assert len(ok) == 1
    assert len(failed) == 5 and all(isinstance(e, AlreadySeated) for e in failed)
    assert [s.user_id for s in await store.seats(game.id)] == [1, 5]


async def test_concurrent_lobbies_in_one_channel(store: Store) -> None:
    outcomes = await asyncio.gather(
        *(lobby(store, creator=i) for i in range(1, 9)), return_exceptions=True
    )
    ok, failed = split(outcomes)
    assert len(ok) == 1
    assert len(failed) == 7 and all(isinstance(e, ChannelBusy) for e in failed)
    assert {e.existing_game_id for e in failed if isinstance(e, ChannelBusy)} == {ok[0].id}
    assert [g.id for g in await store.open_lobbies()] == [ok[0].id]


async def test_concurrent_actions_on_one_version_commit_once(store: Store) -> None:
    game = await lobby(store)
    game = await store.start(game.id, expected_version=0, seat_order=[1], snapshot={}, timers=[])
    store.snapshot_every = 1  # so the stored snapshot is the winner's
    outcomes = await asyncio.gather(
        *(
            store.record_action(
                game,
                seat=0,
                action={"type": "go", "i": i},
                snapshot={"by": i},
                timers=[],
            )
            for i in range(6)
        ),
        return_exceptions=True,
    )
    ok, failed = split(outcomes)
    assert len(ok) == 1
    assert len(failed) == 5 and all(isinstance(e, VersionConflict) for e in failed)
    log = await store.actions(game.id)
    assert len(log) == 1
    final = await store.get_game(game.id)
    assert final is not None
    assert final.version == game.version + 1
    assert final.snapshot == {"by": log[0].action["i"]}  # the winner's snapshot and log agree


async def test_two_stores_on_one_file_share_the_guarantees(store: Store, url: str) -> None:
    """Two Store instances stand in for two processes: the locks are the database's, not ours."""
    other = await Store.open(url, migrate=False)
    try:
        game = await lobby(store)
        joins = [
            (store if i % 2 else other).join(game.id, user_id=10 + i, name="p", max_players=4)
            for i in range(10)
        ]
        ok, failed = split(await asyncio.gather(*joins, return_exceptions=True))
        assert len(ok) == 3 and all(isinstance(e, TableFull) for e in failed)
        seats: list[SeatRecord] = await other.seats(game.id)
        assert len(seats) == 4
    finally:
        await other.close()
