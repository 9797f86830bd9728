"""Helpers for the Bug Run tests: build a state, place heroes and cards, script the dice.

Tests build a real game with ``new()`` and then set up a position with the builders below
(``with_hero``, ``place``, ``set_hand`` ...), so every rule is tested through the public
``apply`` / ``legal_actions`` contract and the tests do not spell out the state's layout.
"""

from __future__ import annotations

from typing import Any

from rules.bug_run import board, turns
from rules.bug_run.engine import BugRun
from rules.bug_run.state import Hero, Position, Slot
from rules.core import Rng


class ScriptRng(Rng):
    """An Rng whose next dice faces and tosses can be set; everything else stays seeded."""

    __slots__ = ("coins", "faces")

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.faces: list[int] = []
        self.coins: list[bool] = []

    def randint(self, low: int, high: int) -> int:
        if self.faces and (low, high) == (1, 6):
            return self.faces.pop(0)
        return super().randint(low, high)

    def coin(self) -> bool:
        if self.coins:
            return self.coins.pop(0)
        return super().coin()


GREEN, RED = True, False


def game(n: int = 3, seed: int = 1, mode: str = "normal") -> BugRun:
    g = BugRun.new(n, seed, {"mode": mode})
    rng = ScriptRng(0)
    rng._s = g.context.rng.state()
    g.context.rng = rng
    return g


def script(g: BugRun, faces: list[int] | None = None, coins: list[bool] | None = None) -> None:
    assert isinstance(g.context.rng, ScriptRng)
    g.context.rng.faces = list(faces or [])
    g.context.rng.coins = list(coins or [])


def to_adventure(g: BugRun) -> BugRun:
    while g.state.phase == "trading":
        seat = next(iter(g.waiting_for()))
        acts = g.legal_actions(seat)
        a = next((x for x in acts if x["type"] == "activate"), {"type": "end_turn"})
        g.apply(seat, a)
    return g


def adventure(n: int = 3, seed: int = 1, mode: str = "normal") -> BugRun:
    return to_adventure(game(n, seed, mode))


def start_turn(g: BugRun, h: int) -> None:
    """Make it hero ``h``'s adventure turn (the next turn follows clockwise)."""
    clear_stack(g)
    turns.begin(
        g.context, h, []
    )  # the engine's own turn frame (it notes the arrows at the turn start)
    if not g.state.two:
        g.state.order.next = (h + 1) % g.context.n_heroes()


def set_card(g: BugRun, col: int, cid: str, floor: str = "C") -> Slot:
    slot = board.make_slot(g.context, cid, g.state.level)
    g.state.board[col][floor] = slot
    return slot


def crown_hero(g: BugRun) -> int:
    """The hero holding the crown (the first to act in each phase)."""
    return int(g.state.crown)


def hand(g: BugRun, h: int) -> list[str]:
    """The hand of hero ``h``'s player, as the game holds it."""
    return g.context.hand(g.context.owner(h))


def set_hand(g: BugRun, h: int, cards: list[str]) -> None:
    g.state.seats[g.context.owner(h)].hand = list(cards)


def with_hero(g: BugRun, h: int, **fields: Any) -> Hero:
    """Set hero ``h``'s stocks or zones (``hearts=2``, ``sword=["BZ01-1"]`` ...); unknown
    names fail, so a typo cannot silently test nothing."""
    hero = g.context.hero(h)
    for name, value in fields.items():
        assert hasattr(hero, name), name
        setattr(hero, name, list(value) if isinstance(value, list) else value)
    return hero


def set_vp(g: BugRun, h: int, points: int) -> None:
    """Set the victory points of hero ``h``'s player (secret in play)."""
    g.state.seats[g.context.owner(h)].vp = points


def set_market(g: BugRun, cards: list[str]) -> None:
    g.state.bazaar.market = list(cards)


def set_loot_deck(g: BugRun, cards: list[str]) -> None:
    g.state.loot.deck = list(cards)


def loot_on_top(g: BugRun, *cards: str) -> None:
    """Move ``cards`` to the top of the loot deck, the first one on top (the next drawn)."""
    deck = g.state.loot.deck
    for card in reversed(cards):
        if card in deck:
            deck.remove(card)
        deck.insert(0, card)


def set_seat(g: BugRun, seat: int, *, vp: int | None = None, hand: list[str] | None = None) -> None:
    """Set a player's secret VP total or hand (by seat: in 2p a seat has two heroes)."""
    if vp is not None:
        g.state.seats[seat].vp = vp
    if hand is not None:
        g.state.seats[seat].hand = list(hand)


def set_markers(g: BugRun, card: str, markers: int) -> None:
    """Put ``markers`` use markers on a marker card (BR-42: the third discards it)."""
    g.state.markers[card] = markers


def bought_as(g: BugRun, card: str, zone: str) -> None:
    """Record that a basic equipment card was bought for ``zone`` (its sword or bow side)."""
    g.state.basic_side[card] = zone


def set_basics(g: BugRun, cards: list[str]) -> None:
    g.state.basics = list(cards)


def set_bazaar_deck(g: BugRun, cards: list[str]) -> None:
    g.state.bazaar.deck = list(cards)


def deck_to_discard(g: BugRun, deck: str) -> None:
    """Move the whole ``"bazaar"`` or ``"loot"`` deck onto its discard pile (a reshuffle is due)."""
    pile = g.state.bazaar if deck == "bazaar" else g.state.loot
    pile.discard, pile.deck = pile.deck, []


def set_level_decks(
    g: BugRun,
    *,
    level_card: str | None = None,
    monsters: dict[int, list[str]] | None = None,
    explore: list[str] | None = None,
) -> None:
    """Choose the level card, a level's monster deck (by level 1-4) or the exploration pile."""
    if level_card is not None:
        g.state.level_card = level_card
    for level, deck in (monsters or {}).items():
        g.state.monsters[level - 1] = list(deck)
    if explore is not None:
        g.state.explore = list(explore)


def set_column(g: BugRun, col: int, *cards: str) -> None:
    """Lay fresh cards in a board column: one card central, two cards upper then lower."""
    floors = ("C",) if len(cards) == 1 else ("U", "D")
    g.state.board[col] = {
        floor: board.make_slot(g.context, card, g.state.level)
        for floor, card in zip(floors, cards, strict=True)
    }


def wound(g: BugRun, col: int, wounds: int, floor: str = "C") -> None:
    """Put ``wounds`` wound tokens on the monster at (col, floor)."""
    g.context.slot(col, floor).wounds = wounds


def set_space(
    g: BugRun,
    col: int,
    space: int,
    floor: str = "C",
    *,
    lock: bool | None = None,
    occupant: int | None = None,
) -> None:
    """Padlock or free a space, or mark it taken by hero ``occupant`` (who stays where it is)."""
    target = g.context.slot(col, floor).spaces[space]
    if lock is not None:
        target.lock = lock
    if occupant is not None:
        target.hero = occupant


def set_crown(g: BugRun, h: int) -> None:
    g.state.crown = h


def next_clockwise(g: BugRun, h: int) -> None:
    """Make hero ``h`` the next to act (3-6 players: the turn passes clockwise)."""
    g.context.turn_order().next = h


def set_ready(g: BugRun, ready: list[bool]) -> None:
    """2p: which heroes have not acted yet this round."""
    g.context.turn_order().ready = list(ready)


def stairs_fought(g: BugRun) -> None:
    """Count this level's stairs fight as done, so everyone on the stairs resets the level."""
    g.state.fought = True


def set_teams(g: BugRun, teams: dict[int, str]) -> None:
    """2p: fix the fight teams by seat (``"top"`` or ``"bottom"``)."""
    g.state.teams = {str(seat): team for seat, team in teams.items()}


def to_roof(g: BugRun, roof: list[str], queue: list[int]) -> None:
    """Jump to the Final Escape: the level put away, ``roof`` laid, heroes ``queue`` to run."""
    g.state.roof = list(roof)
    g.state.board = []
    g.state.phase = "escape"
    g.state.level = 4
    g.state.escape_queue = list(queue)


def queue_escape(g: BugRun, queue: list[int]) -> None:
    """The heroes still to run the roof, in order."""
    g.state.escape_queue = list(queue)


def clear_stack(g: BugRun) -> None:
    """Drop every pending decision, so a test can push or begin the one it studies."""
    g.state.stack = []


def place(g: BugRun, h: int, col: int, floor: str = "C", space: int | None = 0) -> None:
    """Stand hero ``h`` on a space of a board card (``space=None``: on the card, no space)."""
    hero = g.context.hero(h)
    old = hero.pos
    if old and old.space is not None:
        g.context.slot(old.col, old.floor).spaces[old.space].hero = None
    if space is not None:
        g.context.slot(col, floor).spaces[space].hero = h
    hero.pos = Position(col, floor, space)


def act(g: BugRun, h: int, action: dict[str, Any]) -> list[Any]:
    return g.apply(g.context.owner(h), action)


def top(g: BugRun) -> dict[str, Any]:
    """The pending frame as its snapshot reads (``"k"`` is its kind)."""
    fr = g.context.top()
    assert fr is not None
    return fr.to_dict()


def acts(g: BugRun, h: int) -> list[dict[str, Any]]:
    return g.legal_actions(g.context.owner(h))


def vp(g: BugRun, h: int) -> int:
    return int(g.state.seats[g.context.owner(h)].vp)


def test_script_rng_serves_scripted_values_first() -> None:
    r = ScriptRng(3)
    r.faces = [6, 1]
    r.coins = [True, False]
    assert [r.randint(1, 6), r.randint(1, 6)] == [6, 1]
    assert [r.coin(), r.coin()] == [True, False]


def test_adventure_helper_reaches_the_first_adventure_turn() -> None:
    g = adventure(4, 5)
    assert g.state.phase == "adventure" and top(g)["k"] == "turn"
    assert top(g)["hero"] == g.state.crown


def plain_board(g: BugRun, cid: str = "M1-01") -> None:
    """Every card between the entrance and the stairs becomes a fresh copy of ``cid``."""
    for col in range(1, g.context.stairs_col()):
        g.state.board[col] = {"C": board.make_slot(g.context, cid, g.state.level)}


def finish_moves(g: BugRun) -> None:
    """Answer pending free moves by going straight to the stairs."""
    while g.context.top() is not None and top(g)["k"] == "freemove":
        h = top(g)["hero"]
        stairs = [a for a in acts(g, h) if a["col"] == g.context.stairs_col()]
        act(g, h, stairs[0])
