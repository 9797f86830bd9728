"""The host's side of issue #24 on both databases: a game keeps the time control it was opened
with (P-71), a speed the server does not allow is refused, `/bugs end` and `/bugs kick` by a
moderator (P-72, P-73), and a turn-based game resting out of memory (P-74)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from types import SimpleNamespace
from typing import Any, cast

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.discord.edge import Edge
from bot.host.errors import NotModerator, NotPlaying, SeatAway, SpeedNotAllowed
from bot.host.host import Host
from bot.host.loading import WAKE
from bot.host.policy import GamePolicy, ServerPolicy
from bot.settings import Settings
from bot.store import Store
from bot.ui.howto import rules_message
from bot.ui.speeds import speeds_words
from bot.ui.stats import history_message, last_game_text
from bot.web.replays import Replays
from bot.web.server import build_app
from rules.core import GAMES
from tests.support.wait import until

from .conftest import FakeClock
from .test_stand_ins import ALICE, BOB, CAROL, CHANNEL, Heard

GAME = "bug-off"
"""A game with a decision clock (its turn clock, 60 s at normal) and two players."""
GUILD = 9


class Policies:
    """A server's policy the test changes as an admin would."""

    def __init__(self, policy: ServerPolicy) -> None:
        self.policy = policy

    async def for_guild(self, guild_id: int | None) -> ServerPolicy:
        return self.policy


def slow_by_default() -> ServerPolicy:
    return ServerPolicy(games={GAME: GamePolicy(speed="slow")})


async def started(host: Host, speed: str | None = None) -> int:
    table = await host.open(
        GAME,
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        name="alice",
        options={"first_player": "1"},
        speed=speed,
    )
    await host.join(table.id, BOB, "bob")
    await host.start(table.id, ALICE)
    return table.id


def due_in(host: Host, game_id: int, clock: FakeClock) -> float:
    (due,) = host.tables[game_id].timers.values()
    return (due - clock()).total_seconds()


async def test_a_running_game_keeps_its_control(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    policies = Policies(slow_by_default())
    host = Host(store, settings, clock=clock, sleep=clock.sleep, policies=policies)
    try:
        game_id = await started(host)  # the server's default for the game: slow
        record = await store.get_game(game_id)
        assert record is not None and record.time_control == "slow"
        assert due_in(host, game_id, clock) == 180  # Bug Off!'s 60 s, three times
        # The admin makes games fast: the running game does not change, the next one does.
        policies.policy = ServerPolicy(games={GAME: GamePolicy(speed="fast")})
        table = host.tables[game_id]
        (seat,) = table.running().waiting_for()
        await host.act(game_id, [ALICE, BOB][seat], {"type": "draw"})
        assert due_in(host, game_id, clock) == 180
        # A restart reads it back from the store.
        again = Host(store, settings, clock=clock, policies=policies)
        try:
            reloaded = await again.table(game_id)
            assert reloaded.game.time_control == "slow"
        finally:
            await again.close()
        await host.cancel(game_id, ALICE)
        assert (await started(host)) and next(iter(host.tables.values())).game.time_control == (
            "fast"
        )
    finally:
        await host.close()


async def test_a_speed_the_server_does_not_allow_is_refused_and_nothing_is_opened(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    policy = dataclasses.replace(slow_by_default(), speeds=frozenset({"normal", "fast"}))
    host = Host(store, settings, clock=clock, policies=Policies(policy))
    try:
        for refused in ("turn-based", "warp"):
            with pytest.raises(SpeedNotAllowed, match="Allowed here: `fast`, `normal`, `slow`"):
                await host.open(
                    GAME, guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="a", speed=refused
                )
            assert await store.active_game_in_channel(CHANNEL) is None
        # The server's own default is always allowed, and so is any listed preset.
        table = await host.open(
            GAME, guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="a", speed="slow"
        )
        assert table.game.time_control == "slow"
        await host.cancel(table.id, ALICE)
        table = await host.open(
            GAME, guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="a", speed="fast"
        )
        assert table.game.time_control == "fast"
    finally:
        await host.close()


async def test_end_by_a_moderator_stores_who_and_why_and_rates_nobody(
    host: Host, store: Store
) -> None:
    game_id = await started(host)
    table = host.tables[game_id]
    await host.end(game_id, CAROL, "carol", "  a runaway game  ", moderator=True)
    record = await store.get_game(game_id)
    assert record is not None and record.status == "cancelled"
    assert (record.ended_by, record.ended_by_name, record.end_reason) == (
        CAROL,
        "carol",
        "a runaway game",
    )
    assert game_id not in host.tables and table.game.ended_by == CAROL
    assert await store.results(game_id) == [] and await store.timers(game_id) == []
    assert await store.leaderboard(GUILD, GAME) == []
    assert await store.active_game_in_channel(CHANNEL) is None
    (summary,) = await store.recent_games(channel_id=CHANNEL)
    assert summary.game.id == game_id and [p.name for p in summary.players] == ["alice", "bob"]
    assert "ended by carol (a runaway game) · alice, bob" in last_game_text(summary)
    history = history_message([summary], [summary], CHANNEL).embed
    assert history is not None and "⛔ ended by carol" in (history.description or "")
    assert await store.finished_games() == []  # not a finished game: no winner


async def test_end_is_refused_for_a_plain_player(host: Host, store: Store) -> None:
    game_id = await started(host)
    with pytest.raises(NotModerator):
        await host.end(game_id, BOB, "bob", "", moderator=False)
    record = await store.get_game(game_id)
    assert record is not None and record.status == "playing" and record.ended_by is None
    assert game_id in host.tables and host.tables[game_id].timers


async def test_kick_hands_the_seat_to_a_stand_in_and_join_takes_it_back(
    host: Host, store: Store
) -> None:
    game_id = await started(host)
    heard = Heard(host)
    with pytest.raises(NotModerator):
        await host.kick(game_id, BOB, moderator=False)
    with pytest.raises(NotPlaying):
        await host.kick(game_id, CAROL, moderator=True)
    assert heard.changes == []
    await host.kick(game_id, BOB, moderator=True)
    table = host.tables[game_id]
    assert table.names() == ["alice", "🤖 bob (Normal bot)"] and heard.changes == [(1, "kicked", 0)]
    assert [s.away for s in await store.seats(game_id)] == [False, True]
    with pytest.raises(SeatAway, match="that member's seat"):
        await host.kick(game_id, BOB, moderator=True)
    await host.join(game_id, BOB, "bob")
    assert table.names() == ["alice", "bob"]


async def test_a_resting_game_is_unloaded_and_loads_again_at_its_next_use(
    store: Store, settings: Settings, clock: FakeClock
) -> None:
    host = Host(store, settings.model_copy(update={"afk_limit": 1}), clock=clock, sleep=clock.sleep)
    try:
        game_id = await started(host, "turn-based")
        table = host.tables[game_id]
        assert due_in(host, game_id, clock) == 24 * 3600
        (sleeper,) = table.running().waiting_for()
        version = table.game.version
        assert not host.rest(game_id, version - 1, None)  # moved on since: stays
        wake = clock() + timedelta(hours=1)
        assert host.rest(game_id, version, wake)
        assert game_id not in host.tables
        assert set(host.scheduler.pending(game_id)) == {WAKE, *table.timers}
        # Its reminder's moment loads it again (and only loads it).
        await until(lambda: clock.sleepers, what="the alarms asleep")
        clock.advance(3600)
        reloaded = await until(lambda: host.tables.get(game_id), what="the game loaded")
        assert reloaded is not table and reloaded.game.version == version
        # A day later its clock plays the default move: no strike in a turn-based game.
        clock.advance(23 * 3600)
        await until(lambda: reloaded.game.version > version, what="the clock fired")
        assert reloaded.clock_strikes == {} and not reloaded.user_at(sleeper).away
        # A game a bot plays in stays loaded (the bot must move).
        await host.leave(game_id, [ALICE, BOB][sleeper])
        assert not host.rest(game_id, reloaded.game.version, None)
    finally:
        await host.close()


async def test_the_game_page_and_the_rules_show_the_time_control(
    host: Host, store: Store, settings: Settings
) -> None:
    game_id = await started(host, "turn-based")
    token = host.tables[game_id].game.web_token
    replays = Replays(store)
    async with TestClient(TestServer(build_app(replays, settings=settings))) as client:
        page = await (await client.get(f"/games/{token}")).text()
        rules = await (await client.get(f"/rules/{GAME}")).text()
    assert "Speeds</h2>" in rules and "<strong>Turn-based</strong>: 1 day" in rules
    assert "<strong>Turn-based</strong>" in page and "1 day — turn clock, per step" in page
    assert "1 h and 12 h" in page
    # How to play's first page lists every preset with its numbers (P-71).
    shown = rules_message(GAME, 0, speeds_words(settings, GAMES[GAME])).embed
    assert shown is not None
    (field,) = shown.fields
    assert "speed:" in field.name and "**Slow**: 3 min" in field.value
    assert "**Turn-based**: 1 day" in field.value
    later = rules_message(GAME, 1, speeds_words(settings, GAMES[GAME])).embed
    assert later is not None and later.fields == ()


async def test_the_servers_moderator_role_counts_as_manage_channels() -> None:
    """Who may end, kick, start and cancel (P-2, P-72): Manage Channels, or the role the
    server's policy names; a role of that id is all it takes, any other is not enough."""
    role = 555
    host = SimpleNamespace(policies=Policies(ServerPolicy(moderator_role=role)))
    edge = Edge(cast(Any, host), cast(Any, None), cast(Any, None))

    def asking(*roles: int, manage: bool = False) -> Any:
        return SimpleNamespace(
            guild_id=GUILD,
            permissions=SimpleNamespace(manage_channels=manage),
            user=SimpleNamespace(roles=[SimpleNamespace(id=r) for r in roles]),
        )

    assert await edge.privileged(asking(role))
    assert await edge.privileged(asking(manage=True))
    assert not await edge.privileged(asking(role + 1))
    assert not await edge.privileged(asking())
    host.policies = Policies(ServerPolicy())  # no role set: Manage Channels alone
    assert not await edge.privileged(asking(role))
