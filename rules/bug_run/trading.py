"""The Trading Phase: buying (bazaar, basic equipment, hearts, arrows), equipment zones,
selling and the end of a trading turn; the Itinerant Merchant's private turn is one too."""

from __future__ import annotations

from ..core import Event
from . import cards, stocks
from . import content as C
from .context import Action, Run
from .frames import (
    TradeFrame,
)

SET_PRICE = 3


def zone_actions(g: Run, h: int, base: Action, zone: str, price: int, equip: bool) -> list[Action]:
    """Buy actions for equipment: room in the zone, or sell one equipped card first (BR-22)."""
    hero = g.hero(h)
    coins = hero.coins
    if not equip or len(hero.zone(zone)) < g.zone_limit(zone):
        return [base] if coins >= price else []
    if coins + 1 < price:
        return []
    return [base | {"replace": r} for r in hero.zone(zone)]


def sellable(g: Run, h: int) -> list[str]:
    hero = g.hero(h)
    cards = hero.cards()
    cards += g.hand(g.owner(h))
    return [c for c in cards if not g.s.markers.get(c)]


def options_trade(g: Run, fr: TradeFrame) -> list[Action]:
    h = fr.hero
    hero = g.hero(h)
    out: list[Action] = [{"type": "end_turn"}]
    for c in g.s.bazaar.market:
        d = C.card(c)
        base: Action = {"type": "buy", "card": c}
        if d["effect"] == "equipment":
            out += zone_actions(g, h, base, d["zone"], d["price"], g.can_equip(h, c))
        elif hero.coins >= d["price"]:
            out.append(base)
    if g.s.basics:
        for side in ("sword", "bow"):
            base = {"type": "buy_basic", "side": side}
            out += zone_actions(g, h, base, side, SET_PRICE, True)
    if hero.coins >= SET_PRICE:
        out += [{"type": "buy_hearts"}, {"type": "buy_arrows"}]
    out += [{"type": "sell", "card": c} for c in sellable(g, h)]
    out += cards.play_options(g, h, "merchant" if fr.merchant else "trade")
    return out


def place_equipment(g: Run, h: int, c: str, replace: str | None, ev: list[Event]) -> None:
    hero = g.hero(h)
    if replace is not None:
        sell(g, h, replace, ev)
    if g.can_equip(h, c):
        hero.zone(g.zone_of(c)).append(c)
    else:
        hero.stored.append(c)


def sell(g: Run, h: int, c: str, ev: list[Event]) -> None:
    g.remove_card(h, c)
    g.discard(c)
    got = stocks.gain(g, h, "coins", 1)
    ev.append(Event.public("sell", hero=h, card=c, name=C.card_name(c), coins=got))


def answer_trade(g: Run, fr: TradeFrame, a: Action, ev: list[Event]) -> None:
    h = fr.hero
    hero = g.hero(h)
    t = a["type"]
    fr.wait = True
    if t == "end_turn":
        fr.wait = False
        new = g.refill_market()
        ev.append(Event.public("trade_end", hero=h, revealed=new, market=g.market()))
        g.pop()
    elif t == "buy":
        c = a["card"]
        d = C.card(c)
        if "replace" in a:
            sell(g, h, a["replace"], ev)
        hero.coins -= d["price"]
        g.s.bazaar.market.remove(c)
        ev.append(Event.public("buy", hero=h, card=c, name=d["name"], price=d["price"]))
        if d["effect"] == "equipment":
            place_equipment(g, h, c, None, ev)
        else:
            hero.faceup.append(c)
    elif t == "buy_basic":
        if "replace" in a:
            sell(g, h, a["replace"], ev)
        c = g.s.basics.pop(0)
        g.s.basic_side[c] = a["side"]
        hero.coins -= SET_PRICE
        hero.zone(a["side"]).append(c)
        ev.append(Event.public("buy", hero=h, card=c, name=f"Basic {a['side']}", price=SET_PRICE))
    elif t in ("buy_hearts", "buy_arrows"):
        stock, n = ("hearts", 3) if t == "buy_hearts" else ("arrows", 2)
        hero.coins -= SET_PRICE
        got = stocks.gain(g, h, stock, n)
        ev.append(Event.public("buy_stock", hero=h, stock=stock, amount=got, price=SET_PRICE))
    elif t == "sell":
        sell(g, h, a["card"], ev)
    else:
        cards.answer_play(g, fr, a, ev)


def step_trade(g: Run, fr: TradeFrame, ev: list[Event]) -> None:
    fr.wait = True
