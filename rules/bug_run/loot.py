"""The Rewards: coins, VP, hearts and arrows, and loot cards (draw, keep, equip or store)."""

from __future__ import annotations

from ..core import Event
from . import content as C
from . import stocks
from .context import Action, Run
from .frames import (
    LootFrame,
    RewardFrame,
)


def step_reward(game: Run, frame: RewardFrame, events: list[Event]) -> None:
    """Give the reward items one by one; a loot draw stops here until the loot frame returns."""
    hero = frame.hero
    while frame.i < len(frame.items):
        item = frame.items[frame.i]
        frame.i += 1
        if stocks.grant_item(game, hero, item, events):
            game.push(LootFrame(hero=hero, stage="draw"))
            return
    game.pop()


def step_loot(game: Run, frame: LootFrame, events: list[Event]) -> None:
    """Draw (two for a Master Crocheter, BR-61; none left gives 1 VP, BR-36), then place the
    card."""
    hero = frame.hero
    if frame.stage == "draw":
        n = 2 if game.has_power(hero, "master_crocheter") else 1
        drawn = [card for card in (game.draw_loot() for _ in range(n)) if card is not None]
        if not drawn:  # BR-36: no loot left anywhere -> 1 VP
            game.gain_vp(game.owner(hero), 1)
            events.append(Event.public("gain", hero=hero, item="L", vp=1, loot_empty=True))
            game.pop()
            return
        game.state.limbo = drawn
        if len(drawn) == 2:
            events.append(
                Event.private(game.owner(hero), "loot_choice", hero=hero, cards=list(drawn))
            )
            frame.stage = "keep"
            frame.wait = True
            return
        frame.card = drawn[0]
        frame.stage = "place"
    elif frame.stage == "place":
        place_loot(game, frame, events)
    else:
        game.pop()


def options_loot(game: Run, frame: LootFrame) -> list[Action]:
    """Keep one of two drawn cards, or equip (replacing a card of a full zone) or store the found
    equipment."""
    if frame.stage == "keep":
        return [{"type": "keep", "card": card} for card in game.state.limbo]
    sheet = game.hero(frame.hero)
    zone = game.zone_of(frame.drawn())
    if len(sheet.zone(zone)) < game.zone_limit(zone):
        equip: list[Action] = [{"type": "equip"}]
    else:
        equip = [{"type": "equip", "replace": r} for r in sheet.zone(zone)]
    return [*equip, {"type": "store"}]


def answer_loot(game: Run, frame: LootFrame, action: Action, events: list[Event]) -> None:
    """Keep a card (the other to the bottom, BR-61), or equip or store it (a replaced card is
    stored, BR-38)."""
    hero = frame.hero
    sheet = game.hero(hero)
    if action["type"] == "keep":
        for card in game.state.limbo:
            if card != action["card"]:
                game.state.loot.deck.append(card)  # BR-61: the other to the bottom
        game.state.limbo = [action["card"]]
        frame.card = action["card"]
        frame.stage = "place"
        return
    card = frame.drawn()
    game.state.limbo = []
    frame.stage = "end"
    if action["type"] == "store":
        sheet.stored.append(card)
        events.append(Event.public("loot_store", hero=hero, card=card, name=C.card_name(card)))
        return
    zone = game.zone_of(card)
    if "replace" in action:
        sheet.zone(zone).remove(action["replace"])
        sheet.stored.append(action["replace"])  # BR-38
    sheet.zone(zone).append(card)
    events.append(
        Event.public(
            "loot_equip",
            hero=hero,
            card=card,
            name=C.card_name(card),
            replaced=action.get("replace"),
        )
    )


def place_loot(game: Run, frame: LootFrame, events: list[Event]) -> None:
    """Equipment may be equipped (a choice); a secret card goes to the hand, privately; others lie
    face up."""
    hero = frame.hero
    card = frame.drawn()
    info = C.card(card)
    seat = game.owner(hero)
    if info["type"] == "equipment" and game.can_equip(hero, card):
        frame.stage = "equip"
        frame.wait = True
        events.append(Event.public("loot", hero=hero, card=card, name=info["name"]))
        return
    game.state.limbo = []
    frame.stage = "end"
    if info["type"] == "secret":
        game.hand(seat).append(card)
        events.append(Event.public("loot_secret", hero=hero, hand_size=len(game.hand(seat))))
        events.append(
            Event.private(seat, "loot_secret_card", hero=hero, card=card, name=info["name"])
        )
    elif info["type"] == "equipment":
        game.hero(hero).stored.append(card)
        events.append(Event.public("loot_store", hero=hero, card=card, name=info["name"]))
    else:
        game.hero(hero).faceup.append(card)
        events.append(Event.public("loot", hero=hero, card=card, name=info["name"]))
