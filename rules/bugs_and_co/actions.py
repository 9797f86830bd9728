"""Action shapes and their validation, so the engine can check a whole action before acting.

Player actions:
    {"type": "peek", "slot": int}                  pick up the tile in that slot
    {"type": "keep", "pickup": int}                right-hand tile into the left hand
    {"type": "return", "pickup": int}              put it back where it came from
    {"type": "return", "pickup": int, "slot": int} put it back into that empty slot (the
                                                   stale-safe form of the next one, BC-X11)
    {"type": "return", "slot": int}                put whatever tile I hold into that empty slot
                                                   (BC-X10: the public table's empty slots)
    {"type": "trophy"}                             take the highest trophy left and stop
SYSTEM actions (only while listed in ``deadlines()``):
    {"type": "start"}                              the "1, 2, 3" count is over
    {"type": "stop", "why": "countdown" | "cap"}   STOP
"""

from __future__ import annotations

from typing import Any, Final

from rules.core import Action, RuleError, action_type

PEEK: Final = "peek"
KEEP: Final = "keep"
RETURN: Final = "return"
TAKE_TROPHY: Final = "trophy"
START: Final = "start"
STOP: Final = "stop"

PLAYER_TYPES: Final = (PEEK, KEEP, RETURN, TAKE_TROPHY)

# type -> (required keys, optional keys), besides "type"
_SHAPES: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    PEEK: (frozenset({"slot"}), frozenset()),
    KEEP: (frozenset({"pickup"}), frozenset()),
    RETURN: (frozenset(), frozenset({"pickup", "slot"})),
    TAKE_TROPHY: (frozenset(), frozenset()),
    START: (frozenset(), frozenset()),
    STOP: (frozenset({"why"}), frozenset()),
}

_INT_FIELDS: Final = ("slot", "pickup")


def parse(action: Any) -> str:
    """The action's type after checking its shape; RuleError for anything malformed."""
    kind = action_type(action)
    shape = _SHAPES.get(kind)
    if shape is None:
        raise RuleError("Bugs & Co has no such action.", code="unknown_action")
    required, optional = shape
    keys = set(action) - {"type"}
    if not required <= keys or not keys <= required | optional:
        raise RuleError("That is not a valid action.", code="malformed")
    if kind == RETURN and not keys:
        raise RuleError("That is not a valid action.", code="malformed")
    for name in _INT_FIELDS:
        if name in action and (type(action[name]) is not int):
            raise RuleError("That is not a valid action.", code="malformed")
    return kind


def peek(slot: int) -> Action:
    return {"type": PEEK, "slot": slot}


def keep(pickup: int) -> Action:
    return {"type": KEEP, "pickup": pickup}


def put_back(pickup: int, slot: int | None = None) -> Action:
    if slot is None:
        return {"type": RETURN, "pickup": pickup}
    return {"type": RETURN, "pickup": pickup, "slot": slot}


def put_into(slot: int) -> Action:
    """Put the held tile, whichever it is, into ``slot`` (BC-X10): no pickup serial, so one
    public button per empty slot serves every player."""
    return {"type": RETURN, "slot": slot}


def take_trophy() -> Action:
    return {"type": TAKE_TROPHY}
