"""A member's settings are read once by a process (P-87): a turn ping asks for them every time.
A change made through the process is known there at once; another process sharing the
database (PostgreSQL) knows it once its own copy is older than ``MEMBER_SETTINGS_TTL``."""

from __future__ import annotations

import pytest

from bot.store import Store, members
from bot.store.writer import SQLiteWriter
from tests.support.calls import counting_calls


async def test_settings_are_read_once_and_a_change_here_is_known_at_once(
    store: Store, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read once (on a SQLite file through the loop's own connection, with no session), then
    kept; a change made here is known at once."""
    await store.set_member_settings(3, pings=False)
    store._members_read.clear()
    reads = counting_calls(monkeypatch, store, "_reading")
    plain = isinstance(store._writer, SQLiteWriter)
    first = await store.member_settings([1, 2, 3])
    assert [first[1].pings_on(True), first[2].chosen] == [True, False]
    assert first[3].chosen and not first[3].pings_on(True)
    assert len(reads) == (0 if plain else 1)
    for _ in range(3):
        await store.member_settings([1, 2])
    assert len(reads) == (0 if plain else 1)  # kept
    await store.set_member_settings(1, pings=False)
    mine = await store.member_settings([1])
    assert not mine[1].pings_on(True) and mine[1].chosen and len(reads) == (0 if plain else 1)
    monkeypatch.setattr(members, "MEMBER_SETTINGS_TTL", 0.0)
    again = await store.member_settings([1, 2])
    assert not again[1].pings_on(True)
    # Another process may change them only where the store is shared (PostgreSQL): there a
    # copy older than the TTL is read again; a SQLite file's one process keeps its copies.
    assert len(reads) == (2 if store.shared else 0 if plain else 1)


async def test_another_process_sees_a_change_once_its_copy_is_older_than_the_ttl(
    store: Store, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not store.shared:
        pytest.skip("PostgreSQL only: a SQLite file has one process (P-22)")
    other = await Store.open(db_url, migrate=False)  # another process on the same database
    try:
        assert (await other.member_settings([2]))[2].pings_on(True)
        await store.set_member_settings(2, pings=False)
        assert (await other.member_settings([2]))[2].pings_on(True)  # its copy, still fresh
        monkeypatch.setattr(members, "MEMBER_SETTINGS_TTL", 0.0)
        assert not (await other.member_settings([2]))[2].pings_on(True)  # read again
    finally:
        await other.close()


async def test_the_settings_kept_are_bounded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(members, "MEMBER_SETTINGS_KEPT", 10)
    await store.member_settings(range(8))
    await store.member_settings(range(8, 16))
    assert len(store._members_read) <= 10
    assert set(await store.member_settings(range(16))) == set(range(16))


async def test_members_may_be_named_by_any_iterable_read_once(store: Store) -> None:
    """A generator of ids (read once) gets every member's settings, kept or read."""
    await store.set_member_settings(7, pings=False)
    got = await store.member_settings(uid for uid in (7, 8, 8))
    assert sorted(got) == [7, 8] and not got[7].pings_on(True) and got[8].pings_on(True)
