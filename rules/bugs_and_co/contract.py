"""Bugs & Co's typed contract: the shapes of its views, actions and event data.

The runtime values stay plain JSON dicts (snapshots, logs and replays are stored as such);
these ``TypedDict`` and ``Literal`` types only let mypy check that the rules and the
presenters agree on every key. ``EVENTS`` ties each event type to the shape of its
``Event.data``; the contract tests hold every emitted event to it.
"""

from __future__ import annotations

from typing import Literal, TypedDict

Status = str
"""A seat's ``playing``, ``trophy`` or ``stopped`` (the state keeps it as a plain string)."""
Phase = str
"""``start``, ``live``, ``final`` or ``over``."""


# -- actions ---------------------------------------------------------------------------------
class PeekAction(TypedDict):
    type: Literal["peek"]
    slot: int


class KeepAction(TypedDict):
    type: Literal["keep"]
    pickup: int


class _Return(TypedDict):
    type: Literal["return"]


class ReturnAction(_Return, total=False):
    """Back where it came from (``pickup``), into an empty ``slot``, or both (BC-X10, BC-X11).

    ``total=False`` rather than ``NotRequired``: under ``from __future__ import annotations``
    Python 3.11 cannot see ``NotRequired`` in the class's required keys."""

    pickup: int
    slot: int


class TrophyAction(TypedDict):
    type: Literal["trophy"]


class StartAction(TypedDict):
    """The "1, 2, 3" count is over (``SYSTEM``)."""

    type: Literal["start"]


class StopAction(TypedDict):
    """STOP, by the final countdown or the time cap (``SYSTEM``)."""

    type: Literal["stop"]
    why: Literal["countdown", "cap"]


BugsAndCoAction = PeekAction | KeepAction | ReturnAction | TrophyAction | StartAction | StopAction
ActionType = Literal["peek", "keep", "return", "trophy", "start", "stop"]


# -- views -----------------------------------------------------------------------------------
class SymbolInfo(TypedDict):
    """What a player learns of a tile: its symbol, the symbol's name and its eyes."""

    symbol: int
    name: str
    eyes: int


class CatalogEntry(TypedDict):
    id: int
    name: str
    eyes: int


class HeldTile(SymbolInfo):
    """The tile in the viewer's right hand (only they see it)."""

    pickup: int
    slot: int


class SeatView(TypedDict):
    seat: int
    status: Status
    holding: bool
    holding_from: int | None
    kept: int
    trophy: int | None


class YouView(TypedDict):
    seat: int
    status: Status
    kept: int
    trophy: int | None
    hand: HeldTile | None
    can_peek: bool
    can_take_trophy: bool


class Result(TypedDict):
    """Everything revealed at the end (BC-17): the final view's ``result`` and ``game_over``."""

    why: str | None
    scores: list[int]
    winners: list[int]
    breakdowns: list[dict[str, int]]
    hands: list[list[int]]
    trophies: list[int | None]
    removed: list[int]


class BugsAndCoView(TypedDict):
    """``view(seat)``; the public ``view(None)`` has ``seat`` and ``you`` ``None``."""

    game: str
    title: str
    phase: Phase
    turn: int
    players: int
    seat: int | None
    extra_set: str | None
    symbols: list[CatalogEntry]
    tiles_in_play: int
    removed_count: int
    slots: list[bool]
    on_table: int
    trophies_left: list[int]
    next_trophy: int | None
    seats: list[SeatView]
    waiting_for: list[int]
    you: YouView | None
    result: Result | None


# -- events ----------------------------------------------------------------------------------
class StartData(TypedDict):
    slots: int
    trophies: list[int]


class PeekData(TypedDict):
    seat: int
    slot: int


class PeekedData(TypedDict):
    """Private to the peeker: which tile it is."""

    seat: int
    slot: int
    pickup: int
    symbol: int
    name: str
    eyes: int


class KeepData(TypedDict):
    seat: int
    slot: int
    kept: int


class TrophyData(TypedDict):
    seat: int
    value: int
    trophies_left: list[int]


class FinalCountData(TypedDict):
    seconds: float


class PutBackData(TypedDict):
    seat: int
    slot: int
    from_slot: int
    reason: Literal["put_back", "trophy", "stop"]


class StopData(TypedDict):
    why: str


GameOverData = Result

EventType = Literal[
    "start", "peek", "peeked", "keep", "trophy", "final_count", "put_back", "stop", "game_over"
]
PublicEventType = Literal[
    "start", "peek", "keep", "trophy", "final_count", "put_back", "stop", "game_over"
]
"""The events a public log line may read; ``peeked`` is the peeker's secret."""

EVENTS: dict[EventType, type] = {
    "start": StartData,
    "peek": PeekData,
    "peeked": PeekedData,
    "keep": KeepData,
    "trophy": TrophyData,
    "final_count": FinalCountData,
    "put_back": PutBackData,
    "stop": StopData,
    "game_over": GameOverData,
}
"""Event type -> the ``TypedDict`` its ``Event.data`` follows."""
