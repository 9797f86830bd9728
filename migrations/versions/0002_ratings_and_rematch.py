"""Ratings per server and game; seats held for a rematch until their player confirms.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Written out in full, like 0001. Existing seats become confirmed (they were all real places).
Ratings start empty: they count the games finished from this revision on.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN with a constant default works on SQLite and PostgreSQL alike, and
    # fills every existing row.
    op.add_column(
        "seats",
        sa.Column("confirmed", sa.Boolean(), server_default=sa.true(), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("slug", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "slug", "user_id", name=op.f("pk_ratings")),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    # SQLite drops a column only by rebuilding the table: batch mode does that.
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("confirmed")
