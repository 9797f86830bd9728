"""Per-server settings (``/bugtable``), their audit trail, and each game's copy of its server's
policy (issue #24).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04

Both tables start empty: a server without rows is at the bot's defaults. ``games.policy`` is
NULL for every existing game, which plays on at the defaults, as it always did (P-64). A plain
ADD COLUMN (nullable, no default) on both databases; never batch mode on ``games``, whose
rebuild would cascade-delete every game's seats and actions.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOC = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "server_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("value", JSON_DOC, nullable=True),
        sa.Column("updated_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "key", name=op.f("pk_server_settings")),
    )
    op.create_table(
        "server_setting_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("old_value", JSON_DOC, nullable=True),
        sa.Column("new_value", JSON_DOC, nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("user_name", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_server_setting_changes")),
    )
    op.create_index(
        "ix_server_setting_changes_guild_id_at",
        "server_setting_changes",
        ["guild_id", "at"],
        unique=False,
    )
    op.add_column("games", sa.Column("policy", JSON_DOC, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "policy")  # SQLite 3.35 and later, PostgreSQL
    op.drop_index("ix_server_setting_changes_guild_id_at", table_name="server_setting_changes")
    op.drop_table("server_setting_changes")
    op.drop_table("server_settings")
