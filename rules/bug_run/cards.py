"""Cards played outside an attack (Card Descriptions, BR-40): potions, Gold Coins, the
Itinerant Merchant, Reserved Seat and the Crafty One's theft."""

from __future__ import annotations

from ..core import Event
from . import board, chance, stocks
from . import content as C
from .context import Action, Run
from .frames import CraftyFrame, EscapeFrame, TradeFrame, TurnFrame


def play_options(game: Run, hero: int, where: str) -> list[Action]:
    """Cards ``hero`` may play now (BR-40): ``where`` is trade, merchant (the private
    trading turn of an Itinerant Merchant), turn or escape."""
    sheet = game.hero(hero)
    seat = game.owner(hero)
    out: list[Action] = []
    seen: set[str] = set()

    def once(card: str, act: Action) -> None:
        """List an action once per card kind, so copies of a card do not repeat a choice."""
        key = card.rsplit("-", 1)[0] + repr(sorted(act.items()))
        if key not in seen:
            seen.add(key)
            out.append(act)

    for card in sheet.faceup:
        effect = C.card(card)["effect"]
        if effect in ("potion", "full_potion") and sheet.hearts < 10:
            once(card, {"type": "play", "card": card})
    for card in game.hand(seat):
        effect = C.card(card)["effect"]
        if (effect == "gold_coins" and sheet.coins < 15) or (
            effect == "merchant" and where != "merchant"
        ):
            once(card, {"type": "play", "card": card})
        elif effect == "crafty" and where == "turn":
            for t in crafty_targets(game, hero):
                once(card, {"type": "play", "card": card, "target": t})
        elif effect == "reserved_seat" and where != "escape" and game.state.board:
            for i in reservable(game, hero):
                once(card, {"type": "play", "card": card, "space": i})
    return out


def reservable(game: Run, hero: int) -> list[int]:
    """Stairs spaces ``hero`` may reserve (BR-47): one reservation per hero, and in a
    2p fight whose teams are fixed only on its own team, so every hero keeps a space."""
    slot = game.stairs_slot()
    if any(space.reserved == hero for space in slot.spaces):
        return []
    team = game.state.teams.get(str(game.owner(hero)))
    return [
        i
        for i, space in enumerate(slot.spaces)
        if space.hero is None
        and not space.lock
        and space.reserved is None
        and (team is None or board.stair_team(game, i) == team)
    ]


def crafty_targets(game: Run, hero: int) -> list[int]:
    """Heroes on the same monster or quest card (BR-45); opponents only in 2p (4.10)."""
    slot = game.here(hero)
    if slot.kind in ("entrance", "stairs"):
        return []
    pos = game.hero(hero).position()
    return [
        other
        for other in game.heroes_on(pos.col, pos.floor)
        if other != hero and game.owner(other) != game.owner(hero)
    ]


def answer_play(
    game: Run, frame: TradeFrame | TurnFrame | EscapeFrame, action: Action, events: list[Event]
) -> None:
    """Play a card listed by ``play_options``: it is discarded, then takes effect (a Merchant or a
    Crafty One opens its own frame)."""
    hero = frame.hero
    sheet = game.hero(hero)
    card = action["card"]
    info = C.card(card)
    effect = info["effect"]
    game.remove_card(hero, card)
    game.discard(card)
    events.append(Event.public("play", hero=hero, card=card, name=info["name"]))
    if effect == "full_potion":
        sheet.hearts = 10
    elif effect == "potion":
        stocks.gain(game, hero, "hearts", info["hearts"])
    elif effect == "gold_coins":
        stocks.gain(game, hero, "coins", info["coins"])
    elif effect == "reserved_seat":
        game.stairs_slot().spaces[action["space"]].reserved = hero
    elif effect == "merchant":
        frame.wait = False
        game.push(TradeFrame(hero=hero, merchant=True, wait=True))
    elif effect == "crafty":
        frame.wait = False
        game.push(CraftyFrame(hero=hero, target=action["target"], card=card, stage="roll"))


def step_crafty(game: Run, frame: CraftyFrame, events: list[Event]) -> None:
    """The Crafty One (BR-45): roll one die, then steal successes plus the card's bonus from the
    target."""
    if frame.stage == "roll":
        frame.stage = "steal"
        game.push(chance.roll_frame(game, frame.hero, 1, True, False, "crafty"))
        return
    info = C.card(frame.card)
    amount = frame.rolled().successes + int(info["plus"])
    stock = info["steal"]
    target = game.hero(frame.target)
    taken = min(target.stock(stock), amount)
    target.set_stock(stock, target.stock(stock) - taken)
    got = stocks.gain(game, frame.hero, stock, taken)
    events.append(
        Event.public(
            "steal", hero=frame.hero, target=frame.target, stock=stock, taken=taken, kept=got
        )
    )
    game.pop()
