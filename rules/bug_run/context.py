"""The game being played, as every Bug Run rule module sees it: state, dice and small look-ups.

``Run`` holds the typed state and the live random generator and answers the questions every
section of the rules asks (whose hero, which card is where, what is in a hand), keeps the decks
and the stack of pending frames. The rules themselves live in the modules named after the
rulebook's sections, as functions taking the ``Run``; the engine (engine.py) only holds one and
answers the contract with them, as every game's engine does over its state.

The game is a stack of frames (a trading turn, a move, an attack, a toss ...). A frame either
waits for one seat's decision (its options are exactly the legal actions) or steps on by itself,
pushing child frames whose results come back in ``ret``. Keeping the whole stack inside the JSON
state makes snapshots and replay trivial, and since ``apply`` accepts only an action listed by
the waiting frame, a rejected action is refused before anything is touched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..core import Event, Rng
from . import content as C
from .frames import Frame, Result
from .state import ZONES, GameState, Hero, Slot, TurnOrder

SLUG = "bug-run"
Action = dict[str, Any]
F = TypeVar("F", bound=Frame)


@dataclass(frozen=True)
class FrameKind(Generic[F]):
    """What one kind of frame does, registered by kind (``FRAME_KINDS`` in driver.py).

    Each handler takes the ``Run`` first. ``options`` lists a waiting frame's choices (exactly
    its legal actions), ``answer`` plays the chosen one, ``step`` moves a frame on by itself.
    A kind that never waits has no ``options``/``answer``; one that only waits has no ``step``.
    """

    options: Callable[[Run, F], list[Action]] | None = None
    answer: Callable[[Run, F, Action, list[Event]], None] | None = None
    step: Callable[[Run, F, list[Event]], None] | None = None


class Run:
    """The state and the generator of one game, with the look-ups every rule module shares.

    The generator lives here rather than in the state because the state keeps its stored
    form (``GameState.rng``), written back only when a snapshot is taken."""

    def __init__(self, state: GameState, rng: Rng) -> None:
        self.state = state
        self.rng = rng

    # -- heroes, seats and the turn order ---------------------------------------------------------
    def turn_order(self) -> TurnOrder:
        """The current phase's turn order (set by every phase start)."""
        assert self.state.order is not None, "no phase has started"
        return self.state.order

    def hero(self, hero: int) -> Hero:
        return self.state.heroes[hero]

    def owner(self, hero: int) -> int:
        return int(self.state.heroes[hero].seat)

    def name(self, hero: int) -> str:
        return str(self.state.heroes[hero].name)

    def has_power(self, hero: int, power: str) -> bool:
        return self.state.mode == "powers" and C.POWERS[self.name(hero)] == power

    def n_heroes(self) -> int:
        return len(self.state.heroes)

    def clockwise(self, start: int) -> list[int]:
        """Every hero, clockwise from ``start`` (hero index order is seat order)."""
        n = self.n_heroes()
        return [(start + k) % n for k in range(n)]

    def hand(self, seat: int) -> list[str]:
        return self.state.seats[seat].hand

    def find_in_hand(self, seat: int, effect: str) -> list[str]:
        return [card for card in self.hand(seat) if C.card(card)["effect"] == effect]

    def find_faceup(self, hero: int, effect: str) -> list[str]:
        return [card for card in self.hero(hero).faceup if C.card(card)["effect"] == effect]

    def vp(self, seat: int) -> int:
        return int(self.state.seats[seat].vp)

    def gain_vp(self, seat: int, amount: int) -> None:
        self.state.seats[seat].vp += amount

    def lose_vp(self, seat: int, amount: int) -> int:
        """A VP loss takes what there is (BR-21); returns what was lost."""
        seat_record = self.state.seats[seat]
        taken = min(seat_record.vp, amount)
        seat_record.vp -= taken
        return taken

    # -- cards and decks --------------------------------------------------------------------------
    def zone_of(self, card: str) -> str:
        info = C.card(card)
        if info["zone"] == "either":
            return str(self.state.basic_side[card])
        return str(info["zone"])

    def zone_limit(self, zone: str) -> int:
        return 1 if zone == "shield" else 2

    def can_equip(self, hero: int, card: str) -> bool:
        return not (self.zone_of(card) == "shield" and self.has_power(hero, "armored_exoskeleton"))

    def remove_card(self, hero: int, card: str) -> None:
        """Take ``card`` from wherever ``hero`` (or its player's hand) holds it."""
        sheet = self.hero(hero)
        for zone in ZONES:
            if card in sheet.zone(zone):
                sheet.zone(zone).remove(card)
                return
        self.hand(self.owner(hero)).remove(card)

    def discard(self, card: str) -> None:
        """A used or sold card goes back where it came from."""
        if card.startswith("BZ"):
            self.state.bazaar.discard.append(card)
        elif card.startswith("LT"):
            self.state.loot.discard.append(card)
        else:
            self.state.basics.append(card)
            self.state.basic_side.pop(card, None)
        self.state.markers.pop(card, None)

    def draw_bazaar(self) -> str | None:
        """The top bazaar card; an empty deck is first rebuilt from the discard (BR-37)."""
        bazaar = self.state.bazaar
        if not bazaar.deck and bazaar.discard:
            bazaar.deck = bazaar.discard
            bazaar.discard = []
            self.rng.shuffle(bazaar.deck)
        return bazaar.deck.pop(0) if bazaar.deck else None

    def refill_market(self) -> list[str]:
        new = []
        market = self.state.bazaar.market
        while len(market) < 3:
            card = self.draw_bazaar()
            if card is None:
                break
            market.append(card)
            new.append(card)
        return new

    def draw_loot(self) -> str | None:
        loot = self.state.loot
        if not loot.deck and loot.discard:
            loot.deck = loot.discard
            loot.discard = []
            self.rng.shuffle(loot.deck)
        return loot.deck.pop(0) if loot.deck else None

    def market(self) -> list[str]:
        return list(self.state.bazaar.market)

    # -- the frame stack --------------------------------------------------------------------------
    def push(self, frame: Frame) -> None:
        """Put ``frame`` on top; a hero's frame is its owner's decision."""
        hero = getattr(frame, "hero", None)
        if frame.seat < 0 and hero is not None:
            frame.seat = self.owner(hero)
        self.state.stack.append(frame)

    def pop(self, result: Result = None) -> None:
        """Take the top frame off, handing ``result`` to the frame below."""
        self.state.stack.pop()
        if self.state.stack:
            self.state.stack[-1].ret = result

    def top(self) -> Frame | None:
        return self.state.stack[-1] if self.state.stack else None

    # -- the board --------------------------------------------------------------------------------
    def small_game(self) -> bool:
        return int(self.state.players) < 5

    def stairs_col(self) -> int:
        return len(self.state.board) - 1

    def stairs_slot(self) -> Slot:
        return self.state.board[-1]["C"]

    def stairs_card(self) -> dict[str, Any]:
        card = self.stairs_slot().card
        assert card is not None, "the stairs column always holds a stairs card"
        return C.STAIRS[card]

    def slot(self, col: int, floor: str) -> Slot:
        return self.state.board[col][floor]

    def here(self, hero: int) -> Slot:
        pos = self.hero(hero).position()
        return self.slot(pos.col, pos.floor)

    def on_stairs(self, hero: int) -> bool:
        return int(self.hero(hero).position().col) == self.stairs_col()

    def heroes_on(self, col: int, floor: str) -> list[int]:
        return [
            hero
            for hero in range(self.n_heroes())
            if self.hero(hero).position().col == col and self.hero(hero).position().floor == floor
        ]

    def space_of(self, hero: int) -> int:
        """The space ``hero`` stands on (asked only of a hero standing on one)."""
        space = self.hero(hero).position().space
        assert space is not None, "the hero stands on no space"
        return space

    def space_weapon(self, hero: int) -> str:
        pos = self.hero(hero).position()
        if pos.space is None:
            return "any"
        return str(self.here(hero).spaces[pos.space].weapon)
