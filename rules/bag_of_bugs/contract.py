"""Bag of Bugs' typed contract: the shapes of its views, actions and event data.

The runtime values stay plain JSON dicts (snapshots, logs and replays are stored as such);
these ``TypedDict`` and ``Literal`` types only let mypy check that the rules and the
presenters agree on every key. ``EVENTS`` ties each event type to the shape of its
``Event.data``; the contract tests hold every emitted event to it.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Token = str
"""A token type (``c1``..``c5``, ``scary``, ``larva``, ``wind``, ``rock``): data, not names."""

Counts = dict[Token, int]
Phase = str
"""``draw``, ``grab_choice``, ``wind``, ``leftovers`` or ``over``."""
ChoiceKind = str
"""``take``, ``give`` or ``leftovers`` (the state keeps it as a plain string)."""
How = Literal["chosen", "only", "timeout", "empty"]
"""How a choice was settled: by the player, as the only option, by the clock, or on nothing."""


# -- actions ---------------------------------------------------------------------------------
class DrawAction(TypedDict):
    type: Literal["draw"]


class GrabAction(TypedDict):
    type: Literal["grab"]
    token: int


class TakeAction(TypedDict):
    type: Literal["take"]
    step: int
    tokens: Counts


class GiveAction(TypedDict):
    type: Literal["give"]
    step: int
    token: Token


class TakeAllAction(TypedDict):
    type: Literal["take_all"]
    step: int


class ReturnAllAction(TypedDict):
    type: Literal["return_all"]
    step: int


class AutoDrawAction(TypedDict):
    """The idle timer's reveal, applied by the host as ``SYSTEM``."""

    type: Literal["auto_draw"]
    turn_number: int
    reveal: int


class TimeoutAction(TypedDict):
    """The choice clock, applied by the host as ``SYSTEM``."""

    type: Literal["timeout"]
    step: int


BagOfBugsAction = (
    DrawAction
    | GrabAction
    | TakeAction
    | GiveAction
    | TakeAllAction
    | ReturnAllAction
    | AutoDrawAction
    | TimeoutAction
)
ActionType = Literal[
    "draw", "grab", "take", "give", "take_all", "return_all", "auto_draw", "timeout"
]


# -- views -----------------------------------------------------------------------------------
Status = Literal["pool", "gone", "returned", "paired"]
"""Where a token revealed this turn is now (see ``view.pool_order``)."""


class PoolEntry(TypedDict):
    token: Token
    status: Status


class GrabView(TypedDict):
    token: int
    seat: int | None
    text: str


class ChoiceView(TypedDict):
    seat: int
    kind: ChoiceKind
    step: int
    grab: int
    options: list[Counts] | list[str]


class YouView(TypedDict):
    """What the viewing seat may do now (only in ``view(seat)``)."""

    seat: int
    role: Literal["drawer", "grabber"]
    grab: int | None
    actions: list[dict[str, Any]]
    """``legal_actions(seat)``: each a ``BagOfBugsAction`` (the host handles them as dicts)."""


class _PublicView(TypedDict):
    game: str
    players: int
    phase: Phase
    turn: int
    turn_number: int
    drawer: int
    draw_limit: int
    revealed: int
    rocks_revealed: int
    window_open: bool
    pool: Counts
    pool_order: list[PoolEntry]
    pool_count: int
    bag: Counts
    bag_count: int
    pairs: int
    pairs_needed: int
    last_turn: bool
    out_of_game: Counts
    grabs: list[GrabView]
    resolving: int | None
    held_winds: int
    wind_holder: int | None
    collections: list[Counts]
    scores: list[int]
    breakdowns: list[dict[str, int]]
    choice: ChoiceView | None
    waiting_for: list[int]
    is_over: bool
    winners: list[int]


class BagOfBugsView(_PublicView, total=False):
    """``view(None)``; a seat's view adds ``you`` (everything else is public, BB-21)."""

    you: YouView


# -- events ----------------------------------------------------------------------------------
class RevealData(TypedDict):
    drawer: int
    token: Token
    count: int
    limit: int
    rocks: int
    auto: bool


class GrabData(TypedDict):
    seat: int
    token: int
    count: int


class DrawStoppedData(TypedDict):
    drawer: int
    reason: Literal["limit", "rock", "both", "bag_empty"]
    count: int


class RocksData(TypedDict):
    count: int
    result: Literal["returned", "paired"]
    pairs: int
    needed: int
    last: bool


class WindData(TypedDict):
    seat: int
    to: int
    token: Token | None
    how: How


class TakeData(TypedDict):
    seat: int
    grab: int
    tokens: Counts
    how: How


class ChoiceData(TypedDict):
    seat: int
    kind: ChoiceKind
    step: int
    grab: int
    options: list[Counts] | list[str]


class LeftoversData(TypedDict):
    seat: int
    choice: Literal["take_all", "return_all"]
    tokens: Counts
    how: How


class TurnEndData(TypedDict):
    turn_number: int
    drawer: int


class GameOverData(TypedDict):
    scores: list[int]
    winners: list[int]
    breakdowns: list[dict[str, int]]


class TurnStartData(TypedDict):
    turn_number: int
    drawer: int
    limit: int
    bag: int


EventType = Literal[
    "reveal",
    "grab",
    "draw_stopped",
    "rocks",
    "wind",
    "take",
    "choice",
    "leftovers",
    "turn_end",
    "game_over",
    "turn_start",
]
"""Every event is public in Bag of Bugs (BB-21)."""

EVENTS: dict[EventType, type] = {
    "reveal": RevealData,
    "grab": GrabData,
    "draw_stopped": DrawStoppedData,
    "rocks": RocksData,
    "wind": WindData,
    "take": TakeData,
    "choice": ChoiceData,
    "leftovers": LeftoversData,
    "turn_end": TurnEndData,
    "game_over": GameOverData,
    "turn_start": TurnStartData,
}
"""Event type -> the ``TypedDict`` its ``Event.data`` follows."""
