"""The command line: one clear line for a missing or refused token; `sync` on demand."""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from pathlib import Path

from bot.emulator import Emulator
from bot.store.migrate import newest_revision
from tests.support.processes import spawned
from tests.support.wait import until

from .command_line import cli_env, run_cli
from .conftest import CONNECT_TIMEOUT, TOKEN, BotProcess, make_world
from .helpers import free_port, open_game


async def test_a_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    code, _, err = await run_cli(tmp_path)
    assert code == 2
    assert err.strip().splitlines() == [
        "bugtable: DISCORD_TOKEN is not set: put your bot token in .env (see .env.example)."
    ]


async def test_a_refused_token_is_one_clear_line(tmp_path: Path, emulator: Emulator) -> None:
    code, _, err = await run_cli(
        tmp_path,
        DISCORD_TOKEN="wrong-token-0123456789abcdefgh",
        DISCORD_API_BASE=emulator.api_base,
        DISCORD_GATEWAY_URL=emulator.gateway_url,
        LOG_LEVEL="CRITICAL",
    )
    assert code == 2
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("bugtable: Discord refused DISCORD_TOKEN")


async def test_sync_registers_the_commands(tmp_path: Path, emulator: Emulator) -> None:
    code, out, err = await run_cli(
        tmp_path,
        "sync",
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE=emulator.api_base,
        DISCORD_GATEWAY_URL=emulator.gateway_url,
    )
    assert code == 0, err
    assert "Synced 2 command(s) globally." in out  # /bugs and /bugtable
    assert emulator.sync_count == 1
    bugs, bugtable = emulator.commands
    assert bugtable["name"] == "bugtable"
    assert bugs["name"] == "bugs"
    assert {o["name"] for o in bugs["options"]} >= {"new", "join", "start", "hand", "rules"}


async def test_discord_out_of_reach_at_start_is_one_line_and_tried_again(tmp_path: Path) -> None:
    port = free_port()  # a port where nothing listens (yet)
    env = cli_env(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway",
        RETRY_MAX_DELAY="0.5",
    )
    log_path = tmp_path / "bot.log"
    emulator = Emulator(token=TOKEN, port=port)
    bot = [sys.executable, "-m", "bot"]
    try:
        with log_path.open("wb") as log:
            async with spawned(bot, cwd=tmp_path, env=env, stdout=log, stderr=log):
                await until(
                    lambda: log_path.read_text().count("Discord could not be reached") >= 2,
                    timeout=90,
                    what="two tries",
                )
                await emulator.start()  # Discord is back: the next try connects
                await emulator.wait_identified(timeout=CONNECT_TIMEOUT)
    finally:
        await emulator.stop()
    output = log_path.read_text()
    assert "Traceback" not in output and "aiohttp" not in output, output
    tries = [line for line in output.splitlines() if "could not be reached" in line]
    assert all("trying again in" in line for line in tries)


async def test_the_first_start_on_a_new_database_migrates_it_and_serves(
    tmp_path: Path, emulator: Emulator
) -> None:
    """The shared e2e bots start on a migrated copy (tests/e2e/conftest.py); this one is the
    first start of a deployment: no database file at all."""
    bot = BotProcess(emulator, tmp_path)
    assert not bot.db_path.exists()
    async with bot.running():
        world = await make_world(emulator, bot)
        board = await open_game(emulator, world.alice, world.channel, "bag-of-bugs")
        assert "Bag of Bugs" in board.text()
    head = newest_revision()
    output = bot.output()
    # one line for the whole migration; no Alembic step, no voice warning (issue #26)
    assert f"database schema created at revision {head}" in output
    assert "Running upgrade" not in output and "alembic" not in output
    assert "voice will NOT be supported" not in output
    with contextlib.closing(sqlite3.connect(bot.db_path)) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(head,)]
