"""A restarted bot loads the games whose turn pings may still be due (P-46): those changed within
the last ``PING_AFTER``, read by ``Store.games_changed_since``; every other game still loads at its
first use (P-32)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store

from .conftest import FakeClock

ALICE, BOB, CAROL = 1, 2, 3


async def started(host: Host, opener: int, joiner: int, channel: int) -> int:
    table = await host.open(
        "ladybug-dash", guild_id=10, channel_id=channel, user_id=opener, name=f"user{opener}"
    )
    await host.join(table.id, joiner, f"user{joiner}")
    return (await host.start(table.id, opener)).id


async def test_games_changed_since_are_the_games_in_play_changed_then_or_later(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    host = Host(store, settings, clock=clock)
    try:
        game = await started(host, ALICE, BOB, channel=20)
        lobby = await host.open(
            "ladybug-dash", guild_id=10, channel_id=21, user_id=CAROL, name="carol"
        )
    finally:
        await host.close()
    # The store stamps changes with the real time.
    before = datetime.now(UTC) - timedelta(minutes=5)
    assert [g.id for g in await store.games_changed_since(before)] == [game]  # not the lobby
    assert lobby.id != game
    assert await store.games_changed_since(datetime.now(UTC) + timedelta(minutes=5)) == []


async def test_a_restart_loads_the_games_changed_since_and_no_other(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    first = Host(store, settings, clock=clock)
    try:
        game = await started(first, ALICE, BOB, channel=20)
    finally:
        await first.close()
    loaded: list[int] = []
    second = Host(store, settings, clock=clock)
    second.loaders.append(lambda t, done: loaded.append(t.id))
    try:
        later = datetime.now(UTC) + timedelta(minutes=5)
        assert await second.restore(changed_since=later) == [] and loaded == []
        earlier = datetime.now(UTC) - timedelta(minutes=5)
        restored = await second.restore(changed_since=earlier)
        assert [t.id for t in restored] == [game] and loaded == [game]
    finally:
        await second.close()
