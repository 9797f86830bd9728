"""Card effects played through the engine, one card family at a time (RULINGS §4.12.8-10)."""

from __future__ import annotations

import pytest

from .test_bug_run_support import (
    GREEN,
    RED,
    act,
    acts,
    adventure,
    bought_as,
    crown_hero,
    hand,
    loot_on_top,
    place,
    plain_board,
    script,
    set_card,
    set_hand,
    start_turn,
    top,
    vp,
    with_hero,
)


def on_card(cid: str, mode: str = "normal", space: int = 0):  # type: ignore[no-untyped-def]
    g = adventure(3, 11, mode)
    plain_board(g)
    set_card(g, 1, cid)
    h = crown_hero(g)
    place(g, h, 1, space=space)
    start_turn(g, h)
    return g, h


# (card, zone, +successes, coins on a wound, VP on a wound) from the tables 4.12.8-10
EQUIPMENT = [
    ("BZ12-1", "sword", 1, 0, 0),
    ("BZ13-1", "bow", 1, 0, 0),
    ("BZ14-1", "sword", 1, 2, 0),
    ("BZ15-1", "bow", 1, 2, 0),
    ("BZ16-1", "sword", 1, 0, 1),
    ("BZ17-1", "bow", 1, 0, 1),
    ("BZ18-1", "sword", 0, 1, 1),
    ("BZ19-1", "bow", 0, 1, 1),
    ("LT14-1", "sword", 1, 0, 0),
    ("LT15-1", "bow", 1, 0, 0),
    ("LT16-1", "sword", 1, 1, 0),
    ("LT17-1", "bow", 1, 1, 0),
    ("LT18-1", "sword", 1, 0, 1),
    ("LT19-1", "bow", 0, 1, 1),
    ("BASIC-1", "sword", 2, 0, 0),
    ("BASIC-2", "bow", 2, 0, 0),
]


@pytest.mark.parametrize(("card", "zone", "bonus", "coins", "vps"), EQUIPMENT)
def test_4_12_8_each_weapon_card_adds_its_successes_and_pays_its_awards(
    card: str, zone: str, bonus: int, coins: int, vps: int
) -> None:
    g, h = on_card("M2-14")  # Pitcher Plant: shield 0, life 6
    if card.startswith("BASIC"):
        bought_as(g, card, zone)
    with_hero(g, h, **{zone: [card]})
    before = vp(g, h)
    script(g, faces=[1, 6])  # 1 success, no bone
    ev = act(g, h, {"type": "attack", "weapon": zone})
    assert next(e for e in ev if e.type == "strike").data["total"] == 1 + bonus
    assert g.context.slot(1, "C").wounds == 1 + bonus
    assert g.context.hero(h).coins == 5 + coins and vp(g, h) == before + vps
    # the other weapon gets nothing from this card
    g2, h2 = on_card("M2-14")
    if card.startswith("BASIC"):
        bought_as(g2, card, zone)
    with_hero(g2, h2, **{zone: [card]})
    script(g2, faces=[1, 6])
    other = "bow" if zone == "sword" else "sword"
    ev = act(g2, h2, {"type": "attack", "weapon": other})
    assert next(e for e in ev if e.type == "strike").data["total"] == 1
    assert g2.context.hero(h2).coins == 5


def test_lt21_metal_shield_from_the_loot_is_an_optional_coin() -> None:
    g, h = on_card("M1-02")  # 1 bone
    with_hero(g, h, shield=["LT21-1"])
    script(g, faces=[5, 6])
    act(g, h, {"type": "attack", "weapon": "sword"})
    act(g, h, {"type": "metal_shield"})
    assert g.context.hero(h).coins == 4 and g.context.hero(h).hearts == 5 - 1


def test_bz10_you_can_do_better_rerolls_both_dice() -> None:
    g, h = on_card("M2-14")
    with_hero(g, h, faceup=["BZ10-1"])
    script(g, faces=[6, 5, 3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert {"type": "reroll", "card": "BZ10-1", "dice": [0, 1]} in acts(g, h)
    act(g, h, {"type": "reroll", "card": "BZ10-1", "dice": [0, 1]})
    act(g, h, {"type": "keep"})
    assert g.context.slot(1, "C").wounds == 4 and g.state.markers["BZ10-1"] == 1


def test_bz09_you_can_do_better_1_die_never_rerolls_both() -> None:
    g, h = on_card("M2-14")
    with_hero(g, h, faceup=["BZ09-1"])
    script(g, faces=[6, 5])
    act(g, h, {"type": "attack", "weapon": "bow"})
    rerolls = [a for a in acts(g, h) if a["type"] == "reroll"]
    assert rerolls == [
        {"type": "reroll", "card": "BZ09-1", "dice": [0]},
        {"type": "reroll", "card": "BZ09-1", "dice": [1]},
    ]


def test_lt06_crafty_one_steals_arrows_plus_one() -> None:
    g, h = on_card("M2-14")
    other = (h + 1) % 3
    place(g, other, 1, space=1)
    with_hero(g, other, arrows=2)
    set_hand(g, h, ["LT06-1"])
    start_turn(g, h)
    script(g, faces=[3])  # 2 successes + 1 = 3 arrows, the target has only 2
    act(g, h, {"type": "play", "card": "LT06-1", "target": other})
    assert g.context.hero(other).arrows == 0 and g.context.hero(h).arrows == 4 + 2


def test_lt22_lt23_loot_potions() -> None:
    g, h = on_card("M2-14")
    with_hero(g, h, hearts=3, faceup=["LT22-1", "LT23-1"])
    start_turn(g, h)
    act(g, h, {"type": "play", "card": "LT22-1"})
    assert g.context.hero(h).hearts == 5
    act(g, h, {"type": "attack", "weapon": "bow"})
    script(g, faces=[1, 6])
    ev = act(g, h, {"type": "potion", "card": "LT23-1"})
    assert next(e for e in ev if e.type == "strike").data["total"] == 1 + 2


def test_bz01_full_life_potion_fills_the_lifeline() -> None:
    g, h = on_card("M2-14")
    with_hero(g, h, hearts=2, faceup=["BZ01-1"])
    start_turn(g, h)
    act(g, h, {"type": "play", "card": "BZ01-1"})
    assert g.context.hero(h).hearts == 10 and "BZ01-1" in g.state.bazaar.discard


def test_q05_a_gamble_with_no_green_gives_nothing_but_still_completes() -> None:
    g, h = on_card("Q05")  # 0 / 1vp / 2vp / 4vp / 6vp
    before = vp(g, h)
    script(g, coins=[RED])
    act(g, h, {"type": "quest"})
    assert vp(g, h) == before and g.context.slot(1, "C").locked and top(g)["k"] == "freemove"


def test_q06_four_greens_take_a_loot_card_and_four_vp() -> None:
    g, h = on_card("Q06")
    before = vp(g, h)
    held = len(hand(g, h))
    loot_on_top(g, "LT26-1")
    script(g, coins=[GREEN] * 4)
    act(g, h, {"type": "quest"})
    assert vp(g, h) == before + 4 and "LT26-1" in g.context.hero(h).faceup
    assert len(hand(g, h)) == held


def test_q08_a_flame_coin_loss_takes_what_there_is() -> None:
    g, h = on_card("Q08")  # 0 successes: lose 2 coins
    with_hero(g, h, coins=1)
    script(g, faces=[5])
    act(g, h, {"type": "quest"})
    assert g.context.hero(h).coins == 0 and g.context.slot(1, "C").marks == [0]


def test_b5_risky_silk_rope_green_draws_a_loot_card() -> None:
    g = adventure(3, 11)
    plain_board(g)
    set_card(g, 1, "B5")
    h = crown_hero(g)
    start_turn(g, h)
    loot_on_top(g, "LT27-1")
    act(g, h, {"type": "move", "col": 2, "floor": "C", "space": 0})
    script(g, coins=[GREEN])
    act(g, h, {"type": "bridge", "mode": "risky"})
    assert g.context.hero(h).faceup == ["LT27-1"]


def test_b3_stable_spider_thread_at_ten_hearts_gives_one_vp() -> None:
    g = adventure(3, 11)
    plain_board(g)
    set_card(g, 1, "B3")
    h = crown_hero(g)
    with_hero(g, h, hearts=10)
    start_turn(g, h)
    before = vp(g, h)
    act(g, h, {"type": "move", "col": 2, "floor": "C", "space": 0})
    act(g, h, {"type": "bridge", "mode": "stable"})
    assert g.context.hero(h).hearts == 10 and vp(g, h) == before + 1


def test_st5_the_crown_space_pays_one_coin() -> None:
    g = adventure(3, 11)
    plain_board(g)
    set_card(g, g.context.stairs_col(), "ST5")
    h = crown_hero(g)
    start_turn(g, h)
    act(g, h, {"type": "move", "col": g.context.stairs_col(), "floor": "C", "space": 0})
    assert g.context.hero(h).coins == 6
