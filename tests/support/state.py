"""A game's newest state as the database holds it: its stored snapshot plus the actions after it
(the snapshot is rewritten only every ``SNAPSHOT_EVERY`` actions)."""

from __future__ import annotations

from typing import Any

from bot.store import Store
from rules.core import GAMES


async def stored_state(store: Store, game_id: int) -> dict[str, Any]:
    """What the game is now, from the database alone."""
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is not None
    engine = GAMES[record.slug].from_dict(record.snapshot)
    for entry in await store.actions_after(game_id, record.snapshot_seq):
        engine.apply(entry.seat, entry.action)
    return engine.to_dict()
