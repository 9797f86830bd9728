"""The Bugs & Co state as typed records (the table, each player's hands) and their JSON form.

Kept apart from the rules so the play (play.py), the scoring, the view and the contract
(engine.py) share one shape; ``to_dict`` is the stored snapshot, so its keys and their order
must not change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from rules.core import Rng

SLUG: Final = "bugs-and-co"
TITLE: Final = "Bugs & Co"

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

TURNS: Final = {START_COUNT: 0, LIVE: 1, FINAL_COUNT: 1, OVER: 2}
"""The button counter per phase (``Engine.turn``): play is one long race window, so it does
not move on peeks or trophies; Keep / Put back buttons carry the pickup serial instead."""


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


@dataclass
class GameState:
    """Everything a Bugs & Co game is, in one typed record; ``to_dict`` is the snapshot."""

    players: int
    seed: int
    options: dict[str, str]
    extra_set: str | None
    rng: Rng
    phase: str
    slots: list[int | None]
    """One entry per slot, a face-down tile or ``None`` for an empty slot."""
    removed: list[int]
    """The 7 tiles back in the box, unseen until the end (BC-17)."""
    trophies: list[int]
    """Trophies still on the table, highest first."""
    seats: list[Player]
    pickups: int = 0
    """How many peeks have happened: the serial of the latest pickup."""
    stop_reason: str | None = None

    @property
    def playing(self) -> list[int]:
        """Seats still allowed to act (no trophy, not stopped)."""
        return [s for s, p in enumerate(self.seats) if p.status == PLAYING]

    def waiting_for(self) -> frozenset[int]:
        """Everyone still playing while tiles may be touched; nobody before or after."""
        if self.phase not in (LIVE, FINAL_COUNT):
            return frozenset()
        return frozenset(self.playing)

    def to_dict(self, slug: str) -> dict[str, Any]:
        return {
            "slug": slug,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "extra_set": self.extra_set,
            "rng": self.rng.state(),
            "phase": self.phase,
            "slots": list(self.slots),
            "removed": list(self.removed),
            "trophies": list(self.trophies),
            "pickups": self.pickups,
            "stop_reason": self.stop_reason,
            "seats": [p.to_dict() for p in self.seats],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        phase = str(data["phase"])
        if phase not in PHASES:
            raise ValueError(f"unknown Bugs & Co phase {phase!r}")
        return cls(
            players=int(data["players"]),
            seed=int(data["seed"]),
            options={str(k): str(v) for k, v in data["options"].items()},
            extra_set=None if data["extra_set"] is None else str(data["extra_set"]),
            rng=Rng.from_state(data["rng"]),
            phase=phase,
            slots=[None if t is None else int(t) for t in data["slots"]],
            removed=[int(t) for t in data["removed"]],
            trophies=[int(v) for v in data["trophies"]],
            seats=[Player.from_dict(p) for p in data["seats"]],
            pickups=int(data["pickups"]),
            stop_reason=None if data["stop_reason"] is None else str(data["stop_reason"]),
        )
