"""Drop ``games.lobby_message_id``: nothing ever wrote or read it (the lobby is the game's board
message, kept in ``messages`` like every other).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01

Numbered 0007 so that the migrations written alongside it keep their numbers; it is chained to
whichever revision is head when it lands (0004 at first; 0005 once the snapshot columns came
before it). Downgrading adds the column back, empty, as it always
was.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ALTER TABLE … DROP COLUMN (SQLite 3.35 and later, PostgreSQL). Not batch mode:
    # rebuilding ``games`` would drop the old table, and with it, through ON DELETE CASCADE,
    # every game's seats, actions and results.
    op.drop_column("games", "lobby_message_id")


def downgrade() -> None:
    op.add_column("games", sa.Column("lobby_message_id", sa.BigInteger(), nullable=True))
