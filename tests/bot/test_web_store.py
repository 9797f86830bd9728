"""Web tokens in the store: every game has an unguessable one, older games get theirs when the
database is upgraded (migration 0003), and a token finds its game."""

from __future__ import annotations

import re
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from bot.store import Store, upgrade_to_head
from bot.store.database import create_engine
from bot.store.migrate import alembic_config

TOKEN = re.compile(r"^[A-Za-z0-9_-]{22}$")


async def _upgrade_to(url: str, revision: str) -> None:
    engine = create_engine(url)
    try:

        def upgrade(connection: sa.Connection) -> None:
            config = alembic_config(url)
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

        async with engine.begin() as conn:
            await conn.run_sync(upgrade)
    finally:
        await engine.dispose()


async def test_games_from_before_the_pages_get_a_token_on_upgrade(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    await _upgrade_to(url, "0001")
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            for channel, status in ((1, "finished"), (2, "playing"), (3, "cancelled")):
                await conn.execute(
                    sa.text(
                        "INSERT INTO games (slug, guild_id, channel_id, creator_id, status, seed,"
                        " options, version, created_at, updated_at)"
                        " VALUES ('bug-off', 1, :channel, 2, :status, 1, '{}', 0,"
                        " '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
                    ),
                    {"channel": channel, "status": status},
                )
    finally:
        await engine.dispose()
    await upgrade_to_head(url)
    store = await Store.open(url)
    try:
        async with store.engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT id, web_token FROM games"))).all()
        tokens = [token for _, token in rows]
        assert len(rows) == 3 and all(TOKEN.match(t or "") for t in tokens)
        assert len(set(tokens)) == 3
        for game_id, token in rows:
            found = await store.game_by_web_token(token)
            assert found is not None and found.id == game_id and found.web_token == token
    finally:
        await store.close()


async def test_new_games_get_distinct_tokens_and_unknown_ones_find_nothing(
    tmp_path: Path,
) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")
    try:
        games = [
            await store.create_lobby(
                slug="bug-off",
                guild_id=1,
                channel_id=channel,
                creator_id=1,
                creator_name="a",
                options={},
                seed=1,
            )
            for channel in (1, 2)
        ]
        tokens = [g.web_token for g in games]
        assert all(TOKEN.match(t or "") for t in tokens) and tokens[0] != tokens[1]
        fetched = await store.get_game(games[0].id)
        assert fetched is not None and fetched.web_token == tokens[0]
        assert await store.game_by_web_token("A" * 22) is None
        await store.join(games[0].id, user_id=2, name="b", max_players=4)
        started = await store.start(
            games[0].id, expected_version=1, seat_order=[1, 2], snapshot={}, timers=[]
        )
        played = await store.record_action(
            started,
            seat=0,
            action={"type": "draw"},
            snapshot={},
            timers=None,
        )
        assert played.web_token == tokens[0]  # the hot path's record carries it too
        assert [a.seq for a in await store.actions_after(games[0].id, 0)] == [1]
        assert await store.actions_after(games[0].id, 1) == []
    finally:
        await store.close()
