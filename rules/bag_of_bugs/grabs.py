"""What each Grab token may take from the pool (RULINGS §1.3, BB-3, BB-4, BB-15, BB-25).

Each legal way to resolve a grab is one option: a count per type. An empty list means the grab
takes nothing (empty pool); a single option needs no question to the player.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from .tokens import GRABBABLE, Counts

GRAB_TOKENS: tuple[int, ...] = (1, 2, 3, 4, 5)

GRAB_TEXT: dict[int, str] = {
    1: "Take 1 token from a largest group of identical tokens.",
    2: "Take 1 token from a smallest group of identical tokens.",
    3: "Take 2 identical tokens (only 1 token if there are no 2 identical).",
    4: "Take 2 different tokens (only 1 if a single type is left).",
    5: "Take 3 different tokens (1 of each type if fewer than 3 types are left).",
}


def take_options(grab: int, pool: Mapping[str, int]) -> list[Counts]:
    """Every distinct way ``grab`` may resolve on ``pool``, in canonical type order.

    Groups are types among GRABBABLE (Wind included, BB-3); Rocks are never considered because
    they leave the pool before any grab resolves.
    """
    present = [t for t in GRABBABLE if pool.get(t, 0) > 0]
    if not present:
        return []
    if grab == 1:
        most = max(pool[t] for t in present)
        return [{t: 1} for t in present if pool[t] == most]
    if grab == 2:
        fewest = min(pool[t] for t in present)
        return [{t: 1} for t in present if pool[t] == fewest]
    if grab == 3:
        doubles = [t for t in present if pool[t] >= 2]
        if doubles:
            return [{t: 2} for t in doubles]
        return [{t: 1} for t in present]
    if grab == 4:
        if len(present) < 2:
            return [{present[0]: 1}]
        return [{a: 1, b: 1} for a, b in combinations(present, 2)]
    if grab == 5:
        if len(present) < 3:
            return [dict.fromkeys(present, 1)]
        return [dict.fromkeys(trio, 1) for trio in combinations(present, 3)]
    raise ValueError(f"no Grab token {grab}")
