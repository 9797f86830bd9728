"""The turn (RULINGS §3.2): setup, draw with its BUG OFF chain, place, score, the clock, the end.

Every function here changes a ``Table`` and appends events; the engine has already matched the
action against ``legal_actions``, so nothing here is reached with an illegal request.
"""

from __future__ import annotations

from typing import Any

from rules.core import Event

from . import scoring
from .cards import COLOURS, HAND_SIZE, colour_of, full_deck, is_bug_off
from .state import CHOOSE, DRAW, OVER, Table


def deal(table: Table, first: int | None) -> None:
    """Shuffle, deal three BUG cards each (BO-3), then pick the first player (BO-4, BO-X7).

    ``first`` is a seat the host chose, or ``None`` for a random one; only a random pick uses
    the Rng, so a chosen first seat leaves the Rng where the deal left it.
    """
    table.deck = full_deck()
    table.rng.shuffle(table.deck)
    for seat in table.seats:
        for _ in range(HAND_SIZE):
            seat.hand[deal_bug(table)] += 1
    chosen = table.rng.below(table.players) if first is None else first
    table.first = table.active = chosen


def deal_bug(table: Table) -> str:
    """BO-3: a dealt BUG OFF is shuffled back into the deck and the player is dealt again."""
    card = table.deck.pop(0)
    while is_bug_off(card):
        table.deck.append(card)
        table.rng.shuffle(table.deck)
        table.setup_returns += 1
        card = table.deck.pop(0)
    return card


def act(table: Table, seat: int, kind: str, colour: str | None) -> list[Event]:
    """A player's listed ``draw``, ``place`` or ``score``; the latter two end the turn."""
    events: list[Event] = []
    table.step += 1
    if kind == "draw":
        draw(table, seat, events)
        return events
    assert colour is not None
    if kind == "place":
        place(table, seat, colour, events)
    else:
        score(table, seat, colour, events)
    next_player(table, events)
    return events


def time_out(table: Table) -> list[Event]:
    """The turn clock: draw if needed, then place the drawn card (BO-17)."""
    seat = table.active
    events = [Event.public("timeout", seat=seat, had_drawn=table.phase == CHOOSE)]
    table.step += 1
    if table.phase == DRAW:
        draw(table, seat, events)
        if table.is_over:
            return events
    assert table.drawn is not None
    place(table, seat, table.drawn, events)
    next_player(table, events)
    return events


def draw(table: Table, seat: int, events: list[Event]) -> None:
    """Draw until a BUG card; each BUG OFF resolves first and is not the turn's draw."""
    while True:
        assert table.deck, "BO-10: the deck always holds the undrawn BUG OFF cards"
        card = table.deck.pop(0)
        if not is_bug_off(card):
            table.seats[seat].hand[card] += 1
            table.drawn = card
            table.phase = CHOOSE
            events.append(Event.public("drew", seat=seat, deck_size=len(table.deck)))
            events.append(Event.private(seat, "drew_card", seat=seat, colour=card))
            return
        bug_off(table, seat, colour_of(card), events)
        if table.is_over:
            return


def bug_off(table: Table, seat: int, colour: str, events: list[Event]) -> None:
    """BO-8/BO-9: wipe every tableau card of this and every earlier BUG OFF's colour."""
    table.bug_offs.append(colour)
    wiped: list[dict[str, Any]] = []
    for owner, piles in enumerate(table.seats):
        tableau = piles.tableau
        for c in COLOURS:
            if c in table.bug_offs and tableau[c]:
                wiped.append({"seat": owner, "colour": c, "count": tableau[c]})
                table.discard[c] += tableau[c]
                tableau[c] = 0
    events.append(
        Event.public(
            "bug_off",
            seat=seat,
            colour=colour,
            number=len(table.bug_offs),
            wiped_colours=list(table.bug_offs),
            wiped=wiped,
            wiped_total=sum(w["count"] for w in wiped),
            deck_size=len(table.deck),
        )
    )
    if len(table.bug_offs) == len(COLOURS):
        finish(table, events)


def place(table: Table, seat: int, colour: str, events: list[Event]) -> None:
    piles = table.seats[seat]
    piles.hand[colour] -= 1
    piles.tableau[colour] += 1
    events.append(Event.public("placed", seat=seat, colour=colour, count=piles.tableau[colour]))


def score(table: Table, seat: int, colour: str, events: list[Event]) -> None:
    """BO-5/BO-6/BO-7: everyone's face-up cards of the colour go to their points piles."""
    table.seats[seat].hand[colour] -= 1
    table.score_pile[colour] += 1
    gains: list[dict[str, int]] = []
    for owner, piles in enumerate(table.seats):
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
            points_sizes=scoring.totals(table.points),
        )
    )


def next_player(table: Table, events: list[Event]) -> None:
    table.active = (table.active + 1) % table.players
    table.phase = DRAW
    table.drawn = None
    events.append(Event.public("turn", seat=table.active))


def finish(table: Table, events: list[Event]) -> None:
    """BO-12: the sixth BUG OFF ends the game at once; its wipe emptied every tableau."""
    assert not any(any(seat.tableau.values()) for seat in table.seats)
    table.phase = OVER
    table.drawn = None
    winners, tiebreak = scoring.rank(table.points, table.bug_offs)
    events.append(
        Event.public(
            "game_over",
            scores=scoring.totals(table.points),
            winners=winners,
            points=[dict(pile) for pile in table.points],
            tiebreak=tiebreak,
        )
    )
