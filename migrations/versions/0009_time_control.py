"""A game's time control, and who ended a game by moderation (issue #24 items 2 and 3).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04

``games.time_control`` is the preset the game was opened with (``fast``, ``normal``, ``slow``,
``turn-based``; P-71), stored so a running game never changes under its players. Games stored
before have none (NULL), which reads as ``normal``: the timers they always ran with.
``games.ended_by`` / ``ended_by_name`` / ``end_reason`` record a game a moderator ended with
`/bugs end` (P-72): its status is ``cancelled`` (no results, no rating), and history shows it as
ended by that member. All four are plain nullable ADD COLUMNs: no table is rebuilt on SQLite
(a rebuild of ``games`` would cascade-delete every game's seats and log).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("time_control", sa.String(length=16), nullable=True))
    op.add_column("games", sa.Column("ended_by", sa.BigInteger(), nullable=True))
    op.add_column("games", sa.Column("ended_by_name", sa.String(length=100), nullable=True))
    op.add_column("games", sa.Column("end_reason", sa.String(length=200), nullable=True))


def downgrade() -> None:
    for column in ("end_reason", "ended_by_name", "ended_by", "time_control"):
        op.drop_column("games", column)
