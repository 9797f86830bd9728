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


def zone_actions(
    game: Run, hero: int, base: Action, zone: str, price: int, equip: bool
) -> list[Action]:
    """Buy actions for equipment: room in the zone, or sell one equipped card first (BR-22)."""
    sheet = game.hero(hero)
    coins = sheet.coins
    if not equip or len(sheet.zone(zone)) < game.zone_limit(zone):
        return [base] if coins >= price else []
    if coins + 1 < price:
        return []
    return [base | {"replace": r} for r in sheet.zone(zone)]


def sellable(game: Run, hero: int) -> list[str]:
    """Cards ``hero`` may sell: held or in its player's hand, without a use marker."""
    held = game.hero(hero).cards() + game.hand(game.owner(hero))
    return [card for card in held if not game.state.markers.get(card)]


def options_trade(game: Run, frame: TradeFrame) -> list[Action]:
    """End the turn, buy (bazaar, basic equipment, hearts or arrows), sell, or play a card
    (BR-40)."""
    hero = frame.hero
    sheet = game.hero(hero)
    out: list[Action] = [{"type": "end_turn"}]
    for card in game.state.bazaar.market:
        info = C.card(card)
        base: Action = {"type": "buy", "card": card}
        if info["effect"] == "equipment":
            out += zone_actions(
                game, hero, base, info["zone"], info["price"], game.can_equip(hero, card)
            )
        elif sheet.coins >= info["price"]:
            out.append(base)
    if game.state.basics:
        for side in ("sword", "bow"):
            base = {"type": "buy_basic", "side": side}
            out += zone_actions(game, hero, base, side, SET_PRICE, True)
    if sheet.coins >= SET_PRICE:
        out += [{"type": "buy_hearts"}, {"type": "buy_arrows"}]
    out += [{"type": "sell", "card": card} for card in sellable(game, hero)]
    out += cards.play_options(game, hero, "merchant" if frame.merchant else "trade")
    return out


def place_equipment(
    game: Run, hero: int, card: str, replace: str | None, events: list[Event]
) -> None:
    """Equip a bought card (after selling the replaced one), or store it when the hero cannot equip
    it."""
    sheet = game.hero(hero)
    if replace is not None:
        sell(game, hero, replace, events)
    if game.can_equip(hero, card):
        sheet.zone(game.zone_of(card)).append(card)
    else:
        sheet.stored.append(card)


def sell(game: Run, hero: int, card: str, events: list[Event]) -> None:
    """Sell for 1 coin; the card goes back to its pile."""
    game.remove_card(hero, card)
    game.discard(card)
    got = stocks.gain(game, hero, "coins", 1)
    events.append(Event.public("sell", hero=hero, card=card, name=C.card_name(card), coins=got))


def answer_trade(game: Run, frame: TradeFrame, action: Action, events: list[Event]) -> None:
    """Play a trading choice; ending the turn refills the market."""
    hero = frame.hero
    sheet = game.hero(hero)
    choice = action["type"]
    frame.wait = True
    if choice == "end_turn":
        frame.wait = False
        new = game.refill_market()
        events.append(Event.public("trade_end", hero=hero, revealed=new, market=game.market()))
        game.pop()
    elif choice == "buy":
        card = action["card"]
        info = C.card(card)
        if "replace" in action:
            sell(game, hero, action["replace"], events)
        sheet.coins -= info["price"]
        game.state.bazaar.market.remove(card)
        events.append(
            Event.public("buy", hero=hero, card=card, name=info["name"], price=info["price"])
        )
        if info["effect"] == "equipment":
            place_equipment(game, hero, card, None, events)
        else:
            sheet.faceup.append(card)
    elif choice == "buy_basic":
        if "replace" in action:
            sell(game, hero, action["replace"], events)
        card = game.state.basics.pop(0)
        game.state.basic_side[card] = action["side"]
        sheet.coins -= SET_PRICE
        sheet.zone(action["side"]).append(card)
        events.append(
            Event.public(
                "buy", hero=hero, card=card, name=f"Basic {action['side']}", price=SET_PRICE
            )
        )
    elif choice in ("buy_hearts", "buy_arrows"):
        stock, n = ("hearts", 3) if choice == "buy_hearts" else ("arrows", 2)
        sheet.coins -= SET_PRICE
        got = stocks.gain(game, hero, stock, n)
        events.append(
            Event.public("buy_stock", hero=hero, stock=stock, amount=got, price=SET_PRICE)
        )
    elif choice == "sell":
        sell(game, hero, action["card"], events)
    else:
        cards.answer_play(game, frame, action, events)


def step_trade(game: Run, frame: TradeFrame, events: list[Event]) -> None:
    """A trading turn always waits for the player."""
    frame.wait = True
