"""What a Bug Run seat works out from public history: every seat's face-down VP tokens.

Each VP gained or lost is announced with its amount (``gain``, ``award``, ``bravery`` with a
Bravery card, a ``loss`` of VP, a ``death``), and a loss takes only what there is, so replaying
them from the starting tokens gives each seat's VP exactly; only the seat's own total is also
in its view. ``easy`` keeps nothing (it never looks ahead)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rules.core import Event
from rules.core.bots import Level, Memory

from . import content as C

DEATH_VP: Final = 5


class VpMemory(Memory):
    """VP changes per hero, in order (+n gained, -n a loss of up to n)."""

    def __init__(self, seat: int, level: Level) -> None:
        super().__init__(seat, level)
        self.changes: list[tuple[int, int]] = []
        """(hero, change) in the order they happened."""

    def observe(self, events: Sequence[Event]) -> None:
        if self.level == "easy":
            return
        for event in events:
            data = event.data
            if event.type in ("gain", "award") and data.get("vp"):
                self.changes.append((data["hero"], int(data["vp"])))
            elif event.type == "bravery" and C.card(data["card"])["variant"] != "courage":
                self.changes.append((data["hero"], 2))
            elif event.type == "loss" and str(data.get("item", "")).endswith("vp"):
                self.changes.append((data["hero"], int(data["item"][:-2])))
            elif event.type == "death":
                self.changes.append((data["hero"], -DEATH_VP))

    def vp(self, start: int, owners: Sequence[int], seat: int) -> int:
        """``seat``'s VP tokens: ``start`` with every change of its heroes, a loss taking only
        what there is."""
        total = start
        for hero, change in self.changes:
            if owners[hero] == seat:
                total = max(0, total + change)
        return total


def vp_memory(seat: int, level: Level) -> Memory:
    return VpMemory(seat, level)
