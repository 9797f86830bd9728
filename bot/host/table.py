"""A Table: the in-memory face of one game (record, seats, engine, lock)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from rules.core import SYSTEM, Engine, Event

from ..store.errors import NotSeated
from ..store.records import GameRecord, SeatRecord
from .errors import NotStarted

SeatChangeWhy = Literal["left", "clock", "back"]


@dataclass(frozen=True)
class SeatChange:
    """A member's seat handed to a bot (``left``: `/bugs leave`; ``clock``: their clock ran out
    ``strikes`` times in a row) or taken back (``back``: `/bugs join`)."""

    seat: int
    why: SeatChangeWhy
    strikes: int = 0


@dataclass
class Table:
    """One game. Every change goes through ``Host`` while holding ``lock``."""

    game: GameRecord
    engine_cls: type[Engine]
    seats: list[SeatRecord]
    engine: Engine | None = None
    committed: dict[str, Any] | None = None
    """The last snapshot the database holds; with ``tail`` it rebuilds the engine if a commit
    fails."""
    tail: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(seat, action) of each committed move after ``committed`` (P-33)."""
    timers: dict[str, datetime] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    paced_at: dict[str, float] = field(default_factory=dict)
    """Monotonic time of the last accepted paced action, by pacing setting (``Engine.pacing``);
    cleared when the turn changes."""
    paced_until: dict[str, datetime] = field(default_factory=dict)
    """When each pacing gap ends, in wall time: boards show a cooldown until then (P-29)."""
    clock_strikes: dict[int, int] = field(default_factory=dict)
    """By seat: how many of its clocks in a row ran out with nobody acting (P-31)."""
    seat_changes: list[SeatChange] = field(default_factory=list)
    """Seats handed to a bot or taken back since the listeners were last told (they say so);
    cleared once every listener has been told."""

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def slug(self) -> str:
        return self.game.slug

    @property
    def title(self) -> str:
        return self.engine_cls.title

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and s.seat is not None:
                return s.seat
        return None

    def require_seat(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeated(self.id, user_id, playing=True)
        return seat

    def confirmed(self) -> list[SeatRecord]:
        """The places taken for real: in a rematch lobby, not those still held for a previous
        player who has not pressed Join."""
        return [s for s in self.seats if s.confirmed]

    def user_at(self, seat: int) -> SeatRecord:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def bot_plays(self, seat: int) -> bool:
        """A bot player's seat, or a member's that a bot plays while they are away (P-30)."""
        held = self.user_at(seat)
        return held.is_bot or held.away

    def names(self) -> list[str]:
        """Display names by seat (join order while in the lobby); a seat a bot plays for its
        member shows a 🤖 before the member's name."""
        if self.engine is None:
            return [s.name for s in self.seats]
        names = []
        for i in range(self.engine.players):
            held = self.user_at(i)
            names.append(f"🤖 {held.name}" if held.away else held.name)
        return names

    def running(self) -> Engine:
        if self.engine is None:
            raise NotStarted()
        return self.engine


@dataclass(frozen=True)
class Outcome:
    """What one accepted action did, handed to presenters after it was committed."""

    table: Table
    seat: int
    action: dict[str, Any]
    events: list[Event]
    finished: bool
    turn_before: int
    turn_after: int

    @property
    def by_system(self) -> bool:
        return self.seat == SYSTEM
