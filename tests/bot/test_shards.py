"""Shard settings and the sharded bot (P-36): ranges parse or fail in one line, the bot the
settings ask for is the sharded one, and the emulator's routing follows Discord's rule."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.discord.client import BugtableBot
from bot.discord.shards import ShardedBugtableBot, make_bot
from bot.emulator.gateway import GatewaySession, shard_of
from bot.emulator.models import Snowflakes
from bot.settings import Settings, SettingsError, get_settings, parse_shards


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, discord_token="t" * 30, **values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "ids"),
    [("0-3", [0, 1, 2, 3]), ("5", [5]), ("0,2,5-6", [0, 2, 5, 6]), (" 1 , 1-2 ", [1, 2])],
)
def test_shard_ranges_parse(spec: str, ids: list[int]) -> None:
    assert parse_shards(spec) == ids


@pytest.mark.parametrize("spec", ["", "a", "3-1", "0-", "-1", "1;2"])
def test_malformed_shard_ranges_say_how_to_write_one(spec: str) -> None:
    with pytest.raises(SettingsError, match="write a range like 0-3"):
        parse_shards(spec)


def test_shards_need_a_count_and_must_lie_below_it() -> None:
    assert settings().shards() is None
    assert settings(shard_count=4).shards() == [0, 1, 2, 3]
    assert settings(shard_count=8, shard_ids="4-7").shards() == [4, 5, 6, 7]
    with pytest.raises(SettingsError, match="needs SHARD_COUNT"):
        settings(shard_ids="0-3").shards()
    with pytest.raises(SettingsError, match=r"\[8\] are not shards of SHARD_COUNT 8"):
        settings(shard_count=8, shard_ids="6-8").shards()


async def test_the_settings_choose_the_bot() -> None:
    plain = make_bot(settings())
    sharded = make_bot(settings(shard_count=8, shard_ids="0-3"))
    try:
        assert type(plain) is BugtableBot
        assert isinstance(sharded, ShardedBugtableBot)
        assert sharded.shard_ids == [0, 1, 2, 3] and sharded.shard_count == 8
    finally:
        await plain.close()  # (an AutoShardedBot that never connected has nothing to close)


def test_a_bad_range_on_the_command_line_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t" * 30)
    get_settings.cache_clear()
    try:
        assert main(["--shards", "6-8", "--shard-count", "8"]) == 2
        assert main(["--shards", "6-8", "run", "--shard-count", "8"]) == 2  # either side of run
    finally:
        get_settings.cache_clear()
    line = "bugtable: SHARD_IDS [8] are not shards of SHARD_COUNT 8 (0 to 7)."
    assert capsys.readouterr().err.splitlines() == [line, line]


def test_guild_events_go_to_their_shard_and_dms_to_shard_0() -> None:
    snowflakes = Snowflakes()
    for shard in range(5):
        guild_id = snowflakes.next_on_shard(shard, 5)
        assert shard_of(guild_id, 5) == shard
    assert shard_of(None, 5) == 0
    one_of_two = GatewaySession([1, 2], 0)
    guild_on_1 = snowflakes.next_on_shard(1, 2)
    guild_on_0 = snowflakes.next_on_shard(0, 2)
    assert one_of_two.serves(guild_on_1) and not one_of_two.serves(guild_on_0)
    assert not one_of_two.serves(None)  # DMs: shard 0
    assert GatewaySession(None, 0).serves(guild_on_0)  # an unsharded bot gets everything
