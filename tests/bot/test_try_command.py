"""`python -m bot try`'s command line: each option described, the member count bounded, and
the settings it makes for itself (tests/e2e/test_try_browser.py runs it whole)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.emulator import Emulator
from bot.tryout import TOKEN, try_settings


def test_try_describes_each_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["try", "--help"])
    assert done.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    for words in [
        "--port PORT the page's port (default: 8000; 0: any free one)",
        "--host HOST the address to listen on",
        "--members N how many members to play as, 2 to 8 (default: 4)",
        "--open open the page in your web browser",
        "--database FILE keep the games in this SQLite file (default: a temporary one",
        "--verbose log what the bot does",
        "no Discord account or token needed",
    ]:
        assert words in said, words


@pytest.mark.parametrize("members", ["1", "9", "two", "-3"])
def test_try_takes_two_to_eight_members(members: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["try", "--members", members])
    assert done.value.code == 2
    assert f"give 2 to 8, not '{members}'" in capsys.readouterr().err


def test_try_makes_loopback_settings_whatever_the_environment_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No token, database or Discord address of the environment's is used (a `.env` is never
    read), but the games' timers are: a test makes them quick that way."""
    for name, value in {
        "DISCORD_TOKEN": "real.token-of-someone-0123456789",
        "DATABASE_URL": "postgresql+asyncpg://prod/db",
        "DISCORD_API_BASE": "https://discord.com/api",
        "METRICS_PORT": "9100",
        "SHARD_COUNT": "4",
        "TIMER_SCALE": "0.5",
    }.items():
        monkeypatch.setenv(name, value)
    emulator = Emulator(TOKEN)
    settings = try_settings(emulator, "sqlite+aiosqlite:///x.db", "127.0.0.1")
    assert settings.require_token() == TOKEN
    assert settings.database_url == "sqlite+aiosqlite:///x.db"
    assert settings.discord_api_base == emulator.api_base
    assert settings.metrics_port is None and settings.shards() is None
    assert settings.web_port is not None and settings.web_host == "127.0.0.1"
    assert settings.timer_scale == 0.5


def test_try_refuses_a_database_it_cannot_use_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As ``python -m bot`` does (P-40): exit code 3, one line, nothing started."""
    missing = tmp_path / "no" / "such" / "try.db"
    assert main(["try", "--database", str(missing), "--port", "0"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err
    assert not missing.parent.exists()
