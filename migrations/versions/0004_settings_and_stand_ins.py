"""Member settings (turn pings on or off), and seats a bot plays for a member who left.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03

Written out in full, like the others. ``member_settings`` starts empty: a member without a row
has the defaults (pings on), so nothing needs filling in. ``seats.away`` is false for every
existing seat (each was played by its member).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "member_settings",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("pings", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_member_settings")),
    )
    # A plain ADD COLUMN with a constant default: SQLite and PostgreSQL fill every row.
    op.add_column(
        "seats", sa.Column("away", sa.Boolean(), server_default=sa.false(), nullable=False)
    )


def downgrade() -> None:
    # SQLite drops a column only by rebuilding the table: batch mode does that.
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
    op.drop_table("member_settings")
