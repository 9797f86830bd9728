"""Bag of Bugs: one focused test per ruling (RULINGS §1, BB-1..BB-25), the rulebook's scoring
example, the grab effects, errors and hand-built edge cases.

Reveals are scripted by replacing ``flow.draw_token`` (the only place a token is drawn), so a
test states exactly which tokens come out of the bag.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from rules import GAMES
from rules.bag_of_bugs import BagOfBugs, flow, scoring
from rules.bag_of_bugs.grabs import take_options
from rules.bag_of_bugs.tokens import FULL_SET, SETUPS
from rules.core import SYSTEM, Event, Rng, RuleError

Rig = Callable[..., None]


@pytest.fixture
def rig(monkeypatch: pytest.MonkeyPatch) -> Rig:
    """Script the next reveals: ``rig("c1", "rock", ...)``."""
    queue: list[str] = []

    def scripted(t: Any) -> str:
        assert queue, "the test did not script enough reveals"
        return queue.pop(0)

    monkeypatch.setattr(flow, "draw_token", scripted)

    def load(*tokens: str) -> None:
        queue.extend(tokens)

    return load


def game(players: int = 3, seed: int = 1, drawer: int = 0) -> BagOfBugs:
    e = BagOfBugs.new(players, seed)
    e.state.drawer = drawer
    return e


def draw(e: BagOfBugs, n: int = 1) -> list[Event]:
    events: list[Event] = []
    for _ in range(n):
        events += e.apply(e.state.drawer, {"type": "draw"})
    return events


def draw_out(e: BagOfBugs) -> list[Event]:
    """Reveal until the draw stops."""
    events: list[Event] = []
    while "draw_stopped" not in types(events):
        events += e.apply(e.state.drawer, {"type": "draw"})
    return events


def grab(e: BagOfBugs, seat: int, token: int) -> list[Event]:
    return e.apply(seat, {"type": "grab", "token": token})


def choose(e: BagOfBugs, seat: int, **fields: Any) -> list[Event]:
    """Answer the open choice; ``fields`` holds the action's type and its option."""
    assert e.state.choice is not None and e.state.choice.seat == seat
    return e.apply(seat, {"step": e.state.choice.step, **fields})


def types(events: list[Event]) -> list[str]:
    return [ev.type for ev in events]


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [ev.data for ev in events if ev.type == kind]


def rejected(e: BagOfBugs, seat: int, action: Any, code: str) -> None:
    """The action raises RuleError with ``code`` and changes nothing."""
    before = e.to_dict()
    with pytest.raises(RuleError) as info:
        e.apply(seat, action)
    assert info.value.code == code, info.value.code
    assert e.to_dict() == before


# -- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "bag", "limit", "pairs", "per_colour", "rocks"),
    [(5, 85, 9, 6, 10, 13), (4, 69, 8, 5, 8, 11), (3, 53, 6, 4, 6, 9)],
)
def test_bb1_setup_per_player_count(
    players: int, bag: int, limit: int, pairs: int, per_colour: int, rocks: int
) -> None:
    e = BagOfBugs.new(players, 7)
    v = e.view(None)
    assert v["bag_count"] == bag
    assert v["draw_limit"] == limit and v["pairs_needed"] == pairs
    assert v["bag"] == {
        **dict.fromkeys(("c1", "c2", "c3", "c4", "c5"), per_colour),
        "scary": per_colour,
        "larva": per_colour,
        "wind": 2,
        "rock": rocks,
    }
    # BB-1 rock arithmetic: rocks = 2 x pairs needed + 1
    assert rocks == 2 * pairs + 1
    assert sum(v["out_of_game"].values()) == 85 - bag
    assert v["pool"] == {} and v["collections"] == [{}] * players
    assert v["phase"] == "draw" and v["revealed"] == 0 and v["pairs"] == 0


def test_bb2_rocks_and_scary_bugs_lose_the_same_number() -> None:
    for players, removed in ((4, 2), (3, 4)):
        out = BagOfBugs.new(players, 1).view(None)["out_of_game"]
        assert out["rock"] == out["scary"] == out["larva"] == out["c3"] == removed
        assert "wind" not in out


def test_first_drawer_is_random_and_seeded() -> None:
    drawers = {BagOfBugs.new(5, seed).state.drawer for seed in range(40)}
    assert drawers == {0, 1, 2, 3, 4}
    assert BagOfBugs.new(4, 11).state.drawer == BagOfBugs.new(4, 11).state.drawer


def test_game_is_registered() -> None:
    assert GAMES["bag-of-bugs"] is BagOfBugs
    assert (BagOfBugs.min_players, BagOfBugs.max_players) == (3, 5)


def test_bb19_only_three_to_five_players() -> None:
    for bad in (2, 6):
        with pytest.raises(RuleError) as info:
            BagOfBugs.new(bad, 1)
        assert info.value.code == "player_count"


def test_bb24_overview_tables_match_the_detailed_rules() -> None:
    # Overview (draw limit and Rock pairs tables) and detailed rules give the same numbers.
    assert {n: (s.draw_limit, s.pairs_needed) for n, s in SETUPS.items()} == {
        5: (9, 6),
        4: (8, 5),
        3: (6, 4),
    }
    assert sum(FULL_SET.values()) == 85


# -- drawing and the grab window ----------------------------------------------------------------
def test_bb7_rocks_and_wind_count_toward_the_limit(rig: Rig) -> None:
    e = game(3)
    rig("rock", "wind", "c1", "c2", "c3", "c4")
    events = draw(e, 5)
    assert e.state.phase == "draw" and e.state.revealed == 5
    events += draw(e)
    stop = of_type(events, "draw_stopped")
    assert stop == [{"drawer": 0, "reason": "limit", "count": 6}]
    assert [r["count"] for r in of_type(events, "reveal")] == [1, 2, 3, 4, 5, 6]
    # the lone Rock went back to the bag
    assert of_type(events, "rocks") == [
        {"count": 1, "result": "returned", "pairs": 0, "needed": 4, "last": False}
    ]
    assert e.state.bag["rock"] == 9 and "rock" not in e.state.pool


def test_second_rock_stops_the_draw_early(rig: Rig) -> None:
    e = game(5)
    rig("c1", "rock", "c2", "rock")
    events = draw_out(e)
    assert e.state.revealed == 4
    assert of_type(events, "draw_stopped")[0]["reason"] == "rock"
    assert e.state.pairs == 1 and e.state.bag["rock"] == 11


def test_bb8_limit_and_second_rock_together_set_a_pair_aside(rig: Rig) -> None:
    e = game(3)
    rig("rock", "c1", "c2", "c3", "c4", "rock")
    events = draw_out(e)
    assert of_type(events, "draw_stopped")[0]["reason"] == "both"
    assert of_type(events, "rocks")[0]["result"] == "paired"
    assert e.state.pairs == 1 and e.state.bag["rock"] == 7


def test_bb9_an_empty_bag_stops_the_draw_as_if_the_limit_were_met() -> None:
    e = game(5)
    e.state.bag = {"c1": 1, "larva": 1}
    events = draw(e, 2)
    assert of_type(events, "draw_stopped")[0]["reason"] == "bag_empty"
    assert e.state.revealed == 2 and e.state.bag == {}
    assert e.view(None)["phase"] == "leftovers"


def test_bb9_rock_invariant_means_the_bag_never_runs_out() -> None:
    for players in (3, 4, 5):
        for seed in range(4):
            e = BagOfBugs.new(players, seed)
            policy = Rng(seed + 1000)
            starts = 0
            for _ in range(3000):
                if e.is_over:
                    break
                if e.state.phase == "draw" and e.state.revealed == 0:
                    starts += 1
                    rocks = e.state.bag["rock"]
                    assert rocks == 2 * e.state.setup.pairs_needed + 1 - 2 * e.state.pairs >= 3
                movers = sorted(e.waiting_for())
                seat = policy.choice(movers)
                for ev in e.apply(seat, policy.choice(e.legal_actions(seat))):
                    assert ev.data.get("reason") != "bag_empty"
            assert e.is_over, "the game did not end"
            assert starts == e.state.turn_number and e.state.bag["rock"] == 1


def test_bb5_the_drawer_cannot_grab(rig: Rig) -> None:
    e = game(3)
    rig("c1")
    draw(e)
    rejected(e, 0, {"type": "grab", "token": 1}, "drawer_cannot_grab")
    assert e.legal_actions(0) == [{"type": "draw"}]


def test_bb6_grab_window_opens_at_first_reveal_and_closes_with_the_stopping_reveal(
    rig: Rig,
) -> None:
    e = game(3)
    assert e.legal_actions(1) == []
    rejected(e, 1, {"type": "grab", "token": 2}, "too_early")
    rig("c1", "rock", "c2", "rock")
    draw(e)
    assert e.view(None)["window_open"]
    assert [a["token"] for a in e.legal_actions(1)] == [1, 2, 3, 4, 5]
    grab(e, 1, 2)
    draw(e, 2)
    assert e.state.phase == "draw"  # still open after the 3rd reveal
    draw(e)  # the 2nd Rock: the window closes atomically with this reveal
    assert not e.view(None)["window_open"]
    rejected(e, 2, {"type": "grab", "token": 3}, "too_late")


def test_bb6_first_valid_request_wins_and_grabs_are_irrevocable(rig: Rig) -> None:
    e = game(4)
    rig("c1")
    draw(e)
    assert of_type(grab(e, 2, 4), "grab") == [{"seat": 2, "token": 4, "count": 1}]
    rejected(e, 3, {"type": "grab", "token": 4}, "taken")
    rejected(e, 2, {"type": "grab", "token": 5}, "already_grabbed")
    rejected(e, 2, {"type": "grab", "token": 4}, "already_grabbed")
    assert e.legal_actions(2) == []
    assert [a["token"] for a in e.legal_actions(3)] == [1, 2, 3, 5]
    assert e.view(None)["grabs"][3] == {
        "token": 4,
        "seat": 2,
        "text": "Take 2 different tokens (only 1 if a single type is left).",
    }


def test_only_the_drawer_draws_and_only_during_the_draw(rig: Rig) -> None:
    e = game(3)
    rejected(e, 1, {"type": "draw"}, "not_drawer")
    rig("c1", "c1", "c2", "c2", "c3", "c3")
    draw_out(e)
    # the leftover choice is open; drawing again is refused
    rejected(e, 0, {"type": "draw"}, "draw_over")


# -- grab effects ---------------------------------------------------------------------------
def test_bb25_grab_tokens_are_the_rulebook_bullets_in_order() -> None:
    pool = {"c1": 3, "c2": 1, "larva": 2, "wind": 1}
    assert take_options(1, pool) == [{"c1": 1}]
    assert take_options(2, pool) == [{"c2": 1}, {"wind": 1}]
    assert take_options(3, pool) == [{"c1": 2}, {"larva": 2}]
    assert len(take_options(4, pool)) == 6 and {"c2": 1, "wind": 1} in take_options(4, pool)
    assert len(take_options(5, pool)) == 4 and {"c1": 1, "c2": 1, "larva": 1} in take_options(
        5, pool
    )


def test_bb3_wind_is_an_ordinary_type_for_every_grab_effect() -> None:
    assert take_options(1, {"wind": 2, "c1": 1}) == [{"wind": 1}]
    assert take_options(2, {"wind": 1, "c1": 2}) == [{"wind": 1}]
    assert take_options(3, {"wind": 2, "c1": 1}) == [{"wind": 2}]
    assert take_options(4, {"wind": 1, "c1": 1}) == [{"c1": 1, "wind": 1}]


def test_bb3_rocks_have_left_the_pool_before_grabs_resolve(rig: Rig) -> None:
    e = game(3)
    rig("rock", "c1", "c1", "c2", "c2", "c3")
    draw(e)
    grab(e, 1, 1)
    draw_out(e)
    # pool c1:2 c2:2 c3:1 -> G1 tie between c1 and c2; the Rock is not a group
    assert e.state.pool == {"c1": 2, "c2": 2, "c3": 1}
    assert e.view(None)["choice"]["options"] == [{"c1": 1}, {"c2": 1}]


def test_bb4_identical_means_same_type() -> None:
    pool = {"c1": 1, "c2": 1, "scary": 2, "larva": 1}
    assert take_options(3, pool) == [{"scary": 2}]
    assert take_options(1, pool) == [{"scary": 1}]


def test_grab_fallbacks() -> None:
    # G2 ties include size-1 groups; G3 with no pair takes exactly 1 token of choice
    assert take_options(2, {"c1": 1, "c2": 1, "c3": 2}) == [{"c1": 1}, {"c2": 1}]
    assert take_options(3, {"c1": 1, "larva": 1}) == [{"c1": 1}, {"larva": 1}]
    # G4 with one type left takes 1; G5 with fewer than 3 types takes 1 of each
    assert take_options(4, {"scary": 3}) == [{"scary": 1}]
    assert take_options(5, {"scary": 3, "c4": 2}) == [{"c4": 1, "scary": 1}]
    for k in range(1, 6):
        assert take_options(k, {}) == []
    with pytest.raises(ValueError):
        take_options(6, {"c1": 1})


def test_a_single_option_is_applied_without_asking(rig: Rig) -> None:
    e = game(3)
    rig("scary", "scary", "c4", "c4", "c4", "rock")
    draw(e)
    grab(e, 1, 5)
    events = draw_out(e)
    assert of_type(events, "take") == [
        {"seat": 1, "grab": 5, "tokens": {"c4": 1, "scary": 1}, "how": "only"}
    ]
    assert "choice" in types(events)  # only the leftover choice is asked
    assert e.state.choice is not None and e.state.choice.kind == "leftovers"
    assert e.state.collections[1] == {"c4": 1, "scary": 1}


def test_a_real_choice_is_asked_of_the_grab_owner(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c2", "c3", "c4", "c5", "larva")
    draw(e)
    grab(e, 2, 5)
    draw_out(e)
    v = e.view(2)
    assert v["phase"] == "grab_choice" and v["resolving"] == 5
    assert v["choice"]["seat"] == 2 and len(v["choice"]["options"]) == 20
    assert len(v["you"]["actions"]) == 20
    assert e.waiting_for() == frozenset({2})
    rejected(e, 1, {"type": "take", "step": e.state.step, "tokens": {"c1": 1}}, "not_your_choice")
    rejected(e, 2, {"type": "take", "step": e.state.step, "tokens": {"c1": 2}}, "illegal_choice")
    rejected(
        e, 2, {"type": "take", "step": e.state.step, "tokens": {"c1": 1, "c2": 1}}, "illegal_choice"
    )
    rejected(
        e,
        2,
        {"type": "take", "step": e.state.step, "tokens": {"c1": True, "c2": 1, "c3": 1}},
        "malformed",
    )
    events = choose(e, 2, type="take", tokens={"c5": 1, "c1": 1, "larva": 1})
    assert of_type(events, "take")[0]["tokens"] == {"c1": 1, "c5": 1, "larva": 1}
    assert e.state.collections[2] == {"c1": 1, "c5": 1, "larva": 1}


# -- resolution order and empty pools -------------------------------------------------------
def test_bb16_resolution_is_g1_to_g5_whatever_the_claim_order(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c1", "c1", "c2", "c2", "rock")
    draw(e)
    grab(e, 1, 5)  # claimed first
    grab(e, 2, 1)
    events = draw_out(e)
    takes = of_type(events, "take")
    assert [(t["seat"], t["grab"]) for t in takes] == [(2, 1), (1, 5)]
    assert takes[0]["tokens"] == {"c1": 1}
    assert takes[1]["tokens"] == {"c1": 1, "c2": 1}


def test_bb15_a_grab_finding_the_pool_empty_takes_nothing(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c2", "rock", "rock")
    draw(e)
    grab(e, 1, 4)
    grab(e, 2, 5)
    events = draw_out(e)
    assert of_type(events, "take") == [
        {"seat": 1, "grab": 4, "tokens": {"c1": 1, "c2": 1}, "how": "only"},
        {"seat": 2, "grab": 5, "tokens": {}, "how": "empty"},
    ]
    # nothing left: no leftover question, the bag passes left
    assert "leftovers" not in types(events)
    assert e.state.phase == "draw" and e.state.drawer == 1 and e.state.turn_number == 2
    assert e.state.collections[2] == {}


# -- Wind -----------------------------------------------------------------------------------
def test_bb10_a_wind_may_give_away_a_token_just_taken(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c2", "wind", "c3", "c4", "c5")
    draw(e)
    grab(e, 1, 5)
    draw_out(e)
    choose(e, 1, type="take", tokens={"c1": 1, "c2": 1, "wind": 1})
    # all tokens entered the collection first, then the Wind asks for a token
    assert e.state.collections[1] == {"c1": 1, "c2": 1}
    v = e.view(1)
    assert v["phase"] == "wind" and v["held_winds"] == 1 and v["wind_holder"] == 1
    assert v["choice"]["options"] == ["c1", "c2"]
    assert v["you"]["actions"] == [
        {"type": "give", "step": e.state.step, "token": "c1"},
        {"type": "give", "step": e.state.step, "token": "c2"},
    ]
    rejected(e, 1, {"type": "give", "step": e.state.step, "token": "c3"}, "illegal_choice")
    events = choose(e, 1, type="give", token="c2")
    assert of_type(events, "wind") == [{"seat": 1, "to": 2, "token": "c2", "how": "chosen"}]
    assert e.state.collections[1] == {"c1": 1} and e.state.collections[2] == {"c2": 1}
    assert e.view(None)["phase"] == "leftovers"


def test_bb11_wind_with_an_empty_collection_gives_nothing(rig: Rig) -> None:
    e = game(3)
    rig("wind", "wind", "c1", "c2", "c3", "rock")
    draw(e)
    grab(e, 1, 3)
    events = draw_out(e)
    assert of_type(events, "take")[0]["tokens"] == {"wind": 2}
    assert of_type(events, "wind") == [
        {"seat": 1, "to": 2, "token": None, "how": "empty"},
        {"seat": 1, "to": 2, "token": None, "how": "empty"},
    ]
    assert e.state.collections == [{}, {}, {}]
    assert e.state.bag["wind"] == 2 and e.state.held_winds == 0


def test_bb12_two_winds_in_one_take_resolve_one_after_the_other(rig: Rig) -> None:
    e = game(3)
    e.state.collections[1] = {"c1": 1, "larva": 1}
    rig("wind", "wind", "c1", "c2", "c3", "rock")
    draw(e)
    grab(e, 1, 3)
    draw_out(e)
    assert e.state.held_winds == 2 and e.state.choice is not None and e.state.choice.kind == "give"
    events = choose(e, 1, type="give", token="c1")
    # the second Wind has a single candidate left and resolves by itself
    assert of_type(events, "wind") == [
        {"seat": 1, "to": 2, "token": "c1", "how": "chosen"},
        {"seat": 1, "to": 2, "token": "larva", "how": "only"},
    ]
    assert e.state.collections[1] == {} and e.state.collections[2] == {"c1": 1, "larva": 1}
    assert e.state.bag["wind"] == 2


def test_bb13_the_drawer_resolves_a_wind_from_the_leftovers(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c1", "wind", "c2", "rock", "c3")
    draw_out(e)
    assert e.view(0)["you"]["actions"] == [
        {"type": "take_all", "step": e.state.step},
        {"type": "return_all", "step": e.state.step},
    ]
    events = choose(e, 0, type="take_all")
    assert of_type(events, "leftovers") == [
        {
            "seat": 0,
            "choice": "take_all",
            "tokens": {"c1": 2, "c2": 1, "c3": 1, "wind": 1},
            "how": "chosen",
        }
    ]
    assert e.state.collections[0] == {"c1": 2, "c2": 1, "c3": 1}
    assert e.state.choice is not None and e.state.choice.kind == "give" and e.state.choice.seat == 0
    events = choose(e, 0, type="give", token="c1")
    # BB-23: the Drawer's left is the next Drawer
    assert of_type(events, "wind")[0]["to"] == 1
    assert e.state.collections[1] == {"c1": 1}
    assert e.state.drawer == 1 and e.state.phase == "draw"


def test_bb14_wind_goes_back_into_the_bag_at_once_not_redrawn_this_turn(rig: Rig) -> None:
    e = game(3)
    e.state.collections[1] = {"c1": 1, "c2": 1}
    rig("wind", "c3", "c3", "c3", "c4", "c4")
    draw(e)
    grab(e, 1, 2)  # smallest group: the lone Wind
    draw_out(e)
    assert e.state.bag.get("wind", 0) == 1  # one in the bag, one held
    assert e.state.held_winds == 1
    choose(e, 1, type="give", token="c2")
    assert e.state.bag["wind"] == 2 and e.state.held_winds == 0
    assert e.state.phase == "resolve"  # drawing is over: it cannot come out again this turn


def test_bb23_a_grabber_left_of_nobody_gives_to_the_drawer(rig: Rig) -> None:
    e = game(3, drawer=0)
    e.state.collections[2] = {"scary": 2}
    rig("wind", "c3", "c3", "c3", "c4", "c4")
    draw(e)
    grab(e, 2, 2)
    events = draw_out(e)
    # seat 2's left is seat 0, the Drawer; a single type is given without asking
    assert of_type(events, "wind") == [{"seat": 2, "to": 0, "token": "scary", "how": "only"}]
    assert e.state.collections[0] == {"scary": 1} and e.state.collections[2] == {"scary": 1}
    # receiving triggers nothing: the next question is the Drawer's leftovers
    assert e.state.choice is not None and e.state.choice.kind == "leftovers"


# -- leftovers, cleanup and the end -----------------------------------------------------------
def test_leftovers_return_all_puts_them_back_in_the_bag(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c1", "larva", "c2", "rock", "c3")
    draw_out(e)
    bag_before = sum(e.state.bag.values())
    events = choose(e, 0, type="return_all")
    assert of_type(events, "leftovers")[0]["choice"] == "return_all"
    assert sum(e.state.bag.values()) == bag_before + 5
    assert e.state.collections[0] == {} and e.state.pool == {}
    assert types(events)[-2:] == ["turn_end", "turn_start"]
    assert of_type(events, "turn_start") == [
        {"turn_number": 2, "drawer": 1, "limit": 6, "bag": bag_before + 5}
    ]
    assert e.state.grabs == [None] * 5


def test_bb20_the_turn_setting_aside_the_last_pair_is_completed_then_scored(
    rig: Rig,
) -> None:
    e = game(3)
    e.state.pairs = 3
    e.state.bag["rock"] = 3
    e.state.collections[2] = {"larva": 1}
    rig("c1", "c1", "rock", "c2", "rock")
    draw(e)
    grab(e, 1, 3)
    events = draw_out(e)
    assert of_type(events, "rocks")[0] == {
        "count": 2,
        "result": "paired",
        "pairs": 4,
        "needed": 4,
        "last": True,
    }
    # steps 3-5 still happen: the grab resolves, the leftovers are offered
    assert of_type(events, "take")[0]["tokens"] == {"c1": 2}
    assert not e.is_over and e.winners() == []
    assert e.view(None)["last_turn"]
    events = choose(e, 0, type="take_all")
    assert e.is_over and types(events)[-2:] == ["turn_end", "game_over"]
    over = of_type(events, "game_over")[0]
    # seat 0: c2 = 1; seat 1: two c1 = 3; seat 2: one Larva = 3
    assert over["scores"] == [1, 3, 3] and over["winners"] == [1, 2]
    assert e.winners() == [1, 2] and e.scores() == [1, 3, 3]
    assert e.view(None)["phase"] == "over" and e.view(None)["winners"] == [1, 2]
    assert e.legal_actions(0) == [] and e.waiting_for() == frozenset() and e.deadlines() == []
    rejected(e, 0, {"type": "draw"}, "finished")
    rejected(e, 1, {"type": "grab", "token": 1}, "finished")


# -- scoring --------------------------------------------------------------------------------
def test_rulebook_scoring_example() -> None:
    collection = {"c1": 4, "c2": 3, "c3": 2, "c4": 1, "c5": 1, "larva": 1, "scary": 3}
    parts = scoring.breakdown(collection, has_most_scary=True)
    assert parts == {
        "c1": 0,
        "c2": 6,
        "c3": 3,
        "c4": 1,
        "c5": 1,
        "all_colours": 5,
        "larvae": 3,
        "scary_bugs": -3,
        "most_scary": -2,
        "total": 14,
    }
    assert list(parts) == list(scoring.BREAKDOWN_KEYS)


def test_colour_table_and_scary_tie() -> None:
    assert [scoring.colour_points(n) for n in range(7)] == [0, 1, 3, 6, 0, 0, 0]
    cols = [{"scary": 2, "c1": 2}, {"scary": 2}, {"scary": 1, "larva": 2}]
    assert scoring.most_scary(cols) == frozenset({0, 1})
    assert scoring.totals(cols) == [3 - 2 - 2, -2 - 2, 6 - 1]


def test_bb17_no_penalty_when_nobody_has_a_scary_bug() -> None:
    cols = [{"c1": 1}, {}, {"larva": 1}]
    assert scoring.most_scary(cols) == frozenset()
    assert [p["most_scary"] for p in scoring.breakdowns(cols)] == [0, 0, 0]


def test_bb18_all_colours_bonus_counts_a_colour_held_four_times() -> None:
    parts = scoring.breakdown({"c1": 5, "c2": 1, "c3": 1, "c4": 1, "c5": 4}, False)
    assert parts["c1"] == parts["c5"] == 0 and parts["all_colours"] == 5
    assert parts["total"] == 8
    assert (
        scoring.breakdown({"c1": 1, "c2": 1, "c3": 1, "c4": 1, "larva": 3}, False)["all_colours"]
        == 0
    )


def test_running_scores_and_breakdown_during_play(rig: Rig) -> None:
    e = game(3)
    e.state.collections = [{"scary": 1}, {"c1": 2, "larva": 1}, {}]
    assert e.scores() == [-3, 6, 0]
    assert e.score_breakdown(1)["total"] == 6 and e.score_breakdown(0)["most_scary"] == -2
    assert e.winners() == []  # nobody wins before the end
    assert e.view(None)["scores"] == [-3, 6, 0]


# -- platform timers (BB-22) ----------------------------------------------------------------
def test_bb22_idle_drawer_auto_reveal_restarts_after_every_reveal(rig: Rig) -> None:
    e = game(4, drawer=2)
    (d,) = e.deadlines()
    # the delay is the host's setting alone (8 s by default): the engine keeps no copy of it
    assert (d.key, d.seconds, d.setting, d.seats) == ("draw:1:0", None, "bag_idle_draw", {2})
    assert d.action == {"type": "auto_draw", "turn_number": 1, "reveal": 1}
    rig("c1", "larva")
    events = e.apply(SYSTEM, d.action)
    assert of_type(events, "reveal") == [
        {"drawer": 2, "token": "c1", "count": 1, "limit": 8, "rocks": 0, "auto": True}
    ]
    (d2,) = e.deadlines()
    assert d2.key == "draw:1:1" and d2.action["reveal"] == 2
    rejected(e, SYSTEM, d.action, "not_due")  # the old timer is stale
    draw(e)  # a manual reveal also restarts it
    assert e.deadlines()[0].key == "draw:1:2"
    rejected(e, 2, d2.action, "system_only")


def test_bb22_choice_timeout_picks_a_random_legal_option(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c2", "c3", "c4", "c5", "larva")
    draw(e)
    grab(e, 1, 4)
    draw_out(e)
    (d,) = e.deadlines()
    assert (d.key, d.seconds, d.setting, d.seats) == (
        f"choice:{e.state.step}",
        None,
        "bag_choice",
        {1},
    )
    legal = [a["tokens"] for a in e.legal_actions(1)]
    picks = set()
    for seed in range(12):
        copy = BagOfBugs.from_dict(e.to_dict())
        copy.state.rng = type(e.state.rng)(seed)
        (take,) = of_type(copy.apply(SYSTEM, d.action), "take")
        assert take["how"] == "timeout" and take["tokens"] in legal
        picks.add(json.dumps(take["tokens"], sort_keys=True))
    assert len(picks) > 3  # really random, not always the first option


def test_bb22_wind_timeout_gives_a_random_token_and_leftovers_timeout_returns_all(
    rig: Rig,
) -> None:
    e = game(3)
    e.state.collections[1] = {"c1": 1, "scary": 3}
    rig("wind", "c3", "c3", "c3", "c4", "c4")
    draw(e)
    grab(e, 1, 2)
    draw_out(e)
    given = set()
    for seed in range(20):
        copy = BagOfBugs.from_dict(e.to_dict())
        copy.state.rng = type(e.state.rng)(seed)
        (wind,) = of_type(copy.apply(SYSTEM, copy.deadlines()[0].action), "wind")
        assert wind["how"] == "timeout"
        given.add(wind["token"])
    assert given == {"c1", "scary"}
    e.apply(SYSTEM, e.deadlines()[0].action)
    assert e.state.choice is not None and e.state.choice.kind == "leftovers"
    events = e.apply(SYSTEM, e.deadlines()[0].action)
    assert of_type(events, "leftovers")[0] == {
        "seat": 0,
        "choice": "return_all",
        "tokens": {"c3": 3, "c4": 2},
        "how": "timeout",
    }


def test_bb22_system_accepts_only_what_deadlines_list() -> None:
    e = game(3)
    rejected(e, SYSTEM, {"type": "timeout", "step": e.state.step}, "not_due")
    rejected(e, SYSTEM, {"type": "draw"}, "not_due")
    rejected(e, SYSTEM, {"type": "auto_draw", "turn_number": 1, "reveal": 2}, "not_due")
    assert e.legal_actions(SYSTEM) == []


# -- errors, turn counter, view -------------------------------------------------------------
def test_every_rejection_reason_has_its_own_code(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c1", "c2", "c2", "c3", "c3")
    codes = set()

    def check(seat: int, action: Any, code: str) -> None:
        rejected(e, seat, action, code)
        codes.add(code)

    check(1, {"type": "grab", "token": 1}, "too_early")
    check(1, {"type": "draw"}, "not_drawer")
    draw(e)
    check(0, {"type": "grab", "token": 1}, "drawer_cannot_grab")
    grab(e, 1, 1)
    check(1, {"type": "grab", "token": 2}, "already_grabbed")
    check(2, {"type": "grab", "token": 1}, "taken")
    check(2, {"type": "grab", "token": 0}, "bad_token")
    check(2, {"type": "grab", "token": "1"}, "bad_token")
    check(2, {"type": "grab"}, "malformed")
    check(2, {"type": "grab", "token": 2, "extra": 1}, "malformed")
    check(2, "grab", "malformed")
    check(2, {"type": "dance"}, "unknown_action")
    check(7, {"type": "draw"}, "bad_seat")
    check(2, {"type": "take", "step": e.state.step, "tokens": {"c1": 1}}, "not_your_choice")
    draw_out(e)
    assert e.state.choice is not None and e.state.choice.seat == 1  # G1: c1, c2 or c3
    check(2, {"type": "grab", "token": 3}, "too_late")
    check(0, {"type": "draw"}, "draw_over")
    check(1, {"type": "take", "step": e.state.step - 1, "tokens": {"c1": 1}}, "stale")
    check(1, {"type": "give", "step": e.state.step, "token": "c1"}, "wrong_choice")
    check(1, {"type": "take", "step": e.state.step, "tokens": {"c1": 2}}, "illegal_choice")
    check(1, {"type": "take", "step": "x", "tokens": {"c1": 1}}, "malformed")
    check(SYSTEM, {"type": "timeout", "step": 0}, "not_due")
    assert len(codes) == 16


def test_turn_holds_during_the_draw_and_moves_with_every_new_question(rig: Rig) -> None:
    e = game(3)
    start = e.turn
    rig("c1", "c2", "c3", "c4", "c5", "larva")
    draw(e)
    grab(e, 1, 1)
    draw(e, 2)
    grab(e, 2, 5)
    draw(e, 2)
    assert e.turn == start  # reveals and grabs never change the button counter
    draw(e)  # the stop: G1 is a 6-way tie -> a question
    asked = e.turn
    assert asked > start and e.state.choice is not None and e.state.choice.step == asked
    choose(e, 1, type="take", tokens={"c1": 1})
    assert e.turn > asked  # G5 asks next
    assert e.state.choice is not None and e.state.choice.grab == 5
    g5 = e.turn
    choose(e, 2, type="take", tokens={"c2": 1, "c3": 1, "c4": 1})
    assert e.turn > g5  # leftovers
    left = e.turn
    choose(e, 0, type="return_all")
    assert e.turn > left and e.state.phase == "draw" and e.state.drawer == 1


def test_view_shape_is_public_and_json_safe(rig: Rig) -> None:
    e = game(4, drawer=1)
    rig("c1", "wind")
    draw(e, 2)
    grab(e, 3, 2)
    public = e.view(None)
    assert json.loads(json.dumps(public)) == public
    assert "you" not in public
    for seat in range(4):
        mine = e.view(seat)
        you = mine.pop("you")
        assert mine == public  # nothing is secret (BB-21)
        assert you["seat"] == seat and you["actions"] == e.legal_actions(seat)
    assert e.view(1)["you"]["role"] == "drawer" and e.view(3)["you"]["grab"] == 2
    assert public["pool"] == {"c1": 1, "wind": 1} and public["pool_count"] == 2
    assert public["revealed"] == 2 and public["window_open"]
    assert public["waiting_for"] == [0, 1, 2]
    assert public["turn"] == e.turn and public["drawer"] == 1 and public["choice"] is None
    assert public["bag_count"] == 67


def test_bb21_everything_on_the_table_is_in_the_public_view(rig: Rig) -> None:
    e = game(3)
    e.state.collections = [{"c1": 1}, {"larva": 2}, {}]
    e.state.pairs = 2
    rig("c5")
    draw(e)
    grab(e, 2, 3)
    v = e.view(None)
    assert v["collections"] == [{"c1": 1}, {"larva": 2}, {}]
    assert v["pairs"] == 2 and v["pool"] == {"c5": 1} and v["grabs"][2]["seat"] == 2
    assert v["bag_count"] == 52


def test_snapshot_round_trip_mid_choice(rig: Rig) -> None:
    e = game(3)
    rig("c1", "c2", "wind", "c3", "c4", "c5")
    draw(e)
    grab(e, 1, 5)
    draw_out(e)
    snap = json.loads(json.dumps(e.to_dict()))
    copy = BagOfBugs.from_dict(snap)
    assert copy.to_dict() == e.to_dict() and copy.view(1) == e.view(1)
    action = {"type": "take", "step": e.state.step, "tokens": {"c1": 1, "c2": 1, "wind": 1}}
    assert [ev.to_dict() for ev in copy.apply(1, action)] == [
        ev.to_dict() for ev in e.apply(1, action)
    ]
    assert copy.to_dict() == e.to_dict()
    # a snapshot naming a phase, stage or question the game does not have is refused
    for broken in (
        {"phase": "drawing"},
        {"stage": "wind"},
        {"choice": {**snap["choice"], "kind": "x"}},
    ):
        with pytest.raises(ValueError, match="unknown Bag of Bugs"):
            BagOfBugs.from_dict({**snap, **broken})


# -- display order and pacing ----------------------------------------------------------------
def statuses(e: BagOfBugs) -> list[tuple[str, str]]:
    return [(x["token"], x["status"]) for x in e.view(None)["pool_order"]]


def test_pool_order_follows_the_reveals_and_marks_what_left(rig: Rig) -> None:
    e = game(3)
    assert statuses(e) == []
    rig("c2", "rock", "c1", "c2", "larva", "c4")
    draw(e, 3)
    assert statuses(e) == [("c2", "pool"), ("rock", "pool"), ("c1", "pool")]
    grab(e, 1, 3)  # two identical: the two c2
    draw_out(e)
    # the lone Rock went back; G3 had a single option (c2 ×2), so it resolved at once
    assert statuses(e) == [
        ("c2", "gone"),
        ("rock", "returned"),
        ("c1", "pool"),
        ("c2", "gone"),
        ("larva", "pool"),
        ("c4", "pool"),
    ]
    choose(e, 0, type="return_all")
    assert statuses(e) == [] and e.state.order == []  # the next turn starts empty


def test_pool_order_marks_a_rock_pair_and_survives_a_snapshot(rig: Rig) -> None:
    e = game(4)
    rig("rock", "c1", "c1", "rock")
    draw(e)
    grab(e, 1, 1)
    draw_out(e)
    assert statuses(e) == [("rock", "paired"), ("c1", "pool"), ("c1", "gone"), ("rock", "paired")]
    snap = json.loads(json.dumps(e.to_dict()))
    assert snap["order"] == ["rock", "c1", "c1", "rock"]
    assert BagOfBugs.from_dict(snap).view(None)["pool_order"] == e.view(None)["pool_order"]
    # a snapshot written before the order was kept still loads, with a plausible order
    del snap["order"]
    old = BagOfBugs.from_dict(snap)
    assert [x["token"] for x in old.view(None)["pool_order"]] == ["c1", "rock", "rock"]


def test_reveals_are_paced_by_the_host_setting() -> None:
    assert BagOfBugs.pacing == {"draw": "bag_min_gap", "auto_draw": "bag_min_gap"}


# -- score previews (for the presenter's option labels) -------------------------------------
def _expected_preview(e: BagOfBugs, seat: int, action: dict[str, Any]) -> int:
    """The chooser's score once the answer's own tokens have moved, worked out by hand."""
    collections = [dict(c) for c in e.state.collections]
    moved: dict[str, int] = {}
    if action["type"] == "take":
        moved = action["tokens"]
    elif action["type"] == "take_all":
        moved = e.state.pool
    elif action["type"] == "give":
        token = action["token"]
        collections[seat][token] -= 1
        left = collections[(seat + 1) % e.players]
        left[token] = left.get(token, 0) + 1
    for token, n in moved.items():
        if token not in ("wind", "rock"):
            collections[seat][token] = collections[seat].get(token, 0) + n
    return scoring.totals(collections)[seat]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_score_preview_is_the_choosers_score_after_each_option(players: int) -> None:
    previews = 0
    for seed in range(12):
        e = BagOfBugs.new(players, seed)
        rng = Rng(seed + 100)
        while not e.is_over:
            choice = e.state.choice
            if choice is not None:
                before = json.dumps(e.to_dict())
                for action in e.legal_actions(choice.seat):
                    expected = _expected_preview(e, choice.seat, action)
                    assert e.score_preview(choice.seat, action) == expected, action
                    previews += 1
                assert json.dumps(e.to_dict()) == before  # a preview changes nothing
            seat, action = _any_move(e, rng)
            e.apply(seat, action)
    assert previews > 100


def _any_move(e: BagOfBugs, rng: Rng) -> tuple[int, dict[str, Any]]:
    movers = [s for s in range(e.players) if e.legal_actions(s)]
    if not movers:
        return SYSTEM, e.deadlines()[0].action
    seat = rng.choice(movers)
    return seat, rng.choice(e.legal_actions(seat))


def test_score_preview_of_a_take_with_a_wind_counts_the_take_only(rig: Rig) -> None:
    e = game(3)
    e.state.collections = [{}, {"c1": 2}, {}]
    rig("wind", "c1", "rock", "larva", "rock")  # the 2nd Rock stops the draw
    draw(e)
    grab(e, 1, 4)
    draw_out(e)
    choice = e.state.choice
    assert choice is not None and choice.kind == "take" and choice.seat == 1
    previews = {
        json.dumps(a["tokens"], sort_keys=True): e.score_preview(1, a) for a in e.legal_actions(1)
    }
    # c1 + larva: 3rd c1 (3 → 6) and a Larva (+3); a Wind scores nothing until it is given away
    assert previews == {
        '{"c1": 1, "larva": 1}': 9,
        '{"c1": 1, "wind": 1}': 6,
        '{"larva": 1, "wind": 1}': 6,
    }


def test_score_preview_is_only_for_an_option_of_the_open_choice(rig: Rig) -> None:
    e = game(3)
    with pytest.raises(RuleError) as info:
        e.score_preview(0, {"type": "draw"})  # legal, but not an answer to a choice
    assert info.value.code == "no_preview"
    rig("c1", "c2", "rock", "c3", "rock")
    draw(e)
    grab(e, 1, 4)
    draw_out(e)
    choice = e.state.choice
    assert choice is not None and choice.seat == 1
    option = e.legal_actions(1)[0]
    for seat, action in ((2, option), (1, {**option, "step": choice.step - 1})):
        with pytest.raises(RuleError) as info:
            e.score_preview(seat, action)
        assert info.value.code == "no_preview"
