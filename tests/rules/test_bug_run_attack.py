"""Attacks (§4.6), death and the equipment, card and power effects on them."""

from __future__ import annotations

import pytest

from rules.bug_run import trading
from rules.core import RuleError

from .test_bug_run_support import (
    act,
    acts,
    adventure,
    bought_as,
    crown_hero,
    place,
    plain_board,
    script,
    set_card,
    set_hand,
    set_markers,
    set_seat,
    set_vp,
    start_turn,
    top,
    vp,
    with_hero,
    wound,
)


def setup(cid: str = "M1-02", n: int = 3, mode: str = "normal", space: int = 0):  # type: ignore[no-untyped-def]
    g = adventure(n, 7, mode)
    plain_board(g)
    set_card(g, 1, cid)
    h = crown_hero(g)
    place(g, h, 1, space=space)
    start_turn(g, h)
    return g, h


def test_rulebook_sword_attack_example() -> None:
    # 2 dice successes + 3 from equipment = 5, shield 1 -> 4 wounds: the Garden Shrew falls.
    g, h = setup("M1-02")
    hero = g.context.hero(h)
    hero.sword = ["BZ14-1", "BASIC-1"]  # Golden Sword (2): +1 and 2 coins; Basic: +2
    bought_as(g, "BASIC-1", "sword")
    script(g, faces=[4, 1])  # star+bone, star: 2 successes, 1 bone
    before_vp = vp(g, h)
    ev = act(g, h, {"type": "attack", "weapon": "sword"})
    slot = g.context.slot(1, "C")
    assert slot.wounds == 4 and slot.defeated
    strike = next(e for e in ev if e.type == "strike")
    assert strike.data["total"] == 5 and strike.data["wounds"] == 4
    # 2 coins from the equipment, then the 2vp + 2c rewards (alone on the card)
    assert hero.coins == 5 + 2 + 2
    assert vp(g, h) == before_vp + 2
    # strike back: 1 die bone + 1 monster bone
    assert hero.hearts == 3
    assert top(g)["k"] == "freemove" and top(g)["hero"] == h


def test_br12_strike_back_hits_on_a_miss_too_and_only_with_the_sword() -> None:
    g, h = setup("M1-02")
    script(g, faces=[5, 6])  # bone + white: a miss with one bone
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.slot(1, "C").wounds == 0
    assert g.context.hero(h).hearts == 5 - 2
    g2, h2 = setup("M1-02")
    script(g2, faces=[5, 5])
    act(g2, h2, {"type": "attack", "weapon": "bow"})
    assert g2.context.hero(h2).hearts == 5 and g2.context.hero(h2).arrows == 3


def test_br12_no_bone_on_the_dice_means_no_strike_back() -> None:
    g, h = setup("M1-02")
    script(g, faces=[1, 6])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.hero(h).hearts == 5


def test_br13_a_monster_without_bones_still_hurts_through_dice_bones() -> None:
    g, h = setup("M1-01")  # Hungry Tadpole: 0 bones
    script(g, faces=[5, 4])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.hero(h).hearts == 5 - 2


def test_br14_golden_shield_blocks_one_automatically() -> None:
    g, h = setup("M1-02")
    with_hero(g, h, shield=["BZ22-1"])
    script(g, faces=[5, 5])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.hero(h).hearts == 5 - (2 + 1 - 1)


def test_br14_wooden_shield_tosses() -> None:
    for coin, hearts in ((True, 5 - 2), (False, 5 - 3)):
        g, h = setup("M1-02")
        with_hero(g, h, shield=["BZ20-1"])
        script(g, faces=[5, 5], coins=[coin])
        act(g, h, {"type": "attack", "weapon": "sword"})
        assert g.context.hero(h).hearts == hearts


def test_br14_metal_shield_is_an_optional_coin() -> None:
    g, h = setup("M1-02")
    with_hero(g, h, shield=["BZ21-1"])
    script(g, faces=[5, 6])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert acts(g, h) == [{"type": "no_shield"}, {"type": "metal_shield"}]
    act(g, h, {"type": "metal_shield"})
    assert g.context.hero(h).coins == 4 and g.context.hero(h).hearts == 5 - 1
    g2, h2 = setup("M1-02")
    with_hero(g2, h2, shield=["BZ21-1"])
    script(g2, faces=[5, 6])
    act(g2, h2, {"type": "attack", "weapon": "sword"})
    act(g2, h2, {"type": "no_shield"})
    assert g2.context.hero(h2).coins == 5 and g2.context.hero(h2).hearts == 5 - 2


def test_br15_bonuses_need_a_dice_success_and_the_right_zone() -> None:
    g, h = setup("M1-01")
    with_hero(g, h, sword=["BZ12-1"])  # Rusty Sword +1
    with_hero(g, h, bow=["BZ13-1"])
    script(g, faces=[6, 6])
    ev = act(g, h, {"type": "attack", "weapon": "sword"})
    assert next(e for e in ev if e.type == "strike").data["total"] == 0
    g2, h2 = setup("M1-01")
    with_hero(g2, h2, sword=["BZ12-1"])
    script(g2, faces=[1, 6])
    ev = act(g2, h2, {"type": "attack", "weapon": "bow"})
    assert next(e for e in ev if e.type == "strike").data["total"] == 1


def test_br16_awards_need_a_wound() -> None:
    g, h = setup("M2-12", mode="normal")  # Praying Mantis: shield 2
    with_hero(g, h, sword=["BZ18-1"])  # Sparkling: +0, 1 VP + 1 coin on a wound
    script(g, faces=[1, 6])
    before = vp(g, h)
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.hero(h).coins == 5 and vp(g, h) == before
    g2, h2 = setup("M2-12")
    with_hero(g2, h2, sword=["BZ18-1"])
    script(g2, faces=[3, 3])
    before = vp(g2, h2)
    act(g2, h2, {"type": "attack", "weapon": "sword"})
    assert g2.context.slot(1, "C").wounds == 2
    assert g2.context.hero(h2).coins == 6 and vp(g2, h2) == before + 1


def test_br17_overkill_is_ignored() -> None:
    g, h = setup("M1-01")  # life 3
    with_hero(g, h, sword=["BASIC-1", "BASIC-2"])
    bought_as(g, "BASIC-1", "sword")
    bought_as(g, "BASIC-2", "sword")
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.slot(1, "C").wounds == 3 and g.context.slot(1, "C").defeated


def test_br18_death_costs_five_vp_resets_hearts_and_the_attack_still_kills() -> None:
    g, h = setup("M1-02")
    with_hero(g, h, hearts=2)
    set_vp(g, h, 7)
    wound(g, 1, 3)
    script(g, faces=[4, 4])
    ev = act(g, h, {"type": "attack", "weapon": "sword"})
    assert any(e.type == "death" for e in ev)
    assert g.context.slot(1, "C").defeated
    assert g.context.hero(h).hearts == 5
    assert vp(g, h) == 7 - 5 + 2  # death, then the 2vp reward
    assert g.context.hero(h).pos.col == 1


def test_br18_vp_never_below_zero() -> None:
    g, h = setup("M1-02")
    with_hero(g, h, hearts=1)
    set_vp(g, h, 3)
    script(g, faces=[5, 6])
    ev = act(g, h, {"type": "attack", "weapon": "sword"})
    assert vp(g, h) == 0
    lost = next(e for e in ev if e.type == "vp_lost")
    assert lost.data["amount"] == 3 and lost.to == frozenset({g.context.owner(h)})


def test_br41_strength_potions_stack_and_are_discarded() -> None:
    g, h = setup("M1-01")
    with_hero(g, h, faceup=["BZ04-1", "BZ06-1", "BZ05-1"])
    act(g, h, {"type": "attack", "weapon": "sword"})
    opts = acts(g, h)
    assert {"type": "potion", "card": "BZ04-1"} in opts
    assert {"type": "potion", "card": "BZ06-1"} in opts
    assert {"type": "potion", "card": "BZ05-1"} not in opts  # bow potion
    act(g, h, {"type": "potion", "card": "BZ04-1"})
    script(g, faces=[1, 6])
    # the last potion leaves "roll" as the only choice, which is taken at once
    ev = act(g, h, {"type": "potion", "card": "BZ06-1"})
    assert next(e for e in ev if e.type == "strike").data["total"] == 1 + 2 + 3
    assert g.context.hero(h).faceup == ["BZ05-1"]


def test_br41_energy_boost_is_a_full_new_attack() -> None:
    g, h = setup("M3-27")  # Anteater Cub: shield 2, life 8
    with_hero(g, h, faceup=["BZ11-1"])
    script(g, faces=[6, 6])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert g.context.hero(h).arrows == 3
    assert acts(g, h) == [
        {"type": "end_attack"},
        {"type": "energy_boost", "card": "BZ11-1", "weapon": "sword"},
        {"type": "energy_boost", "card": "BZ11-1", "weapon": "bow"},
    ]
    script(g, faces=[3, 3])
    act(g, h, {"type": "energy_boost", "card": "BZ11-1", "weapon": "bow"})
    assert g.context.hero(h).arrows == 2  # the arrow is paid again
    assert g.context.slot(1, "C").wounds == 2
    assert "BZ11-1" in g.state.bazaar.discard


def test_br43_act_of_bravery_needs_exactly_two_bones() -> None:
    g, h = setup("M1-02")
    seat = g.context.owner(h)
    set_seat(g, seat, hand=["LT09-1", "LT08-1"])
    script(g, faces=[5, 4])
    act(g, h, {"type": "attack", "weapon": "sword"})
    opts = acts(g, h)
    assert {"type": "bravery", "card": "LT09-1"} in opts and {
        "type": "bravery",
        "card": "LT08-1",
    } in opts
    act(g, h, {"type": "bravery", "card": "LT09-1"})  # courage: both bones become successes
    assert g.context.slot(1, "C").wounds == 1 + 2 - 1
    assert g.context.hero(h).hearts == 5  # no bones left -> no strike back
    g2, h2 = setup("M1-02")
    set_hand(g2, h2, ["LT08-1"])
    script(g2, faces=[5, 1])
    act(g2, h2, {"type": "attack", "weapon": "sword"})
    assert g2.context.hero(h2).hearts == 5 - 2  # one bone: no bravery offered, resolved at once


def test_br43_act_of_bravery_riches() -> None:
    g, h = setup("M1-02")
    set_hand(g, h, ["LT08-1"])
    before = vp(g, h)
    script(g, faces=[5, 5])
    act(g, h, {"type": "attack", "weapon": "sword"})
    act(g, h, {"type": "bravery", "card": "LT08-1"})
    assert g.context.hero(h).coins == 8 and vp(g, h) == before + 2
    assert g.context.hero(h).hearts == 5 - 3


def test_br44_corrosion_lowers_the_shield_by_two_minimum_zero() -> None:
    g, h = setup("M2-12", space=1)  # shield 2
    set_hand(g, h, ["LT10-1"])
    act(g, h, {"type": "attack", "weapon": "bow"})
    script(g, faces=[1, 6])
    ev = act(g, h, {"type": "corrosion", "card": "LT10-1"})  # then the roll is the only choice
    assert next(e for e in ev if e.type == "strike").data == {
        "hero": h,
        "total": 1,
        "shield": 0,
        "wounds": 1,
        "monster": "M2-12",
        "monster_wounds": 1,
    }


def test_br42_you_can_do_better_rerolls_and_is_discarded_on_the_third_marker() -> None:
    g, h = setup("M1-01")
    with_hero(g, h, faceup=["BZ10-1"])
    set_markers(g, "BZ10-1", 2)
    script(g, faces=[6, 6])
    act(g, h, {"type": "attack", "weapon": "bow"})  # nothing to play before: rolls at once
    opts = acts(g, h)
    assert {"type": "reroll", "card": "BZ10-1", "dice": [0]} in opts
    assert {"type": "reroll", "card": "BZ10-1", "dice": [0, 1]} in opts
    assert {"type": "reroll", "card": "BZ10-1", "dice": [1]} not in opts  # same face as die 0
    script(g, faces=[3, 3])
    act(g, h, {"type": "reroll", "card": "BZ10-1", "dice": [0, 1]})
    assert g.context.slot(1, "C").wounds == 3
    assert "BZ10-1" not in g.context.hero(h).faceup and "BZ10-1" not in g.state.markers


def test_br42_a_card_with_a_marker_cannot_be_sold() -> None:
    g = adventure(3, 7)
    h = crown_hero(g)
    with_hero(g, h, faceup=["BZ08-1", "BZ08-2"])
    set_markers(g, "BZ08-1", 1)
    assert trading.sellable(g.context, h) == ["BZ08-2"]


def test_br59_armored_exoskeleton_limits_a_hit_to_one_and_refuses_shields() -> None:
    g, h = setup("M4-35", mode="powers", space=1)  # Woodpecker: 3 bones
    with_hero(g, h, name="beetle")
    with_hero(g, h, hearts=6)
    script(g, faces=[5, 5])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.hero(h).hearts == 5
    with_hero(g, h, hearts=5)
    start_turn(g, h)
    script(g, faces=[5, 6])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert g.context.hero(h).hearts == 5 - 4
    assert not g.context.can_equip(h, "BZ22-1")


def test_br60_fierce_frenzy_with_three_hearts_or_fewer_and_a_sword() -> None:
    g, h = setup("M4-37", mode="powers")  # shield 3
    with_hero(g, h, name="wasp")
    with_hero(g, h, hearts=3)
    script(g, faces=[1, 6])
    ev = act(g, h, {"type": "attack", "weapon": "sword"})
    assert next(e for e in ev if e.type == "strike").data["total"] == 3
    with_hero(g, h, hearts=4)
    start_turn(g, h)
    script(g, faces=[1, 6])
    ev = act(g, h, {"type": "attack", "weapon": "sword"})
    assert next(e for e in ev if e.type == "strike").data["total"] == 1


def test_br57_tireless_archer_gains_an_arrow_per_white_face_capped() -> None:
    g, h = setup("M4-37", mode="powers")
    with_hero(g, h, name="caterpillar")
    script(g, faces=[6, 6])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert g.context.hero(h).arrows == 4 - 1 + 2
    with_hero(g, h, arrows=6)
    start_turn(g, h)
    script(g, faces=[6, 6])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert g.context.hero(h).arrows == 6


def test_br64_bow_space_without_arrows_must_move() -> None:
    g, h = setup("M1-04", space=1)  # Sundew Trap: second space is bow only
    with_hero(g, h, arrows=0)
    types = {a["type"] for a in acts(g, h)}
    assert "attack" not in types and "move" in types
    with pytest.raises(RuleError) as err:
        act(g, h, {"type": "attack", "weapon": "sword"})
    assert err.value.code == "wrong_step"


def test_sword_only_space_forces_the_sword() -> None:
    g, h = setup("M1-02", space=1)
    assert [a for a in acts(g, h) if a["type"] == "attack"] == [
        {"type": "attack", "weapon": "sword"}
    ]


def test_br66_after_a_kill_and_the_flash_the_next_hero_plays() -> None:
    g, h = setup("M1-01")
    wound(g, 1, 2)
    script(g, faces=[3, 3])
    act(g, h, {"type": "attack", "weapon": "bow"})
    assert top(g)["k"] == "freemove"
    act(g, h, next(a for a in acts(g, h) if a["col"] == 2))
    assert g.state.flash is None
    assert top(g)["k"] == "turn" and top(g)["hero"] == (h + 1) % 3


def test_brx3_tireless_archer_counts_the_final_dice_after_rerolls() -> None:
    g, h = setup("M4-37", mode="powers")
    with_hero(g, h, name="caterpillar")
    with_hero(g, h, arrows=2)
    with_hero(g, h, faceup=["BZ09-1"])
    script(g, faces=[6, 6, 1])
    act(g, h, {"type": "attack", "weapon": "bow"})
    act(g, h, {"type": "reroll", "card": "BZ09-1", "dice": [0]})
    act(g, h, {"type": "keep"})
    assert g.context.hero(h).arrows == 2 - 1 + 1


def test_br64_a_bow_attack_needs_an_arrow_at_the_start_of_the_turn() -> None:
    # RULINGS 4.5/4.6 and L245: arrows bought during the turn (Itinerant Merchant) do not count.
    g, h = setup("M1-04")  # Sundew Trap: space 0 any, space 1 bow only
    with_hero(g, h, arrows=0, coins=10)
    start_turn(g, h)
    set_hand(g, h, ["LT07-1"])
    act(g, h, {"type": "play", "card": "LT07-1"})
    act(g, h, {"type": "buy_arrows"})
    act(g, h, {"type": "end_turn"})
    assert g.context.hero(h).arrows == 2 and top(g)["k"] == "turn" and top(g)["hero"] == h
    attacks = [a for a in acts(g, h) if a["type"] == "attack"]
    assert attacks == [{"type": "attack", "weapon": "sword"}]
    with pytest.raises(RuleError):
        act(g, h, {"type": "attack", "weapon": "bow"})
    # next turn the arrows were there at its start: the bow is allowed again
    start_turn(g, h)
    assert {"type": "attack", "weapon": "bow"} in acts(g, h)
    # a bow-only space with no arrow at the start of the turn: move, whatever is gained later
    g2, h2 = setup("M1-04", space=1)
    with_hero(g2, h2, arrows=0)
    start_turn(g2, h2)
    with_hero(g2, h2, arrows=3)  # (as if gained by a card during this turn)
    assert not [a for a in acts(g2, h2) if a["type"] == "attack"]


def test_br58_br42_the_wooden_shield_toss_is_an_ordinary_toss() -> None:
    # BR-58 "after any own toss" and BR-42 "any toss where cards are allowed" cover the Wooden
    # Shield toss of a strike back: Good Fortune, Second Chance and Forcing Fate apply to it.
    g, h = setup("M1-02", mode="powers")
    with_hero(g, h, name="grasshopper", shield=["BZ20-1"])
    script(g, faces=[5, 5], coins=[False])  # 2 bones + 1 monster bone = 3; the toss is red
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert top(g)["k"] == "toss" and top(g)["why"] == "shield"
    assert acts(g, h) == [{"type": "accept"}, {"type": "good_fortune"}]
    act(g, h, {"type": "good_fortune"})  # now green: 1 blocked
    assert g.context.hero(h).coins == 3 and g.context.hero(h).hearts == 5 - 2
    g2, h2 = setup("M1-02")
    with_hero(g2, h2, shield=["LT20-1"], faceup=["LT24-1", "BZ07-1"])
    script(g2, faces=[5, 5])
    act(g2, h2, {"type": "attack", "weapon": "sword"})
    assert acts(g2, h2) == [
        {"type": "toss"},
        {"type": "force", "card": "BZ07-1", "result": "green"},
        {"type": "force", "card": "BZ07-1", "result": "red"},
    ]
    script(g2, coins=[False, True])
    act(g2, h2, {"type": "toss"})
    act(g2, h2, {"type": "retoss", "card": "LT24-1"})
    act(g2, h2, {"type": "accept"})
    assert g2.context.hero(h2).hearts == 5 - 2 and g2.state.markers["LT24-1"] == 1


def test_br42_the_most_used_copy_takes_the_marker() -> None:
    g, h = setup("M1-02")
    with_hero(g, h, faceup=["BZ09-1", "BZ09-2"])
    set_markers(g, "BZ09-2", 1)
    script(g, faces=[5, 6])
    act(g, h, {"type": "attack", "weapon": "sword"})
    rerolls = [a for a in acts(g, h) if a["type"] == "reroll"]
    assert rerolls and all(a["card"] == "BZ09-2" for a in rerolls)


def test_br41_energy_boost_chooses_the_weapon_again() -> None:
    # 4.6 step 7: the boost is a new ATTACK, whose step 0 chooses the weapon (space symbols
    # still force it); a sword attack may be followed by a bow attack and vice versa.
    g, h = setup("M3-27")  # Anteater Cub: shield 2, life 8, bones 1
    with_hero(g, h, faceup=["BZ11-1"])
    script(g, faces=[6, 6])
    act(g, h, {"type": "attack", "weapon": "sword"})
    script(g, faces=[5, 6])
    act(g, h, {"type": "energy_boost", "card": "BZ11-1", "weapon": "bow"})
    assert g.context.hero(h).arrows == 3 and g.context.hero(h).hearts == 5  # a bow: bones ignored
    g2, h2 = setup("M1-02", space=1)  # Garden Shrew: sword-only space
    with_hero(g2, h2, faceup=["BZ11-1"])
    script(g2, faces=[6, 6])
    act(g2, h2, {"type": "attack", "weapon": "sword"})
    assert acts(g2, h2) == [
        {"type": "end_attack"},
        {"type": "energy_boost", "card": "BZ11-1", "weapon": "sword"},
    ]
    # no arrow at the start of the turn: arrows won during it (Tireless Archer) do not arm a bow
    g3, h3 = setup("M3-27", mode="powers")
    with_hero(g3, h3, name="caterpillar", arrows=0, faceup=["BZ11-1"])
    start_turn(g3, h3)
    script(g3, faces=[6, 6])
    act(g3, h3, {"type": "attack", "weapon": "sword"})
    assert g3.context.hero(h3).arrows == 2
    assert acts(g3, h3) == [
        {"type": "end_attack"},
        {"type": "energy_boost", "card": "BZ11-1", "weapon": "sword"},
    ]


def test_brx27_no_reroll_after_an_act_of_courage() -> None:
    # LT09 turns "the 2 bone symbols" rolled into successes: the dice are then final, or a
    # reroll could turn new bones into successes too.
    g, h = setup("M1-02")
    set_hand(g, h, ["LT09-1"])
    with_hero(g, h, faceup=["BZ09-1"])
    script(g, faces=[5, 5])
    act(g, h, {"type": "attack", "weapon": "sword"})
    assert any(a["type"] == "reroll" for a in acts(g, h))
    ev = act(g, h, {"type": "bravery", "card": "LT09-1"})  # "keep" is then the only option
    assert next(e for e in ev if e.type == "strike").data["total"] == 2
    assert g.context.hero(h).hearts == 5 and "BZ09-1" not in g.state.markers
