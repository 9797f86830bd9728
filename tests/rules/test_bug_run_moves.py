"""Setup, movement, bridges, floors, stairs and their rulings (§4.1, §4.4, §4.8)."""

from __future__ import annotations

import pytest

from rules.bug_run import board, cards, driver
from rules.bug_run import content as C
from rules.bug_run.engine import BugRun
from rules.bug_run.state import Position
from rules.core import RuleError

from .test_bug_run_support import (
    GREEN,
    RED,
    act,
    acts,
    adventure,
    clear_stack,
    crown_hero,
    finish_moves,
    game,
    hand,
    loot_on_top,
    next_clockwise,
    place,
    plain_board,
    script,
    set_card,
    set_column,
    set_hand,
    set_level_decks,
    set_space,
    set_teams,
    stairs_fought,
    start_turn,
    top,
    vp,
    with_hero,
    wound,
)


def test_br1_player_count_and_two_heroes_each_for_two_players() -> None:
    for bad in (1, 7):
        with pytest.raises(RuleError) as err:
            BugRun.new(bad, 1)
        assert err.value.code == "player_count"
    g = game(2, 3)
    assert [h.seat for h in g.state.heroes] == [0, 0, 1, 1]
    assert len({h.name for h in g.state.heroes}) == 4
    assert g.view(None)["side"] == "small" and [s.vp for s in g.state.seats] == [10, 10]
    assert game(5, 3).view(None)["side"] == "large"


def test_setup_stocks_market_and_mode_option() -> None:
    g = game(4, 8, "powers")
    assert all((h.hearts, h.arrows, h.coins) == (5, 4, 5) for h in g.state.heroes)
    assert len(g.state.bazaar.market) == 3 and len(g.state.bazaar.deck) == 29
    assert [s.vp for s in g.state.seats] == [5, 5, 5, 5]
    assert g.view(0)["heroes"][0]["power"] == C.POWERS[g.state.heroes[0].name]
    assert game(4, 8).view(0)["heroes"][0]["power"] is None
    with pytest.raises(RuleError):
        BugRun.new(4, 8, {"mode": "chaos"})


def test_br4_the_crown_is_a_random_hero_who_trades_first() -> None:
    crowns = set()
    for seed in range(12):
        g = game(4, seed)
        crowns.add(crown_hero(g))
        assert top(g)["k"] == "trade" and top(g)["hero"] == crown_hero(g)
    assert len(crowns) > 1


def test_br6_stair_stack_gives_level_k_its_card_and_builds_the_roof_in_order() -> None:
    g = adventure(3, 11)
    stack = list(g.state.stairs_stack)
    assert g.context.stairs_slot().card == stack[0]
    for h in range(3):
        place(g, h, g.context.stairs_col(), space=h + 1)
    clear_stack(g)
    stairs_fought(g)
    driver.settle(g.context, [])
    assert g.state.roof == [stack[0]] and g.state.level == 2
    assert g.context.stairs_slot().card == stack[1]


def test_br7_lines_fill_left_to_right_upper_before_lower() -> None:
    g = game(5, 4)
    monsters = [f"M2-{i}" for i in range(11, 21)]
    set_level_decks(g, level_card="LV1", monsters={2: monsters}, explore=sorted(C.EXPLORATION))
    board.build_level(g.context, 2, [])
    # LV1 5-6 side, level 2: M/M | ? | M/? | M/M | ?/M | M
    cols = g.state.board
    assert cols[1]["U"].card == "M2-11" and cols[1]["D"].card == "M2-12"
    assert cols[2]["C"].card == "B1"
    assert cols[3]["U"].card == "M2-13" and cols[3]["D"].card == "B2"
    assert cols[-1]["C"].card == g.state.stairs_stack[1]


def test_br8_five_six_spaces_are_padlocked_below_five_players() -> None:
    for n, locked in ((2, True), (4, True), (5, False), (6, False)):
        g = adventure(n, 2)
        slot = set_card(g, 1, "M2-14")  # Pitcher Plant: any, any, any56
        assert slot.spaces[2].lock is locked
        stairs = g.context.stairs_slot().spaces
        assert [sp.lock for sp in stairs[4:]] == [locked, locked]


def test_br9_bridges_are_crossed_left_to_right_never_entered() -> None:
    g = adventure(3, 5)
    plain_board(g)
    set_card(g, 1, "B1")
    set_card(g, 2, "B2")
    h = crown_hero(g)
    start_turn(g, h)
    assert not any(a["col"] in (1, 2) for a in acts(g, h) if a["type"] == "move")
    before = vp(g, h)
    ev = act(g, h, {"type": "move", "col": 3, "floor": "C", "space": 0})
    assert top(g)["k"] == "bridge" and top(g)["card"] == "B1"
    act(g, h, {"type": "bridge", "mode": "stable"})
    assert top(g)["card"] == "B2"
    script(g, coins=[GREEN])
    ev = act(g, h, {"type": "bridge", "mode": "risky"})
    assert vp(g, h) == before + 2 and g.context.hero(h).coins == 5 + 4
    assert [e.data["result"] for e in ev if e.type == "toss"] == ["green"]
    assert g.context.hero(h).pos == Position(3, "C", 0)


def test_br21_risky_bridge_red_loss_can_kill() -> None:
    g = adventure(3, 5)
    plain_board(g)
    set_card(g, 1, "B6")
    h = crown_hero(g)
    with_hero(g, h, hearts=1)
    start_turn(g, h)
    act(g, h, {"type": "move", "col": 2, "floor": "C", "space": 0})
    script(g, coins=[RED])
    ev = act(g, h, {"type": "bridge", "mode": "risky"})
    assert any(e.type == "death" for e in ev) and g.context.hero(h).hearts == 5


def five_player_floors() -> BugRun:
    g = adventure(5, 6)
    for col in range(1, g.context.stairs_col()):
        set_column(g, col, "M1-01")
    set_column(g, 1, "M1-03", "B1")
    set_column(g, 3, "M1-05", "M1-06")
    return g


def test_br10_floors_change_only_through_central_cards() -> None:
    g = five_player_floors()
    h = crown_hero(g)
    start_turn(g, h)
    moves = [a for a in acts(g, h) if a["type"] == "move"]
    # C -> C across a split column with a bridge on one floor: the mover declares the route
    assert {"type": "move", "col": 2, "floor": "C", "route": "U", "space": 0} in moves
    assert {"type": "move", "col": 2, "floor": "C", "route": "D", "space": 0} in moves
    assert {"type": "move", "col": 3, "floor": "D", "space": 0} in moves
    place(g, h, 1, "U", 0)
    moves = [a for a in acts(g, h) if a["type"] == "move"]
    assert {"type": "move", "col": 3, "floor": "U", "space": 0} in moves
    assert not any(a["floor"] == "D" for a in moves)
    # going down from the entrance to the lower card beyond crosses the lower bridge
    g2 = five_player_floors()
    h2 = g2.state.crown
    start_turn(g2, h2)
    act(g2, h2, {"type": "move", "col": 3, "floor": "D", "space": 0})
    assert top(g2)["k"] == "bridge" and top(g2)["card"] == "B1"


def test_br10_the_upper_route_skips_the_lower_bridge() -> None:
    g = five_player_floors()
    h = crown_hero(g)
    start_turn(g, h)
    act(g, h, {"type": "move", "col": 2, "floor": "C", "route": "U", "space": 0})
    assert top(g)["k"] == "turn" and top(g)["hero"] != h


def test_br11_a_completed_quest_cannot_be_entered() -> None:
    g = adventure(3, 5)
    plain_board(g)
    set_card(g, 1, "Q13").locked = True
    set_card(g, 2, "M1-01").defeated = True
    h = crown_hero(g)
    start_turn(g, h)
    assert not any(a["col"] in (1, 2) for a in acts(g, h) if a["type"] == "move")


def test_br63_straight_from_the_entrance_to_the_stairs() -> None:
    g = adventure(3, 5)
    plain_board(g)
    set_card(g, 2, "B4")
    h = crown_hero(g)
    start_turn(g, h)
    act(g, h, {"type": "move", "col": g.context.stairs_col(), "floor": "C", "space": 1})
    assert top(g)["k"] == "bridge"
    act(g, h, {"type": "bridge", "mode": "stable"})
    assert g.context.on_stairs(h) and g.context.hero(h).arrows == 5


def test_br48_full_monsters_need_an_optional_extra() -> None:
    g = adventure(3, 5)
    plain_board(g)
    h = crown_hero(g)
    others = [x for x in range(3) if x != h]
    place(g, others[0], 1, space=0)
    place(g, others[1], 1, space=1)
    start_turn(g, h)
    assert not any(a["col"] == 1 for a in acts(g, h) if a["type"] == "move")
    set_hand(g, h, ["LT12-1"])
    extra = {"type": "move", "col": 1, "floor": "C", "extra": "LT12-1"}
    assert extra in acts(g, h)
    act(g, h, extra)
    slot = g.context.slot(1, "C")
    assert len(slot.spaces) == 3 and slot.spaces[2].hero == h
    assert slot.spaces[2].weapon == "any" and hand(g, h) == []
    set_card(g, 2, "Q13")
    set_space(g, 2, 0, occupant=others[0])
    set_space(g, 2, 1, occupant=others[1])
    set_hand(g, h, ["LT12-1"])
    start_turn(g, h)
    assert not any(a.get("extra") and a["col"] == 2 for a in acts(g, h))


def test_only_one_space_per_weapon_symbol_is_offered() -> None:
    g = adventure(3, 5)
    plain_board(g, "M2-11")  # any, sw, any
    h = crown_hero(g)
    start_turn(g, h)
    col1 = [a["space"] for a in acts(g, h) if a["type"] == "move" and a["col"] == 1]
    assert col1 == [0, 1]


def test_stairs_entry_gains_costs_and_the_crown() -> None:
    g = adventure(3, 5)
    plain_board(g)
    set_card(g, g.context.stairs_col(), "ST2")  # crown: pay 1h, +2vp, +L, +2a
    h = crown_hero(g)
    start_turn(g, h)
    stairs = [a["space"] for a in acts(g, h) if a["col"] == g.context.stairs_col()]
    assert stairs == [0, 1, 2, 3]
    act(g, h, {"type": "move", "col": g.context.stairs_col(), "floor": "C", "space": 0})
    assert g.context.hero(h).hearts == 4


def test_br19_a_heart_cost_needs_more_hearts_and_unpayable_spaces_pay_what_they_can() -> None:
    g = adventure(3, 5)
    plain_board(g)
    set_card(g, g.context.stairs_col(), "ST2")
    h = crown_hero(g)
    with_hero(g, h, hearts=1)
    start_turn(g, h)
    assert [a["space"] for a in acts(g, h) if a["col"] == g.context.stairs_col()] == [1, 2, 3]
    # every free space costs something you cannot pay -> any free space, pay what you can
    g2 = adventure(3, 5)
    plain_board(g2)
    set_card(g2, g2.context.stairs_col(), "ST4")  # crown: pay 3c; S4 free of cost
    h2 = g2.state.crown
    others = [x for x in range(3) if x != h2]
    place(g2, others[0], g2.context.stairs_col(), space=1)
    place(g2, others[1], g2.context.stairs_col(), space=2)
    set_space(g2, g2.context.stairs_col(), 3, lock=True)
    with_hero(g2, h2, coins=2)
    start_turn(g2, h2)
    assert [a["space"] for a in acts(g2, h2) if a["col"] == g2.context.stairs_col()] == [0]
    act(g2, h2, {"type": "move", "col": g2.context.stairs_col(), "floor": "C", "space": 0})
    assert g2.context.hero(h2).coins == 0


def test_br70_a_loot_card_can_be_gained_on_the_stairs() -> None:
    g = adventure(3, 5)
    plain_board(g)
    set_card(g, g.context.stairs_col(), "ST2")
    h = crown_hero(g)
    start_turn(g, h)
    loot_on_top(g, "LT26-1")
    act(g, h, {"type": "move", "col": g.context.stairs_col(), "floor": "C", "space": 2})
    assert "LT26-1" in g.context.hero(h).faceup


def test_br27_waiting_on_the_stairs_pays_the_reward_while_others_are_at_the_entrance() -> None:
    g = adventure(3, 5)
    set_card(g, g.context.stairs_col(), "ST1")  # wait: 2c
    h = crown_hero(g)
    place(g, h, g.context.stairs_col(), space=1)
    with_hero(g, h, faceup=["BZ02-1"])
    with_hero(g, h, hearts=3)
    set_hand(g, h, ["LT01-1"])
    start_turn(g, h)
    assert acts(g, h) == [{"type": "wait"}]  # no potion, no Gold Coins on the stairs
    clear_stack(g)
    next_clockwise(g, h)
    driver.settle(g.context, [])
    assert g.context.hero(h).coins == 7 and top(g)["hero"] != h


def test_br23_a_full_stock_turns_a_printed_reward_into_one_vp() -> None:
    g = adventure(3, 5)
    set_card(g, g.context.stairs_col(), "ST1")
    h = crown_hero(g)
    place(g, h, g.context.stairs_col(), space=1)
    with_hero(g, h, coins=15)
    before = vp(g, h)
    clear_stack(g)
    next_clockwise(g, h)
    driver.settle(g.context, [])
    assert g.context.hero(h).coins == 15 and vp(g, h) == before + 1


def test_br22_caps_cut_gains_but_purchases_are_allowed() -> None:
    g = game(3, 5)
    h = top(g)["hero"]
    with_hero(g, h, hearts=9)
    act(g, h, {"type": "buy_hearts"})
    assert g.context.hero(h).hearts == 10 and g.context.hero(h).coins == 2


def test_br28_an_empty_crown_space_keeps_the_crown() -> None:
    g = adventure(3, 5)
    crown = crown_hero(g)
    for h in range(3):
        place(g, h, g.context.stairs_col(), space=h + 1)
    clear_stack(g)
    stairs_fought(g)
    driver.settle(g.context, [])
    assert g.state.crown == crown and g.state.level == 2


def test_the_crown_space_moves_the_crown() -> None:
    g = adventure(3, 5)
    new = (crown_hero(g) + 1) % 3
    for h in range(3):
        place(g, h, g.context.stairs_col(), space=0 if h == new else h + 1)
    clear_stack(g)
    stairs_fought(g)
    driver.settle(g.context, [])
    assert g.state.crown == new and top(g)["k"] == "trade" and top(g)["hero"] == new


def test_br47_reserved_seat_blocks_others_and_lapses_on_entry() -> None:
    g = adventure(3, 5)
    h = crown_hero(g)
    other = (h + 1) % 3
    set_hand(g, h, ["LT13-1"])
    start_turn(g, h)
    act(g, h, {"type": "play", "card": "LT13-1", "space": 0})
    assert g.context.stairs_slot().spaces[0].reserved == h
    start_turn(g, other)
    assert not any(a["col"] == g.context.stairs_col() and a["space"] == 0 for a in acts(g, other))
    start_turn(g, h)
    act(g, h, {"type": "move", "col": g.context.stairs_col(), "floor": "C", "space": 1})
    finish_moves(g)
    assert g.context.stairs_slot().spaces[0].reserved is None


def test_br65_running_away_keeps_wounds_and_padlocks_a_started_duel() -> None:
    g = adventure(3, 5)
    plain_board(g)
    wound(g, 1, 2)
    set_card(g, 2, "Q11")
    h = crown_hero(g)
    place(g, h, 1)
    start_turn(g, h)
    act(g, h, {"type": "move", "col": 2, "floor": "C", "space": 0})
    assert g.context.slot(1, "C").wounds == 2
    start_turn(g, h)
    script(g, coins=[GREEN])
    act(g, h, {"type": "quest"})
    assert g.context.slot(2, "C").duel == 1 and not g.context.slot(2, "C").locked
    start_turn(g, h)
    act(g, h, {"type": "move", "col": 3, "floor": "C", "space": 0})
    assert g.context.slot(2, "C").locked


def test_br24_free_moves_are_mandatory_and_only_moves() -> None:
    g = adventure(3, 5)
    plain_board(g)
    h = crown_hero(g)
    place(g, h, 1)
    wound(g, 1, 2)
    start_turn(g, h)
    with_hero(g, h, faceup=["BZ02-1"])
    with_hero(g, h, hearts=3)
    script(g, faces=[3, 6])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert top(g)["k"] == "freemove"
    assert {a["type"] for a in acts(g, h)} == {"move"}
    assert any(a["col"] == g.context.stairs_col() for a in acts(g, h))


def test_br29_no_card_can_be_played_on_the_stairs() -> None:
    g = adventure(3, 5)
    h = crown_hero(g)
    place(g, h, g.context.stairs_col(), space=1)
    with_hero(g, h, faceup=["BZ01-1", "BZ07-1"])
    with_hero(g, h, hearts=2)
    set_hand(g, h, ["LT01-1", "LT07-1", "LT13-1", "LT05-1"])
    start_turn(g, h)
    assert acts(g, h) == [{"type": "wait"}]
    assert (
        cards.play_options(g.context, h, "turn") != []
    )  # the same hand off the stairs would be playable


def test_brx1_heroes_are_dealt_from_the_seed() -> None:
    names = [tuple(h.name for h in game(6, seed).state.heroes) for seed in range(6)]
    assert all(sorted(n) == sorted(C.POWERS) for n in names)
    assert len(set(names)) > 1
    assert names[0] == tuple(h.name for h in game(6, 0).state.heroes)


def test_br47_one_reservation_per_hero_and_on_its_team_in_two_player_fights() -> None:
    g = adventure(3, 5)
    h = crown_hero(g)
    set_hand(g, h, ["LT13-1", "LT13-2"])
    start_turn(g, h)
    act(g, h, {"type": "play", "card": "LT13-1", "space": 1})
    assert not any(a["type"] == "play" and a["card"] == "LT13-2" for a in acts(g, h))
    g2 = adventure(2, 5)
    set_card(g2, g2.context.stairs_col(), "ST8")
    set_teams(g2, {0: "top", 1: "bottom"})
    assert cards.reservable(g2.context, 0) == [0, 1] and cards.reservable(g2.context, 2) == [2, 3]


def test_lt12_the_optional_extra_space_vanishes_when_its_hero_leaves() -> None:
    # An Optional Extra lets its hero stand on a full monster; once that hero leaves, the card
    # is full again: nobody may walk onto the extra space without playing a card.
    g = adventure(4, 5)
    plain_board(g)
    h = crown_hero(g)
    a, b, c = [x for x in range(4) if x != h]
    place(g, a, 1, space=0)
    place(g, b, 1, space=1)
    set_hand(g, h, ["LT12-1"])
    start_turn(g, h)
    act(g, h, {"type": "move", "col": 1, "floor": "C", "extra": "LT12-1"})
    assert len(g.context.slot(1, "C").spaces) == 3
    start_turn(g, h)
    act(g, h, next(m for m in acts(g, h) if m["type"] == "move" and m["col"] == 2))
    assert len(g.context.slot(1, "C").spaces) == 2
    start_turn(g, c)
    assert not any(m["col"] == 1 for m in acts(g, c) if m["type"] == "move")
