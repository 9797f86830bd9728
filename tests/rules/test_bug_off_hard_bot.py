"""Bug Off!'s hard player weighs a place by the card it keeps to SCORE that colour with (P-83),
and its search compares only its best-weighed choices (P-81)."""

from __future__ import annotations

from rules.bug_off import BugOff
from rules.bug_off.bots import KEEP, LAST, SEARCHED, hard, hard_weigh, normal, options, weigh
from rules.bug_off.cards import COLOURS, empty_counts
from rules.bug_off.state import CHOOSE
from rules.core import Action, Rng
from rules.core.bots import Memory, bots_for


def choosing(hand: dict[str, int]) -> tuple[BugOff, int]:
    """A 4-player game whose active seat, with nothing face up anywhere, chooses from
    ``hand``."""
    game = BugOff.new(4, 3)
    state = game.state
    seat = state.active
    state.phase = CHOOSE
    state.seats[seat].hand = {**empty_counts(), **hand}
    state.drawn = next(colour for colour, n in hand.items() if n)
    for player in state.seats:
        player.tableau = empty_counts()
    return game, seat


def place(colour: str) -> Action:
    return {"type": "place", "colour": colour}


def test_the_hard_player_is_the_hard_bots_anchor() -> None:
    game = bots_for(BugOff.slug)
    assert game.heuristic("hard") is hard
    assert game.heuristic("normal") is normal


def test_a_place_keeping_a_card_of_its_colour_weighs_more_and_a_last_card_less() -> None:
    red, orange = COLOURS[0], COLOURS[1]
    game, seat = choosing({red: 2, orange: 2})
    actions = game.legal_actions(seat)
    base = dict((str(a), v) for v, a in weigh(game.state, seat, actions))
    harder = dict((str(a), v) for v, a in hard_weigh(game.state, seat, actions))
    assert harder[str(place(red))] == base[str(place(red))] + KEEP
    game, seat = choosing({red: 1, orange: 3})
    actions = game.legal_actions(seat)
    base = dict((str(a), v) for v, a in weigh(game.state, seat, actions))
    harder = dict((str(a), v) for v, a in hard_weigh(game.state, seat, actions))
    assert harder[str(place(red))] == base[str(place(red))] - LAST
    assert harder[str(place(orange))] == base[str(place(orange))] + KEEP
    scores = [str(a) for a in actions if a["type"] == "score"]
    assert all(harder[key] == base[key] for key in scores)


def test_hard_places_the_colour_it_can_score_later_where_normal_may_not() -> None:
    """With nothing face up, every colour weighs the same to the normal player; the hard one
    places the colour of which it holds two."""
    red, orange, yellow = COLOURS[0], COLOURS[1], COLOURS[2]
    game, seat = choosing({red: 1, orange: 2, yellow: 1})
    normal_picks = {str(normal(game, seat, Memory(seat, "normal"), Rng(k))) for k in range(20)}
    assert len(normal_picks) > 1
    for k in range(20):
        assert hard(game, seat, Memory(seat, "hard"), Rng(k)) == place(orange)


def test_the_search_compares_the_hard_players_best_weighed_choices() -> None:
    red, orange, yellow = COLOURS[:3]
    game, seat = choosing({red: 2, orange: 1, yellow: 1})
    assert len(game.legal_actions(seat)) > SEARCHED
    searched = options(game, seat)
    assert len(searched) == SEARCHED
    assert searched[0] == place(red) == hard(game, seat, Memory(seat, "hard"), Rng(1))
