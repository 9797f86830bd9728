"""Initial schema: games, seats, actions, messages, timers, results, meta.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Written out in full rather than importing the models, so this revision keeps describing the
schema as it was even after the models move on. ``tests/bot/test_store_migrations.py`` checks
that head still equals the models.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNFINISHED = sa.text("status IN ('lobby', 'playing')")


def _utc() -> sa.DateTime:
    # bot.store.models.UTCDateTime stores into this type.
    return sa.DateTime(timezone=True)


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("slug", sa.String(length=40), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("creator_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=True),
        sa.Column("snapshot", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("lobby_message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", _utc(), nullable=False),
        sa.Column("updated_at", _utc(), nullable=False),
        sa.Column("finished_at", _utc(), nullable=True),
        sa.CheckConstraint(
            "status IN ('lobby', 'playing', 'finished', 'cancelled')",
            name=op.f("ck_games_status"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index("ix_games_status", "games", ["status"], unique=False)
    # The database itself allows one unfinished game per channel.
    op.create_index(
        "uq_games_active_channel",
        "games",
        ["channel_id"],
        unique=True,
        sqlite_where=UNFINISHED,
        postgresql_where=UNFINISHED,
    )

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("join_seq", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        _game_fk("seats"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("game_id", "join_seq", name=op.f("uq_seats_game_id_join_seq")),
        sa.UniqueConstraint("game_id", "seat", name=op.f("uq_seats_game_id_seat")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_seats_game_id_user_id")),
    )

    op.create_table(
        "actions",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("at", _utc(), nullable=False),
        _game_fk("actions"),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_actions")),
    )

    op.create_table(
        "messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        _game_fk("messages"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_messages")),
        sa.UniqueConstraint("game_id", "kind", name=op.f("uq_messages_game_id_kind")),
    )

    op.create_table(
        "timers",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("due_at", _utc(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created_at", _utc(), nullable=False),
        _game_fk("timers"),
        sa.PrimaryKeyConstraint("game_id", "key", name=op.f("pk_timers")),
    )
    op.create_index("ix_timers_due_at", "timers", ["due_at"], unique=False)

    op.create_table(
        "results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("breakdown", sa.JSON(), nullable=False),
        _game_fk("results"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_results")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_results_game_id_user_id")),
    )
    op.create_index("ix_results_user_id", "results", ["user_id"], unique=False)

    op.create_table(
        "meta",
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", _utc(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_meta")),
    )


def downgrade() -> None:
    op.drop_table("meta")
    op.drop_index("ix_results_user_id", table_name="results")
    op.drop_table("results")
    op.drop_index("ix_timers_due_at", table_name="timers")
    op.drop_table("timers")
    op.drop_table("messages")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("uq_games_active_channel", table_name="games")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
