"""Bug Off! engine: one test per ruling of RULINGS §3 (BO-1 … BO-17) and docs/rulings.md
(BO-X*), plus hand-built edge cases. Property tests live in test_bug_off_properties.py."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import rules
from rules.bug_off import COLOURS, BugOff, play, scoring
from rules.bug_off.cards import BUGS_PER_COLOUR, DECK_SIZE, bug_off, full_deck, is_bug_off
from rules.core import SYSTEM, Event, Rng, RuleError, random_playout, replay

# -- helpers (also used by the property tests) ------------------------------------------------


def census(game: BugOff) -> Counter[str]:
    """Every card in every zone, so tests can prove nothing is created or destroyed."""
    seen: Counter[str] = Counter(game.state.deck)
    for zone in (
        *game.state.hands,
        *game.state.tableaux,
        *game.state.points,
        game.state.score_pile,
        game.state.discard,
    ):
        for colour, n in zone.items():
            assert n >= 0, (colour, n)
            seen[colour] += n
    for colour in game.state.bug_offs:
        seen[bug_off(colour)] += 1
    return seen


def assert_conserved(game: BugOff) -> None:
    assert census(game) == Counter(full_deck())
    assert sum(census(game).values()) == DECK_SIZE == 126


def snapshot(game: BugOff) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def copy(game: BugOff) -> BugOff:
    return BugOff.from_dict(json.loads(json.dumps(game.to_dict())))


def take_from_deck(game: BugOff, card: str) -> None:
    """Remove one ``card`` from the deck (its last copy, so the top stays as it was)."""
    index = len(game.state.deck) - 1 - game.state.deck[::-1].index(card)
    del game.state.deck[index]


def stack(game: BugOff, *cards: str) -> None:
    """Put ``cards`` on top of the deck, first = drawn first, keeping every card accounted for."""
    for card in cards:
        take_from_deck(game, card)
    game.state.deck[0:0] = list(cards)


def give_hand(game: BugOff, seat: int, *colours: str) -> None:
    for colour, n in game.state.hands[seat].items():
        game.state.deck.extend([colour] * n)
        game.state.hands[seat][colour] = 0
    for colour in colours:
        take_from_deck(game, colour)
        game.state.hands[seat][colour] += 1


def put(game: BugOff, zone: str, seat: int, colour: str, n: int) -> None:
    """Move ``n`` cards of ``colour`` from the deck to a seat's tableau or points pile."""
    for _ in range(n):
        take_from_deck(game, colour)
    getattr(game.state, zone)[seat][colour] += n


def play_bug_offs(game: BugOff, *colours: str) -> None:
    """Pretend these BUG OFFs were drawn earlier (nothing face up to wipe)."""
    for colour in colours:
        take_from_deck(game, bug_off(colour))
        game.state.bug_offs.append(colour)


def rigged(players: int = 3, seed: int = 1, active: int = 0) -> BugOff:
    game = BugOff.new(players, seed)
    game.state.first = game.state.active = active
    return game


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def rejects(game: BugOff, seat: int, action: Any, code: str) -> None:
    """The action is refused with ``code`` and the game is left exactly as it was."""
    before = snapshot(game)
    with pytest.raises(RuleError) as info:
        game.apply(seat, action)
    assert info.value.code == code, info.value
    assert info.value.message
    assert snapshot(game) == before


# -- BO-1 … BO-17 -----------------------------------------------------------------------------


def test_bo1_two_to_six_players() -> None:
    assert rules.GAMES["bug-off"] is BugOff
    for bad in (0, 1, 7):
        with pytest.raises(RuleError) as info:
            BugOff.new(bad, 1)
        assert info.value.code == "player_count"
    for n in range(2, 7):
        game = BugOff.new(n, 5)
        assert len(game.state.hands) == n
        assert all(sum(h.values()) == 3 for h in game.state.hands)
        assert len(game.state.deck) == 126 - 3 * n
        assert_conserved(game)


def test_bo2_drawn_card_makes_four_and_may_be_the_one_played() -> None:
    game = rigged()
    give_hand(game, 0, "red", "red", "red")
    stack(game, "blue")
    events = game.apply(0, {"type": "draw"})
    assert types(events) == ["drew", "drew_card"]
    assert sum(game.state.hands[0].values()) == 4
    assert game.view(0)["me"]["drawn"] == "blue"
    assert game.legal_actions(0) == [
        {"type": "place", "colour": "red"},
        {"type": "place", "colour": "blue"},
        {"type": "score", "colour": "red"},
        {"type": "score", "colour": "blue"},
    ]
    game.apply(0, {"type": "place", "colour": "blue"})
    assert game.state.hands[0] == {**dict.fromkeys(COLOURS, 0), "red": 3}
    assert game.state.tableaux[0]["blue"] == 1
    assert game.state.active == 1 and game.state.phase == "draw"
    assert_conserved(game)


def test_bo3_bug_off_dealt_in_setup_goes_back_until_a_bug_card_comes() -> None:
    game = rigged()
    game.state.deck = [bug_off(c) for c in COLOURS] + ["green"]
    assert play.deal_bug(game.state) == "green"
    assert sorted(game.state.deck) == sorted(bug_off(c) for c in COLOURS)
    assert game.state.setup_returns >= 6  # every BUG OFF above the green came back at least once


def test_bo3_no_hand_ever_starts_with_a_bug_off() -> None:
    returned = 0
    for seed in range(60):
        game = BugOff.new(6, seed)
        assert all(sum(h.values()) == 3 for h in game.state.hands)
        assert sum(1 for card in game.state.deck if is_bug_off(card)) == 6
        assert game.state.bug_offs == []
        assert_conserved(game)
        returned += game.state.setup_returns
    assert returned > 0  # the redeal path really ran for some seed


def test_bo4_random_first_player() -> None:
    firsts = Counter(BugOff.new(4, seed).state.first for seed in range(200))
    assert set(firsts) == {0, 1, 2, 3}
    assert all(n > 25 for n in firsts.values())
    game = BugOff.new(4, 17)
    assert game.state.active == game.state.first == game.view(None)["first_player"]
    assert game.waiting_for() == frozenset({game.state.first})
    assert BugOff.new(4, 17).to_dict() == game.to_dict()


def test_bo4_bo_x7_host_may_choose_the_first_player() -> None:
    for players in range(2, 7):
        for chosen in range(1, players + 1):
            game = BugOff.new(players, 17, {"first_player": str(chosen)})
            assert game.state.first == game.state.active == chosen - 1
            assert game.waiting_for() == frozenset({chosen - 1})
            assert game.view(None)["first_player"] == chosen - 1
            random_first = BugOff.new(players, 17)
            assert (
                game.state.hands == random_first.state.hands
                and game.state.deck == random_first.state.deck
            )
        with pytest.raises(RuleError) as info:
            BugOff.new(players, 17, {"first_player": str(players + 1)})
        assert info.value.code == "bad_option" and str(players) in info.value.message
    assert BugOff.new(4, 17, {"first_player": "random"}).to_dict() == BugOff.new(4, 17).to_dict()
    for bad in ("0", "7", "first", ""):
        with pytest.raises(RuleError):
            BugOff.new(6, 1, {"first_player": bad})
    assert rules.GAMES["bug-off"].resolve_options(None) == {"first_player": "random"}
    options = {"first_player": "3"}
    game = BugOff.new(4, 23, options)
    played = random_playout(game, Rng(5), deadline_chance=0.2)
    assert game.is_over and played.log[0][0] in (2, SYSTEM)
    assert replay("bug-off", 4, 23, options, played.log).to_dict() == game.to_dict()


def test_bo5_score_also_scores_the_active_players_own_tableau() -> None:
    game = rigged()
    give_hand(game, 0, "red", "green", "green")
    put(game, "tableaux", 0, "red", 2)
    put(game, "tableaux", 2, "red", 1)
    put(game, "tableaux", 1, "blue", 1)
    stack(game, "yellow")
    game.apply(0, {"type": "draw"})
    events = game.apply(0, {"type": "score", "colour": "red"})
    scored = events[0]
    assert scored.type == "scored" and scored.is_public
    assert scored.data["gains"] == [{"seat": 0, "count": 2}, {"seat": 2, "count": 1}]
    assert scored.data["total"] == 3
    assert scored.data["points_sizes"] == [2, 0, 1]
    assert game.state.points[0]["red"] == 2 and game.state.points[2]["red"] == 1
    assert all(t["red"] == 0 for t in game.state.tableaux)
    assert game.state.tableaux[1]["blue"] == 1  # other colours stay
    assert game.scores() == [2, 0, 1]
    assert_conserved(game)


def test_bo5_score_preview_is_what_the_score_then_moves_and_changes_nothing() -> None:
    game = rigged()
    give_hand(game, 0, "red", "green", "purple")
    put(game, "tableaux", 0, "red", 2)
    put(game, "tableaux", 2, "red", 1)
    put(game, "tableaux", 1, "green", 3)
    stack(game, "yellow")
    game.apply(0, {"type": "draw"})
    before = snapshot(game)
    previews = {
        c: game.score_preview(0, {"type": "score", "colour": c})
        for c in ("red", "green", "purple", "yellow")
    }
    assert previews == {"red": {0: 2, 2: 1}, "green": {1: 3}, "purple": {}, "yellow": {}}
    assert list(previews["red"]) == [0, 2]  # seat order
    assert snapshot(game) == before
    for c, preview in previews.items():
        trial = copy(game)
        gains = trial.apply(0, {"type": "score", "colour": c})[0].data["gains"]
        assert {g["seat"]: g["count"] for g in gains} == preview


def test_score_preview_is_only_for_a_score_the_seat_may_make_now() -> None:
    game = rigged()
    give_hand(game, 0, "red", "green", "green")
    stack(game, "yellow")
    for seat, action in (
        (0, {"type": "score", "colour": "red"}),  # not drawn yet
        (0, {"type": "draw"}),
    ):
        with pytest.raises(RuleError) as info:
            game.score_preview(seat, action)
        assert info.value.code == "no_preview"
    game.apply(0, {"type": "draw"})
    for seat, action in (
        (1, {"type": "score", "colour": "red"}),  # not their turn
        (0, {"type": "score", "colour": "blue"}),  # not in hand
        (0, {"type": "place", "colour": "red"}),
    ):
        with pytest.raises(RuleError) as info:
            game.score_preview(seat, action)
        assert info.value.code == "no_preview"


def test_bo6_the_played_score_card_is_scored_by_nobody() -> None:
    game = rigged()
    give_hand(game, 0, "red", "green", "green")
    put(game, "tableaux", 1, "red", 1)
    stack(game, "yellow")
    game.apply(0, {"type": "draw"})
    game.apply(0, {"type": "score", "colour": "red"})
    assert game.state.score_pile["red"] == 1
    assert game.state.points[0]["red"] == 0 and game.state.points[1]["red"] == 1
    assert game.scores() == [0, 1, 0]
    assert game.view(None)["score_pile"]["red"] == 1
    assert_conserved(game)


def test_bo7_score_with_nothing_face_up_is_legal_and_scores_nothing() -> None:
    game = rigged()
    give_hand(game, 0, "purple", "green", "green")
    put(game, "tableaux", 1, "green", 2)
    stack(game, "yellow")
    game.apply(0, {"type": "draw"})
    events = game.apply(0, {"type": "score", "colour": "purple"})
    assert events[0].data["gains"] == [] and events[0].data["total"] == 0
    assert game.scores() == [0, 0, 0]
    assert game.state.score_pile["purple"] == 1
    assert game.state.tableaux[1]["green"] == 2
    assert types(events) == ["scored", "turn"]
    assert_conserved(game)


def test_bo8_bugged_off_colour_stays_playable_and_is_wiped_again_later() -> None:
    game = rigged()
    play_bug_offs(game, "red")
    give_hand(game, 0, "red", "red", "green")
    stack(game, "yellow")
    game.apply(0, {"type": "draw"})
    assert {"type": "place", "colour": "red"} in game.legal_actions(0)
    assert {"type": "score", "colour": "red"} in game.legal_actions(0)
    game.apply(0, {"type": "place", "colour": "red"})
    assert game.state.tableaux[0]["red"] == 1
    put(game, "tableaux", 2, "green", 2)
    stack(game, bug_off("blue"), "orange")
    events = game.apply(1, {"type": "draw"})
    wipe = events[0]
    assert wipe.type == "bug_off" and wipe.data["colour"] == "blue"
    assert wipe.data["wiped_colours"] == ["red", "blue"]
    assert wipe.data["wiped"] == [{"seat": 0, "colour": "red", "count": 1}]
    assert game.state.tableaux[0]["red"] == 0 and game.state.discard["red"] == 1
    assert game.state.tableaux[2]["green"] == 2  # colours not yet bugged off survive
    assert_conserved(game)


def test_bo9_bug_off_leaves_points_hands_and_score_pile_alone() -> None:
    game = rigged()
    give_hand(game, 0, "red", "red", "red")
    give_hand(game, 1, "red", "blue", "blue")
    put(game, "points", 1, "red", 4)
    put(game, "tableaux", 1, "red", 2)
    game.state.score_pile["red"] = 1
    take_from_deck(game, "red")
    stack(game, bug_off("red"), "green")
    game.apply(0, {"type": "draw"})
    assert game.state.points[1]["red"] == 4
    assert game.state.hands[0]["red"] == 3 and game.state.hands[1]["red"] == 1
    assert game.state.score_pile["red"] == 1
    assert game.state.tableaux[1]["red"] == 0 and game.state.discard["red"] == 2
    assert_conserved(game)


def test_bo10_deck_cannot_run_out_before_the_sixth_bug_off() -> None:
    game = rigged()
    play_bug_offs(game, "red", "orange", "yellow", "green", "blue")
    leftovers = [card for card in game.state.deck if card != bug_off("purple")]
    for card in leftovers:  # park the BUG cards in the discard so the census still holds
        take_from_deck(game, card)
        game.state.discard[card] += 1
    assert game.state.deck == [bug_off("purple")]
    game.apply(0, {"type": "draw"})
    assert game.is_over and game.state.deck == []
    assert_conserved(game)


def test_bo11_bug_off_chain_draws_again_for_the_same_player() -> None:
    game = rigged()
    put(game, "tableaux", 1, "red", 1)
    put(game, "tableaux", 2, "blue", 2)
    put(game, "tableaux", 0, "green", 1)
    stack(game, bug_off("red"), bug_off("blue"), "green")
    step = game.turn
    events = game.apply(0, {"type": "draw"})
    assert types(events) == ["bug_off", "bug_off", "drew", "drew_card"]
    first, second = events[0].data, events[1].data
    assert (first["number"], first["colour"], first["seat"]) == (1, "red", 0)
    assert first["wiped"] == [{"seat": 1, "colour": "red", "count": 1}]
    assert (second["number"], second["wiped_colours"]) == (2, ["red", "blue"])
    assert second["wiped"] == [{"seat": 2, "colour": "blue", "count": 2}]
    assert second["wiped_total"] == 2
    assert game.state.active == 0 and game.state.phase == "choose" and game.state.drawn == "green"
    assert game.state.tableaux[0]["green"] == 1
    assert game.turn == step + 1
    assert_conserved(game)


def test_bo12_sixth_bug_off_ends_the_game_at_once_mid_turn() -> None:
    game = rigged()
    play_bug_offs(game, "red", "orange", "yellow", "green", "blue")
    put(game, "tableaux", 1, "green", 2)
    put(game, "tableaux", 2, "purple", 1)
    put(game, "points", 2, "blue", 3)
    stack(game, bug_off("purple"), "green")
    hand = dict(game.state.hands[0])
    events = game.apply(0, {"type": "draw"})
    assert types(events) == ["bug_off", "game_over"]
    assert events[0].data["wiped_total"] == 3
    assert game.is_over and game.state.phase == "over"
    assert game.state.deck[0] == "green"  # nothing more was drawn
    assert game.state.hands[0] == hand  # and nothing placed
    assert all(not any(t.values()) for t in game.state.tableaux)
    assert game.legal_actions(0) == [] and game.deadlines() == [] and game.waiting_for() == set()
    assert game.winners() == [2]
    over = events[1].data
    assert over["scores"] == [0, 0, 3] and over["winners"] == [2]
    rejects(game, 0, {"type": "draw"}, "finished")
    rejects(game, 0, {"type": "place", "colour": "green"}, "finished")
    assert_conserved(game)


def test_bo13_tie_break_counts_points_piles_not_the_wiped_tableaux() -> None:
    game = rigged(players=2)
    play_bug_offs(game, "red", "orange", "yellow", "green", "blue")
    put(game, "points", 0, "green", 5)
    put(game, "points", 1, "red", 1)
    put(game, "points", 1, "green", 4)
    put(game, "tableaux", 0, "red", 6)  # face-up reds count for nothing
    stack(game, bug_off("purple"))
    game.apply(0, {"type": "draw"})
    assert game.scores() == [5, 5]
    assert game.winners() == [1]
    tiebreak = game.view(None)["final"]["tiebreak"]
    assert tiebreak["decided_by"] == "red"
    assert tiebreak["steps"] == [
        {
            "colour": "red",
            "counts": [{"seat": 0, "count": 0}, {"seat": 1, "count": 1}],
            "survivors": [1],
        }
    ]


def test_bo14_tie_break_walks_the_bug_off_stack_among_the_still_tied() -> None:
    order = ["blue", "green", "red", "yellow", "orange", "purple"]
    z = dict.fromkeys(COLOURS, 0)
    piles = [
        {**z, "blue": 2, "green": 1, "red": 3},  # 6, ties seat 1 on blue, loses on green
        {**z, "blue": 2, "green": 2, "red": 2},  # 6, wins on green
        {**z, "blue": 1, "green": 5},  # 6, dropped at blue though it has most green
        {**z, "blue": 5},  # 5: not in the tie at all despite most blue
    ]
    winners, why = scoring.rank(piles, order)
    assert winners == [1]
    assert why is not None
    assert why["tied"] == [0, 1, 2] and why["score"] == 6
    assert [s["colour"] for s in why["steps"]] == ["blue", "green"]
    assert [s["survivors"] for s in why["steps"]] == [[0, 1], [1]]
    assert why["decided_by"] == "green" and why["shared"] is False


def test_bo14_still_tied_after_six_colours_is_a_shared_win() -> None:
    z = dict.fromkeys(COLOURS, 0)
    piles = [{**z, "red": 2, "blue": 1}, {**z, "red": 2, "blue": 1}, {**z, "red": 1}]
    winners, why = scoring.rank(piles, list(COLOURS))
    assert winners == [0, 1]
    assert why is not None and why["shared"] and why["decided_by"] is None
    assert len(why["steps"]) == 6
    assert scoring.rank([z, z], list(COLOURS))[0] == [0, 1]  # nobody scored: all share
    assert scoring.rank([{**z, "red": 1}, z], list(COLOURS)) == ([0], None)


def test_bo14_shared_win_through_the_engine() -> None:
    game = rigged(players=3)
    play_bug_offs(game, "red", "orange", "yellow", "green", "blue")
    put(game, "points", 0, "blue", 2)
    put(game, "points", 2, "blue", 2)
    put(game, "points", 1, "red", 1)
    stack(game, bug_off("purple"))
    events = game.apply(0, {"type": "draw"})
    assert game.winners() == [0, 2]
    assert events[-1].data["winners"] == [0, 2]
    assert events[-1].data["tiebreak"]["shared"] is True


def test_bo15_hand_and_points_colours_are_private_until_the_end() -> None:
    game = rigged()
    give_hand(game, 1, "red", "red", "blue")
    put(game, "points", 1, "green", 3)
    stack(game, "purple")
    events = game.apply(0, {"type": "draw"})
    drew, private = events
    assert drew.is_public and drew.data == {"seat": 0, "deck_size": len(game.state.deck)}
    assert private.to == frozenset({0}) and private.data["colour"] == "purple"
    mine = game.view(1)
    assert mine["me"]["hand"] == {**dict.fromkeys(COLOURS, 0), "red": 2, "blue": 1}
    assert mine["me"]["points"]["green"] == 3
    assert mine["me"]["drawn"] is None  # seat 0 drew, not me
    for seat in (None, 0, 2):
        view = game.view(seat)
        assert view["seats"][1]["hand_size"] == 3 and view["seats"][1]["points_size"] == 3
        assert view["final"] is None
        assert view["me"] is None or view["me"]["seat"] == seat
        assert set(view["seats"][1]) == {"seat", "hand_size", "tableau", "points_size"}
    assert game.view(0)["me"]["drawn"] == "purple"
    assert game.view(None)["me"] is None
    assert game.score_breakdown(1) == {"total": 3}


def test_bo15_points_colours_are_revealed_at_the_end() -> None:
    game = rigged()
    play_bug_offs(game, "red", "orange", "yellow", "green", "blue")
    put(game, "points", 1, "green", 3)
    put(game, "points", 2, "red", 1)
    stack(game, bug_off("purple"))
    events = game.apply(0, {"type": "draw"})
    final = game.view(None)["final"]
    assert final["points"][1]["green"] == 3 and final["points"][2]["red"] == 1
    assert final["scores"] == [0, 3, 1] and final["winners"] == [1]
    assert final["tiebreak"] is None
    assert events[-1].data["points"] == final["points"]
    assert game.score_breakdown(1) == {
        "red": 0,
        "orange": 0,
        "yellow": 0,
        "green": 3,
        "blue": 0,
        "purple": 0,
        "total": 3,
    }
    assert list(game.score_breakdown(2))[:6] == game.state.bug_offs


def test_bo16_mashup_alternative_is_not_implemented() -> None:
    game = rigged()
    assert [o.name for o in BugOff.options] == ["first_player"]  # BO-X7, nothing else
    with pytest.raises(RuleError):
        BugOff.new(3, 1, {"mashup": "on"})
    rejects(game, 0, {"type": "steal", "seat": 1}, "unknown_action")
    rejects(game, 0, {"type": "haha_king"}, "unknown_action")
    assert {a["type"] for a in game.legal_actions(0)} == {"draw"}


def test_bo17_choice_is_mandatory_and_the_clock_is_offered() -> None:
    game = rigged()
    stack(game, "blue")
    game.apply(0, {"type": "draw"})
    rejects(game, 0, {"type": "draw"}, "already_drawn")
    assert game.waiting_for() == {0}
    (deadline,) = game.deadlines()
    # the clock's length is the host's setting alone (60 s by default), not an engine number
    assert deadline.setting == "bugoff_turn" and deadline.seconds is None
    assert deadline.seats == frozenset({0})
    assert deadline.action == {"type": "timeout", "turn": game.turn}
    assert deadline.key == f"bugoff_turn:{game.turn}"


def test_bo17_timeout_before_draw_draws_then_places_the_drawn_card() -> None:
    game = rigged()
    give_hand(game, 0, "red", "red", "red")
    put(game, "tableaux", 1, "green", 1)
    stack(game, bug_off("green"), "blue")
    (deadline,) = game.deadlines()
    events = game.apply(SYSTEM, deadline.action)
    assert types(events) == ["timeout", "bug_off", "drew", "drew_card", "placed", "turn"]
    assert events[0].is_public and events[0].data == {"seat": 0, "had_drawn": False}
    assert events[4].data == {"seat": 0, "colour": "blue", "count": 1}
    assert events[5].data == {"seat": 1}
    assert game.state.tableaux[0]["blue"] == 1 and game.state.hands[0]["red"] == 3
    assert game.state.tableaux[1]["green"] == 0
    assert game.state.active == 1 and game.state.phase == "draw"
    assert_conserved(game)


def test_bo17_timeout_after_draw_places_the_drawn_colour() -> None:
    game = rigged()
    give_hand(game, 0, "red", "red", "blue")
    stack(game, "red")
    game.apply(0, {"type": "draw"})
    (deadline,) = game.deadlines()
    events = game.apply(SYSTEM, deadline.action)
    assert types(events) == ["timeout", "placed", "turn"]
    assert events[0].data["had_drawn"] is True
    assert game.state.tableaux[0]["red"] == 1
    assert game.state.hands[0] == {**dict.fromkeys(COLOURS, 0), "red": 2, "blue": 1}
    assert_conserved(game)


def test_bo17_timeout_drawing_the_sixth_bug_off_places_nothing() -> None:
    game = rigged()
    play_bug_offs(game, "red", "orange", "yellow", "green", "blue")
    stack(game, bug_off("purple"), "green")
    hand = dict(game.state.hands[0])
    events = game.apply(SYSTEM, game.deadlines()[0].action)
    assert types(events) == ["timeout", "bug_off", "game_over"]
    assert game.is_over and game.state.hands[0] == hand
    rejects(game, SYSTEM, {"type": "timeout", "turn": game.turn}, "finished")


def test_bo17_only_the_current_timeout_is_accepted_from_system() -> None:
    game = rigged()
    turn = game.turn
    rejects(game, SYSTEM, {"type": "timeout", "turn": turn + 1}, "stale_timeout")
    rejects(game, SYSTEM, {"type": "timeout", "turn": True}, "stale_timeout")
    rejects(game, SYSTEM, {"type": "timeout"}, "malformed")
    rejects(game, SYSTEM, {"type": "draw"}, "not_a_deadline")
    rejects(game, 0, {"type": "timeout", "turn": turn}, "system_only")
    game.apply(0, {"type": "draw"})
    rejects(game, SYSTEM, {"type": "timeout", "turn": turn}, "stale_timeout")


# -- rulings of docs/rulings.md (Bug Off!) -------------------------------------------------------


def test_bo_x1_six_named_colours_of_twenty_bugs_and_one_bug_off() -> None:
    assert COLOURS == ("red", "orange", "yellow", "green", "blue", "purple")
    deck = Counter(full_deck())
    assert len(full_deck()) == 126
    assert all(deck[c] == BUGS_PER_COLOUR == 20 and deck[bug_off(c)] == 1 for c in COLOURS)
    view = BugOff.new(2, 3).view(0)
    assert view["colours"] == list(COLOURS)
    assert list(view["me"]["hand"]) == list(COLOURS)


def test_bo_x2_deal_order_is_seat_by_seat_then_first_player() -> None:
    for seed in (1, 2, 3, 99):
        rng = Rng(seed)
        deck = full_deck()
        rng.shuffle(deck)
        hands: list[list[str]] = []
        for _ in range(4):
            hand: list[str] = []
            while len(hand) < 3:
                card = deck.pop(0)
                if is_bug_off(card):
                    deck.append(card)
                    rng.shuffle(deck)
                else:
                    hand.append(card)
            hands.append(hand)
        game = BugOff.new(4, seed)
        assert [Counter(h) for h in hands] == [+Counter(h) for h in game.state.hands]
        assert game.state.deck == deck
        assert game.state.first == rng.below(4)
        assert game.state.rng.state() == rng.state()


def test_bo_x3_turn_clock_is_per_step_and_restarts_after_the_draw() -> None:
    game = rigged()
    stack(game, "blue")
    before = game.deadlines()[0]
    game.apply(0, {"type": "draw"})
    after = game.deadlines()[0]
    assert before.key != after.key
    assert (before.setting, after.setting) == ("bugoff_turn", "bugoff_turn")
    game.apply(0, {"type": "place", "colour": "blue"})
    following = game.deadlines()[0]
    assert following.key not in (before.key, after.key)
    assert following.seats == frozenset({1})


def test_bo_x4_score_pile_discard_and_sizes_are_public() -> None:
    game = rigged()
    give_hand(game, 0, "red", "green", "green")
    put(game, "tableaux", 1, "yellow", 2)
    stack(game, bug_off("yellow"), "orange")
    game.apply(0, {"type": "draw"})
    game.apply(0, {"type": "score", "colour": "red"})
    view = game.view(None)
    assert view["discard"]["yellow"] == 2 and view["score_pile"]["red"] == 1
    assert view["bug_offs"] == ["yellow"]
    assert [s["hand_size"] for s in view["seats"]] == [3, 3, 3]
    assert view["deck_size"] == len(game.state.deck)
    game.apply(1, {"type": "draw"})
    assert [s["hand_size"] for s in game.view(None)["seats"]] == [3, 4, 3]


def test_bo_x5_scoring_is_public_but_views_keep_points_colours_private() -> None:
    game = rigged()
    give_hand(game, 0, "red", "green", "green")
    put(game, "tableaux", 1, "red", 2)
    stack(game, "orange")
    game.apply(0, {"type": "draw"})
    events = game.apply(0, {"type": "score", "colour": "red"})
    assert events[0].is_public and events[0].data["colour"] == "red"
    assert events[0].data["gains"] == [{"seat": 1, "count": 2}]
    for seat in (None, 0, 2):
        view = game.view(seat)
        assert view["seats"][1]["points_size"] == 2
        assert view["me"] is None or view["me"]["points"]["red"] == 0
    assert game.view(1)["me"]["points"]["red"] == 2


# -- validation, turn, persistence ----------------------------------------------------------------


def test_rejected_actions_change_nothing_and_say_why() -> None:
    game = rigged()
    give_hand(game, 0, "red", "red", "blue")
    rejects(game, 1, {"type": "draw"}, "not_your_turn")
    rejects(game, 0, {"type": "place", "colour": "red"}, "draw_first")
    rejects(game, 0, {"type": "draw", "extra": 1}, "malformed")
    rejects(game, 0, {"draw": True}, "malformed")
    rejects(game, 0, "draw", "malformed")
    rejects(game, 0, {"type": 3}, "malformed")
    rejects(game, 7, {"type": "draw"}, "not_seated")
    rejects(game, True, {"type": "draw"}, "not_seated")
    stack(game, "green")
    game.apply(0, {"type": "draw"})
    rejects(game, 0, {"type": "place"}, "malformed")
    rejects(game, 0, {"type": "place", "colour": "pink"}, "bad_colour")
    rejects(game, 0, {"type": "score", "colour": ["red"]}, "bad_colour")
    rejects(game, 0, {"type": "score", "colour": "purple"}, "not_in_hand")
    rejects(game, 1, {"type": "place", "colour": "red"}, "not_your_turn")
    rejects(game, 0, {"type": "draw"}, "already_drawn")


def test_turn_changes_with_every_accepted_action() -> None:
    game = rigged()
    seen = [game.turn]
    stack(game, "blue", "red")
    game.apply(0, {"type": "draw"})
    seen.append(game.turn)
    game.apply(0, {"type": "place", "colour": "blue"})
    seen.append(game.turn)
    game.apply(1, {"type": "draw"})
    seen.append(game.turn)
    assert len(set(seen)) == 4
    assert game.view(None)["turn"] == game.turn


def test_view_of_an_unseated_player_is_refused() -> None:
    game = rigged()
    with pytest.raises(RuleError):
        game.view(3)
    with pytest.raises(RuleError):
        game.view(SYSTEM)


def test_snapshot_round_trips_and_rejects_other_games() -> None:
    game = rigged()
    stack(game, bug_off("red"), "green")
    game.apply(0, {"type": "draw"})
    clone = copy(game)
    assert clone.to_dict() == game.to_dict()
    assert clone.apply(0, {"type": "score", "colour": "green"}) == game.apply(
        0, {"type": "score", "colour": "green"}
    )
    assert clone.to_dict() == game.to_dict()
    with pytest.raises(ValueError):
        BugOff.from_dict({**game.to_dict(), "slug": "bug-run"})
    with pytest.raises(ValueError, match="phase 'drawing'"):
        BugOff.from_dict({**game.to_dict(), "phase": "drawing"})


def test_every_listed_action_is_accepted_on_a_copy() -> None:
    game = rigged()
    give_hand(game, 0, "red", "green", "blue")
    stack(game, "purple")
    assert game.legal_actions(0) == [{"type": "draw"}]
    copy(game).apply(0, {"type": "draw"})
    game.apply(0, {"type": "draw"})
    assert len(game.legal_actions(0)) == 8
    for action in game.legal_actions(0):
        copy(game).apply(0, action)
    assert game.legal_actions(1) == [] and game.legal_actions(SYSTEM) == []


# -- hand-built edge cases --------------------------------------------------------------------


def test_turn_passes_clockwise_and_wraps_from_the_last_seat_to_seat_zero() -> None:
    game = rigged(players=4, active=2)
    stack(game, "red", "blue", "green")
    game.apply(2, {"type": "draw"})
    events = game.apply(2, {"type": "score", "colour": "red"})
    assert events[-1] == Event.public("turn", seat=3)
    game.apply(SYSTEM, game.deadlines()[0].action)  # seat 3 times out, the turn still passes on
    assert game.state.active == 0 and game.state.phase == "draw"
    game.apply(0, {"type": "draw"})
    game.apply(0, {"type": "place", "colour": "green"})
    assert game.state.active == 1 and game.waiting_for() == {1}
    assert_conserved(game)


def test_bo11_bo12_a_chain_into_the_sixth_bug_off_ends_the_game_mid_chain() -> None:
    game = rigged()
    play_bug_offs(game, "red", "orange", "yellow", "green")
    put(game, "tableaux", 1, "red", 1)  # placed after red's BUG OFF
    put(game, "tableaux", 2, "purple", 2)
    put(game, "points", 0, "blue", 1)
    stack(game, bug_off("blue"), bug_off("purple"), "green")
    hands = [dict(h) for h in game.state.hands]
    events = game.apply(0, {"type": "draw"})
    assert types(events) == ["bug_off", "bug_off", "game_over"]
    assert events[0].data["wiped"] == [{"seat": 1, "colour": "red", "count": 1}]
    assert events[1].data["wiped"] == [{"seat": 2, "colour": "purple", "count": 2}]
    assert events[1].data["number"] == 6
    assert game.is_over and game.state.deck[0] == "green"
    assert [dict(h) for h in game.state.hands] == hands
    assert game.winners() == [0] and game.scores() == [1, 0, 0]
    assert_conserved(game)


def test_bo11_bo14_all_six_bug_offs_on_the_first_draw_is_a_shared_win_for_all() -> None:
    game = rigged(players=5, active=3)
    stack(game, *(bug_off(c) for c in ("purple", "red", "blue", "green", "orange", "yellow")))
    events = game.apply(3, {"type": "draw"})
    assert types(events) == ["bug_off"] * 6 + ["game_over"]
    assert [e.data["number"] for e in events[:6]] == [1, 2, 3, 4, 5, 6]
    assert all(e.data["seat"] == 3 and e.data["wiped"] == [] for e in events[:6])
    assert game.state.bug_offs == ["purple", "red", "blue", "green", "orange", "yellow"]
    assert game.scores() == [0] * 5 and game.winners() == [0, 1, 2, 3, 4]
    why = game.tiebreak()
    assert why is not None and why["shared"] and why["tied"] == [0, 1, 2, 3, 4]
    assert [s["colour"] for s in why["steps"]] == game.state.bug_offs
    assert list(game.score_breakdown(0)) == [*game.state.bug_offs, "total"]
    assert_conserved(game)


def test_bo8_scoring_a_bugged_off_colour_scores_the_cards_placed_since() -> None:
    game = rigged()
    play_bug_offs(game, "red")
    give_hand(game, 0, "red", "blue", "blue")
    put(game, "tableaux", 1, "red", 2)
    put(game, "tableaux", 0, "red", 1)
    stack(game, "yellow")
    game.apply(0, {"type": "draw"})
    events = game.apply(0, {"type": "score", "colour": "red"})
    assert events[0].data["gains"] == [{"seat": 0, "count": 1}, {"seat": 1, "count": 2}]
    assert game.state.points[0]["red"] == 1 and game.state.points[1]["red"] == 2
    assert game.state.score_pile["red"] == 1 and game.state.discard["red"] == 0
    assert_conserved(game)


def test_bo12_bo14_final_tie_break_reaches_a_late_bug_off_colour() -> None:
    game = rigged(players=3)
    play_bug_offs(game, "red", "orange", "yellow", "green", "blue")
    put(game, "points", 0, "red", 2)
    put(game, "points", 0, "blue", 1)
    put(game, "points", 0, "purple", 3)
    put(game, "points", 1, "red", 2)
    put(game, "points", 1, "blue", 2)
    put(game, "points", 1, "purple", 2)
    put(game, "points", 2, "orange", 6)  # same total, but no red: out at the first step
    stack(game, bug_off("purple"))
    events = game.apply(0, {"type": "draw"})
    assert game.scores() == [6, 6, 6] and game.winners() == [1]
    why = events[-1].data["tiebreak"]
    assert [s["colour"] for s in why["steps"]] == ["red", "orange", "yellow", "green", "blue"]
    assert [s["survivors"] for s in why["steps"]] == [[0, 1], [0, 1], [0, 1], [0, 1], [1]]
    assert why["decided_by"] == "blue" and why == game.tiebreak()


def test_system_may_only_send_the_current_deadline_action() -> None:
    game = rigged()
    (deadline,) = game.deadlines()
    rejects(game, SYSTEM, {**deadline.action, "seat": 0}, "malformed")
    rejects(game, SYSTEM, {"type": "timeout", "turn": str(game.turn)}, "stale_timeout")
    rejects(game, SYSTEM, {"type": "place", "colour": "red"}, "not_a_deadline")
    rejects(game, -2, {"type": "draw"}, "not_seated")
    assert game.legal_actions(SYSTEM) == [] and game.legal_actions(-2) == []
    assert game.legal_actions(3) == [] and game.legal_actions(1) == []
    game.apply(SYSTEM, deadline.action)
    assert game.turn == deadline.action["turn"] + 1


def test_legal_actions_list_nothing_for_a_seat_that_apply_refuses() -> None:
    """DESIGN §2: legal_actions is exactly what apply accepts. ``True == 1`` and ``1.0 == 1``
    in Python, so seat 1's draw used to be listed for ``True`` though apply refuses that seat."""
    game = rigged(active=1)
    assert game.legal_actions(1) == [{"type": "draw"}]
    for seat in (True, 1.0):
        assert game.legal_actions(seat) == []  # type: ignore[arg-type]
        rejects(game, seat, {"type": "draw"}, "not_seated")  # type: ignore[arg-type]
    assert rigged(active=0).legal_actions(False) == []  # type: ignore[arg-type]
