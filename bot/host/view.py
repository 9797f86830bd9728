"""What presenters are handed: an immutable view of a table, made while its lock is held.

A ``TableView`` copies the little the table itself holds (record, seats, names, deadlines,
pacing times), and gives the engine only through a ``Moment``: its read-only face at the
instant the view was made. Nothing here reaches the table's lock, its timers dict or the live
engine, so a presenter cannot change a game or see a move made after its view.

Cheap by design (issue #21's per-move budget): no state is copied when a view is made. The
engine's answers (views, legal actions, scores) are computed at their first use and kept; one
asked for after the game moved on is answered from the committed snapshot and the moves the
table had then (the host's own rollback data), never from the newer position.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar, cast

from rules.core import Action, Engine

from ..standings import FinalResult, final_result
from ..store.records import GameRecord, SeatRecord
from .errors import NotStarted
from .policy import BOT_LEVELS, BotLevel
from .seating import Seating, names_by_seat

E_co = TypeVar("E_co", covariant=True)
E = TypeVar("E", bound=Engine)
V_co = TypeVar("V_co", covariant=True)
R_co = TypeVar("R_co", covariant=True)
T = TypeVar("T")


class StaleView(RuntimeError):
    """A view's engine moved on and there is no committed position to answer from: a bug in
    the caller (a view must be made at a committed point of a table that keeps one)."""


class _Views(Protocol[V_co]):
    def view(self, seat: int | None) -> V_co: ...


class _Previews(Protocol[R_co]):
    def score_preview(self, seat: int, action: Action) -> R_co: ...


class Moment(Generic[E_co]):
    """A running game as one committed instant shows it: the engine's read-only questions,
    each answered once and kept. ``of(BugRun)`` types it as one game's, so its views read by
    that game's contract."""

    __slots__ = ("__weakref__", "_applied", "_engine", "_kept", "_moves", "_snapshot", "_tail")

    def __init__(
        self,
        engine: Engine,
        snapshot: dict[str, Any] | None,
        tail: Sequence[tuple[int, dict[str, Any]]],
    ) -> None:
        """``snapshot`` and ``tail`` are the table's committed position: the stored snapshot
        and the moves after it (later moves are appended, never changed), or ``None``."""
        self._engine = engine
        self._applied = engine.applied
        self._snapshot, self._tail, self._moves = snapshot, tail, len(tail)
        self._kept: dict[object, Any] = {}

    def of(self, cls: type[E]) -> Moment[E]:
        """This moment typed as ``cls``'s (a presenter's own game)."""
        if not isinstance(self._engine, cls):
            raise TypeError(f"{type(self._engine).__name__} is not a {cls.__name__}")
        return cast("Moment[E]", self)

    def shows(self, engine: Engine) -> bool:
        """Whether this moment is ``engine`` where it stands now: the same object, which has
        applied nothing since (``applied`` counts even a move that failed half-way, and a
        rolled-back table gets a new engine), so every answer kept here is still its answer."""
        return self._engine is engine and self._applied == engine.applied

    def _live(self) -> Engine:
        """The engine at this moment: the table's own while it has not moved since, else one
        rebuilt from the committed position (kept, as nobody else moves it)."""
        engine = self._engine
        if engine.applied != self._applied:
            if self._snapshot is None:
                raise StaleView(f"{engine.slug}: the game moved on after this view was made")
            engine = type(engine).from_dict(self._snapshot)
            for seat, action in self._tail[: self._moves]:
                engine.apply(seat, action)
            self._engine, self._applied, self._snapshot = engine, engine.applied, None
        return engine

    def _ask(self, key: object, question: Callable[[Engine], T]) -> T:
        try:
            return cast("T", self._kept[key])
        except KeyError:
            answer = self._kept[key] = question(self._live())
            return answer

    @property
    def slug(self) -> str:
        return self._engine.slug

    @property
    def players(self) -> int:
        return self._engine.players

    @property
    def turn(self) -> int:
        return self._ask("turn", lambda e: e.turn)

    @property
    def is_over(self) -> bool:
        return self._ask("is_over", lambda e: e.is_over)

    def waiting_for(self) -> frozenset[int]:
        return self._ask("waiting_for", lambda e: e.waiting_for())

    def legal_actions(self, seat: int) -> list[Action]:
        """The seat's legal actions (the kept list: read it, do not change it)."""
        return self._ask(("legal", seat), lambda e: e.legal_actions(seat))

    def view(self: Moment[_Views[V_co]], seat: int | None) -> V_co:
        """``Engine.view(seat)`` at this moment, typed by the game's contract (kept: read it,
        do not change it)."""
        if seat is not None and ("view", None) in self._kept:
            # The table's view is drawn at nearly every position: a seat's shares its parts.
            public = self._kept[("view", None)]
            return cast("V_co", self._ask(("view", seat), lambda e: e.view_beside(public, seat)))
        return cast("V_co", self._ask(("view", seat), lambda e: e.view(seat)))

    def score_preview(self: Moment[_Previews[R_co]], seat: int, action: Action) -> R_co:
        """The game's own ``score_preview`` at this moment (asked anew each time)."""
        engine = cast("_Previews[R_co]", self._live())
        return engine.score_preview(seat, action)

    def public_scores(self) -> list[int]:
        """What everyone may see of the standings (``bot.standings``)."""
        return self._ask("public_scores", lambda e: e.public_scores())

    def final_result(self) -> FinalResult:
        """The finished game's result; ``NotOver`` before the end (``bot.standings``)."""
        return self._ask("final", final_result)


@dataclass(frozen=True, slots=True)
class Rules:
    """What every table of one game shares: its name, seat range and paced action types."""

    slug: str
    title: str
    min_players: int
    max_players: int
    pacing: Mapping[str, str]
    """The game's paced action types (``Engine.pacing``)."""


@functools.cache
def rules_of(cls: type[Engine]) -> Rules:
    """One game's ``Rules``, made once."""
    return Rules(cls.slug, cls.title, cls.min_players, cls.max_players, frozen(cls.pacing))


@dataclass(frozen=True, slots=True, eq=False)
class TableView(Seating):
    """One table as a presenter may read it: made by ``Table.view()`` holding the lock."""

    game: GameRecord
    rules: Rules
    seats: tuple[SeatRecord, ...]
    timers: Mapping[str, datetime]
    """The persisted deadlines' due times, by key."""
    paced_until: Mapping[str, datetime]
    """When each running pacing gap ends (P-29)."""
    moment: Moment[Engine] | None
    """The running game, or ``None`` in the lobby (and for a game cancelled there)."""
    bot_levels: tuple[BotLevel, ...] = BOT_LEVELS
    """The levels the lobby's **Add bot** offers (its server's policy, P-77)."""
    _names: list[str] | None = field(default=None, init=False, repr=False)

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def slug(self) -> str:
        return self.game.slug

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def min_players(self) -> int:
        return self.rules.min_players

    @property
    def max_players(self) -> int:
        return self.rules.max_players

    @property
    def pacing(self) -> Mapping[str, str]:
        return self.rules.pacing

    def names(self) -> list[str]:
        """Display names by seat, as ``Table.names()`` gives them (worked out once)."""
        if self._names is None:
            players = None if self.moment is None else self.moment.players
            object.__setattr__(self, "_names", names_by_seat(self.seats, players))
        assert self._names is not None
        return list(self._names)

    def running(self) -> Moment[Engine]:
        if self.moment is None:
            raise NotStarted()
        return self.moment


EMPTY: Mapping[str, Any] = MappingProxyType({})


def frozen(mapping: Mapping[str, T]) -> Mapping[str, T]:
    """A read-only copy of a small mapping."""
    return MappingProxyType(dict(mapping)) if mapping else EMPTY
