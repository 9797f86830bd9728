"""The Bugs & Co box: symbols, tiles and trophies per player count (RULINGS §2.1, BC-1/BC-2).

Kept apart from the engine so presenters can import the names and tables without the rules.
A tile is an int ``0..74``; its symbol is ``tile // 3`` because every symbol has exactly three
tiles (BC-1). Tile numbers are internal: views and events never show them, only symbols.
"""

from __future__ import annotations

from typing import Final

from .contract import CatalogEntry, SymbolInfo

COPIES: Final = 3
"""Tiles per symbol (one "set of 3" each, BC-1)."""

SYMBOL_NAMES: Final[tuple[str, ...]] = (
    # 15 two-eyed symbols (ids 0..14)
    "Ant",
    "Bee",
    "Beetle",
    "Butterfly",
    "Caterpillar",
    "Cicada",
    "Cricket",
    "Dragonfly",
    "Firefly",
    "Grasshopper",
    "Ladybird",
    "Mantis",
    "Moth",
    "Stick Insect",
    "Wasp",
    # 5 one-eyed symbols (ids 15..19)
    "Cyclops Flea",
    "Monocle Mite",
    "Peeper Weevil",
    "Squint Gnat",
    "Winky Midge",
    # 5 three-eyed symbols (ids 20..24)
    "Triclops Tick",
    "Third-Eye Earwig",
    "Trio Termite",
    "Triple-Gaze Louse",
    "Tri-Spy Spider",
)
SYMBOLS: Final = len(SYMBOL_NAMES)
TWO_EYED: Final = tuple(range(0, 15))
ONE_EYED: Final = tuple(range(15, 20))
THREE_EYED: Final = tuple(range(20, 25))

EXTRA_SETS: Final = ("one-eyed", "three-eyed")
"""The 5-6 player choice of BC-2: exactly one of these joins the two-eyed sets."""

REMOVED: Final = 7
"""Tiles put back in the box unseen at set-up (BC-17)."""

TROPHIES: Final[dict[int, tuple[int, ...]]] = {
    2: (3,),
    3: (3, 2),
    4: (3, 2, 1),
    5: (3, 2, 2, 1),
    6: (3, 3, 2, 2, 1),
    7: (3, 3, 2, 2, 1),
    8: (3, 3, 2, 2, 1),
}
"""Trophies in play per player count, highest first (the order they are taken, BC-4)."""


def symbol_of(tile: int) -> int:
    return tile // COPIES


def eyes_of(symbol: int) -> int:
    if symbol in ONE_EYED:
        return 1
    if symbol in THREE_EYED:
        return 3
    return 2


_EYES: Final = tuple(eyes_of(s) for s in range(SYMBOLS))


def describe(symbol: int) -> SymbolInfo:
    """What a player learns about a tile: its symbol, that symbol's name and its eyes."""
    return {"symbol": symbol, "name": SYMBOL_NAMES[symbol], "eyes": eyes_of(symbol)}


def catalog(symbols: tuple[int, ...]) -> list[CatalogEntry]:
    """The symbols in play as the view lists them (fresh dicts: callers may keep them)."""
    return [{"id": s, "name": SYMBOL_NAMES[s], "eyes": _EYES[s]} for s in symbols]


def uses_extra_set(players: int) -> bool:
    """Only 5 and 6 players add one of the extra sets (7-8 use every set, 2-4 none)."""
    return players in (5, 6)


def symbols_in_play(players: int, extra_set: str | None) -> tuple[int, ...]:
    """The symbols in the game for this player count (BC-1, BC-2)."""
    if players >= 7:
        return TWO_EYED + ONE_EYED + THREE_EYED
    if uses_extra_set(players):
        if extra_set == "one-eyed":
            return TWO_EYED + ONE_EYED
        if extra_set == "three-eyed":
            return TWO_EYED + THREE_EYED
        raise ValueError(f"5-6 players need an extra set, not {extra_set!r}")
    return TWO_EYED


def tiles_of(symbols: tuple[int, ...]) -> list[int]:
    return [s * COPIES + c for s in symbols for c in range(COPIES)]
