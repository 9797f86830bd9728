"""Snapshots every few actions: each game knows its last log entry and its snapshot's.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04

``games.last_seq`` is the seq of the game's newest action (so a commit needs no ``max(seq)``
lookup) and ``games.snapshot_seq`` the seq the stored snapshot was taken after: a game is its
snapshot plus the actions after it. Until now every action rewrote the snapshot, so for every
existing game both are its newest seq (0 for a lobby or a game without actions).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMNs with a constant default: SQLite and PostgreSQL fill every row.
    op.add_column(
        "games", sa.Column("last_seq", sa.Integer(), server_default=sa.text("0"), nullable=False)
    )
    op.add_column(
        "games",
        sa.Column("snapshot_seq", sa.Integer(), server_default=sa.text("0"), nullable=False),
    )
    op.execute(
        "UPDATE games SET last_seq = COALESCE("
        "(SELECT MAX(seq) FROM actions WHERE actions.game_id = games.id), 0)"
    )
    op.execute("UPDATE games SET snapshot_seq = last_seq")


def downgrade() -> None:
    # Older code expects the snapshot to be the newest state; a game snapshotted behind its
    # log would resume at the wrong place under it, so downgrading needs every snapshot current.
    # (Run the bot at head once with SNAPSHOT_EVERY=1, or finish those games, before this.)
    op.drop_column("games", "snapshot_seq")
    op.drop_column("games", "last_seq")
