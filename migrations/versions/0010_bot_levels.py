"""The level of the bot that plays a seat (issue #23): a bot player's own, or a stand-in's while
its member is away.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04

Every seat written before this played at random when a bot played it, which is the ``easy``
level: the constant default fills every existing row with it (SQLite and PostgreSQL alike).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "seats",
        sa.Column("bot_level", sa.String(length=8), server_default="easy", nullable=False),
    )


def downgrade() -> None:
    # SQLite drops a column only by rebuilding the table: batch mode does that (``seats`` is
    # referenced by no other table, so nothing cascades).
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
