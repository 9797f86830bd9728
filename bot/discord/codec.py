"""Custom ids for components: ``<kind>:<game>:<turn>:<payload>`` in at most 100 characters.

Ids carry everything needed to act, so buttons keep working after a restart, and the turn lets
the host answer a button from an earlier turn without asking the engine.
"""

from __future__ import annotations

import json
from typing import Any

MAX_CUSTOM_ID = 100
HOST_OPS = ("join", "leave", "addbot", "start", "cancel", "hand", "rematch")


class CodecError(ValueError):
    """A custom id that bugtable did not make (or an action too big to fit in one)."""


def encode_action(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def decode_action(payload: str) -> dict[str, Any]:
    try:
        action = json.loads(payload)
    except json.JSONDecodeError as exc:
        raise CodecError("not an action") from exc
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise CodecError("not an action")
    return action


def game_button_id(game_id: int, turn: int, action: dict[str, Any]) -> str:
    custom_id = f"g:{game_id}:{turn}:{encode_action(action)}"
    if len(custom_id) > MAX_CUSTOM_ID:
        raise CodecError(f"action too long for a button ({len(custom_id)} chars): {action}")
    return custom_id


def host_button_id(game_id: int, op: str) -> str:
    if op not in HOST_OPS:
        raise CodecError(f"unknown host operation {op!r}")
    return f"h:{game_id}:{op}"


def select_id(game_id: int, turn: int, index: int = 0) -> str:
    """Ids must be unique within a message, so several menus carry their row index."""
    return f"s:{game_id}:{turn}:{index}"


def option_value(action: dict[str, Any]) -> str:
    value = encode_action(action)
    if len(value) > MAX_CUSTOM_ID:
        raise CodecError(f"action too long for a select option: {action}")
    return value
