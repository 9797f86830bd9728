"""Final scoring and the BUG OFF-order tie-break (RULINGS §3.2, BO-13, BO-14).

Kept apart from the engine so the tie-break can be tested on hand-made points piles.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Counts
from .contract import Tiebreak, TiebreakStep


def totals(points: Sequence[Counts]) -> list[int]:
    """One point per BUG in a points pile; hands, deck and tableaux never score."""
    return [sum(pile.values()) for pile in points]


def rank(points: Sequence[Counts], order: Sequence[str]) -> tuple[list[int], Tiebreak | None]:
    """The winners and, when the top score was tied, how the tie was (or was not) broken.

    Tied players are compared on the colour of the first BUG OFF played, the best survive, then
    the second BUG OFF's colour, and so on; whoever is still tied after the last shares the win.
    The explanation is JSON-safe so the final view and the ``game_over`` event can carry it.
    """
    scores = totals(points)
    best = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == best]
    if len(tied) == 1:
        return tied, None
    steps: list[TiebreakStep] = []
    remaining = tied
    for colour in order:
        counts = {seat: points[seat][colour] for seat in remaining}
        top = max(counts.values())
        survivors = [seat for seat in remaining if counts[seat] == top]
        steps.append(
            {
                "colour": colour,
                "counts": [{"seat": seat, "count": counts[seat]} for seat in remaining],
                "survivors": survivors,
            }
        )
        remaining = survivors
        if len(remaining) == 1:
            break
    decided = len(remaining) == 1
    return remaining, {
        "tied": tied,
        "score": best,
        "steps": steps,
        "decided_by": steps[-1]["colour"] if decided else None,
        "shared": not decided,
    }


def breakdown(pile: Counts, order: Sequence[str]) -> dict[str, int]:
    """Points per colour in BUG OFF order (the tie-break order), then the total."""
    out = {colour: pile[colour] for colour in order}
    out.update({colour: n for colour, n in pile.items() if colour not in out})
    out["total"] = sum(pile.values())
    return out
