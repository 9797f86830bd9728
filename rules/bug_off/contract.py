"""Bug Off!'s typed contract: the shapes of its views, actions and event data.

The runtime values stay plain JSON dicts (snapshots, logs and replays are stored as such);
these ``TypedDict`` and ``Literal`` types only let mypy check that the rules and the
presenters agree on every key, so renaming one is a type error rather than a crash at play.
``EVENTS`` ties each event type to the shape of its ``Event.data``; the contract tests hold
every emitted event to it and every presenter's formatter table to ``EventType``.
"""

from __future__ import annotations

from typing import Literal, TypedDict

Colour = str
"""One of ``cards.COLOURS``; kept a plain ``str`` because the colours are data, not names."""

Counts = dict[Colour, int]
Phase = str
"""``"draw"``, ``"choose"`` or ``"over"`` (the state keeps it as a plain string)."""


# -- actions ---------------------------------------------------------------------------------
class DrawAction(TypedDict):
    type: Literal["draw"]


class PlaceAction(TypedDict):
    type: Literal["place"]
    colour: Colour


class ScoreAction(TypedDict):
    type: Literal["score"]
    colour: Colour


class TimeoutAction(TypedDict):
    """The turn clock's action, applied by the host as ``SYSTEM``."""

    type: Literal["timeout"]
    turn: int


BugOffAction = DrawAction | PlaceAction | ScoreAction | TimeoutAction
ActionType = Literal["draw", "place", "score", "timeout"]


# -- the tie-break, shared by the final view and ``game_over`` -------------------------------
class SeatCount(TypedDict):
    seat: int
    count: int


class TiebreakStep(TypedDict):
    colour: Colour
    counts: list[SeatCount]
    survivors: list[int]


class Tiebreak(TypedDict):
    tied: list[int]
    score: int
    steps: list[TiebreakStep]
    decided_by: Colour | None
    shared: bool


# -- views -----------------------------------------------------------------------------------
class SeatView(TypedDict):
    """What everyone sees of one seat."""

    seat: int
    hand_size: int
    tableau: Counts
    points_size: int


class MeView(TypedDict):
    """The viewer's own secrets and choices (only in ``view(seat)``)."""

    seat: int
    hand: Counts
    points: Counts
    drawn: Colour | None
    can_draw: bool
    place: list[Colour]
    score: list[Colour]


class FinalView(TypedDict):
    scores: list[int]
    winners: list[int]
    points: list[Counts]
    tiebreak: Tiebreak | None


class BugOffView(TypedDict):
    """``view(seat)``; the public ``view(None)`` has the same shape with ``me`` ``None``."""

    game: str
    phase: Phase
    turn: int
    players: int
    first_player: int
    active: int | None
    waiting_for: list[int]
    colours: list[Colour]
    deck_size: int
    bug_offs: list[Colour]
    score_pile: Counts
    discard: Counts
    seats: list[SeatView]
    me: MeView | None
    final: FinalView | None


# -- events ----------------------------------------------------------------------------------
class TimeoutData(TypedDict):
    seat: int
    had_drawn: bool


class DrewData(TypedDict):
    seat: int
    deck_size: int


class DrewCardData(TypedDict):
    """Private to the drawer: which BUG card it was."""

    seat: int
    colour: Colour


class Wiped(TypedDict):
    seat: int
    colour: Colour
    count: int


class BugOffData(TypedDict):
    seat: int
    colour: Colour
    number: int
    wiped_colours: list[Colour]
    wiped: list[Wiped]
    wiped_total: int
    deck_size: int


class PlacedData(TypedDict):
    seat: int
    colour: Colour
    count: int


class ScoredData(TypedDict):
    seat: int
    colour: Colour
    gains: list[SeatCount]
    total: int
    points_sizes: list[int]


class TurnData(TypedDict):
    seat: int


class GameOverData(TypedDict):
    scores: list[int]
    winners: list[int]
    points: list[Counts]
    tiebreak: Tiebreak | None


EventType = Literal[
    "timeout", "drew", "drew_card", "bug_off", "placed", "scored", "turn", "game_over"
]
PublicEventType = Literal["timeout", "drew", "bug_off", "placed", "scored", "turn", "game_over"]
"""The events a public log line may read; ``drew_card`` is the drawer's secret."""

EVENTS: dict[EventType, type] = {
    "timeout": TimeoutData,
    "drew": DrewData,
    "drew_card": DrewCardData,
    "bug_off": BugOffData,
    "placed": PlacedData,
    "scored": ScoredData,
    "turn": TurnData,
    "game_over": GameOverData,
}
"""Event type -> the ``TypedDict`` its ``Event.data`` follows."""
