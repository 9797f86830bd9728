"""Fights (§4.8), the Final Escape and scoring (§4.9), hidden information and timers."""

from __future__ import annotations

import json

import pytest

from rules.bug_run import board, driver, escape, scoring
from rules.bug_run import content as C
from rules.bug_run.engine import BugRun
from rules.core import SYSTEM, RuleError

from .test_bug_run_support import (
    ScriptRng,
    act,
    acts,
    adventure,
    clear_stack,
    crown_hero,
    game,
    hand,
    place,
    plain_board,
    queue_escape,
    script,
    set_card,
    set_crown,
    set_hand,
    set_seat,
    set_space,
    start_turn,
    to_roof,
    top,
    vp,
    with_hero,
)


def fight(card: str, spaces: dict[int, int], mode: str = "normal") -> BugRun:
    g = adventure(3, 3, mode)
    set_crown(g, 0)
    set_card(g, g.context.stairs_col(), card)
    for h, sp in spaces.items():
        place(g, h, g.context.stairs_col(), space=sp)
    clear_stack(g)
    return g


def test_fight_rolls_team_sums_and_the_winner_takes_the_reward() -> None:
    g = fight("ST8", {0: 0, 1: 2, 2: 3})  # top [sw] vs bottom [any], [sw]
    script(g, faces=[3, 3, 1, 6, 1, 6])
    before = vp(g, 0)
    driver.settle(g.context, [])
    assert top(g)["k"] == "fight" and g.waiting_for() == {1}
    assert acts(g, 1) == [
        {"type": "fight_weapon", "weapon": "sword"},
        {"type": "fight_weapon", "weapon": "bow"},
    ]
    ev = act(g, 1, {"type": "fight_weapon", "weapon": "sword"})
    result = next(e for e in ev if e.type == "fight")
    assert result.data["sums"] == {"top": 4, "bottom": 2} and result.data["winner"] == "top"
    assert vp(g, 0) == before + 6
    assert g.state.level == 2


def test_br31_winners_split_each_item_with_the_at_max_rule() -> None:
    g = fight("ST9", {0: 0, 1: 2, 2: 3})  # top [any] vs bottom [bw], [any]; 12 coins
    with_hero(g, 2, coins=15)
    before = vp(g, 2)
    script(g, faces=[6, 6, 1, 6, 1, 6])
    driver.settle(g.context, [])
    act(g, 0, {"type": "fight_weapon", "weapon": "bow"})
    act(g, 2, {"type": "fight_weapon", "weapon": "sword"})
    assert (
        g.context.hero(1).coins == 11 and g.context.hero(2).coins == 15 and vp(g, 2) == before + 1
    )


def test_br30_fights_spend_no_arrows_and_powers_apply() -> None:
    g = fight("ST10", {0: 0, 1: 2, 2: 3}, mode="powers")  # top [bw] vs bottom [sw], [bw]
    with_hero(g, 0, name="caterpillar")
    with_hero(g, 0, bow=["BZ13-1"])
    with_hero(g, 0, arrows=3)
    script(g, faces=[6, 6, 1, 1, 1, 1])  # top 0 vs bottom 2 + 3 (sword)
    ev: list[object] = []
    driver.settle(g.context, ev)  # type: ignore[arg-type]
    assert g.context.hero(0).arrows == 3 + 2  # no arrow spent, two white faces
    assert g.state.level == 2


def test_fight_ties_are_rerolled() -> None:
    g = fight("ST8", {0: 0, 1: 2, 2: 3})
    script(g, faces=[1, 6, 1, 6, 6, 6, 3, 3, 6, 6, 6, 6])
    driver.settle(g.context, [])
    ev = act(g, 1, {"type": "fight_weapon", "weapon": "sword"})
    assert [e.type for e in ev if e.type.startswith("fight")] == [
        "fight_weapon",
        "fight_tie",
        "fight",
    ]
    assert next(e for e in ev if e.type == "fight").data["winner"] == "top"


def test_br32_an_empty_team_loses_without_a_roll() -> None:
    g = fight("ST9", {0: 0, 1: 1, 2: 4})
    set_space(g, g.context.stairs_col(), 4, lock=False)
    faces = [1, 1, 1, 1]
    script(g, faces=faces)
    before = [g.context.hero(h).coins for h in range(3)]
    driver.settle(g.context, [])
    if top(g)["k"] == "fight":
        act(g, 0, {"type": "fight_weapon", "weapon": "sword"})
    while g.state.level == 1:
        seat = next(iter(g.waiting_for()))
        g.apply(seat, g.legal_actions(seat)[0])
    assert [g.context.hero(h).coins - before[h] for h in range(3)] == [4, 4, 4]
    assert isinstance(g.context.rng, ScriptRng) and g.context.rng.faces == faces


def escape_game(roof: list[str], n: int = 3) -> BugRun:
    g = game(n, 6)
    to_roof(g, roof, g.context.clockwise(crown_hero(g)))
    clear_stack(g)
    for h in range(g.context.n_heroes()):
        with_hero(g, h, pos=None)
    driver.settle(g.context, [])
    return g


def test_rulebook_final_escape_example() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    h = crown_hero(g)
    hero = with_hero(g, h, hearts=2, arrows=4, coins=3)
    driver.settle(g.context, [])
    assert top(g)["k"] == "escape" and top(g)["hero"] == h
    assert acts(g, h)[0] == {"type": "stop"}
    act(g, h, {"type": "path", "side": "L"})  # pay 3 arrows
    assert hero.arrows == 1
    script(g, faces=[3, 3])
    act(g, h, {"type": "path", "side": "L"})  # SWORD >= 4
    assert {"type": "path", "side": "L"} not in acts(g, h)  # pay 2h: not enough hearts
    act(g, h, {"type": "path", "side": "R"})  # pay 3 coins
    script(g, faces=[1, 6])
    act(g, h, {"type": "path", "side": "L"})  # BOW >= 4 fails
    assert hero.roof == 3 and hero.arrows == 0
    assert scoring.breakdown(g.context, g.context.owner(h))["escape"] == 7
    assert top(g)["hero"] == (h + 1) % 3


def test_brx9_the_roof_starting_space_is_not_asked() -> None:
    # 4.12.7: the two starting spaces are cosmetic; the run opens on the first path choice.
    g = escape_game(["ST5", "ST9", "ST2", "ST4"])
    h = crown_hero(g)
    assert top(g)["k"] == "escape" and top(g)["reached"] == 0
    assert acts(g, h) == [
        {"type": "stop"},
        {"type": "path", "side": "L"},
        {"type": "path", "side": "R"},
    ]


def test_br53_stopping_is_always_allowed() -> None:
    assert C.ROOF_VP == [0, 2, 4, 7, 10]
    g = escape_game(["ST2", "ST3", "ST4", "ST7"])
    h = crown_hero(g)
    with_hero(g, h, coins=0)
    driver.settle(g.context, [])
    act(g, h, {"type": "path", "side": "L"})  # pay 2 hearts
    act(g, h, {"type": "stop"})
    assert (
        g.context.hero(h).roof == 1
        and scoring.breakdown(g.context, g.context.owner(h))["escape"] == 2
    )


def test_br20_roof_costs_must_be_paid_in_full() -> None:
    g = escape_game(["ST2", "ST3", "ST4", "ST7"])
    h = crown_hero(g)
    with_hero(g, h, hearts=2, coins=2)
    clear_stack(g)
    queue_escape(g, [h])
    assert (
        escape.can_attempt(g.context, h, escape.roof_path(g.context, 0, "R")) is False
    )  # pay 3 coins
    driver.settle(g.context, [])  # stopping is the only choice left: taken at once
    assert g.context.hero(h).roof == 0 and g.is_over


def test_roof_sword_challenge_hurts_with_dice_bones_only() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    h = crown_hero(g)
    driver.settle(g.context, [])
    script(g, faces=[4, 4])  # 2 successes, 2 bones
    act(g, h, {"type": "path", "side": "R"})  # SWORD >= 4 fails
    assert g.context.hero(h).hearts == 3 and g.context.hero(h).roof == 0


def test_br54_each_hero_runs_alone_crown_first() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    order = []
    while not g.is_over:
        fr = top(g)
        order.append(fr["hero"])
        act(g, fr["hero"], {"type": "stop"})
    c = crown_hero(g)
    assert order == [c, (c + 1) % 3, (c + 2) % 3]


def test_scoring_adds_tokens_loot_show_off_escape_and_coins() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    with_hero(g, 0, coins=8, faceup=["LT27-1"])
    set_seat(g, 0, hand=["LT03-1"])
    with_hero(g, 0, roof=2)
    assert g.score_breakdown(0) == {
        "vp_tokens": 5,
        "loot": 3,
        "show_off": 3,
        "escape": 4,
        "coins": 2,
        "total": 17,
    }


def test_br50_public_scores_leave_out_the_vp_tokens_and_show_off_cards_until_the_end() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    with_hero(g, 0, coins=8, faceup=["LT27-1"])
    set_seat(g, 0, hand=["LT03-1"])
    with_hero(g, 0, roof=2)
    visible = g.public_scores()
    assert visible[0] == 3 + 4 + 2  # the face-up trinket, the roof and the coins
    set_seat(g, 0, vp=40, hand=["LT03-1", "LT04-1"])  # face down and in hand: unseen
    assert g.public_scores() == visible and g.scores()[0] == 40 + 3 + (3 + 4) + 4 + 2
    while not g.is_over:
        act(g, top(g)["hero"], {"type": "stop"})
    assert g.public_scores() == g.scores()


def test_br49_gold_coins_are_cashed_at_the_end_capped_at_15() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    with_hero(g, 0, coins=14)
    set_seat(g, 0, hand=["LT01-1", "LT03-1"])
    while not g.is_over:
        act(g, top(g)["hero"], {"type": "stop"})
    assert g.context.hero(0).coins == 15 and g.state.seats[0].hand == ["LT03-1"]
    assert "LT01-1" in g.state.loot.discard


def test_br52_roof_vp_by_the_last_step_reached() -> None:
    assert C.ROOF_VP == [0, 2, 4, 7, 10]
    g = escape_game(["ST2", "ST2", "ST2", "ST2"])
    h = crown_hero(g)
    with_hero(g, h, hearts=10, coins=15)
    for _ in range(4):
        act(g, h, {"type": "path", "side": "L"})  # pay 2 hearts each time
    assert g.context.hero(h).roof == 4 and g.context.hero(h).hearts == 2
    assert scoring.breakdown(g.context, g.context.owner(h))["escape"] == 10


def test_br55_coins_count_per_hero_in_the_two_player_game() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"], n=2)
    with_hero(g, 0, coins=5)
    with_hero(g, 1, coins=4)
    assert scoring.breakdown(g.context, 0)["coins"] == 1 + 1


def test_br56_ties_are_shared() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    while not g.is_over:
        act(g, top(g)["hero"], {"type": "stop"})
    for seat in range(3):
        set_seat(g, seat, vp=5, hand=[])
        with_hero(g, seat, coins=3, faceup=[])
    assert g.scores() == [6, 6, 6] and g.winners() == [0, 1, 2]
    set_seat(g, 1, vp=9)
    assert g.winners() == [1]


def test_br68_the_starting_vp_are_real_tokens() -> None:
    g = game(4, 3)
    assert [g.score_breakdown(s)["vp_tokens"] for s in range(4)] == [5, 5, 5, 5]
    assert g.scores() == [5 + 1] * 4  # 5 tokens + 5 coins // 3
    assert game(2, 3).score_breakdown(0)["vp_tokens"] == 10


def test_br50_views_hide_other_players_vp_and_secret_loot() -> None:
    g = adventure(4, 2)
    set_seat(g, 1, hand=["LT04-1", "LT11-2"])
    for seat in (0, 2, 3, None):
        view = g.view(seat)
        text = json.dumps(view)
        assert "LT04-1" not in text and "LT11-2" not in text
        assert "vp" not in view["seats"][1] and view["seats"][1]["hand_size"] == 2
    mine = g.view(1)
    assert mine["you"]["hand"] == ["LT04-1", "LT11-2"] and mine["seats"][1]["vp"] == 5
    json.dumps(g.view(None))


def test_br67_turn_clock_and_safe_defaults() -> None:
    g = game(3, 2)
    (d,) = g.deadlines()
    assert d.setting == "bugrun_turn" and d.seconds is None and d.seats == g.waiting_for()
    assert d.key == f"bug-run:afk:{g.turn}" and d.action == {"type": "afk", "turn": g.turn}
    h = top(g)["hero"]
    g.apply(SYSTEM, d.action)  # trading -> end the turn
    assert top(g)["hero"] != h and g.deadlines()[0].key != d.key
    with pytest.raises(RuleError) as err:
        g.apply(SYSTEM, d.action)
    assert err.value.code == "no_deadline"
    a = adventure(3, 2)
    plain_board(a)
    h = a.state.crown
    start_turn(a, h)
    a.apply(SYSTEM, a.deadlines()[0].action)  # adventure -> the nearest card
    assert a.context.hero(h).pos.col == 1
    e = escape_game(["ST1", "ST9", "ST2", "ST4"])
    driver.settle(e.context, [])
    h = top(e)["hero"]
    e.apply(SYSTEM, e.deadlines()[0].action)  # escape -> stop
    assert e.context.hero(h).roof == 0


def test_turn_changes_with_every_decision() -> None:
    g = game(3, 2)
    t0 = g.turn
    act(g, top(g)["hero"], {"type": "buy_hearts"})
    assert g.turn > t0 and g.view(None)["turn"] == g.turn


def test_br51_components_are_unlimited() -> None:
    g = adventure(6, 2)
    for col in range(1, g.context.stairs_col()):
        for slot in g.state.board[col].values():
            slot.locked = True
    assert all(
        not board.enterable(g.context, sl) for col in g.state.board[1:-1] for sl in col.values()
    )
    assert board.move_options(g.context, crown_hero(g))  # the stairs always remain
    slot = set_card(g, 1, "M4-37")
    slot.wounds = 10
    h = crown_hero(g)
    place(g, h, 1)
    start_turn(g, h)
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.slot(1, "C").wounds == 11 and g.context.slot(1, "C").defeated


def test_game_over_refuses_actions() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    while not g.is_over:
        act(g, top(g)["hero"], {"type": "stop"})
    assert g.legal_actions(0) == [] and g.deadlines() == [] and g.waiting_for() == frozenset()
    with pytest.raises(RuleError) as err:
        g.apply(0, {"type": "stop"})
    assert err.value.code == "finished"
    assert g.view(0)["winners"] == g.winners()


def test_brx5_two_player_gold_coins_go_to_the_poorer_hero() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"], n=2)
    with_hero(g, 0, coins=9)
    with_hero(g, 1, coins=3)
    set_seat(g, 0, hand=["LT01-1"])
    while not g.is_over:
        seat = next(iter(g.waiting_for()))
        g.apply(seat, {"type": "stop"})
    assert (g.context.hero(0).coins, g.context.hero(1).coins) == (9, 8)


def test_brx19_the_afk_move_never_spends_an_optional_extra() -> None:
    g = adventure(3, 2)
    plain_board(g)
    h = crown_hero(g)
    others = [x for x in range(3) if x != h]
    place(g, others[0], 1, space=0)
    place(g, others[1], 1, space=1)
    set_hand(g, h, ["LT12-1"])
    start_turn(g, h)
    assert acts(g, h)[0] == {"type": "move", "col": 1, "floor": "C", "extra": "LT12-1"}
    g.apply(SYSTEM, g.deadlines()[0].action)
    assert g.context.hero(h).pos.col == 2 and hand(g, h) == ["LT12-1"]


def test_br40_potions_and_gold_coins_during_the_final_escape() -> None:
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    h = top(g)["hero"]
    with_hero(g, h, faceup=["BZ03-1"])
    with_hero(g, h, hearts=2)
    set_hand(g, h, ["LT01-1", "LT05-1", "LT13-1"])
    plays = [a for a in acts(g, h) if a["type"] == "play"]
    # no Crafty One (no shared card) and no Reserved Seat (no stairs) on the roof
    assert plays == [{"type": "play", "card": "BZ03-1"}, {"type": "play", "card": "LT01-1"}]
    act(g, h, plays[0])
    assert g.context.hero(h).hearts == 6 and top(g)["k"] == "escape" and top(g)["hero"] == h


def test_br40_the_itinerant_merchant_during_the_final_escape() -> None:
    # "At any time during your turn" includes the Final Escape (BR-40): buy arrows for a path.
    g = escape_game(["ST1", "ST9", "ST2", "ST4"])
    h = top(g)["hero"]
    with_hero(g, h, arrows=1, coins=6)
    set_hand(g, h, ["LT07-1"])
    assert {"type": "path", "side": "L"} not in acts(g, h)  # pay 3 arrows
    act(g, h, {"type": "play", "card": "LT07-1"})
    assert top(g)["k"] == "trade" and top(g)["merchant"]
    assert not [a for a in acts(g, h) if a["type"] == "play"]  # no Merchant in a Merchant
    act(g, h, {"type": "buy_arrows"})
    act(g, h, {"type": "end_turn"})
    assert top(g)["k"] == "escape" and top(g)["hero"] == h
    act(g, h, {"type": "path", "side": "L"})
    assert g.context.hero(h).arrows == 0 and top(g)["reached"] == 1
