"""What a Bugs & Co seat remembers of the tiles it saw, by level (issue #23: memory is part of
the level).

A seat sees a tile's symbol only while it holds it; every move of a tile is public (which slot,
who peeked, where it went back, who kept it). So a seat that remembers can follow a tile it saw
around the table. ``hard`` remembers every tile it peeked and where it went; ``normal`` keeps its
own kept tiles and the last ``NORMAL_SLOTS`` slots it learnt; ``easy`` remembers nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rules.core import Event
from rules.core.bots import Level, Memory

NORMAL_SLOTS: Final = 5
"""P-52: how many slot facts a normal bot keeps (the oldest is forgotten first)."""


class TileMemory(Memory):
    """Symbols the seat knows: in slots, in hands being held, and kept (its own and others')."""

    def __init__(self, seat: int, level: Level) -> None:
        super().__init__(seat, level)
        self.slots: dict[int, int] = {}
        """Slot -> symbol of the face-down tile there, oldest learnt first."""
        self.holding: dict[int, int] = {}
        """Seat -> symbol of the tile it holds now."""
        self.kept: dict[int, list[int]] = {}
        """Seat -> symbols it is known to have kept (the seat's own included)."""

    @property
    def capacity(self) -> int | None:
        return None if self.level == "hard" else NORMAL_SLOTS if self.level == "normal" else 0

    def mine(self) -> list[int]:
        return self.kept.get(self.seat, [])

    def observe(self, events: Sequence[Event]) -> None:
        if self.level == "easy":
            return
        for event in events:
            data = event.data
            if event.type == "peek":
                symbol = self.slots.pop(data["slot"], None)
                if symbol is None:
                    self.holding.pop(data["seat"], None)
                else:
                    self.holding[data["seat"]] = symbol
            elif event.type == "peeked":
                self.holding[data["seat"]] = data["symbol"]
            elif event.type == "put_back":
                symbol = self.holding.pop(data["seat"], None)
                if symbol is not None:
                    self._learn(data["slot"], symbol)
            elif event.type == "keep":
                symbol = self.holding.pop(data["seat"], None)
                if symbol is not None and (data["seat"] == self.seat or self.level == "hard"):
                    self.kept.setdefault(data["seat"], []).append(symbol)

    def _learn(self, slot: int, symbol: int) -> None:
        self.slots.pop(slot, None)
        self.slots[slot] = symbol
        limit = self.capacity
        while limit is not None and len(self.slots) > limit:
            del self.slots[next(iter(self.slots))]


def tile_memory(seat: int, level: Level) -> Memory:
    return TileMemory(seat, level)
