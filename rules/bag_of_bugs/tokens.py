"""Token types, the per-player-count setup (RULINGS §1.1) and small multiset helpers.

Tokens of one type are identical, so every zone (bag, pool, collection) is a count per type.
Zones are kept canonical (types in ``TYPES`` order, no zero counts) so snapshots compare and
serialise the same way however they were reached.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Counts = dict[str, int]

COLOURS: tuple[str, ...] = ("c1", "c2", "c3", "c4", "c5")
SCARY = "scary"
LARVA = "larva"
WIND = "wind"
ROCK = "rock"

TYPES: tuple[str, ...] = (*COLOURS, SCARY, LARVA, WIND, ROCK)
"""Every token type, in the canonical order used for zones, options and random draws."""

COLLECTABLE: tuple[str, ...] = (*COLOURS, SCARY, LARVA)
"""Types that may sit in a collection (Wind never does; Rocks never reach a collection)."""

GRABBABLE: tuple[str, ...] = (*COLLECTABLE, WIND)
"""Types that may be in the pool while grabs resolve (Rocks are removed first, BB-3)."""


FULL_SET: Counts = {**dict.fromkeys(COLOURS, 10), SCARY: 10, LARVA: 10, WIND: 2, ROCK: 13}
"""The box contents (85 tokens), used as-is by a 5-player game."""


@dataclass(frozen=True)
class Setup:
    """What a table of a given size plays with (RULINGS §1.1, BB-1, BB-2)."""

    players: int
    removed_per_type: int
    draw_limit: int
    pairs_needed: int

    def out_of_game(self) -> Counts:
        """Tokens removed before play: the same number of each type except Wind."""
        if not self.removed_per_type:
            return {}
        return {t: self.removed_per_type for t in TYPES if t != WIND}

    def starting_bag(self) -> Counts:
        out = self.out_of_game()
        return canon({t: FULL_SET[t] - out.get(t, 0) for t in TYPES})


SETUPS: dict[int, Setup] = {
    5: Setup(players=5, removed_per_type=0, draw_limit=9, pairs_needed=6),
    4: Setup(players=4, removed_per_type=2, draw_limit=8, pairs_needed=5),
    3: Setup(players=3, removed_per_type=4, draw_limit=6, pairs_needed=4),
}


def canon(counts: Mapping[str, int]) -> Counts:
    """The canonical form of a zone: known types in ``TYPES`` order, zero counts dropped."""
    return {t: counts[t] for t in TYPES if counts.get(t, 0) > 0}


def total(counts: Mapping[str, int]) -> int:
    return sum(counts.values())


def add(counts: Mapping[str, int], more: Mapping[str, int]) -> Counts:
    """``counts`` plus ``more``, canonical."""
    return canon({t: counts.get(t, 0) + more.get(t, 0) for t in TYPES})


def subtract(counts: Mapping[str, int], less: Mapping[str, int]) -> Counts:
    """``counts`` minus ``less``, canonical; taking what is not there is an engine bug."""
    result = {t: counts.get(t, 0) - less.get(t, 0) for t in TYPES}
    if any(n < 0 for n in result.values()):
        raise ValueError(f"cannot take {dict(less)} from {dict(counts)}")
    return canon(result)


def one(token: str, n: int = 1) -> Counts:
    return {token: n}


def combine(zones: Iterable[Mapping[str, int]]) -> Counts:
    """The sum of several zones (for conservation checks)."""
    result: Counts = {}
    for zone in zones:
        result = add(result, zone)
    return result
