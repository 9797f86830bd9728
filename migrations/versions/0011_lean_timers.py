"""Timers in one b-tree: no index on ``due_at``, and on SQLite a table WITHOUT ROWID (issue
#25, item 3).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04

Most moves replace their game's deadline (a new reveal, a new turn), and each b-tree a row lives
in is one more page written per commit (on SQLite, one more page of the write-ahead log to sync
under ``FULL``): the rowid table, its primary-key index and the ``due_at`` index made three.
Keyed by its primary key alone the table is one. Nothing looks a timer up by ``due_at``: it is
ordered by it only when a restarted bot reads every timer (a few per game in play), which sorts
them. ``timers`` is referenced by no other table, so rebuilding it on SQLite cascades nothing.
The downgrade builds it as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _sqlite() -> bool:
    return op.get_context().dialect.name == "sqlite"


def upgrade() -> None:
    op.drop_index("ix_timers_due_at", table_name="timers")
    if _sqlite():
        with op.batch_alter_table(
            "timers", recreate="always", table_kwargs={"sqlite_with_rowid": False}
        ):
            pass


def downgrade() -> None:
    if _sqlite():
        # The reflected table says WITHOUT ROWID: say otherwise.
        with op.batch_alter_table(
            "timers", recreate="always", table_kwargs={"sqlite_with_rowid": True}
        ):
            pass
    op.create_index("ix_timers_due_at", "timers", ["due_at"], unique=False)
