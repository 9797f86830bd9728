"""Scoring (RULINGS §1.4, BB-17, BB-18): pure functions of the collections.

Works on any collections, so running scores during play use the same code as the final tally.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .tokens import COLOURS, LARVA, SCARY

COLOUR_POINTS: tuple[int, ...] = (0, 1, 3, 6)
"""Points for 0, 1, 2, 3 Bugs of one colour; 4 or more score 0."""

ALL_COLOURS_BONUS = 5
LARVA_POINTS = 3
SCARY_POINTS = -1
MOST_SCARY_PENALTY = -2

BREAKDOWN_KEYS: tuple[str, ...] = (
    *COLOURS,
    "all_colours",
    "larvae",
    "scary_bugs",
    "most_scary",
    "total",
)
"""The display order of ``score_breakdown``."""


def colour_points(count: int) -> int:
    return COLOUR_POINTS[count] if count < len(COLOUR_POINTS) else 0


def most_scary(collections: Sequence[Mapping[str, int]]) -> frozenset[int]:
    """Seats that share the most Scary Bugs; nobody if nobody holds one (BB-17)."""
    counts = [c.get(SCARY, 0) for c in collections]
    top = max(counts, default=0)
    if top < 1:
        return frozenset()
    return frozenset(seat for seat, n in enumerate(counts) if n == top)


def breakdown(collection: Mapping[str, int], has_most_scary: bool) -> dict[str, int]:
    """The per-rule parts of one collection's score, in ``BREAKDOWN_KEYS`` order."""
    parts = {colour: colour_points(collection.get(colour, 0)) for colour in COLOURS}
    # BB-18: a colour with 4 or more still counts as present for the bonus.
    every_colour = all(collection.get(colour, 0) >= 1 for colour in COLOURS)
    parts["all_colours"] = ALL_COLOURS_BONUS if every_colour else 0
    parts["larvae"] = LARVA_POINTS * collection.get(LARVA, 0)
    parts["scary_bugs"] = SCARY_POINTS * collection.get(SCARY, 0)
    parts["most_scary"] = MOST_SCARY_PENALTY if has_most_scary else 0
    parts["total"] = sum(parts.values())
    return parts


def breakdowns(collections: Sequence[Mapping[str, int]]) -> list[dict[str, int]]:
    worst = most_scary(collections)
    return [breakdown(c, seat in worst) for seat, c in enumerate(collections)]


def totals(collections: Sequence[Mapping[str, int]]) -> list[int]:
    return [parts["total"] for parts in breakdowns(collections)]


def best(scores: Sequence[int]) -> list[int]:
    """Seats with the highest score; ties share victory."""
    top = max(scores)
    return [seat for seat, s in enumerate(scores) if s == top]
