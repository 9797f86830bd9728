"""The hero sheet's stocks: hearts, arrows and coins with their caps, VP, death and rewards.

Reward codes are the content's: ``"3c"`` three coins, ``"-1h"`` lose a heart, ``"2vp"``,
``"L"`` a loot draw.
"""

from __future__ import annotations

from ..core import Event
from .context import Run

CAPS = {"hearts": 10, "arrows": 6, "coins": 15}
STOCK = {"h": "hearts", "a": "arrows", "c": "coins"}
START = {"hearts": 5, "arrows": 4, "coins": 5}


def parse(item: str) -> tuple[str, int]:
    """A reward code as (kind, amount): ``"3c"`` -> ("c", 3), ``"-1h"`` -> ("h", -1), ``"L"``."""
    if item == "L":
        return "L", 1
    kind = "vp" if item.endswith("vp") else item[-1]
    return kind, int(item[: -len(kind)])


def gain(game: Run, hero: int, stock: str, amount: int) -> int:
    """Add to a capped stock; what overflows the cap is lost (BR-22). Returns the gain."""
    sheet = game.hero(hero)
    before = sheet.stock(stock)
    sheet.set_stock(stock, min(CAPS[stock], before + amount))
    return sheet.stock(stock) - before


def lose(game: Run, hero: int, stock: str, amount: int, events: list[Event]) -> int:
    """A loss takes what there is (BR-21); hearts reaching 0 kill the hero (BR-18)."""
    sheet = game.hero(hero)
    taken = min(sheet.stock(stock), amount)
    sheet.set_stock(stock, sheet.stock(stock) - taken)
    if stock == "hearts" and sheet.hearts <= 0:
        death(game, hero, events)
    return int(taken)


def damage(game: Run, hero: int, amount: int, events: list[Event]) -> None:
    """Lose hearts to an attack; reaching 0 is a death (BR-18)."""
    sheet = game.hero(hero)
    sheet.hearts -= amount
    if sheet.hearts <= 0:
        death(game, hero, events)


def death(game: Run, hero: int, events: list[Event]) -> None:
    """A death costs 5 VP (what there is) and the hero starts again with 5 hearts (BR-18)."""
    seat = game.owner(hero)
    lost = game.lose_vp(seat, 5)
    game.hero(hero).hearts = START["hearts"]
    events.append(Event.public("death", hero=hero, name=game.name(hero)))
    events.append(
        Event.private(seat, "vp_lost", hero=hero, amount=lost, vp=game.state.seats[seat].vp)
    )


def grant_item(
    game: Run, hero: int, item: str, events: list[Event], *, printed: bool = True
) -> bool:
    """Apply one reward item to ``hero``. Returns True when it is a loot draw to do.

    A printed heart/arrow/coin reward taken while that stock is full becomes 1 VP (BR-23).
    """
    kind, amount = parse(item)
    seat = game.owner(hero)
    if kind == "L":
        return True
    if kind == "vp":
        if amount >= 0:
            game.gain_vp(seat, amount)
            events.append(Event.public("gain", hero=hero, item=item, vp=amount))
        else:
            # how many VP were really lost would tell the table a VP total of 0 (BR-50)
            lost = game.lose_vp(seat, -amount)
            events.append(Event.public("loss", hero=hero, item=item))
            events.append(Event.private(seat, "vp_lost", hero=hero, amount=lost, vp=game.vp(seat)))
        return False
    stock = STOCK[kind]
    if amount < 0:
        lost = lose(game, hero, stock, -amount, events)
        events.append(Event.public("loss", hero=hero, item=item, **{stock: lost}))
        return False
    if printed and game.hero(hero).stock(stock) >= CAPS[stock]:
        game.gain_vp(seat, 1)
        events.append(Event.public("gain", hero=hero, item=item, vp=1, at_max=stock))
        return False
    got = gain(game, hero, stock, amount)
    events.append(Event.public("gain", hero=hero, item=item, **{stock: got}))
    return False
