"""Shared state helpers and the decision-frame driver every Bug Run flow builds on.

The game is a stack of frames (a trading turn, a move, an attack, a toss ...). A frame either
waits for one seat's decision (its options are exactly the legal actions) or steps on by itself,
pushing child frames whose results come back in ``ret``. Keeping the whole stack inside the JSON
state makes snapshots and replay trivial, and since ``apply`` accepts only an action listed by
the waiting frame, a rejected action is refused before anything is touched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core import Event, Rng
from . import content as C
from .state import ZONES, Frame, GameState, Hero, TurnOrder

Action = dict[str, Any]


@dataclass(frozen=True)
class FrameKind:
    """What one kind of frame does, registered by kind (``FRAME_KINDS`` in engine.py).

    Each handler takes the engine first. ``options`` lists a waiting frame's choices (exactly
    its legal actions), ``answer`` plays the chosen one, ``step`` moves a frame on by itself.
    A kind that never waits has no ``options``/``answer``; one that only waits has no ``step``.
    """

    options: Callable[[Any, Frame], list[Action]] | None = None
    answer: Callable[[Any, Frame, Action, list[Event]], None] | None = None
    step: Callable[[Any, Frame, list[Event]], None] | None = None


CAPS = {"hearts": 10, "arrows": 6, "coins": 15}
STOCK = {"h": "hearts", "a": "arrows", "c": "coins"}
START = {"hearts": 5, "arrows": 4, "coins": 5}


def parse(item: str) -> tuple[str, int]:
    """A reward code as (kind, amount): ``"3c"`` -> ("c", 3), ``"-1h"`` -> ("h", -1), ``"L"``."""
    if item == "L":
        return "L", 1
    kind = "vp" if item.endswith("vp") else item[-1]
    return kind, int(item[: -len(kind)])


class Base:
    """State access, stocks, cards and the frame driver (mixed into the engine)."""

    s: GameState
    rng: Rng
    players: int
    seed: int

    # -- small accessors ----------------------------------------------------------------------
    def turn_order(self) -> TurnOrder:
        """The current phase's turn order (set by every phase start)."""
        assert self.s.order is not None, "no phase has started"
        return self.s.order

    def hero(self, h: int) -> Hero:
        return self.s.heroes[h]

    def owner(self, h: int) -> int:
        return int(self.s.heroes[h].seat)

    def name(self, h: int) -> str:
        return str(self.s.heroes[h].name)

    def has_power(self, h: int, power: str) -> bool:
        return self.s.mode == "powers" and C.POWERS[self.name(h)] == power

    def n_heroes(self) -> int:
        return len(self.s.heroes)

    def clockwise(self, start: int) -> list[int]:
        """Every hero, clockwise from ``start`` (hero index order is seat order)."""
        n = self.n_heroes()
        return [(start + k) % n for k in range(n)]

    def hand(self, seat: int) -> list[str]:
        return self.s.seats[seat].hand

    def find_in_hand(self, seat: int, effect: str) -> list[str]:
        return [c for c in self.hand(seat) if C.card(c)["effect"] == effect]

    def find_faceup(self, h: int, effect: str) -> list[str]:
        return [c for c in self.hero(h).faceup if C.card(c)["effect"] == effect]

    # -- stocks ---------------------------------------------------------------------------------
    def gain(self, h: int, stock: str, amount: int) -> int:
        """Add to a capped stock; what overflows the cap is lost (BR-22). Returns the gain."""
        hero = self.hero(h)
        before = hero.stock(stock)
        hero.set_stock(stock, min(CAPS[stock], before + amount))
        return hero.stock(stock) - before

    def vp(self, seat: int) -> int:
        return int(self.s.seats[seat].vp)

    def gain_vp(self, seat: int, amount: int) -> None:
        self.s.seats[seat].vp += amount

    def lose(self, h: int, stock: str, amount: int, ev: list[Event]) -> int:
        """A loss takes what there is (BR-21); hearts reaching 0 kill the hero (BR-18)."""
        hero = self.hero(h)
        taken = min(hero.stock(stock), amount)
        hero.set_stock(stock, hero.stock(stock) - taken)
        if stock == "hearts" and hero.hearts <= 0:
            self.death(h, ev)
        return int(taken)

    def lose_vp(self, seat: int, amount: int) -> int:
        vp = self.s.seats[seat]
        taken = min(vp.vp, amount)
        vp.vp -= taken
        return int(taken)

    def damage(self, h: int, amount: int, ev: list[Event]) -> None:
        hero = self.hero(h)
        hero.hearts -= amount
        if hero.hearts <= 0:
            self.death(h, ev)

    def death(self, h: int, ev: list[Event]) -> None:
        seat = self.owner(h)
        lost = self.lose_vp(seat, 5)
        self.hero(h).hearts = START["hearts"]
        ev.append(Event.public("death", hero=h, name=self.name(h)))
        ev.append(Event.private(seat, "vp_lost", hero=h, amount=lost, vp=self.s.seats[seat].vp))

    def grant_item(self, h: int, item: str, ev: list[Event], *, printed: bool = True) -> bool:
        """Apply one reward item to hero ``h``. Returns True when it is a loot draw to do.

        A printed heart/arrow/coin reward taken while that stock is full becomes 1 VP (BR-23).
        """
        kind, amount = parse(item)
        seat = self.owner(h)
        if kind == "L":
            return True
        if kind == "vp":
            if amount >= 0:
                self.gain_vp(seat, amount)
                ev.append(Event.public("gain", hero=h, item=item, vp=amount))
            else:
                # how many VP were really lost would tell the table a VP total of 0 (BR-50)
                lost = self.lose_vp(seat, -amount)
                ev.append(Event.public("loss", hero=h, item=item))
                ev.append(Event.private(seat, "vp_lost", hero=h, amount=lost, vp=self.vp(seat)))
            return False
        stock = STOCK[kind]
        if amount < 0:
            lost = self.lose(h, stock, -amount, ev)
            ev.append(Event.public("loss", hero=h, item=item, **{stock: lost}))
            return False
        if printed and self.hero(h).stock(stock) >= CAPS[stock]:
            self.gain_vp(seat, 1)
            ev.append(Event.public("gain", hero=h, item=item, vp=1, at_max=stock))
            return False
        got = self.gain(h, stock, amount)
        ev.append(Event.public("gain", hero=h, item=item, **{stock: got}))
        return False

    # -- decks ----------------------------------------------------------------------------------
    def draw_bazaar(self) -> str | None:
        baz = self.s.bazaar
        if not baz.deck and baz.discard:
            baz.deck = baz.discard
            baz.discard = []
            self.rng.shuffle(baz.deck)
        return baz.deck.pop(0) if baz.deck else None

    def refill_market(self) -> list[str]:
        new = []
        market = self.s.bazaar.market
        while len(market) < 3:
            c = self.draw_bazaar()
            if c is None:
                break
            market.append(c)
            new.append(c)
        return new

    def draw_loot(self) -> str | None:
        loot = self.s.loot
        if not loot.deck and loot.discard:
            loot.deck = loot.discard
            loot.discard = []
            self.rng.shuffle(loot.deck)
        return loot.deck.pop(0) if loot.deck else None

    def discard(self, c: str) -> None:
        """A used or sold card goes back where it came from."""
        if c.startswith("BZ"):
            self.s.bazaar.discard.append(c)
        elif c.startswith("LT"):
            self.s.loot.discard.append(c)
        else:
            self.s.basics.append(c)
            self.s.basic_side.pop(c, None)
        self.s.markers.pop(c, None)

    def zone_of(self, c: str) -> str:
        d = C.card(c)
        if d["zone"] == "either":
            return str(self.s.basic_side[c])
        return str(d["zone"])

    def zone_limit(self, zone: str) -> int:
        return 1 if zone == "shield" else 2

    def can_equip(self, h: int, c: str) -> bool:
        return not (self.zone_of(c) == "shield" and self.has_power(h, "armored_exoskeleton"))

    def remove_card(self, h: int, c: str) -> None:
        """Take card ``c`` from wherever hero ``h`` (or its player's hand) holds it."""
        hero = self.hero(h)
        for zone in ZONES:
            if c in hero.zone(zone):
                hero.zone(zone).remove(c)
                return
        self.hand(self.owner(h)).remove(c)

    # -- frame driver ---------------------------------------------------------------------------
    def push(self, frame: Frame) -> None:
        frame.setdefault("wait", False)
        if "seat" not in frame and "hero" in frame:
            frame["seat"] = self.owner(frame["hero"])
        self.s.stack.append(frame)

    def pop(self, result: Any = None) -> None:
        self.s.stack.pop()
        if self.s.stack:
            self.s.stack[-1]["ret"] = result

    def top(self) -> Frame | None:
        return self.s.stack[-1] if self.s.stack else None

    def run(self, events: list[Event]) -> None:
        """Step frames until a decision with a real choice is pending or the game is over.

        A decision with a single legal option is taken at once (the contract prefers it).
        """
        for _ in range(100_000):
            frame = self.top()
            if frame is None:
                if self.s.phase == "over":
                    return
                self.schedule(events)
                continue
            if frame["wait"]:
                options = self.frame_options(frame)
                if not options:
                    raise RuntimeError(f"bug-run: frame {frame['k']} waits with no option")
                if len(options) > 1:
                    return
                self.s.serial += 1
                frame["wait"] = False
                self.answer_frame(frame, options[0], events)
                continue
            step = self.frame_kind(frame["k"]).step
            if step is None:
                raise RuntimeError(f"bug-run: frame {frame['k']} cannot step on by itself")
            step(self, frame, events)
        raise RuntimeError("bug-run: the frame driver did not settle")

    def frame_options(self, frame: Frame) -> list[Action]:
        """The waiting frame's choices, which are exactly the legal actions of its seat."""
        options = self.frame_kind(frame["k"]).options
        if options is None:
            raise RuntimeError(f"bug-run: frame {frame['k']} never waits for a decision")
        return options(self, frame)

    def answer_frame(self, frame: Frame, action: Action, events: list[Event]) -> None:
        """Play a decision listed by ``frame_options(frame)``."""
        answer = self.frame_kind(frame["k"]).answer
        if answer is None:
            raise RuntimeError(f"bug-run: frame {frame['k']} never waits for a decision")
        answer(self, frame, action, events)

    def frame_kind(self, kind: str) -> FrameKind:
        """The registered handlers of a frame kind (the engine owns the registry)."""
        raise NotImplementedError

    def schedule(self, ev: list[Event]) -> None:
        """Push the next decision when the stack is empty (the engine decides turn order)."""
        raise NotImplementedError

    def start_phase(self, phase: str, ev: list[Event]) -> None:
        raise NotImplementedError
