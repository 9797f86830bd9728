"""Plain, frozen values handed to callers. ORM objects never leave the store, so nothing outside it
can lazy-load, mutate tracked state or outlive its session by accident."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from rules.core.bots import Level as BotLevel


class GameStatus(StrEnum):
    """The life of a game. ``LOBBY`` and ``PLAYING`` are "unfinished": they hold the channel."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


UNFINISHED: tuple[GameStatus, ...] = (GameStatus.LOBBY, GameStatus.PLAYING)


def _require_aware(name: str, value: datetime) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware (UTC), got naive {value!r}")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game row. ``version`` grows by one on every change a stale caller must not overwrite."""

    id: int
    slug: str
    guild_id: int | None
    channel_id: int
    creator_id: int
    status: GameStatus
    seed: int
    options: dict[str, str]
    players: int | None
    snapshot: dict[str, Any] | None
    version: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    web_token: str | None = None
    """The unguessable key of the game's web page (``/games/<token>``)."""
    last_seq: int = 0
    """The seq of the newest action in the log (0: none yet)."""
    snapshot_seq: int = 0
    """The seq ``snapshot`` was taken after: the game is the snapshot plus the later actions."""
    policy: dict[str, Any] | None = None
    """Its server's policy when it opened, as stored values (``host/policy_values.py``); None:
    a game older than server settings, played at the defaults."""
    time_control: str | None = None
    """The preset the game was opened with (``bot/speeds.py``, P-71); None (older games):
    ``normal``."""
    ended_by: int | None = None
    """The member who ended the game with `/bugs end` (P-72), if one did."""
    ended_by_name: str | None = None
    end_reason: str | None = None

    @property
    def is_unfinished(self) -> bool:
        """Whether the game still holds its channel."""
        return self.status in UNFINISHED


def game_record(row: Mapping[str, Any], *, snapshot: dict[str, Any] | None) -> GameRecord:
    """A record from a games row read by column name (an ORM game's columns, a Core row's
    ``_mapping``, the group writer's row); the snapshot is given apart, as most writes do not
    read it back."""
    return GameRecord(
        id=row["id"],
        slug=row["slug"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        creator_id=row["creator_id"],
        status=GameStatus(row["status"]),
        seed=row["seed"],
        options=dict(row["options"]),
        players=row["players"],
        snapshot=snapshot,
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        web_token=row["web_token"],
        last_seq=row["last_seq"],
        snapshot_seq=row["snapshot_seq"],
        policy=row["policy"],
        time_control=row["time_control"],
        ended_by=row["ended_by"],
        ended_by_name=row["ended_by_name"],
        end_reason=row["end_reason"],
    )


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A place at the table. ``seat`` is None in the lobby, where ``join_seq`` keeps join order."""

    game_id: int
    user_id: int
    name: str
    is_bot: bool
    seat: int | None
    join_seq: int
    confirmed: bool = True
    """False for a place a rematch holds for a previous player who has not pressed Join yet."""
    away: bool = False
    """During play: a bot plays this member's seat until they come back (P-30, P-31)."""
    bot_level: BotLevel = "easy"
    """The level of the bot playing this seat (a bot's, or an away member's stand-in)."""


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One entry of the append-only log; ``seq`` counts from 1 with no gaps."""

    game_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    at: datetime


@dataclass(frozen=True, slots=True)
class TimerRecord:
    """A persisted deadline: at ``due_at`` the host applies ``action`` as the SYSTEM seat."""

    game_id: int
    key: str
    due_at: datetime
    action: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """Which Discord message shows which part of a game (``kind``: "board", "lobby", "hand:3")."""

    game_id: int
    kind: str
    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """One player's final result, kept for stats."""

    game_id: int
    user_id: int
    seat: int
    score: int
    rank: int
    winner: bool
    breakdown: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TimerSpec:
    """A deadline the caller wants to exist after its write (the full set replaces the old one)."""

    key: str
    due_at: datetime
    action: dict[str, Any]

    def __post_init__(self) -> None:
        # A naive time would be read back as UTC and silently fire hours early or late.
        _require_aware("due_at", self.due_at)


@dataclass(frozen=True, slots=True)
class ResultSpec:
    """One player's result as the engine scored it, written when the game finishes."""

    user_id: int
    seat: int
    score: int
    rank: int
    winner: bool
    breakdown: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A place to set when a lobby opens (a rematch seats the previous table in its order)."""

    user_id: int
    name: str
    is_bot: bool = False
    confirmed: bool = True
    bot_level: BotLevel = "easy"


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One line of a server's leaderboard for one game."""

    user_id: int
    name: str
    rating: float
    """Conservative skill (openskill's ordinal, mu - 3 sigma): it rises with wins and certainty."""
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class MemberGameStats:
    """A member's record at one game in one server; ``rating`` is None until a rated game."""

    slug: str
    games: int
    wins: int
    best_score: int
    rating: float | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat of a finished game as history shows it (with the name the player had then)."""

    user_id: int
    name: str
    is_bot: bool
    seat: int
    score: int
    rank: int
    winner: bool


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game and its results, best first."""

    game: GameRecord
    players: tuple[PlayerResult, ...]

    @property
    def winners(self) -> tuple[PlayerResult, ...]:
        return tuple(p for p in self.players if p.winner)


@dataclass(frozen=True, slots=True)
class MemberSettings:
    """A member's ``/bugs settings`` (the defaults for a member who never changed one)."""

    user_id: int
    pings: bool = True
    chosen: bool = False
    """Whether the member chose (``pings`` is theirs); if not, their server's default applies
    (``/bugtable pings``, P-66)."""

    def pings_on(self, server_default: bool) -> bool:
        """Whether this member is pinged in a game of a server whose default is this."""
        return self.pings if self.chosen else server_default


@dataclass(frozen=True, slots=True)
class SettingChangeRecord:
    """One change of a server's settings (the audit trail): ``old`` and ``new`` are stored
    values, ``None`` the bot's default (no row)."""

    guild_id: int
    key: str
    old: Any
    new: Any
    user_id: int
    user_name: str
    at: datetime
