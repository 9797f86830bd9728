"""Quests (§4.5), tosses with their cards and powers, and the Flash Phase (§4.7)."""

from __future__ import annotations

from .test_bug_run_support import (
    GREEN,
    RED,
    act,
    acts,
    adventure,
    crown_hero,
    deck_to_discard,
    game,
    loot_on_top,
    place,
    plain_board,
    script,
    set_card,
    set_hand,
    set_loot_deck,
    set_vp,
    start_turn,
    top,
    vp,
    with_hero,
    wound,
)


def on_quest(cid: str, n: int = 3, mode: str = "normal"):  # type: ignore[no-untyped-def]
    g = adventure(n, 9, mode)
    plain_board(g)
    set_card(g, 1, cid)
    h = crown_hero(g)
    place(g, h, 1)
    start_turn(g, h)
    return g, h


def test_escape_attempt_green_rewards_padlocks_and_flashes() -> None:
    g, h = on_quest("Q02")  # green -> 2vp + 3c
    before = vp(g, h)
    script(g, coins=[GREEN])
    act(g, h, {"type": "quest"})
    assert vp(g, h) == before + 2 and g.context.hero(h).coins == 8
    assert g.context.slot(1, "C").locked and top(g)["k"] == "freemove"


def test_escape_attempt_red_does_nothing_and_the_turn_passes() -> None:
    g, h = on_quest("Q02")
    script(g, coins=[RED])
    act(g, h, {"type": "quest"})
    assert not g.context.slot(1, "C").locked and top(g)["hero"] != h


def test_br33_the_gamble_stops_at_the_first_red() -> None:
    g, h = on_quest("Q04")  # 1c / 2c / 3c / 5c / 7c
    script(g, coins=[GREEN, GREEN, RED])
    act(g, h, {"type": "quest"})
    assert g.context.hero(h).coins == 5 + 3 and g.context.slot(1, "C").locked


def test_br33_the_gamble_stops_after_four_greens() -> None:
    g, h = on_quest("Q04")
    script(g, coins=[GREEN] * 5)
    ev = act(g, h, {"type": "quest"})
    assert sum(e.type == "toss" for e in ev) == 4
    assert g.context.hero(h).coins == 5 + 7 and g.context.rng.coins == [GREEN]


def test_br34_archery_uses_one_die_and_spends_the_arrow_even_on_a_marked_plank() -> None:
    g, h = on_quest("Q07")  # 0: -1h, 1: +2c, 2: +3vp
    script(g, faces=[6])
    act(g, h, {"type": "quest"})
    assert g.context.hero(h).hearts == 4 and g.context.hero(h).arrows == 3
    assert g.context.slot(1, "C").marks == [0]
    start_turn(g, h)
    script(g, faces=[5])  # a bone: 0 successes again
    act(g, h, {"type": "quest"})
    assert g.context.hero(h).hearts == 4 and g.context.hero(h).arrows == 2
    start_turn(g, h)
    script(g, faces=[1])
    act(g, h, {"type": "quest"})
    start_turn(g, h)
    before = vp(g, h)
    script(g, faces=[3])
    act(g, h, {"type": "quest"})
    assert vp(g, h) == before + 3
    assert g.context.slot(1, "C").locked and g.context.slot(1, "C").marks == []
    assert top(g)["k"] == "freemove"


def test_archery_needs_an_arrow() -> None:
    g, h = on_quest("Q07")
    with_hero(g, h, arrows=0)
    assert not any(a["type"] == "quest" for a in acts(g, h))


def test_br35_the_duel_has_one_space_and_its_marker_walks_the_planks() -> None:
    g, h = on_quest("Q11")
    assert len(g.context.slot(1, "C").spaces) == 1
    results = [GREEN, RED, RED, GREEN]  # 1vp, 1h, 2c, 4vp
    for i, coin in enumerate(results):
        start_turn(g, h)
        script(g, coins=[coin])
        act(g, h, {"type": "quest"})
        assert g.context.slot(1, "C").duel == i + 1
    assert g.context.slot(1, "C").locked and top(g)["k"] == "freemove"
    assert g.context.hero(h).coins == 7 and g.context.hero(h).hearts == 6


def test_the_vault_marks_each_reward_and_the_last_one_completes_it() -> None:
    g, h = on_quest("Q14")  # L, 3c, 2vp
    assert [a for a in acts(g, h) if a["type"] == "quest"] == [
        {"type": "quest", "item": 0},
        {"type": "quest", "item": 1},
        {"type": "quest", "item": 2},
    ]
    act(g, h, {"type": "quest", "item": 1})
    assert g.context.hero(h).coins == 8 and g.context.slot(1, "C").marks == [1]
    start_turn(g, h)
    assert {"type": "quest", "item": 1} not in acts(g, h)
    act(g, h, {"type": "quest", "item": 2})
    start_turn(g, h)
    loot_on_top(g, "LT27-1")
    act(g, h, {"type": "quest", "item": 0})
    assert "LT27-1" in g.context.hero(h).faceup and g.context.slot(1, "C").locked


def test_br19_the_booby_trapped_vault_needs_two_hearts_and_costs_one() -> None:
    g, h = on_quest("Q16")
    act(g, h, {"type": "quest", "item": 1})
    assert g.context.hero(h).hearts == 4 and g.context.hero(h).coins == 10
    start_turn(g, h)
    with_hero(g, h, hearts=1)
    assert not any(a["type"] == "quest" for a in acts(g, h))


def test_br26_only_the_acting_hero_is_rewarded_others_just_move() -> None:
    g, h = on_quest("Q01")
    other = (h + 1) % 3
    place(g, other, 1, space=1)
    before_other = vp(g, other)
    script(g, coins=[GREEN])
    act(g, h, {"type": "quest"})
    assert vp(g, other) == before_other
    assert top(g)["k"] == "freemove" and top(g)["hero"] == h
    act(g, h, next(a for a in acts(g, h) if a["col"] == 2))
    assert top(g)["k"] == "freemove" and top(g)["hero"] == other


def test_forcing_fate_chooses_the_result_without_a_toss() -> None:
    g, h = on_quest("Q01")
    with_hero(g, h, faceup=["BZ07-1"])
    act(g, h, {"type": "quest"})
    assert acts(g, h) == [
        {"type": "toss"},
        {"type": "force", "card": "BZ07-1", "result": "green"},
        {"type": "force", "card": "BZ07-1", "result": "red"},
    ]
    ev = act(g, h, {"type": "force", "card": "BZ07-1", "result": "green"})
    assert not any(e.type == "toss" for e in ev)
    assert g.context.slot(1, "C").locked and "BZ07-1" in g.state.bazaar.discard


def test_br42_second_chance_retosses() -> None:
    g, h = on_quest("Q01")
    with_hero(g, h, faceup=["LT24-1"])
    script(g, coins=[RED, GREEN])
    act(g, h, {"type": "quest"})
    assert acts(g, h) == [{"type": "accept"}, {"type": "retoss", "card": "LT24-1"}]
    act(g, h, {"type": "retoss", "card": "LT24-1"})
    act(g, h, {"type": "accept"})
    assert g.context.slot(1, "C").locked and g.state.markers["LT24-1"] == 1


def test_br58_good_fortune_flips_a_toss_for_two_coins_once() -> None:
    g, h = on_quest("Q01", mode="powers")
    with_hero(g, h, name="grasshopper")
    script(g, coins=[RED])
    act(g, h, {"type": "quest"})
    assert acts(g, h) == [{"type": "accept"}, {"type": "good_fortune"}]
    act(g, h, {"type": "good_fortune"})  # green now; accept is the only option left
    assert g.context.hero(h).coins == 3 and g.context.slot(1, "C").locked


def test_br3_the_flip_counter_is_fair() -> None:
    g = game(3, 1)
    greens = sum(g.context.rng.coin() for _ in range(4000))
    assert 1850 < greens < 2150


def on_monster(cid: str, n: int = 3, mode: str = "normal"):  # type: ignore[no-untyped-def]
    g = adventure(n, 9, mode)
    plain_board(g)
    set_card(g, 1, cid)
    h = crown_hero(g)
    place(g, h, 1)
    wound(g, 1, C_LIFE[cid] - 1)
    start_turn(g, h)
    return g, h


C_LIFE = {"M2-15": 5, "M1-03": 3, "M1-01": 3, "M2-16": 5}


def test_rulebook_flash_phase_example() -> None:
    # Centipede: 3vp, 3vp, 4c. The defeater picks 3vp, the other 3vp, the defeater the coins.
    g, h = on_monster("M2-15")
    other = (h + 1) % 3
    place(g, other, 1, space=2)
    before = vp(g, h), vp(g, other)
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert acts(g, h) == [{"type": "pick", "item": "3vp"}, {"type": "pick", "item": "4c"}]
    act(g, h, {"type": "pick", "item": "3vp"})
    assert top(g)["pickers"] == [other]
    act(g, other, {"type": "pick", "item": "3vp"})
    # the 4 coins are the only item left: taken at once by the defeater
    assert (vp(g, h), vp(g, other)) == (before[0] + 3, before[1] + 3)
    assert g.context.hero(h).coins == 9
    assert top(g)["k"] == "freemove" and top(g)["hero"] == h
    act(g, h, next(a for a in acts(g, h) if a["col"] == 2))
    assert top(g)["k"] == "freemove" and top(g)["hero"] == other


def test_br25_a_lone_defeater_takes_every_item() -> None:
    g, h = on_monster("M2-16")  # L, 2vp, 3c
    loot_on_top(g, "LT26-1")
    before = vp(g, h)
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert "LT26-1" in g.context.hero(h).faceup and vp(g, h) == before + 2
    assert g.context.hero(h).coins == 8


def test_dibs_picks_first_then_the_defeater() -> None:
    g, h = on_monster("M2-15")
    other = (h + 1) % 3
    place(g, other, 1, space=2)
    set_hand(g, other, ["LT11-1"])
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert g.waiting_for() == {g.context.owner(other)}
    assert acts(g, other) == [{"type": "pass"}, {"type": "dibs", "card": "LT11-1", "hero": other}]
    act(g, other, {"type": "dibs", "card": "LT11-1", "hero": other})
    ev = act(g, other, {"type": "pick", "item": "4c"})
    # then the rotation starts again with the defeater (only 3vp items are left)
    assert [e.data["hero"] for e in ev if e.type == "pick"] == [other, h, other]
    assert g.context.hero(other).coins == 9


def test_teleportation_moves_first_in_the_flash() -> None:
    g, h = on_monster("M1-01", mode="powers")
    other = (h + 1) % 3
    with_hero(g, other, name="fly")
    with_hero(g, h, name="beetle")
    place(g, other, 1, space=1)
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    while top(g)["k"] == "flash":
        seat = next(iter(g.waiting_for()))
        g.apply(seat, g.legal_actions(seat)[0])
    assert top(g)["k"] == "freemove" and top(g)["hero"] == other


def test_br61_master_crocheter_draws_two_and_keeps_one() -> None:
    g, h = on_monster("M1-03", mode="powers")  # L, 1vp
    with_hero(g, h, name="spider")
    loot_on_top(g, "LT26-1", "LT27-1")
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert acts(g, h) == [{"type": "keep", "card": "LT26-1"}, {"type": "keep", "card": "LT27-1"}]
    assert g.view(g.context.owner(h))["you"]["loot_choice"] == ["LT26-1", "LT27-1"]
    assert "loot_choice" not in str(g.view((g.context.owner(h) + 1) % 3).get("you", {}))
    act(g, h, {"type": "keep", "card": "LT27-1"})
    assert "LT27-1" in g.context.hero(h).faceup and g.state.loot.deck[-1] == "LT26-1"


def test_br38_loot_equipment_may_swap_and_the_old_card_is_stored() -> None:
    g, h = on_monster("M1-03")
    with_hero(g, h, sword=["BZ12-1", "BZ16-1"])
    loot_on_top(g, "LT18-1")
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert acts(g, h) == [
        {"type": "equip", "replace": "BZ12-1"},
        {"type": "equip", "replace": "BZ16-1"},
        {"type": "store"},
    ]
    act(g, h, {"type": "equip", "replace": "BZ12-1"})
    assert g.context.hero(h).sword == ["BZ16-1", "LT18-1"] and g.context.hero(h).stored == [
        "BZ12-1"
    ]


def test_br36_an_empty_loot_deck_reshuffles_then_gives_one_vp() -> None:
    g, h = on_monster("M1-03")
    deck_to_discard(g, "loot")
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert len(g.state.loot.deck) == 31 and g.state.loot.discard == []
    g2, h2 = on_monster("M1-03")
    set_loot_deck(g2, [])
    before = vp(g2, h2)
    script(g2, faces=[3, 3])
    act(g2, h2, {"type": "attack", "weapon": "bow"})
    assert vp(g2, h2) == before + 1 + 1


def test_secret_loot_goes_to_the_hand_privately() -> None:
    g, h = on_monster("M1-03")
    loot_on_top(g, "LT04-1")
    script(g, faces=[3, 3])
    ev = act(g, h, {"type": "attack", "weapon": "bow"})
    seat = g.context.owner(h)
    assert g.state.seats[seat].hand == ["LT04-1"]
    assert all("LT04-1" not in str(e.data) for e in ev if e.is_public)
    assert any(e.to == frozenset({seat}) and e.data.get("card") == "LT04-1" for e in ev)


def test_q09_a_flame_vp_loss_is_announced_without_the_amount() -> None:
    # BR-50: "lost 0 VP" in a public event would tell the table that a VP total is 0.
    g, h = on_quest("Q09")  # 0 successes: lose 1 VP
    set_vp(g, h, 0)
    script(g, faces=[6])
    ev = act(g, h, {"type": "quest"})
    loss = next(e for e in ev if e.type == "loss")
    assert loss.is_public and "vp" not in loss.data and loss.data["item"] == "-1vp"
    private = next(e for e in ev if e.type == "vp_lost")
    assert private.to == frozenset({g.context.owner(h)}) and private.data["amount"] == 0
    assert vp(g, h) == 0
