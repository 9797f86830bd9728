"""The turn (RULINGS §3.2): setup, draw with its BUG OFF chain, place, score, the clock, the end.

Every function here changes a ``GameState`` and appends events; the engine has already matched the
action against ``legal_actions``, so nothing here is reached with an illegal request.
"""

from __future__ import annotations

from typing import Any

from rules.core import Event

from . import scoring
from .cards import COLOURS, HAND_SIZE, colour_of, full_deck, is_bug_off
from .state import CHOOSE, DRAW, OVER, GameState


def deal(state: GameState, first: int | None) -> None:
    """Shuffle, deal three BUG cards each (BO-3), then pick the first player (BO-4, BO-X7).

    ``first`` is a seat the host chose, or ``None`` for a random one; only a random pick uses
    the Rng, so a chosen first seat leaves the Rng where the deal left it.
    """
    state.deck = full_deck()
    state.rng.shuffle(state.deck)
    for seat in state.seats:
        for _ in range(HAND_SIZE):
            seat.hand[deal_bug(state)] += 1
    chosen = state.rng.below(state.players) if first is None else first
    state.first = state.active = chosen


def deal_bug(state: GameState) -> str:
    """BO-3: a dealt BUG OFF is shuffled back into the deck and the player is dealt again."""
    card = state.deck.pop(0)
    while is_bug_off(card):
        state.deck.append(card)
        state.rng.shuffle(state.deck)
        state.setup_returns += 1
        card = state.deck.pop(0)
    return card


def act(state: GameState, seat: int, kind: str, colour: str | None) -> list[Event]:
    """A player's listed ``draw``, ``place`` or ``score``; the latter two end the turn."""
    events: list[Event] = []
    state.step += 1
    if kind == "draw":
        draw(state, seat, events)
        return events
    assert colour is not None
    if kind == "place":
        place(state, seat, colour, events)
    else:
        score(state, seat, colour, events)
    next_player(state, events)
    return events


def time_out(state: GameState) -> list[Event]:
    """The turn clock: draw if needed, then place the drawn card (BO-17)."""
    seat = state.active
    events = [Event.public("timeout", seat=seat, had_drawn=state.phase == CHOOSE)]
    state.step += 1
    if state.phase == DRAW:
        draw(state, seat, events)
        if state.is_over:
            return events
    assert state.drawn is not None
    place(state, seat, state.drawn, events)
    next_player(state, events)
    return events


def draw(state: GameState, seat: int, events: list[Event]) -> None:
    """Draw until a BUG card; each BUG OFF resolves first and is not the turn's draw."""
    while True:
        assert state.deck, "BO-10: the deck always holds the undrawn BUG OFF cards"
        card = state.deck.pop(0)
        if not is_bug_off(card):
            state.seats[seat].hand[card] += 1
            state.drawn = card
            state.phase = CHOOSE
            events.append(Event.public("drew", seat=seat, deck_size=len(state.deck)))
            events.append(Event.private(seat, "drew_card", seat=seat, colour=card))
            return
        bug_off(state, seat, colour_of(card), events)
        if state.is_over:
            return


def bug_off(state: GameState, seat: int, colour: str, events: list[Event]) -> None:
    """BO-8/BO-9: wipe every tableau card of this and every earlier BUG OFF's colour."""
    state.bug_offs.append(colour)
    wiped: list[dict[str, Any]] = []
    for owner, piles in enumerate(state.seats):
        tableau = piles.tableau
        for c in COLOURS:
            if c in state.bug_offs and tableau[c]:
                wiped.append({"seat": owner, "colour": c, "count": tableau[c]})
                state.discard[c] += tableau[c]
                tableau[c] = 0
    events.append(
        Event.public(
            "bug_off",
            seat=seat,
            colour=colour,
            number=len(state.bug_offs),
            wiped_colours=list(state.bug_offs),
            wiped=wiped,
            wiped_total=sum(w["count"] for w in wiped),
            deck_size=len(state.deck),
        )
    )
    if len(state.bug_offs) == len(COLOURS):
        finish(state, events)


def place(state: GameState, seat: int, colour: str, events: list[Event]) -> None:
    piles = state.seats[seat]
    piles.hand[colour] -= 1
    piles.tableau[colour] += 1
    events.append(Event.public("placed", seat=seat, colour=colour, count=piles.tableau[colour]))


def score(state: GameState, seat: int, colour: str, events: list[Event]) -> None:
    """BO-5/BO-6/BO-7: everyone's face-up cards of the colour go to their points piles."""
    state.seats[seat].hand[colour] -= 1
    state.score_pile[colour] += 1
    gains: list[dict[str, int]] = []
    for owner, piles in enumerate(state.seats):
        if piles.tableau[colour]:
            gains.append({"seat": owner, "count": piles.tableau[colour]})
            piles.points[colour] += piles.tableau[colour]
            piles.tableau[colour] = 0
    events.append(
        Event.public(
            "scored",
            seat=seat,
            colour=colour,
            gains=gains,
            total=sum(g["count"] for g in gains),
            points_sizes=scoring.totals(state.points),
        )
    )


def next_player(state: GameState, events: list[Event]) -> None:
    state.active = (state.active + 1) % state.players
    state.phase = DRAW
    state.drawn = None
    events.append(Event.public("turn", seat=state.active))


def finish(state: GameState, events: list[Event]) -> None:
    """BO-12: the sixth BUG OFF ends the game at once; its wipe emptied every tableau."""
    assert not any(any(seat.tableau.values()) for seat in state.seats)
    state.phase = OVER
    state.drawn = None
    winners, tiebreak = scoring.rank(state.points, state.bug_offs)
    events.append(
        Event.public(
            "game_over",
            scores=scoring.totals(state.points),
            winners=winners,
            points=[dict(pile) for pile in state.points],
            tiebreak=tiebreak,
        )
    )
