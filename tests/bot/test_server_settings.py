"""A server's settings (issue #24) below the Discord layer: the store and its audit trail, the
cache several processes share a database through (P-63), and the host reading a game's own copy
of its server's policy (P-64). On SQLite, then PostgreSQL (``db_url``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.host.errors import BadSetting, BotsNotAllowed, ChannelNotAllowed, GameDisabled
from bot.host.host import Host
from bot.host.policies import ServerSettings, StoredPolicies
from bot.host.policy import DEFAULT_POLICY, GamePolicy
from bot.host.policy_values import SettingKey, policy_from_values, policy_values
from bot.host.table import Table
from bot.settings import Settings
from bot.store import SettingChangeRecord, Store
from bot.ui.admin import settings_message
from rules.core import GAMES

from .conftest import FakeClock
from .test_stand_ins import expire, play_turn

GUILD, OTHER_GUILD = 900, 901
HERE, THERE = 700, 701
ALICE, BOB, ADMIN = 1, 2, 50
TTL = 10.0


class Monotonic:
    """A process's monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def policies(store: Store) -> StoredPolicies:
    return StoredPolicies(store, ttl=TTL, monotonic=Monotonic())


@pytest.fixture
async def admin_host(
    store: Store, settings: Settings, clock: FakeClock, policies: StoredPolicies
) -> AsyncIterator[Host]:
    host = Host(store, settings, clock=clock, sleep=clock.sleep, policies=policies)
    yield host
    await host.close()


async def change(policies: StoredPolicies, **values: object) -> None:
    await policies.change(
        GUILD,
        {SettingKey.parse(name): value for name, value in values.items()},
        user_id=ADMIN,
        user_name="ada",
    )


async def test_a_change_is_recorded_once_with_who_and_when(store: Store) -> None:
    made = await store.change_server_settings(
        GUILD, {"afk_limit": 2, "channels": [HERE, THERE]}, user_id=ADMIN, user_name="ada"
    )
    assert [(c.key, c.old, c.new, c.user_id, c.user_name) for c in made] == [
        ("afk_limit", None, 2, ADMIN, "ada"),
        ("channels", None, [HERE, THERE], ADMIN, "ada"),
    ]
    assert await store.server_settings(GUILD) == {"afk_limit": 2, "channels": [HERE, THERE]}
    assert await store.server_settings(OTHER_GUILD) == {}  # per server
    # The same value again changes nothing, and records nothing.
    assert (
        await store.change_server_settings(GUILD, {"afk_limit": 2}, user_id=7, user_name="x") == []
    )
    later = await store.change_server_settings(
        GUILD, {"afk_limit": None, "pings_default": False}, user_id=7, user_name="bo"
    )
    assert [(c.key, c.old, c.new) for c in later] == [
        ("afk_limit", 2, None),
        ("pings_default", None, False),
    ]
    assert await store.server_settings(GUILD) == {"channels": [HERE, THERE], "pings_default": False}
    trail = await store.server_setting_changes(GUILD, limit=10)
    assert [(c.key, c.user_name) for c in trail] == [
        ("pings_default", "bo"),
        ("afk_limit", "bo"),
        ("channels", "ada"),
        ("afk_limit", "ada"),
    ]
    assert trail[0].at >= trail[-1].at and trail[0].at.tzinfo is not None
    assert len(await store.server_setting_changes(GUILD, limit=2)) == 2
    assert await store.server_setting_changes(OTHER_GUILD) == []


async def test_another_process_sees_a_change_within_the_ttl(db_url: str) -> None:
    one, two = await Store.open(db_url), await Store.open(db_url, migrate=False)
    clock_one, clock_two = Monotonic(), Monotonic()
    here = StoredPolicies(one, ttl=TTL, monotonic=clock_one)
    there = StoredPolicies(two, ttl=TTL, monotonic=clock_two)
    try:
        assert (await there.for_guild(GUILD)).public_replays  # read (and kept) before
        await here.change(
            GUILD, {SettingKey("public_replays"): False}, user_id=ADMIN, user_name="ada"
        )
        assert not (await here.for_guild(GUILD)).public_replays  # at once where it was made
        clock_two.now += TTL - 1
        assert (await there.for_guild(GUILD)).public_replays  # the other still keeps its copy
        clock_two.now += 1
        assert not (await there.for_guild(GUILD)).public_replays  # ... at most TTL seconds
        assert (await there.settings(GUILD)).chosen == {"public_replays"}
    finally:
        await one.close()
        await two.close()


async def test_values_are_checked_and_a_refused_one_stores_nothing(
    store: Store, policies: StoredPolicies
) -> None:
    for values, words in (
        ({"afk_limit": -1}, "0 or more"),
        ({"ping_after": -0.5}, "seconds of 0 or more"),
        ({"speeds": []}, "at least one speed"),
        ({"stand_in_level": "grandmaster"}, "not a bot level"),
        ({"games.bug-off.speed": "warp"}, "not a speed"),
        ({"channels": [HERE, -3]}, "not a Discord id"),
        ({"afk_limit": 2, "speeds": ["fast"]}, "would start at normal"),
    ):
        with pytest.raises(BadSetting, match=words):
            await change(policies, **values)
    assert await store.server_settings(GUILD) == {}
    assert await store.server_setting_changes(GUILD) == []
    # Each game given an allowed default first, the server may then allow one speed only.
    for slug in sorted(GAMES):
        await change(policies, **{f"games.{slug}.speed": "turn-based"})
    await change(policies, speeds=["turn-based"])
    assert (await policies.for_guild(GUILD)).speeds == {"turn-based"}


async def test_a_game_keeps_the_policy_it_opened_with(
    admin_host: Host, policies: StoredPolicies, store: Store, settings: Settings
) -> None:
    host = admin_host
    lobby = await host.open(
        "ladybug-dash", guild_id=GUILD, channel_id=HERE, user_id=ALICE, name="a"
    )
    await change(
        policies,
        bot_levels=[],
        channels=[THERE],
        public_replays=False,
        **{"games.ladybug-dash.enabled": False},
    )
    # The lobby under way: its copy, taken as it opened, is still every default (bots,
    # replays, pings, the AFK limit and the rest).
    assert lobby.policy == DEFAULT_POLICY
    kept = await store.get_game(lobby.id)
    assert kept is not None and kept.policy == policy_values(DEFAULT_POLICY)
    await host.add_bot(lobby.id, ALICE)
    with pytest.raises(ChannelNotAllowed, match=f"<#{THERE}>"):
        await host.open("bug-off", guild_id=GUILD, channel_id=HERE + 5, user_id=BOB, name="b")
    with pytest.raises(GameDisabled):
        await host.open("ladybug-dash", guild_id=GUILD, channel_id=THERE, user_id=BOB, name="b")
    other = await host.open("bug-off", guild_id=GUILD, channel_id=THERE, user_id=BOB, name="b")
    with pytest.raises(BotsNotAllowed):
        await host.add_bot(other.id, BOB)
    assert not other.policy.public_replays and not other.policy.bot_levels
    # Another server is not touched; the copies survive a restart.
    elsewhere = await host.open(
        "bug-off", guild_id=OTHER_GUILD, channel_id=9, user_id=BOB, name="b"
    )
    assert elsewhere.policy == DEFAULT_POLICY
    stored = await store.get_game(other.id)
    assert stored is not None and policy_from_values(stored.policy or {}) == other.policy


async def test_the_servers_afk_limit_replaces_afk_limit_for_its_games(
    admin_host: Host, policies: StoredPolicies, clock: FakeClock
) -> None:
    host = admin_host
    await change(policies, afk_limit=1)
    quick = await started(host, HERE)
    await change(policies, afk_limit=0)  # the game under way keeps its 1
    (sleeper,) = quick.running().waiting_for()
    await expire(host, quick, clock)
    assert quick.user_at(sleeper).away  # one missed clock was enough

    never = await started(host, THERE)  # opened under 0: nobody is ever replaced
    (sleeper,) = never.running().waiting_for()
    for _ in range(4):
        await expire(host, never, clock)
        await play_turn(host, never, [ALICE, BOB][1 - sleeper])
    assert never.clock_strikes == {sleeper: 4} and not never.user_at(sleeper).away


async def started(host: Host, channel: int) -> Table:
    table = await host.open(
        "bug-off",
        guild_id=GUILD,
        channel_id=channel,
        user_id=ALICE,
        name="alice",
        options={"first_player": "1"},
    )
    await host.join(table.id, BOB, "bob")
    return await host.start(table.id, ALICE)


async def test_a_game_older_than_server_settings_plays_at_the_defaults(
    admin_host: Host, store: Store
) -> None:
    table = await admin_host.open(
        "ladybug-dash", guild_id=GUILD, channel_id=HERE, user_id=1, name="a"
    )
    old = replace(table, game=replace(table.game, policy=None))
    assert old.policy == DEFAULT_POLICY
    # A stored value this version cannot read is left at its default, the rest kept.
    read = policy_from_values(
        {"afk_limit": "many", "games.bug-off.speed": "slow", "no_such": 1, "public_replays": False}
    )
    assert read == replace(
        DEFAULT_POLICY, games={"bug-off": GamePolicy(speed="slow")}, public_replays=False
    )
    assert policy_from_values(policy_values(read)) == read


def test_show_fits_one_embed_however_long_the_trail() -> None:
    """Thirty channels listed and fifty changes of them: the newest changes that fit are shown,
    the oldest left out, within Discord's 4,096 characters of an embed's description."""
    many = list(range(10**17, 10**17 + 30))
    found = ServerSettings(policy_from_values({"channels": many}), frozenset({"channels"}))
    at = datetime(2030, 1, 1, tzinfo=UTC)
    changes = [
        SettingChangeRecord(GUILD, "channels", many[: i % 30], many, ADMIN, "a" * 100, at)
        for i in range(50)
    ]
    spec = settings_message(found, changes, afk_limit=3, ping_after=20.0)
    assert spec.embed is not None and spec.embed.description is not None
    text = spec.embed.description
    assert 3000 < len(text) <= 4000
    assert "and 10 more** ⚙️" in text  # the list itself: 20 channels named
    assert text.count("• <t:") < 50 and changes[0].user_name in text
