"""PostgreSQL: JSON documents as jsonb (game snapshots excepted, P-35). SQLite: nothing changes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

``jsonb`` forgets key order, which is harmless for options, actions, timer actions and score
breakdowns (tests/bot/test_snapshot_key_order.py) but not for Bug Run's snapshots, so
``games.snapshot`` stays ``json``. The one-unfinished-game-per-channel partial unique index
already exists on both databases (0001).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (table, column, nullable) of every JSON document column that becomes jsonb.
COLUMNS = [
    ("games", "options", False),
    ("actions", "action", False),
    ("timers", "action", False),
    ("results", "breakdown", False),
]


def upgrade() -> None:
    _retype(postgresql.JSONB(), sa.JSON(), "jsonb")


def downgrade() -> None:
    _retype(sa.JSON(), postgresql.JSONB(), "json")


def _retype(new: sa.types.TypeEngine[object], old: sa.types.TypeEngine[object], cast: str) -> None:
    """Give every document column the ``new`` type on PostgreSQL; SQLite keeps text."""
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, nullable in COLUMNS:
        op.alter_column(
            table,
            column,
            type_=new,
            existing_type=old,
            existing_nullable=nullable,
            postgresql_using=f"{column}::{cast}",
        )
