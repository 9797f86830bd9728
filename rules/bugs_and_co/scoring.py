"""Scoring (RULINGS §2.2): 3 per complete symbol, -1 per other kept tile, plus the trophy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from . import components as box
from .components import COPIES
from .contract import Result
from .state import OVER, GameState


def breakdown(symbols: Iterable[int], trophy: int | None) -> dict[str, int]:
    """Score parts in display order. ``symbols`` are the kept tiles' symbols (left hand).

    A trio is all three tiles of one symbol (BC-1), so more than three cannot occur (BC-3).
    """
    counts = Counter(symbols)
    trios = sum(1 for n in counts.values() if n == COPIES)
    others = sum(n for n in counts.values() if n != COPIES)
    parts = {"trios": 3 * trios, "other_tiles": -others, "trophy": trophy or 0}
    parts["total"] = sum(parts.values())
    return parts


def winners(scores: list[int]) -> list[int]:
    """Every seat with the best score: no tie-break, ties share the win (BC-16)."""
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def kept_symbols(state: GameState, seat: int) -> list[int]:
    """The symbols of a seat's kept tiles, sorted (secret until the end, BC-8)."""
    return sorted(box.symbol_of(t) for t in state.seats[seat].kept)


def seat_breakdown(state: GameState, seat: int) -> dict[str, int]:
    """Trios, other tiles, trophy, total. Before the end only the trophy counts: the kept
    tiles are secret even from their owner (BC-8), so no running score may hint at them."""
    player = state.seats[seat]
    if state.phase != OVER:
        trophy = player.trophy or 0
        return {"trios": 0, "other_tiles": 0, "trophy": trophy, "total": trophy}
    return breakdown(kept_symbols(state, seat), player.trophy)


def totals(state: GameState) -> list[int]:
    return [seat_breakdown(state, s)["total"] for s in range(state.players)]


def final_winners(state: GameState) -> list[int]:
    """The winning seats once the game is over; empty before."""
    return winners(totals(state)) if state.phase == OVER else []


def summary(state: GameState) -> Result:
    """Everything revealed at the end: hands, the 7 removed tiles (BC-17), scores."""
    return {
        "why": state.stop_reason,
        "scores": totals(state),
        "winners": final_winners(state),
        "breakdowns": [seat_breakdown(state, s) for s in range(state.players)],
        "hands": [kept_symbols(state, s) for s in range(state.players)],
        "trophies": [p.trophy for p in state.seats],
        "removed": sorted(box.symbol_of(t) for t in state.removed),
    }
