"""Scoring (RULINGS §2.2): 3 per complete symbol, -1 per other kept tile, plus the trophy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .components import COPIES


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
