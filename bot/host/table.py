"""A Table: the in-memory face of one game (record, seats, engine, lock)."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Literal

from rules.core import SYSTEM, Engine, Event

from ..store.errors import NotSeated
from ..store.records import GameRecord, SeatRecord
from .errors import NotStarted
from .policy import BOT_LEVELS, BotLevel, ServerPolicy
from .policy_values import policy_from_values
from .seating import Seating, names_by_seat
from .view import Moment, TableView, frozen, rules_of

SeatChangeWhy = Literal["left", "clock", "back", "kicked"]


@dataclass(frozen=True)
class SeatChange:
    """A member's seat handed to a bot (``left``: `/bugs leave`; ``clock``: their clock ran out
    ``strikes`` times in a row; ``kicked``: a moderator's `/bugs kick`) or taken back (``back``:
    `/bugs join`)."""

    seat: int
    why: SeatChangeWhy
    strikes: int = 0
    view: TableView = field(kw_only=True, compare=False, repr=False)
    """The table as the change left it (made under the lock), for the log line and notice
    the listeners make once the lock is released."""


@dataclass
class Table(Seating):
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
    _moment: weakref.ref[Moment[Engine]] | None = field(default=None, repr=False, compare=False)
    """The engine's answers at its current position, shared by every view made there while
    one is held (weakly: a moment nobody holds is freed at once, never kept for a later view,
    so a move's views do not outlive its answers and crowd the collector's old generations)."""

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

    @cached_property
    def policy(self) -> ServerPolicy:
        """Its server's policy as it was when the game opened (P-64): a running game never
        changes under its players (a game older than server settings has the defaults). Read
        once: ``games.policy`` is written when the game opens and never again."""
        return policy_from_values(self.game.policy or {})

    @property
    def bot_levels(self) -> tuple[BotLevel, ...]:
        """The levels **Add bot** offers in this lobby, in their order: its server's policy
        when the game opened (P-64, P-77)."""
        offered = self.policy.bot_levels
        return tuple(level for level in BOT_LEVELS if level in offered)

    def require_seat(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeated(self.id, user_id, playing=True)
        return seat

    def names(self) -> list[str]:
        """Display names by seat (join order while in the lobby); a seat a bot plays for its
        member shows a 🤖 before the member's name."""
        return names_by_seat(self.seats, None if self.engine is None else self.engine.players)

    def running(self) -> Engine:
        if self.engine is None:
            raise NotStarted()
        return self.engine

    def view(self) -> TableView:
        """What presenters are handed: this table now, immutable (``bot.host.view``). Made
        holding the lock, at a committed point (the engine is what the database holds)."""
        engine = self.engine
        moment = None if self._moment is None else self._moment()
        if engine is None:
            moment = None
        elif moment is None or not moment.shows(engine):
            # One moment per position: the log line, the click's answer and the pump's pass
            # of one move ask the engine for a view once between them (issue #21).
            moment = Moment(engine, self.committed, self.tail)
            self._moment = weakref.ref(moment)
        return TableView(
            game=self.game,
            rules=rules_of(self.engine_cls),
            seats=tuple(self.seats),
            timers=frozen(self.timers),
            paced_until=frozen(self.paced_until),
            moment=moment,
            bot_levels=self.bot_levels,
        )


@dataclass(frozen=True)
class Outcome:
    """What one accepted action did, handed to presenters after it was committed, with the
    table as that commit left it (``view``, made under the lock; a replayed outcome's is the
    table once loaded)."""

    view: TableView
    seat: int
    action: dict[str, Any]
    events: list[Event]
    finished: bool
    turn_before: int
    turn_after: int

    @property
    def by_system(self) -> bool:
        return self.seat == SYSTEM
