"""Custom ids for components: ``<kind>:<game>:<turn>:<payload>`` in at most 100 characters.

Ids carry everything needed to act, so buttons keep working after a restart, and the turn lets
the host answer a button from an earlier turn without asking the engine.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from ..host.policy import BOT_LEVELS
from ..ui.lobby import ADD_BOT

MAX_CUSTOM_ID = 100
MAX_DIGITS = 18
"""Game ids and turns fit a 64-bit integer (the database's); longer numbers are not ours."""
MAX_DEPTH = 4
"""Actions nest little ({"type": "take", "counts": {"c1": 1}}); deeper JSON is not ours."""
HOST_OPS = (
    "join",
    "leave",
    ADD_BOT,
    *(f"{ADD_BOT}-{level}" for level in BOT_LEVELS),
    "start",
    "cancel",
    "hand",
    "rematch",
    "details",
    "fullboard",
    "leavego",
    "stay",
)
"""``leavego`` / ``stay``: the two answers to `/bugs leave` during play (P-73)."""
MAX_SLUG = 40
"""A game's slug in a rules button's id: lowercase letters, digits and hyphens."""
MAX_PAGE_DIGITS = 2


class CodecError(ValueError):
    """A custom id that bugtable did not make (or an action too big to fit in one)."""


def encode_action(action: dict[str, Any]) -> str:
    """Compact JSON, keys sorted, text as it is: the bytes ``json.dumps(action,
    separators=(",", ":"), sort_keys=True, ensure_ascii=False)`` gives, made by orjson (every
    button of every board drawn is one: a Bugs & Co board has 38, issue #21)."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS).decode()


def decode_action(payload: str) -> dict[str, Any]:
    """The action in a custom id or select value; bounded (size, depth) because a forged
    interaction may carry anything."""
    if len(payload) > MAX_CUSTOM_ID:
        raise CodecError("not an action")
    try:
        action = json.loads(payload)
    except (ValueError, RecursionError):
        raise CodecError("not an action") from None
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or _depth(action) > MAX_DEPTH
    ):
        raise CodecError("not an action")
    return action


def decode_number(text: str) -> int:
    """A game id or turn from a custom id: ASCII digits that fit the database's integers."""
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
        raise CodecError("not a number")
    return int(text)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def game_button_id(game_id: int, turn: int, action: dict[str, Any]) -> str:
    custom_id = f"g:{game_id}:{turn}:{encode_action(action)}"
    if len(custom_id) > MAX_CUSTOM_ID:
        raise CodecError(f"action too long for a button ({len(custom_id)} chars): {action}")
    return custom_id


def host_button_id(game_id: int, op: str) -> str:
    if op not in HOST_OPS:
        raise CodecError(f"unknown host operation {op!r}")
    return f"h:{game_id}:{op}"


def rules_button_id(slug: str, page: int) -> str:
    """``r:<slug>:<page>``: a page of a game's rules (P-54), the same for every message."""
    if not (0 < len(slug) <= MAX_SLUG and slug.replace("-", "").isalnum() and slug.islower()):
        raise CodecError(f"not a game slug: {slug!r}")
    if not 0 <= page < 10**MAX_PAGE_DIGITS:
        raise CodecError(f"not a rules page: {page}")
    return f"r:{slug}:{page}"


def select_id(game_id: int, turn: int, index: int = 0) -> str:
    """Ids must be unique within a message, so several menus carry their row index."""
    return f"s:{game_id}:{turn}:{index}"


def option_value(action: dict[str, Any]) -> str:
    value = encode_action(action)
    if len(value) > MAX_CUSTOM_ID:
        raise CodecError(f"action too long for a select option: {action}")
    return value
