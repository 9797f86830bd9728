"""Persistence for bugtable (DESIGN.md §3 "Store"). Never imports discord: the Discord layer
turns these records and errors into messages."""

from __future__ import annotations

from .errors import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    NotSeated,
    StoreError,
    TableFull,
    VersionConflict,
    WrongStatus,
)
from .migrate import upgrade_to_head
from .records import (
    ActionRecord,
    GameRecord,
    GameStatus,
    GameSummary,
    LeaderboardEntry,
    LobbySeat,
    MemberGameStats,
    MemberSettings,
    MessageRecord,
    PlayerResult,
    ResultRecord,
    ResultSpec,
    SeatRecord,
    SettingChangeRecord,
    TimerRecord,
    TimerSpec,
)
from .repository import Store

__all__ = [
    "ActionRecord",
    "AlreadySeated",
    "ChannelBusy",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameSummary",
    "LeaderboardEntry",
    "LobbySeat",
    "MemberGameStats",
    "MemberSettings",
    "MessageRecord",
    "NotSeated",
    "PlayerResult",
    "ResultRecord",
    "ResultSpec",
    "SeatRecord",
    "SettingChangeRecord",
    "Store",
    "StoreError",
    "TableFull",
    "TimerRecord",
    "TimerSpec",
    "VersionConflict",
    "WrongStatus",
    "upgrade_to_head",
]
