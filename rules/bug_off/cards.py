"""The Bug Off! deck: six colours, 20 BUG cards and one BUG OFF card each (RULINGS §3.1).

Cards of one colour are identical, so a BUG card is just its colour name and a BUG OFF card is
``"off:<colour>"``. Piles that need no order (hands, tableaux, points piles) are colour counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
"""Canonical colour order, used for every count dict so views and snapshots stay stable."""

BUGS_PER_COLOUR = 20
HAND_SIZE = 3
DECK_SIZE = len(COLOURS) * (BUGS_PER_COLOUR + 1)

_OFF = "off:"

Counts = dict[str, int]


def bug_off(colour: str) -> str:
    """The card code of ``colour``'s BUG OFF card."""
    return _OFF + colour


def is_bug_off(card: str) -> bool:
    return card.startswith(_OFF)


def colour_of(card: str) -> str:
    """The colour of a BUG or BUG OFF card."""
    return card[len(_OFF) :] if is_bug_off(card) else card


def full_deck() -> list[str]:
    """All 126 cards in a fixed order (the game Rng shuffles it)."""
    deck: list[str] = []
    for colour in COLOURS:
        deck.extend([colour] * BUGS_PER_COLOUR)
        deck.append(bug_off(colour))
    return deck


def empty_counts() -> Counts:
    return dict.fromkeys(COLOURS, 0)


def counts_of(cards: Iterable[str]) -> Counts:
    """Colour counts of some BUG cards."""
    out = empty_counts()
    for card in cards:
        out[card] += 1
    return out


def copy_counts(raw: Mapping[str, int]) -> Counts:
    """A fresh count dict in canonical order (snapshots may come back in any key order)."""
    return {colour: int(raw.get(colour, 0)) for colour in COLOURS}
