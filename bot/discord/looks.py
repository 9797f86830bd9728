"""Each member's Details / Full board message of each game, its *look* (P-62), and the token
that edits it: the look of ``bot/discord/more.py``, kept in memory like the panels (P-48), for
as long as its token may edit it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from ..ui.specs import ImageSpec, MessageSpec
from .render import edit_kwargs
from .replies import TOKEN_LIFETIME


@dataclass(eq=False)
class Look:
    """A member's Details / Full board message of one game, and the token that edits it."""

    interaction: discord.Interaction[Any]
    """The click that made it."""
    followup_id: int | None = None
    """``None``: the look is that click's original response; else its followup with this id."""
    shown: ImageSpec | None = None
    """The picture it carries now (a Full board), which a Details answer takes off."""
    since: float = field(default_factory=time.monotonic)

    def live(self) -> bool:
        return time.monotonic() - self.since < TOKEN_LIFETIME

    async def show(self, spec: MessageSpec, png: bytes | None, game_id: int) -> None:
        """Show ``spec`` (and its picture, drawn as ``png``), replacing what it showed."""
        kwargs = edit_kwargs(spec, game_id, 0, png, shown=self.shown)
        if self.followup_id is None:
            await self.interaction.edit_original_response(**kwargs)
        else:
            await self.interaction.followup.edit_message(self.followup_id, **kwargs)
        self.shown = spec.image if png is not None else None


class Looks:
    """Every member's look, by game and member, and a lock per member so their clicks show in
    the order they were made."""

    def __init__(self) -> None:
        self._by_game: dict[int, dict[int, Look]] = {}
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}

    def lock(self, game_id: int, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault((game_id, user_id), asyncio.Lock())

    def live(self, game_id: int, user_id: int) -> Look | None:
        look = self._by_game.get(game_id, {}).get(user_id)
        if look is not None and not look.live():
            self.drop(game_id, user_id)
            return None
        return look

    def put(self, game_id: int, user_id: int, look: Look) -> None:
        self._by_game.setdefault(game_id, {})[user_id] = look

    def drop(self, game_id: int, user_id: int) -> None:
        looks = self._by_game.get(game_id, {})
        looks.pop(user_id, None)
        if not looks:
            self._by_game.pop(game_id, None)

    def forget(self, game_id: int) -> None:
        """The game is over: its looks take no more answers."""
        self._by_game.pop(game_id, None)
        for key in [k for k in self._locks if k[0] == game_id]:
            del self._locks[key]

    def count(self, game_id: int) -> int:
        return len(self._by_game.get(game_id, {}))
