"""Per-player state and its JSON form. The engine owns the table; this module owns the hands."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

START_COUNT: Final = "start"
"""The "1, 2, 3" before play: nobody may touch a tile yet."""
LIVE: Final = "live"
FINAL_COUNT: Final = "final"
"""The 10 s after the last trophy: players without a trophy go on playing."""
OVER: Final = "over"
PHASES: Final = (START_COUNT, LIVE, FINAL_COUNT, OVER)

PLAYING: Final = "playing"
"""May peek, keep, put back and take a trophy."""
TROPHY: Final = "trophy"
"""Took a trophy and so stopped playing (BC-6)."""
STOPPED: Final = "stopped"
"""Stopped by STOP without a trophy."""


@dataclass
class Held:
    """The tile in a player's right hand, the slot it came from, and its pickup serial.

    The serial is written into the Keep / Put back buttons so a button offered for an earlier
    tile can never act on a later one.
    """

    tile: int
    slot: int
    pickup: int

    def to_dict(self) -> dict[str, int]:
        return {"tile": self.tile, "slot": self.slot, "pickup": self.pickup}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Held:
        return cls(int(raw["tile"]), int(raw["slot"]), int(raw["pickup"]))


@dataclass
class Player:
    status: str = PLAYING
    held: Held | None = None
    kept: list[int] = field(default_factory=list)
    """Left hand, in the order kept. Never shown to anyone before the end (BC-8)."""
    trophy: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "held": None if self.held is None else self.held.to_dict(),
            "kept": list(self.kept),
            "trophy": self.trophy,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Player:
        held = raw.get("held")
        trophy = raw.get("trophy")
        return cls(
            status=str(raw["status"]),
            held=None if held is None else Held.from_dict(held),
            kept=[int(t) for t in raw["kept"]],
            trophy=None if trophy is None else int(trophy),
        )
