"""Bugs & Co: every ruling of RULINGS §2 (BC-1 … BC-19), the rulebook example, edge cases."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from rules import GAMES, SYSTEM, RuleError
from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co import components as box
from rules.bugs_and_co.scoring import breakdown
from rules.core import Event, Rng

SLUG = "bugs-and-co"
START = {"type": "start"}
STOP_FINAL = {"type": "stop", "why": "countdown"}
STOP_CAP = {"type": "stop", "why": "cap"}
TROPHY = {"type": "trophy"}


def peek(slot: int) -> dict[str, Any]:
    return {"type": "peek", "slot": slot}


def keep(pickup: int) -> dict[str, Any]:
    return {"type": "keep", "pickup": pickup}


def put_back(pickup: int, slot: int | None = None) -> dict[str, Any]:
    if slot is None:
        return {"type": "return", "pickup": pickup}
    return {"type": "return", "pickup": pickup, "slot": slot}


def started(players: int = 3, seed: int = 1, **options: str) -> BugsAndCo:
    game = BugsAndCo.new(players, seed, options)
    game.apply(SYSTEM, START)
    return game


def arranged(players: int = 3) -> BugsAndCo:
    """A LIVE game whose table is sorted: for 2-4 players tile t lies in slot t, so symbol s
    is in slots 3s, 3s+1, 3s+2 (symbols 0..11 and tile 36, 37); the box holds tiles 38..44."""
    game = started(players, seed=0)
    tiles = sorted(t for t in game.state.slots if t is not None) + game.state.removed
    tiles.sort()
    game.state.removed = tiles[-box.REMOVED :]
    game.state.slots = list(tiles[: -box.REMOVED])
    return game


def held_pickup(game: BugsAndCo, seat: int) -> int:
    held = game.state.seats[seat].held
    assert held is not None
    return held.pickup


def take(game: BugsAndCo, seat: int, slot: int) -> list[Event]:
    """Peek at ``slot`` and keep it."""
    events = game.apply(seat, peek(slot))
    return events + game.apply(seat, keep(held_pickup(game, seat)))


def all_tiles(game: BugsAndCo) -> list[int]:
    tiles = [t for t in game.state.slots if t is not None] + list(game.state.removed)
    for p in game.state.seats:
        tiles += p.kept
        if p.held is not None:
            tiles.append(p.held.tile)
    return sorted(tiles)


def rejects(game: BugsAndCo, seat: int, action: Any, code: str) -> None:
    """The action is refused with ``code`` and the game is left exactly as it was."""
    before = json.dumps(game.to_dict(), sort_keys=True)
    with pytest.raises(RuleError) as err:
        game.apply(seat, action)
    assert err.value.code == code, err.value.message
    assert err.value.message and err.value.message[0].isupper()
    assert json.dumps(game.to_dict(), sort_keys=True) == before


def symbols_in(data: Any) -> list[int]:
    """Every value under a "symbol" key anywhere in ``data``."""
    found: list[int] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "symbol":
                found.append(value)
            else:
                found += symbols_in(value)
    elif isinstance(data, list):
        for item in data:
            found += symbols_in(item)
    return found


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


# -- BC-1 / BC-2 / BC-18: components ---------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "symbols", "in_play", "trophies"),
    [
        (2, 15, 38, [3]),
        (3, 15, 38, [3, 2]),
        (4, 15, 38, [3, 2, 1]),
        (5, 20, 53, [3, 2, 2, 1]),
        (6, 20, 53, [3, 3, 2, 2, 1]),
        (7, 25, 68, [3, 3, 2, 2, 1]),
        (8, 25, 68, [3, 3, 2, 2, 1]),
    ],
)
def test_bc1_components_per_player_count(
    players: int, symbols: int, in_play: int, trophies: list[int]
) -> None:
    game = BugsAndCo.new(players, 11)
    used = box.symbols_in_play(players, game.state.extra_set)
    assert len(used) == symbols
    assert len(game.state.slots) == in_play and all(t is not None for t in game.state.slots)
    assert len(game.state.removed) == 7
    assert all_tiles(game) == sorted(box.tiles_of(used))
    assert all(n == 3 for n in Counter(box.symbol_of(t) for t in all_tiles(game)).values())
    assert game.state.trophies == trophies
    view = game.view(None)
    assert view["tiles_in_play"] == in_play and len(view["slots"]) == in_play
    assert len(view["symbols"]) == symbols
    assert Counter(s["eyes"] for s in view["symbols"])[2] == 15


def test_bc_x7_symbol_table_is_15_two_eyed_5_one_eyed_5_three_eyed() -> None:
    assert box.SYMBOLS == 25 and len(set(box.SYMBOL_NAMES)) == 25
    eyes = Counter(box.eyes_of(s) for s in range(25))
    assert eyes == {2: 15, 1: 5, 3: 5}
    assert len(box.tiles_of(tuple(range(25)))) == 75


def test_bc_x9_table_is_dealt_from_one_seeded_shuffle() -> None:
    a, b, c = BugsAndCo.new(4, 1), BugsAndCo.new(4, 1), BugsAndCo.new(4, 2)
    assert a.to_dict() == b.to_dict()
    assert a.state.slots != c.state.slots
    # the procedure, pinned: one shuffle, the first 7 go to the box, the rest fill the slots
    rng = Rng(1)
    tiles = box.tiles_of(box.TWO_EYED)
    rng.shuffle(tiles)
    assert a.state.removed == sorted(tiles[:7]) and a.state.slots == tiles[7:]
    assert a.to_dict()["rng"] == rng.state()
    # 5-6 players with "random": the extra set is drawn first
    rng = Rng(8)
    extra = box.EXTRA_SETS[rng.below(2)]
    tiles = box.tiles_of(box.symbols_in_play(5, extra))
    rng.shuffle(tiles)
    five = BugsAndCo.new(5, 8)
    assert five.state.extra_set == extra and five.state.slots == tiles[7:]


@pytest.mark.parametrize("players", [5, 6])
def test_bc2_extra_set_is_one_eyed_or_three_eyed_never_both(players: int) -> None:
    one = BugsAndCo.new(players, 3, {"extra_set": "one-eyed"})
    three = BugsAndCo.new(players, 3, {"extra_set": "three-eyed"})
    assert {box.symbol_of(t) for t in all_tiles(one)} == set(box.TWO_EYED + box.ONE_EYED)
    assert {box.symbol_of(t) for t in all_tiles(three)} == set(box.TWO_EYED + box.THREE_EYED)
    assert one.view(None)["extra_set"] == "one-eyed"
    seen = set()
    for seed in range(40):
        game = BugsAndCo.new(players, seed)  # default "random"
        assert game.state.options == {"extra_set": "random"}
        eyes = {box.eyes_of(box.symbol_of(t)) for t in all_tiles(game)}
        assert eyes in ({1, 2}, {2, 3})
        assert game.state.extra_set == ("one-eyed" if 1 in eyes else "three-eyed")
        seen.add(game.state.extra_set)
    assert seen == {"one-eyed", "three-eyed"}
    with pytest.raises(RuleError):
        BugsAndCo.new(players, 3, {"extra_set": "both"})


@pytest.mark.parametrize("players", [2, 4, 7, 8])
def test_bc_x2_extra_set_is_ignored_outside_five_and_six_players(players: int) -> None:
    game = BugsAndCo.new(players, 3, {"extra_set": "one-eyed"})
    assert game.state.extra_set is None
    expected = 25 if players >= 7 else 15
    assert len({box.symbol_of(t) for t in all_tiles(game)}) == expected


def test_bc18_two_to_eight_players() -> None:
    assert GAMES[SLUG] is BugsAndCo
    for players in range(2, 9):
        assert BugsAndCo.new(players, 0).players == players
    for bad in (1, 9):
        with pytest.raises(RuleError) as err:
            BugsAndCo.new(bad, 0)
        assert err.value.code == "player_count"


def test_bc19_no_handedness_option_online() -> None:
    assert [o.name for o in BugsAndCo.options] == ["extra_set"]
    with pytest.raises(RuleError):
        BugsAndCo.new(3, 0, {"left_handed": "yes"})


# -- start count -----------------------------------------------------------------------------


def test_bc_x5_start_count_is_a_three_second_rule_deadline_then_play() -> None:
    game = BugsAndCo.new(3, 5)
    assert game.state.phase == "start" and game.turn == 0 and game.waiting_for() == frozenset()
    [deadline] = game.deadlines()
    assert (deadline.key, deadline.action, deadline.seconds, deadline.setting) == (
        "bco:start",
        START,
        3.0,
        None,
    )
    assert game.legal_actions(0) == []
    rejects(game, 0, peek(0), "not_started")
    rejects(game, 1, TROPHY, "not_started")
    events = game.apply(SYSTEM, START)
    assert types(events) == ["start"] and events[0].is_public
    assert events[0].data == {"slots": 38, "trophies": [3, 2]}
    assert game.state.phase == "live" and game.turn == 1
    assert game.waiting_for() == frozenset({0, 1, 2})
    rejects(game, SYSTEM, START, "no_deadline")


# -- BC-11 / BC-12: peeking ------------------------------------------------------------------


def test_bc_x8_peek_shows_the_symbol_to_the_peeker_only_and_the_slot_to_all() -> None:
    game = arranged(3)
    events = game.apply(1, peek(7))  # tile 7 = symbol 2
    public, private = events
    assert public.type == "peek" and public.is_public and public.data == {"seat": 1, "slot": 7}
    assert private.type == "peeked" and private.to == frozenset({1})
    assert private.data == {
        "seat": 1,
        "slot": 7,
        "pickup": 1,
        "symbol": 2,
        "name": box.SYMBOL_NAMES[2],
        "eyes": 2,
    }
    assert game.view(1)["you"]["hand"] == {
        "pickup": 1,
        "slot": 7,
        "symbol": 2,
        "name": box.SYMBOL_NAMES[2],
        "eyes": 2,
    }
    for other in (None, 0, 2):
        assert symbols_in(game.view(other)) == []
    assert game.view(None)["seats"][1]["holding"] is True
    assert game.view(None)["seats"][1]["holding_from"] == 7
    assert game.view(None)["slots"][7] is False


def test_bc11_second_peek_of_the_same_slot_is_taken() -> None:
    game = arranged(3)
    game.apply(0, peek(4))
    rejects(game, 1, peek(4), "taken")
    assert game.state.seats[0].held is not None and game.state.seats[0].held.tile == 4
    assert game.state.seats[1].held is None


def test_bc12_only_one_tile_in_the_right_hand() -> None:
    game = arranged(3)
    game.apply(0, peek(4))
    rejects(game, 0, peek(5), "hand_full")
    assert all(a["type"] != "peek" for a in game.legal_actions(0))
    assert game.view(0)["you"]["can_peek"] is False


def test_peek_out_of_range_slot_is_rejected() -> None:
    game = arranged(3)
    rejects(game, 0, peek(38), "bad_slot")
    rejects(game, 0, peek(-1), "bad_slot")


# -- BC-8 / BC-9: keeping ----------------------------------------------------------------------


def test_bc8_kept_tile_is_never_shown_again_even_to_its_owner() -> None:
    game = arranged(3)
    game.apply(0, peek(0))
    events = game.apply(0, keep(1))
    assert types(events) == ["keep"] and events[0].is_public
    assert events[0].data == {"seat": 0, "slot": 0, "kept": 1}
    assert symbols_in([e.data for e in events]) == []
    view = game.view(0)
    assert view["you"]["hand"] is None and view["you"]["kept"] == 1
    assert symbols_in(view) == []
    # nothing offers to look at or put back a kept tile
    assert all(a["type"] in ("peek", "trophy") for a in game.legal_actions(0))
    rejects(game, 0, put_back(1), "empty_hand")
    rejects(game, 0, keep(1), "empty_hand")
    # no running score may hint at the kept tiles (BC-X4)
    assert game.score_breakdown(0) == {"trios": 0, "other_tiles": 0, "trophy": 0, "total": 0}


def test_bc9_hand_sizes_are_public_contents_are_not() -> None:
    game = arranged(3)
    take(game, 2, 0)
    take(game, 2, 1)
    game.apply(2, peek(2))
    for seat in (None, 0, 1, 2):
        row = game.view(seat)["seats"][2]
        assert row == {
            "seat": 2,
            "status": "playing",
            "holding": True,
            "holding_from": 2,
            "kept": 2,
            "trophy": None,
        }
    assert symbols_in(game.view(0)) == [] and symbols_in(game.view(2)) == [0]


# -- BC-10: putting back ----------------------------------------------------------------------


def test_bc10_put_back_into_any_empty_slot_or_by_default_where_it_came_from() -> None:
    game = arranged(3)
    take(game, 1, 20)  # slot 20 now empty
    game.apply(0, peek(3))
    events = game.apply(0, put_back(1 + 1, 20))  # pickup serials: 1 (seat 1), 2 (seat 0)
    assert events[0].type == "put_back" and events[0].is_public
    assert events[0].data == {"seat": 0, "slot": 20, "from_slot": 3, "reason": "put_back"}
    assert game.state.slots[20] == 3 and game.state.slots[3] is None
    game.apply(0, peek(20))
    rejects(game, 0, put_back(3, 5), "occupied")
    rejects(game, 0, put_back(3, 99), "bad_slot")
    assert game.apply(0, put_back(3))[0].data["slot"] == 20
    assert game.state.slots[20] == 3


def test_bc10_put_back_actions_listed_are_default_plus_every_empty_slot() -> None:
    game = arranged(3)
    take(game, 1, 10)
    game.apply(0, peek(3))
    listed = game.legal_actions(0)
    assert keep(2) in listed and put_back(2) in listed
    assert {a.get("slot") for a in listed if a["type"] == "return"} == {None, 3, 10}
    assert TROPHY in listed and len(listed) == 7  # BC-X11: both forms of each empty slot


def put_into(slot: int) -> dict[str, Any]:
    return {"type": "return", "slot": slot}


def test_bc_x10_an_empty_slot_of_the_table_takes_the_tile_in_hand() -> None:
    game = arranged(3)
    take(game, 1, 20)  # slot 20 now empty
    game.apply(0, peek(3))  # pickup 2
    events = game.apply(0, put_into(20))
    assert types(events) == ["put_back"] and events[0].is_public
    assert events[0].data == {"seat": 0, "slot": 20, "from_slot": 3, "reason": "put_back"}
    assert (
        game.state.slots[20] == 3
        and game.state.slots[3] is None
        and game.state.seats[0].held is None
    )
    # its own (held) slot is an empty slot too: clicking it puts the tile back home
    game.apply(0, peek(20))
    assert game.apply(0, put_into(20))[0].data["slot"] == 20
    # refused: empty hand, a full slot, no such slot; a refusal changes nothing
    rejects(game, 0, put_into(3), "empty_hand")
    game.apply(0, peek(4))
    rejects(game, 0, put_into(5), "occupied")
    rejects(game, 0, put_into(38), "bad_slot")
    rejects(game, 0, put_into(-1), "bad_slot")
    # another player's empty origin slot is fair game (BC-10)
    game.apply(1, peek(7))
    assert game.apply(0, put_into(7))[0].data == {
        "seat": 0,
        "slot": 7,
        "from_slot": 4,
        "reason": "put_back",
    }
    # BC-X1: its origin 7 is full now, so the default goes to the next empty slot (wrapping)
    assert game.apply(1, put_back(held_pickup(game, 1)))[0].data["slot"] == 3
    # the pickup form with a slot is still accepted (private buttons)
    game.apply(2, peek(8))
    assert game.apply(2, put_back(held_pickup(game, 2), 4))[0].data["slot"] == 4


def test_bc_x10_empty_slot_before_the_start_after_a_trophy_and_after_stop() -> None:
    game = BugsAndCo.new(3, 1)
    rejects(game, 0, put_into(0), "not_started")
    game = arranged(3)
    game.apply(0, peek(0))
    game.apply(0, TROPHY)  # the tile went home (BC-6)
    rejects(game, 0, put_into(1), "stopped")
    game.apply(1, TROPHY)
    game.apply(2, peek(1))
    game.apply(SYSTEM, STOP_FINAL)
    rejects(game, 2, put_into(1), "too_late")


def test_bc_x10_listed_put_backs_are_the_default_and_every_empty_slot_of_the_table() -> None:
    game = arranged(3)
    take(game, 1, 10)
    game.apply(0, peek(3))
    listed = game.legal_actions(0)
    returns = [a for a in listed if a["type"] == "return"]
    assert returns == [put_back(2), put_into(3), put_into(10), put_back(2, 3), put_back(2, 10)]
    assert game.legal_actions(1) == [peek(s) for s in range(38) if s not in (3, 10)] + [TROPHY]


def test_bc_x1_default_return_when_the_origin_slot_was_refilled() -> None:
    game = arranged(3)
    game.apply(0, peek(5))  # pickup 1
    game.apply(1, peek(6))  # pickup 2
    game.apply(1, put_back(2, 5))  # seat 1 drops its tile into seat 0's slot
    take(game, 2, 7)  # slot 7 empty too
    events = game.apply(0, put_back(1))
    assert events[0].data == {"seat": 0, "slot": 6, "from_slot": 5, "reason": "put_back"}
    # wrapping: origin is the last slot, which is now full, and slot 0 is the next empty one
    game = arranged(3)
    take(game, 2, 0)
    game.apply(0, peek(37))
    game.apply(1, peek(1))
    game.apply(1, put_back(held_pickup(game, 1), 37))
    assert game.apply(0, put_back(held_pickup(game, 0)))[0].data["slot"] == 0


def test_bc_x6_pickup_serial_makes_old_buttons_stale() -> None:
    game = arranged(3)
    game.apply(0, peek(1))
    game.apply(0, put_back(1))
    game.apply(0, peek(2))  # pickup 2
    rejects(game, 0, keep(1), "stale")
    rejects(game, 0, put_back(1), "stale")
    rejects(game, 0, put_back(1, 2), "stale")
    assert game.view(0)["you"]["hand"]["pickup"] == 2
    game.apply(0, keep(2))
    assert game.state.seats[0].kept == [2]


# -- BC-4 / BC-5 / BC-6 / BC-13: trophies ------------------------------------------------------


def test_bc4_trophies_are_taken_strictly_highest_first_with_six_players() -> None:
    game = started(6, 2)
    got = []
    for seat in (4, 0, 5, 2, 1):
        assert game.view(None)["next_trophy"] == game.state.trophies[0]
        events = game.apply(seat, TROPHY)
        got.append(events[0].data["value"])
    assert got == [3, 3, 2, 2, 1]
    assert [game.state.seats[s].trophy for s in range(6)] == [3, 1, 2, None, 3, 2]
    assert game.state.phase == "final"


def test_bc5_simultaneous_trophy_requests_take_in_arrival_order() -> None:
    game = started(3, 2)
    first = game.apply(2, TROPHY)
    second = game.apply(0, TROPHY)
    assert first[0].data == {"seat": 2, "value": 3, "trophies_left": [2]}
    assert second[0].data == {"seat": 0, "value": 2, "trophies_left": []}
    assert types(second) == ["trophy", "final_count"]
    rejects(game, 1, TROPHY, "no_trophy")
    assert game.state.seats[1].trophy is None and game.state.seats[1].status == "playing"


def test_bc6_right_hand_tile_goes_back_to_its_slot_when_taking_a_trophy() -> None:
    game = arranged(3)
    take(game, 0, 0)
    game.apply(0, peek(9))
    events = game.apply(0, TROPHY)
    assert types(events) == ["put_back", "trophy"]
    assert events[0].data == {"seat": 0, "slot": 9, "from_slot": 9, "reason": "trophy"}
    assert game.state.slots[9] == 9 and game.state.seats[0].held is None
    assert game.state.seats[0].kept == [0] and game.state.seats[0].status == "trophy"
    # the player has stopped: nothing more is allowed or offered
    assert game.legal_actions(0) == []
    rejects(game, 0, peek(10), "stopped")
    assert 0 not in game.waiting_for()
    assert game.view(0)["you"]["can_take_trophy"] is False


def test_bc13_trophy_with_no_tiles_scores_its_value() -> None:
    game = started(2, 4)
    game.apply(0, TROPHY)
    assert game.state.phase == "final"
    game.apply(SYSTEM, STOP_FINAL)
    assert game.score_breakdown(0) == {"trios": 0, "other_tiles": 0, "trophy": 3, "total": 3}
    assert game.scores() == [3, 0] and game.winners() == [0]


# -- BC-14 / BC-7: the final countdown and STOP ------------------------------------------------


def test_bc14_last_trophy_starts_a_ten_second_rule_countdown() -> None:
    game = arranged(3)
    [cap] = game.deadlines()
    assert cap.key == "bco:cap"
    game.apply(0, TROPHY)
    events = game.apply(1, TROPHY)
    assert events[-1].type == "final_count" and events[-1].data == {"seconds": 10.0}
    [deadline] = game.deadlines()
    assert deadline.key == "bco:final" and deadline.action == STOP_FINAL
    assert deadline.seconds == 10.0 and deadline.setting is None
    assert deadline.seats == frozenset({2})
    assert game.turn == 1  # peeking buttons stay valid during the countdown
    # the player without a trophy plays on, but no trophy is offered any more
    take(game, 2, 3)
    assert all(a["type"] != "trophy" for a in game.legal_actions(2))
    assert game.view(2)["you"]["can_take_trophy"] is False
    rejects(game, 2, TROPHY, "no_trophy")
    rejects(game, SYSTEM, STOP_CAP, "no_deadline")  # BC-X3: the cap is gone
    events = game.apply(SYSTEM, STOP_FINAL)
    assert types(events) == ["stop", "game_over"]
    assert game.is_over and game.turn == 2 and game.deadlines() == []
    # anything arriving after STOP is too late
    rejects(game, 2, peek(4), "too_late")
    rejects(game, 2, TROPHY, "too_late")
    rejects(game, SYSTEM, STOP_FINAL, "no_deadline")
    assert game.legal_actions(2) == [] and game.waiting_for() == frozenset()


def test_bc7_right_hand_tiles_go_back_at_stop_and_do_not_score() -> None:
    game = arranged(4)
    take(game, 3, 0)
    take(game, 3, 1)
    take(game, 3, 2)  # a trio for seat 3
    for seat in (0, 1, 2):
        game.apply(seat, TROPHY)
    game.apply(3, peek(3))  # symbol 1: would cost a point if it scored
    events = game.apply(SYSTEM, STOP_FINAL)
    assert types(events) == ["stop", "put_back", "game_over"]
    assert events[0].data == {"why": "countdown"}
    assert events[1].data == {"seat": 3, "slot": 3, "from_slot": 3, "reason": "stop"}
    assert game.state.slots[3] == 3 and game.state.seats[3].held is None
    assert game.state.seats[3].status == "stopped"
    assert game.score_breakdown(3) == {"trios": 3, "other_tiles": 0, "trophy": 0, "total": 3}


# -- BC-15: empty table and the platform cap --------------------------------------------------


def test_bc15_empty_table_leaves_only_trophies_and_the_cap_stops_play() -> None:
    game = arranged(2)
    for slot in range(38):
        take(game, slot % 2, slot)
    assert game.view(None)["on_table"] == 0
    for seat in (0, 1):
        assert game.legal_actions(seat) == [TROPHY]
        assert game.view(seat)["you"]["can_peek"] is False
    [cap] = game.deadlines()
    assert (cap.key, cap.action, cap.seconds, cap.setting) == (
        "bco:cap",
        STOP_CAP,
        None,  # only ever the host's setting
        "bco_live_cap",
    )
    assert cap.seats == frozenset({0, 1})
    events = game.apply(SYSTEM, STOP_CAP)
    assert types(events) == ["stop", "game_over"] and events[0].data == {"why": "cap"}
    assert game.state.stop_reason == "cap" and game.state.trophies == [3]  # nobody got the trophy
    assert all(p.trophy is None and p.status == "stopped" for p in game.state.seats)
    # seat 0 kept tiles 0,2,4,...,36: each symbol's tiles split 2/1 or 1/2 between the seats
    for seat in (0, 1):
        counts = Counter(game.kept_symbols(seat))
        assert max(counts.values()) <= 3  # BC-3
        parts = game.score_breakdown(seat)
        assert parts == breakdown(game.kept_symbols(seat), None)
    assert game.score_breakdown(0)["total"] == -19 and game.score_breakdown(1)["total"] == -19


def test_bc3_no_hand_can_hold_more_than_three_of_a_symbol() -> None:
    game = arranged(2)
    for slot in range(38):
        take(game, 0, slot)  # seat 0 keeps the whole table
    counts = Counter(game.kept_symbols(0))
    assert max(counts.values()) == 3
    game.apply(1, TROPHY)
    game.apply(SYSTEM, STOP_FINAL)
    # symbols 0..11 complete (tiles 0..35), tiles 36, 37 are two of symbol 12
    assert game.score_breakdown(0) == {"trios": 36, "other_tiles": -2, "trophy": 0, "total": 34}
    assert game.winners() == [0]


def test_bc_x3_the_cap_runs_only_during_live() -> None:
    game = BugsAndCo.new(4, 0)
    assert [d.key for d in game.deadlines()] == ["bco:start"]
    rejects(game, SYSTEM, STOP_CAP, "no_deadline")
    game.apply(SYSTEM, START)
    assert [d.key for d in game.deadlines()] == ["bco:cap"]
    for seat in (0, 1, 2):
        game.apply(seat, TROPHY)
    assert [d.key for d in game.deadlines()] == ["bco:final"]


# -- BC-16 / BC-17 and the rulebook example ----------------------------------------------------


def test_rulebook_example_scores_eleven() -> None:
    game = arranged(3)
    for slot in range(12):  # symbols 0, 1, 2, 3: four sets of three
        take(game, 0, slot)
    take(game, 0, 12)  # two identical tiles (symbol 4)
    take(game, 0, 13)
    take(game, 0, 15)  # a single tile (symbol 5)
    game.apply(1, TROPHY)  # the 3
    game.apply(0, TROPHY)  # the "2" trophy
    game.apply(SYSTEM, STOP_FINAL)
    assert game.score_breakdown(0) == {"trios": 12, "other_tiles": -3, "trophy": 2, "total": 11}
    assert game.scores() == [11, 3, 0] and game.winners() == [0]
    assert breakdown([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5], 2)["total"] == 11


def test_bc16_ties_share_the_win() -> None:
    game = arranged(3)
    take(game, 2, 0)
    take(game, 2, 1)
    take(game, 2, 2)  # 3 points
    game.apply(0, TROPHY)  # 3 points
    game.apply(1, TROPHY)  # 2 points
    events = game.apply(SYSTEM, STOP_FINAL)
    assert game.scores() == [3, 2, 3]
    assert game.winners() == [0, 2]
    assert events[-1].data["winners"] == [0, 2]


def test_bc17_removed_tiles_are_revealed_only_at_the_end() -> None:
    game = started(4, 9)
    removed_symbols = sorted(box.symbol_of(t) for t in game.state.removed)
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view["removed_count"] == 7 and view["result"] is None
        assert '"removed":' not in json.dumps(view)
    # swapping the box with table tiles changes no view: nothing of the box shows
    swapped = BugsAndCo.from_dict(game.to_dict())
    swapped.state.removed, swapped.state.slots[:7] = (
        list(game.state.slots[:7]),
        list(game.state.removed),
    )
    assert removed_symbols != sorted(box.symbol_of(t) for t in swapped.state.removed)
    for seat in (None, 0, 1, 2, 3):
        assert swapped.view(seat) == game.view(seat)
    for seat in (0, 1, 2):
        game.apply(seat, TROPHY)
    events = game.apply(SYSTEM, STOP_FINAL)
    summary = events[-1]
    assert summary.type == "game_over" and summary.is_public
    assert summary.data["removed"] == removed_symbols
    assert game.view(None)["result"]["removed"] == removed_symbols


def test_game_over_summary_reveals_hands_trophies_and_breakdowns() -> None:
    game = arranged(3)
    take(game, 0, 0)
    take(game, 0, 4)
    game.apply(1, TROPHY)
    game.apply(2, TROPHY)
    [*_, over] = game.apply(SYSTEM, STOP_FINAL)
    assert over.data["why"] == "countdown"
    assert over.data["hands"] == [[0, 1], [], []]
    assert over.data["trophies"] == [None, 3, 2]
    assert over.data["scores"] == [-2, 3, 2] and over.data["winners"] == [1]
    assert over.data["breakdowns"][0] == {
        "trios": 0,
        "other_tiles": -2,
        "trophy": 0,
        "total": -2,
    }
    assert json.loads(json.dumps(over.data)) == over.data
    assert game.view(0)["result"] == over.data


# -- validation, SYSTEM, views -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, "peek", "malformed"),
        (0, None, "malformed"),
        (0, {"slot": 1}, "malformed"),
        (0, {"type": "dance"}, "unknown_action"),
        (0, {"type": "peek"}, "malformed"),
        (0, {"type": "peek", "slot": "1"}, "malformed"),
        (0, {"type": "peek", "slot": True}, "malformed"),
        (0, {"type": "peek", "slot": 1.0}, "malformed"),
        (0, {"type": "peek", "slot": 1, "extra": 2}, "malformed"),
        (0, {"type": "keep"}, "malformed"),
        (0, {"type": "trophy", "value": 3}, "malformed"),
        (0, {"type": "return"}, "malformed"),
        (0, {"type": "return", "slot": "1"}, "malformed"),
        (0, {"type": "return", "slot": 1, "extra": 2}, "malformed"),
        (0, {"type": "return", "slot": 1}, "empty_hand"),
        (0, START, "system_only"),
        (0, STOP_CAP, "system_only"),
        (3, peek(1), "not_seated"),
        (-2, peek(1), "not_seated"),
        (True, peek(1), "not_seated"),
        (SYSTEM, peek(1), "no_deadline"),
        (SYSTEM, START, "no_deadline"),
        (SYSTEM, STOP_FINAL, "no_deadline"),
        (SYSTEM, {"type": "stop", "why": "bored"}, "no_deadline"),
        (SYSTEM, "stop", "no_deadline"),
        (0, keep(1), "empty_hand"),
        (0, put_back(1), "empty_hand"),
    ],
)
def test_rejected_actions_change_nothing(seat: Any, action: Any, code: str) -> None:
    game = arranged(3)
    rejects(game, seat, action, code)


def test_view_is_plain_json_with_what_a_presenter_needs() -> None:
    game = arranged(3)
    take(game, 1, 0)
    game.apply(1, peek(1))
    view = game.view(1)
    assert json.loads(json.dumps(view)) == view
    assert view["game"] == SLUG and view["phase"] == "live" and view["turn"] == 1
    assert view["seat"] == 1 and view["players"] == 3 and view["extra_set"] is None
    assert view["on_table"] == 36 and view["slots"][:3] == [False, False, True]
    assert view["trophies_left"] == [3, 2] and view["next_trophy"] == 3
    assert view["waiting_for"] == [0, 1, 2]
    assert view["you"] == {
        "seat": 1,
        "status": "playing",
        "kept": 1,
        "trophy": None,
        "hand": {"pickup": 2, "slot": 1, **box.describe(0)},
        "can_peek": False,
        "can_take_trophy": True,
    }
    spectator = game.view(None)
    assert spectator["you"] is None and spectator["seat"] is None
    assert {k: v for k, v in spectator.items() if k not in ("you", "seat")} == {
        k: v for k, v in view.items() if k not in ("you", "seat")
    }
    with pytest.raises(RuleError):
        game.view(3)


def test_bc_x4_scores_and_winners_before_the_end_show_only_public_parts() -> None:
    game = arranged(3)
    for slot in range(3):
        take(game, 0, slot)
    game.apply(1, TROPHY)
    assert game.scores() == [0, 3, 0]
    assert game.public_scores() == [0, 3, 0]  # seat 0's kept trio is nobody's to see
    assert game.winners() == []


def test_snapshot_round_trips_through_json_mid_game() -> None:
    game = arranged(4)
    take(game, 0, 0)
    game.apply(1, peek(5))
    game.apply(2, TROPHY)
    raw = json.loads(json.dumps(game.to_dict()))
    copy = BugsAndCo.from_dict(raw)
    assert copy.to_dict() == game.to_dict()
    for g in (game, copy):
        g.apply(1, keep(2))
    assert copy.to_dict() == game.to_dict()
    with pytest.raises(ValueError):
        BugsAndCo.from_dict({**raw, "phase": "lobby"})


# -- audit: table columns, exact legal lists, BC-X1 on trophy and STOP, copies ----------------


@pytest.mark.parametrize(
    ("players", "complete", "without_trophy"),
    [
        (2, (8, 12), 1),
        (3, (8, 12), 1),
        (4, (8, 12), 1),
        (5, (13, 17), 1),
        (6, (13, 17), 1),
        (7, (18, 22), 2),
        (8, (18, 22), 3),
    ],
)
def test_bc1_table_columns_complete_symbols_and_players_without_a_trophy(
    players: int, complete: tuple[int, int], without_trophy: int
) -> None:
    """RULINGS §2.1: "Symbols complete in play" and "Players without trophy at STOP"."""
    seen = set()
    for seed in range(60):
        game = BugsAndCo.new(players, seed)
        on_table = Counter(box.symbol_of(t) for t in game.state.slots if t is not None)
        full = sum(1 for n in on_table.values() if n == 3)
        touched = len({box.symbol_of(t) for t in game.state.removed})
        assert 3 <= touched <= 7 and full == len(game.view(None)["symbols"]) - touched
        assert complete[0] <= full <= complete[1]
        seen.add(full)
    assert len(seen) > 1
    game = started(players, 5)
    for seat in range(len(box.TROPHIES[players])):
        game.apply(seat, TROPHY)
    assert game.state.phase == "final" and len(game.state.playing) == without_trophy
    game.apply(SYSTEM, STOP_FINAL)
    assert sum(p.trophy is None for p in game.state.seats) == without_trophy


def every_candidate(game: BugsAndCo) -> list[dict[str, Any]]:
    """Every action shape with every slot (one beyond each end) and pickup serial nearby."""
    slots = range(-1, len(game.state.slots) + 1)
    pickups = range(0, game.state.pickups + 2)
    out: list[dict[str, Any]] = [TROPHY, START, STOP_CAP, STOP_FINAL]
    out += [peek(s) for s in slots] + [put_into(s) for s in slots]
    out += [keep(p) for p in pickups] + [put_back(p) for p in pickups]
    out += [put_back(p, s) for p in pickups for s in slots]
    return out


def accepted_exactly_as_listed(game: BugsAndCo) -> None:
    snapshot = game.to_dict()
    for seat in range(-1, game.players + 1):
        if seat == SYSTEM:
            listed = [d.action for d in game.deadlines()]
        else:
            listed = game.legal_actions(seat)
        for action in every_candidate(game):
            copy = BugsAndCo.from_dict(snapshot)
            if action in listed:
                copy.apply(seat, action)
            else:
                rejects(copy, seat, action, code=_code_of(copy, seat, action))


def _code_of(game: BugsAndCo, seat: int, action: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as err:
        BugsAndCo.from_dict(game.to_dict()).apply(seat, action)
    return err.value.code


def test_bc_x11_legal_actions_are_exactly_what_apply_accepts() -> None:
    """Before the fix ``{"type": "return", "pickup": p, "slot": j}`` was accepted but not
    listed, so a bot (or a test of "every listed action") never saw that choice."""
    game = BugsAndCo.new(3, 1)
    accepted_exactly_as_listed(game)  # the start count: only the clock
    game = arranged(3)
    accepted_exactly_as_listed(game)  # nobody holds a tile
    take(game, 1, 10)
    game.apply(0, peek(3))
    game.apply(2, peek(4))
    assert put_back(2, 10) in game.legal_actions(0)
    assert put_back(2, 4) in game.legal_actions(0)  # seat 2's origin is empty too (BC-10)
    accepted_exactly_as_listed(game)
    game.apply(1, TROPHY)
    game.apply(2, TROPHY)  # the last trophy, seat 2's tile goes home
    assert game.state.phase == "final"
    accepted_exactly_as_listed(game)
    game.apply(SYSTEM, STOP_FINAL)
    accepted_exactly_as_listed(game)


def test_bc6_trophy_while_holding_with_a_refilled_origin_uses_bc_x1() -> None:
    game = arranged(3)
    game.apply(0, peek(5))  # pickup 1
    game.apply(1, peek(6))  # pickup 2
    game.apply(1, put_into(5))  # seat 1 fills seat 0's origin
    events = game.apply(0, TROPHY)
    assert types(events) == ["put_back", "trophy"]
    assert events[0].data == {"seat": 0, "slot": 6, "from_slot": 5, "reason": "trophy"}
    assert game.state.slots[5] == 6 and game.state.slots[6] == 5 and game.state.seats[0].kept == []
    assert game.score_breakdown(0)["total"] == 3


def test_bc7_stop_returns_right_hand_tiles_in_seat_order_with_bc_x1() -> None:
    game = arranged(4)
    game.apply(3, peek(9))  # pickup 1: seat 3 holds tile 9
    game.apply(2, peek(8))  # pickup 2
    game.apply(2, put_into(9))  # seat 2 drops tile 8 into seat 3's origin
    game.apply(2, peek(0))  # pickup 3: seat 2 holds tile 0, slot 8 is empty
    game.apply(1, peek(1))  # pickup 4: seat 1 holds tile 1
    game.apply(1, put_into(0))  # into seat 2's origin
    game.apply(1, peek(2))  # pickup 5
    game.apply(0, TROPHY)
    events = game.apply(SYSTEM, STOP_CAP)  # the platform cap, mid-LIVE
    assert types(events) == ["stop", "put_back", "put_back", "put_back", "game_over"]
    assert game.state.trophies == [2, 1] and game.state.seats[0].trophy == 3
    moved = [(e.data["seat"], e.data["from_slot"], e.data["slot"]) for e in events[1:-1]]
    assert moved == [(1, 2, 2), (2, 0, 1), (3, 9, 8)]
    assert all(e.data["reason"] == "stop" for e in events[1:-1])
    assert sorted(t for t in game.state.slots if t is not None) == list(range(38))
    assert [len(p.kept) for p in game.state.seats] == [0, 0, 0, 0]
    assert game.scores() == [3, 0, 0, 0] and game.winners() == [0]


def test_what_the_engine_hands_out_is_a_copy() -> None:
    """Views, listed actions, deadlines, events and snapshots share nothing with the state."""
    game = arranged(3)
    take(game, 0, 0)
    game.apply(1, peek(1))
    before = json.dumps(game.to_dict(), sort_keys=True)
    for seat in (None, 0, 1, 2):
        view = game.view(seat)
        view["trophies_left"].clear()
        view["symbols"][0]["eyes"] = 9
        view["seats"][0]["kept"] = 9
    for seat in (0, 1, 2):
        for action in game.legal_actions(seat):
            action["slot"] = 99
    game.deadlines()[0].action["why"] = "bored"
    game.to_dict()["slots"].clear()
    game.to_dict()["seats"][0]["kept"].append(5)
    assert json.dumps(game.to_dict(), sort_keys=True) == before
    events = game.apply(2, TROPHY)
    events[0].data["trophies_left"].append(7)
    assert game.state.trophies == [2]
    game = BugsAndCo.from_dict(json.loads(before))
    game.apply(2, TROPHY)
    events = game.apply(0, TROPHY) + game.apply(SYSTEM, STOP_FINAL)
    events[-1].data["hands"][0].append(12)
    events[-1].data["removed"].clear()
    assert game.view(None)["result"]["hands"][0] == [0]
    assert len(game.view(None)["result"]["removed"]) == 7
    assert game.deadlines() == [] and game.view(None)["trophies_left"] == []
