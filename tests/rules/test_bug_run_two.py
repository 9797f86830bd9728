"""The two-player game (§4.10): two heroes each, alternating activations, shared VP and hand."""

from __future__ import annotations

from rules.bug_run import board, driver

from .test_bug_run_support import (
    act,
    acts,
    adventure,
    clear_stack,
    crown_hero,
    game,
    place,
    plain_board,
    script,
    set_card,
    set_ready,
    set_space,
    stairs_fought,
    start_turn,
    top,
    vp,
    with_hero,
    wound,
)


def test_two_player_trading_opens_with_the_crown_then_alternates() -> None:
    g = game(2, 5)
    crown = crown_hero(g)
    assert top(g)["k"] == "trade" and top(g)["hero"] == crown
    act(g, crown, {"type": "end_turn"})
    other_seat = 1 - g.context.owner(crown)
    assert g.waiting_for() == {other_seat}
    assert acts(g, 2 * other_seat)[0]["type"] == "activate"
    assert [a["hero"] for a in g.legal_actions(other_seat)] == [2 * other_seat, 2 * other_seat + 1]
    g.apply(other_seat, {"type": "activate", "hero": 2 * other_seat + 1})
    assert top(g)["hero"] == 2 * other_seat + 1
    g.apply(other_seat, {"type": "end_turn"})
    # the crown's owner has one ready hero left: it is activated without asking
    assert top(g)["hero"] == crown ^ 1
    g.apply(g.context.owner(crown), {"type": "end_turn"})
    assert top(g)["hero"] == 2 * other_seat
    g.apply(other_seat, {"type": "end_turn"})
    assert g.state.phase == "adventure" and top(g)["hero"] == crown


def test_two_player_vp_and_the_hand_are_shared_and_death_costs_shared_vp() -> None:
    g = adventure(2, 5)
    plain_board(g)
    set_card(g, 1, "M1-02")
    h = crown_hero(g)
    mate = h ^ 1
    place(g, h, 1)
    start_turn(g, h)
    with_hero(g, h, hearts=1)
    script(g, faces=[5, 6])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert vp(g, h) == vp(g, mate) == 5
    assert g.context.hero(h).hearts == 5 and g.context.hero(mate).hearts == 5


def test_two_player_fight_teams_are_fixed_by_the_first_hero() -> None:
    g = adventure(2, 5)
    plain_board(g)
    set_card(g, g.context.stairs_col(), "ST8")
    h = crown_hero(g)
    start_turn(g, h)
    act(g, h, {"type": "move", "col": g.context.stairs_col(), "floor": "C", "space": 2})  # bottom
    assert g.state.teams == {str(g.context.owner(h)): "bottom", str(1 - g.context.owner(h)): "top"}
    opp = 2 * (1 - g.context.owner(h))
    assert sorted(board.stair_spaces_for(g.context, opp)) == [0, 1]
    assert sorted(board.stair_spaces_for(g.context, h ^ 1)) == [3]


def test_two_player_flash_picks_alternate_and_choose_the_hero() -> None:
    g = adventure(2, 5)
    plain_board(g)
    set_card(g, 1, "M3-30")  # Army Ant Column: 3vp 3vp 3vp 2c; life 8
    h = crown_hero(g)
    mine = h ^ 1
    opp = [2 * (1 - g.context.owner(h)), 2 * (1 - g.context.owner(h)) + 1]
    place(g, h, 1, space=0)
    place(g, mine, 1, space=1)
    place(g, opp[0], 1, space=2)
    set_space(g, 1, 3, lock=False)
    place(g, opp[1], 1, space=3)
    wound(g, 1, 7)
    start_turn(g, h)
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert acts(g, h) == [{"type": "pick", "item": "3vp"}, {"type": "pick", "item": "2c"}]
    act(g, h, {"type": "pick", "item": "2c"})
    seat = 1 - g.context.owner(h)
    assert g.legal_actions(seat) == [
        {"type": "pick", "item": "3vp", "hero": opp[0]},
        {"type": "pick", "item": "3vp", "hero": opp[1]},
    ]
    ev = g.apply(seat, {"type": "pick", "item": "3vp", "hero": opp[1]})
    # then the defeater's player picks with its other hero (each hero once before repeats)
    assert [e.data["hero"] for e in ev if e.type == "pick"] == [opp[1], mine, opp[0]]
    assert g.context.hero(h).coins == 7
    # BR-X4: free moves: the defeater, then alternating players starting with the opponent
    assert top(g)["k"] == "freemove" and top(g)["hero"] == h
    assert g.state.stack[-2].to_dict()["movers"] == [opp[0], mine, opp[1]]


def test_two_player_reset_makes_every_hero_ready_and_the_crown_opens() -> None:
    g = adventure(2, 5)
    set_ready(g, [False, True, False, True])
    for h in range(4):
        place(g, h, g.context.stairs_col(), space=h)  # hero 0 takes the crown space
    clear_stack(g)
    stairs_fought(g)
    driver.settle(g.context, [])
    assert g.state.level == 2 and g.state.crown == 0
    # the crown hero trades first and is the only used hero of the new round
    assert g.state.order.ready == [False, True, True, True]
    assert top(g)["k"] == "trade" and top(g)["hero"] == 0
