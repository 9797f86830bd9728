"""What no log line may ever show: the hidden parts of a game's snapshots.

A leak would show them as JSON (the SQL parameters are the JSON-encoded snapshot) or as a Python
repr; whitespace is ignored so both spellings are caught.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from bot.games import game_for
from bot.store.records import ActionRecord
from rules.core import Engine

_SPACE = re.compile(r"\s+")


def _pick(snapshot: dict[str, Any], path: str) -> Any:
    value: Any = snapshot
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def needles(slug: str, snapshots: Iterable[dict[str, Any]]) -> set[str]:
    """Distinctive strings of the hidden parts of these snapshots, whitespace removed: the RNG
    state every game keeps (which predicts every future draw) and what the game's record says
    is secret (``Game.secrets``)."""
    game = game_for(slug)
    assert game is not None, f"no game {slug!r} registered"
    found: set[str] = set()
    for snapshot in snapshots:
        found.update(str(n) for n in snapshot.get("rng", []) if abs(n) >= 10**6)
        for path in game.secrets:
            value = _pick(snapshot, path)
            for text in (json.dumps(value), repr(value)):
                text = _SPACE.sub("", text)
                if len(text) >= 12:  # short values ("[]", "[1,2]") prove nothing
                    found.add(text)
    return found


def snapshots_of(
    engine_cls: type[Engine],
    players: int,
    seed: int,
    options: dict[str, str],
    log: Iterable[ActionRecord],
) -> list[dict[str, Any]]:
    """Every snapshot a game went through, rebuilt by replaying its action log."""
    engine = engine_cls.new(players, seed, options)
    out = [engine.to_dict()]
    for record in log:
        engine.apply(record.seat, record.action)
        out.append(engine.to_dict())
    return out


def leaks(text: str, secret: set[str]) -> list[str]:
    """The secrets that occur in ``text`` (shortened, so a failure does not flood the report)."""
    flat = _SPACE.sub("", text)
    return sorted(s[:40] for s in secret if s in flat)
