"""The schema as SQLAlchemy declarative models. Alembic owns the live schema
(``migrations/versions``); a test keeps the two identical."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Stable constraint names, so batch migrations on SQLite can find and alter them later.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# The one predicate that means "this game still holds its channel"; the partial index uses it.
UNFINISHED_SQL = "status IN ('lobby', 'playing')"


WEB_TOKEN_BYTES = 16
"""Randomness in a game's web token: 128 bits, so a page's address cannot be guessed."""


JSON_DOC = JSON().with_variant(JSONB(), "postgresql")
"""A JSON document column: text on SQLite, ``jsonb`` on PostgreSQL (parsed once on write, indexable;
migration 0006). ``jsonb`` forgets key order, so game snapshots stay plain ``json`` (P-35)."""


def new_web_token() -> str:
    """A fresh token for a game's web page (the URL is the only key to it; ids are guessable)."""
    return secrets.token_urlsafe(WEB_TOKEN_BYTES)


def utcnow() -> datetime:
    """The current time, aware and in UTC: the only kind of datetime the store accepts."""
    return datetime.now(UTC)


def _in_utc(value: datetime) -> datetime:
    """``value`` in UTC; a naive value (whose zone is a guess) is refused."""
    if value.tzinfo is UTC:
        return value
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: the store only takes aware UTC times")
    return value.astimezone(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python.

    SQLite keeps no zone and hands back naive values; PostgreSQL's ``timestamptz`` keeps it.
    Normalising both ways here means callers never compare naive with aware times, and a naive
    value (whose zone is a guess) is refused rather than stored wrong.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = _in_utc(value)
        # SQLite compares the stored text, so every value must be written in one zone and format.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    @staticmethod
    def sqlite_text(value: datetime | None) -> str | None:
        """The text SQLite stores for ``value``: what ``process_bind_param`` and SQLAlchemy's
        SQLite ``DATETIME`` make of it (``YYYY-MM-DD HH:MM:SS.ffffff`` in UTC), in one call
        instead of three. Every committed action stores a time or two this way, on the event
        loop (``bot/store/sqlite_sql.py``); a test holds it to SQLAlchemy's own form."""
        if value is None:
            return None
        return _in_utc(value).replace(tzinfo=None).isoformat(" ", "microseconds")


class Base(DeclarativeBase):
    """Declarative base with the naming convention."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Game(Base):
    """A game from lobby to results. ``version`` guards every write against stale callers."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    slug: Mapped[str] = mapped_column(String(40))
    guild_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    creator_id: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, str]] = mapped_column(JSON_DOC)
    players: Mapped[int | None] = mapped_column(Integer, nullable=True)
    snapshot: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Plain ``json`` even on PostgreSQL: Bug Run's state depends on its key order (P-35)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Nullable only so SQLite can add it without rebuilding the table: every game gets one, new
    # games here and older ones in migration 0003.
    web_token: Mapped[str | None] = mapped_column(String(32), nullable=True, default=new_web_token)
    # The seq of the newest action, and the seq the snapshot was taken after (migration 0005):
    # the game is its snapshot plus the actions after ``snapshot_seq``.
    last_seq: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    snapshot_seq: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    # The server's policy as it was when the game opened (migration 0008, P-64): a running game
    # never changes under its players. NULL: a game older than server settings (the defaults).
    policy: Mapped[dict[str, Any] | None] = mapped_column(JSON_DOC, nullable=True)
    # The time control the game was opened with (migration 0009, P-71); NULL, for games stored
    # before, is ``normal``.
    time_control: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Who ended the game with `/bugs end`, and why (migration 0009, P-72); the status is then
    # ``cancelled``: no results, no rating.
    ended_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ended_by_name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)

    __table_args__ = (
        CheckConstraint("status IN ('lobby', 'playing', 'finished', 'cancelled')", name="status"),
        # One unfinished game per channel, enforced by the database itself so no race in the
        # host (or a second bot process) can ever open two.
        Index(
            "uq_games_active_channel",
            "channel_id",
            unique=True,
            sqlite_where=text(UNFINISHED_SQL),
            postgresql_where=text(UNFINISHED_SQL),
        ),
        Index("ix_games_status", "status"),
        Index("uq_games_web_token", "web_token", unique=True),
    )


class Seat(Base):
    """A place at a table. In the lobby ``seat`` is NULL and ``join_seq`` keeps join order;
    ``start`` assigns ``seat`` 0..n-1 in play order. A rematch lobby holds places for the
    previous players, ``confirmed`` false until each presses Join; ``start`` drops the rest.
    During play ``away`` marks a member's seat a bot plays for them until they come back."""

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    join_seq: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    confirmed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A bot plays this member's seat: they left, or let their clock run out (P-30, P-31)."""
    bot_level: Mapped[str] = mapped_column(String(8), default="easy", server_default="easy")
    """The level of the bot that plays this seat: a bot player's own, or its member's stand-in
    while ``away`` (set when the seat is handed over). Rows older than levels read ``easy``."""

    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        UniqueConstraint("game_id", "seat"),  # NULLs are distinct, so many lobby places are fine
        UniqueConstraint("game_id", "join_seq"),
    )


class ActionRow(Base):
    """The append-only action log: ``new(seed)`` + these actions replays the game exactly."""

    __tablename__ = "actions"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON_DOC)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class MessageRow(Base):
    """Which Discord message shows which part of a game, so a restart can edit it in place."""

    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (UniqueConstraint("game_id", "kind"),)


class TimerRow(Base):
    """A deadline that survives restarts; the scheduler reloads these at start-up."""

    __tablename__ = "timers"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    action: Mapped[dict[str, Any]] = mapped_column(JSON_DOC)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    # One b-tree (migration 0011): most moves replace a deadline, and each b-tree is one more
    # page a commit writes (and, on SQLite under FULL, syncs).
    __table_args__ = ({"sqlite_with_rowid": False},)


class ResultRow(Base):
    """One player's final result; rows exist only for finished games (stats read them)."""

    __tablename__ = "results"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger)
    score: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    winner: Mapped[bool] = mapped_column(Boolean)
    breakdown: Mapped[dict[str, Any]] = mapped_column(JSON_DOC)

    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        Index("ix_results_user_id", "user_id"),
    )


class RatingRow(Base):
    """A member's skill at one game in one server (openskill's Plackett-Luce ``mu``/``sigma``).

    Written in the transaction that records the results of each rated game, so a rating can
    never count a game the results do not hold, or miss one they do.
    """

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    slug: Mapped[str] = mapped_column(String(40), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(100))
    """The member's name at their latest rated game (leaderboards need no Discord lookup)."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class MetaRow(Base):
    """Small bot-wide facts that must survive restarts (e.g. the digest of the last slash-command
    sync, so an unchanged command set is not re-synced against Discord's rate limits)."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class MemberSettingsRow(Base):
    """A member's own choices, the same in every server and game (``/bugs settings``).

    A member without a row has the defaults: rows are written only when someone changes one.
    """

    __tablename__ = "member_settings"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    pings: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether the bot mentions this member in the channel when a game waits on them (P-28)."""
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class ServerSettingRow(Base):
    """One setting a server's admins chose (``/bugtable``); a setting without a row is at the
    bot's default. ``value`` is the setting's JSON value (``bot/host/policy_values.py``)."""

    __tablename__ = "server_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON_DOC, nullable=True)
    updated_by: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class ServerSettingChangeRow(Base):
    """The audit trail: every change of a server's settings, who made it and when, with the
    value before and after (``NULL``: the default, no row)."""

    __tablename__ = "server_setting_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    key: Mapped[str] = mapped_column(String(100))
    old_value: Mapped[Any] = mapped_column(JSON_DOC, nullable=True)
    new_value: Mapped[Any] = mapped_column(JSON_DOC, nullable=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    user_name: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (Index("ix_server_setting_changes_guild_id_at", "guild_id", "at"),)
