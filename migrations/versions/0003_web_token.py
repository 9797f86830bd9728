"""Web pages: every game gets an unguessable token, the key of its page ``/games/<token>``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02

Game ids count up, so they cannot name a public page; the token can. The column stays nullable
so SQLite can add it without rebuilding ``games`` (which would risk its partial unique index);
every existing game gets a token here, every new one from the model's default.

Written beside the ratings revision 0002 and put after it when the two branches met.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TOKEN_BYTES = 16
"""As ``bot.store.models.WEB_TOKEN_BYTES`` when this was written (kept here, not imported, so
the revision keeps meaning what it meant)."""


def upgrade() -> None:
    op.add_column("games", sa.Column("web_token", sa.String(length=32), nullable=True))
    if not context.is_offline_mode():  # offline SQL cannot know the rows; new games get one
        games = sa.table("games", sa.column("id", sa.Integer()), sa.column("web_token"))
        bind = op.get_bind()
        for game_id in bind.execute(sa.select(games.c.id)).scalars().all():
            bind.execute(
                games.update()
                .where(games.c.id == game_id)
                .values(web_token=secrets.token_urlsafe(TOKEN_BYTES))
            )
    op.create_index("uq_games_web_token", "games", ["web_token"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_games_web_token", table_name="games")
    op.drop_column("games", "web_token")
