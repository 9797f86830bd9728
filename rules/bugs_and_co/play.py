"""The moves of play (RULINGS §2.2): the start, peeks, keeps, put-backs, trophies and STOP.

Every function here changes a ``GameState`` and returns or appends events; the engine has
already matched the action against ``legal_actions``, so nothing here is reached with an
illegal request.
"""

from __future__ import annotations

from typing import Final

from rules.core import Event

from . import components as box
from . import scoring
from .state import FINAL_COUNT, LIVE, OVER, PLAYING, STOPPED, TROPHY, GameState, Held

FINAL_SECONDS: Final = 10.0
"""BC-14: "10, 9, … 1, STOP!" from the last trophy; a rule, so no setting overrides it."""


def start(state: GameState) -> list[Event]:
    """The "1, 2, 3" is over: tiles may be touched."""
    state.phase = LIVE
    return [Event.public("start", slots=len(state.slots), trophies=list(state.trophies))]


def peek(state: GameState, seat: int, slot: int) -> list[Event]:
    """Pick up the tile in ``slot``: the table sees where, only the seat sees what."""
    tile = state.slots[slot]
    assert tile is not None
    state.slots[slot] = None
    state.pickups += 1
    state.seats[seat].held = Held(tile, slot, state.pickups)
    return [
        Event.public("peek", seat=seat, slot=slot),
        Event.private(
            seat,
            "peeked",
            seat=seat,
            slot=slot,
            pickup=state.pickups,
            **box.describe(box.symbol_of(tile)),
        ),
    ]


def keep(state: GameState, seat: int) -> list[Event]:
    """The right-hand tile goes into the left hand, unseen by all (BC-8)."""
    player = state.seats[seat]
    held = player.held
    assert held is not None
    player.kept.append(held.tile)
    player.held = None
    return [Event.public("keep", seat=seat, slot=held.slot, kept=len(player.kept))]


def take_trophy(state: GameState, seat: int) -> list[Event]:
    """The highest trophy left; the seat stops playing, and the last one starts the count."""
    events: list[Event] = []
    player = state.seats[seat]
    if player.held is not None:  # BC-6: the right-hand tile goes back, unscored
        events.append(put_back(state, seat, "trophy"))
    value = state.trophies.pop(0)
    player.trophy = value
    player.status = TROPHY
    events.append(
        Event.public("trophy", seat=seat, value=value, trophies_left=list(state.trophies))
    )
    if not state.trophies:
        state.phase = FINAL_COUNT
        events.append(Event.public("final_count", seconds=FINAL_SECONDS))
    return events


def put_back(state: GameState, seat: int, reason: str, slot: int | None = None) -> Event:
    """Put a right-hand tile face down into ``slot``, or its own slot (BC-X1 fallback)."""
    player = state.seats[seat]
    held = player.held
    assert held is not None
    target = home_slot(state, held.slot) if slot is None else slot
    state.slots[target] = held.tile
    player.held = None
    return Event.public("put_back", seat=seat, slot=target, from_slot=held.slot, reason=reason)


def home_slot(state: GameState, origin: int) -> int:
    """The slot a tile came from, or if another tile went there meanwhile, the next empty
    slot after it (wrapping). One always exists: every tile off the table left a slot."""
    n = len(state.slots)
    for step in range(n):
        slot = (origin + step) % n
        if state.slots[slot] is None:
            return slot
    raise AssertionError("a held tile always has an empty slot to go back to")


def stop(state: GameState, why: str) -> list[Event]:
    """STOP: right-hand tiles go back unscored (BC-7), everyone freezes, scores are told."""
    events = [Event.public("stop", why=why)]
    for seat, player in enumerate(state.seats):
        if player.held is not None:
            events.append(put_back(state, seat, "stop"))
        if player.status == PLAYING:
            player.status = STOPPED
    state.phase = OVER
    state.stop_reason = why
    events.append(Event.public("game_over", **scoring.summary(state)))
    return events
