"""Trading turns (§4.3), card plays outside attacks, and the rejected-action contract."""

from __future__ import annotations

import pytest

from rules.bug_run import cards
from rules.core import RuleError

from .test_bug_run_support import (
    act,
    acts,
    adventure,
    crown_hero,
    deck_to_discard,
    game,
    place,
    plain_board,
    script,
    set_basics,
    set_bazaar_deck,
    set_column,
    set_hand,
    set_market,
    start_turn,
    top,
    with_hero,
)


def trader(n: int = 3, seed: int = 4):  # type: ignore[no-untyped-def]
    g = game(n, seed)
    return g, top(g)["hero"]


def test_buying_a_market_card_pays_its_price_and_lays_it_face_up() -> None:
    g, h = trader()
    set_market(g, ["BZ07-1", "BZ12-1", "BZ22-1"])
    assert {"type": "buy", "card": "BZ22-1"} not in acts(g, h)  # 7 coins
    act(g, h, {"type": "buy", "card": "BZ07-1"})
    assert g.context.hero(h).faceup == ["BZ07-1"] and g.context.hero(h).coins == 2
    act(g, h, {"type": "buy", "card": "BZ12-1"})
    assert g.context.hero(h).sword == ["BZ12-1"] and g.state.bazaar.market == ["BZ22-1"]
    with pytest.raises(RuleError) as err:
        act(g, h, {"type": "buy", "card": "BZ22-1"})
    assert err.value.code == "cant_afford"
    act(g, h, {"type": "end_turn"})
    assert len(g.state.bazaar.market) == 3


def test_a_full_zone_sells_an_equipped_card_first() -> None:
    g, h = trader()
    with_hero(g, h, sword=["BZ12-1", "LT14-1"])
    with_hero(g, h, coins=4)
    set_market(g, ["BZ18-1", "BZ04-1", "BZ04-2"])  # Sparkling Sword: 5 coins
    opts = [a for a in acts(g, h) if a["type"] == "buy" and a["card"] == "BZ18-1"]
    assert opts == [
        {"type": "buy", "card": "BZ18-1", "replace": "BZ12-1"},
        {"type": "buy", "card": "BZ18-1", "replace": "LT14-1"},
    ]
    act(g, h, opts[1])
    assert g.context.hero(h).sword == ["BZ12-1", "BZ18-1"] and g.context.hero(h).coins == 0
    assert "LT14-1" in g.state.loot.discard


def test_basic_equipment_side_is_fixed_and_sold_basics_return() -> None:
    g, h = trader()
    act(g, h, {"type": "buy_basic", "side": "bow"})
    c = g.context.hero(h).bow[0]
    assert (
        g.state.basic_side[c] == "bow"
        and g.context.hero(h).coins == 2
        and len(g.state.basics) == 15
    )
    act(g, h, {"type": "sell", "card": c})
    assert g.context.hero(h).bow == [] and g.context.hero(h).coins == 3 and c in g.state.basics
    set_basics(g, [])
    assert not any(a["type"] == "buy_basic" for a in acts(g, h))


def test_hearts_and_arrows_sets() -> None:
    g, h = trader()
    act(g, h, {"type": "buy_arrows"})
    assert g.context.hero(h).arrows == 6 and g.context.hero(h).coins == 2
    assert not any(a["type"] in ("buy_hearts", "buy_arrows") for a in acts(g, h))


def test_br37_the_bazaar_reshuffles_then_shows_fewer_cards() -> None:
    g, h = trader()
    deck_to_discard(g, "bazaar")
    with_hero(g, h, coins=15)
    act(g, h, {"type": "buy", "card": g.state.bazaar.market[0]})
    act(g, h, {"type": "end_turn"})
    assert len(g.state.bazaar.market) == 3 and len(g.state.bazaar.deck) == 28
    g2, h2 = trader()
    set_bazaar_deck(g2, [])
    with_hero(g2, h2, coins=15)
    act(g2, h2, {"type": "buy", "card": g2.state.bazaar.market[0]})
    act(g2, h2, {"type": "end_turn"})
    assert len(g2.state.bazaar.market) == 2


def test_the_last_trader_renews_the_whole_market() -> None:
    g = game(3, 4)
    for _ in range(2):
        act(g, top(g)["hero"], {"type": "end_turn"})
    market = list(g.state.bazaar.market)
    act(g, top(g)["hero"], {"type": "end_turn"})
    assert g.state.phase == "adventure"
    assert g.state.bazaar.discard == market and not set(market) & set(g.state.bazaar.market)


def test_br40_potions_and_gold_coins_in_a_trading_turn_not_useless_ones() -> None:
    g, h = trader()
    with_hero(g, h, faceup=["BZ02-1"])
    set_hand(g, h, ["LT01-1"])
    with_hero(g, h, hearts=10)
    assert {"type": "play", "card": "BZ02-1"} not in acts(g, h)
    with_hero(g, h, hearts=6)
    act(g, h, {"type": "play", "card": "BZ02-1"})
    act(g, h, {"type": "play", "card": "LT01-1"})
    assert g.context.hero(h).hearts == 9 and g.context.hero(h).coins == 10


def test_br39_stored_equipment_can_only_be_sold() -> None:
    g, h = trader()
    with_hero(g, h, stored=["LT20-1"])
    mentions = [a for a in acts(g, h) if a.get("card") == "LT20-1" or a.get("replace") == "LT20-1"]
    assert mentions == [{"type": "sell", "card": "LT20-1"}]


def test_br59_an_armored_hero_stores_a_bought_shield() -> None:
    g = game(3, 4, "powers")
    h = top(g)["hero"]
    with_hero(g, h, name="beetle")
    set_market(g, ["BZ20-1", "BZ04-1", "BZ04-2"])
    act(g, h, {"type": "buy", "card": "BZ20-1"})
    assert g.context.hero(h).shield == [] and g.context.hero(h).stored == ["BZ20-1"]


def test_a_rejected_action_changes_nothing() -> None:
    g, h = trader()
    before = g.to_dict()
    bad = [
        {"type": "buy", "card": "BZ99-1"},
        {"type": "sell", "card": "LT01-1"},
        {"type": "move", "col": 1, "floor": "C", "space": 0},
        {"type": "end_turn", "extra": 1},
        {"nope": 1},
        "end_turn",
    ]
    for a in bad:
        with pytest.raises(RuleError):
            act(g, h, a)  # type: ignore[arg-type]
        assert g.to_dict() == before
    with pytest.raises(RuleError) as err:
        g.apply((g.context.owner(h) + 1) % 3, {"type": "end_turn"})
    assert err.value.code == "not_your_turn" and g.to_dict() == before


def test_br46_the_itinerant_merchant_is_a_private_trading_turn() -> None:
    g = adventure(3, 4)
    h = crown_hero(g)
    set_hand(g, h, ["LT07-1"])
    start_turn(g, h)
    act(g, h, {"type": "play", "card": "LT07-1"})
    assert top(g)["k"] == "trade" and top(g)["merchant"]
    bought = g.state.bazaar.market[0]
    with_hero(g, h, coins=15)
    act(g, h, {"type": "buy", "card": bought})
    act(g, h, {"type": "end_turn"})
    assert len(g.state.bazaar.market) == 3 and top(g)["k"] == "turn" and top(g)["hero"] == h


def test_br45_crafty_one_steals_from_a_hero_on_the_same_card() -> None:
    g = adventure(3, 4)
    plain_board(g)
    h = crown_hero(g)
    other = (h + 1) % 3
    far = (h + 2) % 3
    place(g, h, 1)
    place(g, other, 1, space=1)
    place(g, far, 2)
    set_hand(g, h, ["LT05-1"])
    start_turn(g, h)
    plays = [a for a in acts(g, h) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "LT05-1", "target": other}]
    script(g, faces=[3])  # 2 successes + 2 = 4 coins
    act(g, h, plays[0])
    assert g.context.hero(other).coins == 1 and g.context.hero(h).coins == 9
    assert top(g)["k"] == "turn" and top(g)["hero"] == h


def test_br45_no_crafty_one_on_the_stairs() -> None:
    g = adventure(3, 4)
    h = crown_hero(g)
    other = (h + 1) % 3
    place(g, h, g.context.stairs_col(), space=1)
    place(g, other, g.context.stairs_col(), space=2)
    set_hand(g, h, ["LT05-1"])
    assert cards.crafty_targets(g.context, h) == []


def test_brx6_the_merchant_in_a_trading_turn_renews_the_market_no_crafty_one() -> None:
    # BR-40: "any time during your turn" includes the trading turn. Played there, the Merchant
    # reveals new bazaar cards for what was bought, so the hero may buy beyond the first three.
    g, h = trader()
    set_hand(g, h, ["LT07-1", "LT05-1"])
    with_hero(g, h, coins=15)
    plays = [a for a in acts(g, h) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "LT07-1"}]  # no Crafty One at the entrance
    first = list(g.state.bazaar.market)
    for c in first:
        with_hero(g, h, coins=15)
        act(g, h, next(a for a in acts(g, h) if a["type"] == "buy" and a["card"] == c))
    assert g.state.bazaar.market == []
    act(g, h, {"type": "play", "card": "LT07-1"})
    assert top(g)["k"] == "trade" and top(g)["merchant"]
    act(g, h, {"type": "end_turn"})
    assert top(g)["k"] == "trade" and not top(g)["merchant"] and top(g)["hero"] == h
    market = g.state.bazaar.market
    assert len(market) == 3 and not set(market) & set(first)


def test_brx10_selling_a_secret_card_reveals_it() -> None:
    g, h = trader()
    set_hand(g, h, ["LT04-1"])
    ev = act(g, h, {"type": "sell", "card": "LT04-1"})
    (sale,) = [e for e in ev if e.type == "sell"]
    assert sale.is_public and sale.data["card"] == "LT04-1"
    assert g.state.loot.discard == ["LT04-1"] and g.context.hero(h).coins == 6


def test_look_alike_values_are_stored_canonically() -> None:
    g = adventure(3, 4)
    plain_board(g)
    set_column(g, 1, "Q13")
    h = crown_hero(g)
    place(g, h, 1)
    start_turn(g, h)
    act(g, h, {"type": "quest", "item": True})  # equal to 1 in Python, not in JSON
    assert g.context.slot(1, "C").marks == [1] and type(g.context.slot(1, "C").marks[0]) is int
