"""The Bug Off! state as typed records (the table, each seat's piles) and their JSON form.

Kept apart from the rules so the play (play.py), the view (view.py) and the contract
(engine.py) share one shape; ``to_dict`` is the snapshot stored after every action, so its
keys and their order must not change (stored games replay against it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from rules.core import Rng

from .cards import Counts, copy_counts, empty_counts

SLUG: Final = "bug-off"

DRAW: Final = "draw"
"""The active player must draw (BUG OFFs resolve during the draw)."""
CHOOSE: Final = "choose"
"""The active player holds four cards and must place or score one."""
OVER: Final = "over"
PHASES: Final = (DRAW, CHOOSE, OVER)


@dataclass
class Seat:
    """One player's piles, each a count per colour (cards of one colour are identical)."""

    hand: Counts = field(default_factory=empty_counts)
    """Secret to everyone else (BO-15)."""
    tableau: Counts = field(default_factory=empty_counts)
    """Face up in front of the player; wiped by BUG OFFs, scored by SCOREs."""
    points: Counts = field(default_factory=empty_counts)
    """Face down: its size is public, its colours only at the end (BO-15)."""


@dataclass
class GameState:
    """Everything a Bug Off! game is, in one typed record. ``deck[0]`` is the top card."""

    players: int
    seed: int
    rng: Rng
    deck: list[str] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    score_pile: Counts = field(default_factory=empty_counts)
    """Cards played with SCORE: face up, scored by nobody (BO-6)."""
    discard: Counts = field(default_factory=empty_counts)
    """Cards wiped by BUG OFFs."""
    bug_offs: list[str] = field(default_factory=list)
    """Colours of the BUG OFFs drawn so far, in order: the tie-break order (BO-14)."""
    first: int = 0
    active: int = 0
    phase: str = DRAW
    drawn: str | None = None
    """The BUG card the active player just drew, while choosing (the timeout places it)."""
    step: int = 0
    """Accepted actions so far: the button counter (``Engine.turn``)."""
    setup_returns: int = 0
    """BUG OFFs dealt in setup and shuffled back (BO-3); kept for the record."""

    @classmethod
    def empty(cls, players: int, seed: int) -> GameState:
        """A table with empty piles for ``players`` seats and the Rng seeded, before the deal."""
        return cls(players, seed, Rng(seed), seats=[Seat() for _ in range(players)])

    @property
    def hands(self) -> list[Counts]:
        """Each seat's own hand dict, in a fresh list: change a pile in place or via ``seats``."""
        return [seat.hand for seat in self.seats]

    @property
    def tableaux(self) -> list[Counts]:
        return [seat.tableau for seat in self.seats]

    @property
    def points(self) -> list[Counts]:
        return [seat.points for seat in self.seats]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def waiting_for(self) -> frozenset[int]:
        """The one seat to act (Bug Off! has no simultaneous windows), none once over."""
        return frozenset() if self.is_over else frozenset({self.active})

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self, slug: str) -> dict[str, Any]:
        return {
            "slug": slug,
            "players": self.players,
            "seed": self.seed,
            "rng": self.rng.state(),
            "deck": list(self.deck),
            "hands": [dict(seat.hand) for seat in self.seats],
            "tableaux": [dict(seat.tableau) for seat in self.seats],
            "points": [dict(seat.points) for seat in self.seats],
            "score_pile": dict(self.score_pile),
            "discard": dict(self.discard),
            "bug_offs": list(self.bug_offs),
            "first": self.first,
            "active": self.active,
            "phase": self.phase,
            "drawn": self.drawn,
            "step": self.step,
            "setup_returns": self.setup_returns,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        phase = str(data["phase"])
        if phase not in PHASES:
            raise ValueError(f"unknown Bug Off! phase {phase!r}")
        players = int(data["players"])
        piles = zip(data["hands"], data["tableaux"], data["points"], strict=True)
        return cls(
            players=players,
            seed=int(data["seed"]),
            rng=Rng.from_state(data["rng"]),
            deck=[str(card) for card in data["deck"]],
            seats=[Seat(copy_counts(h), copy_counts(t), copy_counts(p)) for h, t, p in piles],
            score_pile=copy_counts(data["score_pile"]),
            discard=copy_counts(data["discard"]),
            bug_offs=[str(c) for c in data["bug_offs"]],
            first=int(data["first"]),
            active=int(data["active"]),
            phase=phase,
            drawn=None if data["drawn"] is None else str(data["drawn"]),
            step=int(data["step"]),
            setup_returns=int(data["setup_returns"]),
        )
