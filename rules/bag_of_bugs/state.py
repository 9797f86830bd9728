"""The whole game state as one plain dataclass, and its JSON-safe snapshot.

Kept apart from the rules so the flow (flow.py), the view (view.py) and the contract
(engine.py) share one shape, and so tests can build any position by editing fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import Rng

from .tokens import ROCK, SETUPS, Counts, Setup, canon, combine

DRAW = "draw"
RESOLVE = "resolve"
OVER = "over"
PHASES = (DRAW, RESOLVE, OVER)

# Stages of the resolve phase (RULINGS §1.2 steps 3-5).
GRABS = "grabs"
LEFTOVERS = "leftovers"
CLEANUP = "cleanup"
STAGES = ("", GRABS, LEFTOVERS, CLEANUP)

# Kinds of pending choice.
TAKE = "take"
GIVE = "give"
LEFTOVER = "leftovers"
CHOICE_KINDS = (TAKE, GIVE, LEFTOVER)


@dataclass
class Choice:
    """A question the game waits on: who answers, what kind, and its serial (``step``).

    The options are not stored: they follow from the state (pool, collection), which does not
    change while the question is open.
    """

    kind: str
    seat: int
    step: int
    grab: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "step": self.step, "grab": self.grab}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Choice:
        if data["kind"] not in CHOICE_KINDS:
            raise ValueError(f"unknown Bag of Bugs choice {data['kind']!r}")
        return cls(str(data["kind"]), int(data["seat"]), int(data["step"]), int(data["grab"]))


@dataclass
class GameState:
    """Everything on the table. Zones are canonical ``Counts`` (see tokens.py)."""

    players: int
    seed: int
    rng: Rng
    bag: Counts
    out_of_game: Counts
    drawer: int
    collections: list[Counts]
    pool: Counts = field(default_factory=dict)
    pairs: int = 0
    turn_number: int = 1
    revealed: int = 0
    rocks_revealed: int = 0
    grabs: list[int | None] = field(default_factory=lambda: [None] * 5)
    """Who holds Grab token k at index k-1 (None: still in the centre)."""
    phase: str = DRAW
    stage: str = ""
    next_grab: int = 1
    held_winds: int = 0
    """Winds just collected and not yet resolved (they never enter a collection)."""
    wind_holder: int | None = None
    choice: Choice | None = None
    step: int = 1
    """The button counter (``Engine.turn``); also the serial of the open choice."""
    final: bool = False
    """The last needed Rock pair has been set aside; the game ends after this turn."""
    order: list[str] = field(default_factory=list)
    """Tokens revealed this turn, in reveal order (Rocks included), so a board can show the pool
    as it grew. Types alone decide the rules; this is for display."""

    @property
    def setup(self) -> Setup:
        return SETUPS[self.players]

    def left_of(self, seat: int) -> int:
        """The next seat clockwise (BB-23)."""
        return (seat + 1) % self.players

    def grab_of(self, seat: int) -> int | None:
        for k, holder in enumerate(self.grabs, start=1):
            if holder == seat:
                return k
        return None

    def everything(self) -> Counts:
        """Every token, wherever it is: must always equal the box contents (conservation)."""
        rock_pairs = {"rock": 2 * self.pairs} if self.pairs else {}
        held = {"wind": self.held_winds} if self.held_winds else {}
        return combine([self.bag, self.pool, *self.collections, rock_pairs, self.out_of_game, held])

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "rng": self.rng.state(),
            "bag": canon(self.bag),
            "out_of_game": canon(self.out_of_game),
            "drawer": self.drawer,
            "collections": [canon(c) for c in self.collections],
            "pool": canon(self.pool),
            "pairs": self.pairs,
            "turn_number": self.turn_number,
            "revealed": self.revealed,
            "rocks_revealed": self.rocks_revealed,
            "grabs": list(self.grabs),
            "phase": self.phase,
            "stage": self.stage,
            "next_grab": self.next_grab,
            "held_winds": self.held_winds,
            "wind_holder": self.wind_holder,
            "choice": None if self.choice is None else self.choice.to_dict(),
            "step": self.step,
            "final": self.final,
            "order": list(self.order),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        phase, stage = str(data["phase"]), str(data["stage"])
        if phase not in PHASES or stage not in STAGES:
            raise ValueError(f"unknown Bag of Bugs phase {phase!r} or stage {stage!r}")
        choice = data.get("choice")
        holder = data.get("wind_holder")
        order = data.get("order")
        if order is None:  # a snapshot from before the order was kept
            order = _order_from_pool(data)
        return cls(
            players=int(data["players"]),
            seed=int(data["seed"]),
            rng=Rng.from_state(list(data["rng"])),
            bag=canon(data["bag"]),
            out_of_game=canon(data["out_of_game"]),
            drawer=int(data["drawer"]),
            collections=[canon(c) for c in data["collections"]],
            pool=canon(data["pool"]),
            pairs=int(data["pairs"]),
            turn_number=int(data["turn_number"]),
            revealed=int(data["revealed"]),
            rocks_revealed=int(data["rocks_revealed"]),
            grabs=[None if g is None else int(g) for g in data["grabs"]],
            phase=phase,
            stage=stage,
            next_grab=int(data["next_grab"]),
            held_winds=int(data["held_winds"]),
            wind_holder=None if holder is None else int(holder),
            choice=None if choice is None else Choice.from_dict(choice),
            step=int(data["step"]),
            final=bool(data["final"]),
            order=[str(token) for token in order],
        )


def _order_from_pool(data: Mapping[str, Any]) -> list[str]:
    """A plausible reveal order for an old snapshot: the pool's tokens in type order, then any
    Rock already taken out of it."""
    pool = canon(data["pool"])
    order = [token for token, n in pool.items() for _ in range(n)]
    if data["phase"] != DRAW:
        order += [ROCK] * int(data["rocks_revealed"])
    return order
