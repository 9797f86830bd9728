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


def gain(g: Run, h: int, stock: str, amount: int) -> int:
    """Add to a capped stock; what overflows the cap is lost (BR-22). Returns the gain."""
    hero = g.hero(h)
    before = hero.stock(stock)
    hero.set_stock(stock, min(CAPS[stock], before + amount))
    return hero.stock(stock) - before


def lose(g: Run, h: int, stock: str, amount: int, ev: list[Event]) -> int:
    """A loss takes what there is (BR-21); hearts reaching 0 kill the hero (BR-18)."""
    hero = g.hero(h)
    taken = min(hero.stock(stock), amount)
    hero.set_stock(stock, hero.stock(stock) - taken)
    if stock == "hearts" and hero.hearts <= 0:
        death(g, h, ev)
    return int(taken)


def damage(g: Run, h: int, amount: int, ev: list[Event]) -> None:
    hero = g.hero(h)
    hero.hearts -= amount
    if hero.hearts <= 0:
        death(g, h, ev)


def death(g: Run, h: int, ev: list[Event]) -> None:
    seat = g.owner(h)
    lost = g.lose_vp(seat, 5)
    g.hero(h).hearts = START["hearts"]
    ev.append(Event.public("death", hero=h, name=g.name(h)))
    ev.append(Event.private(seat, "vp_lost", hero=h, amount=lost, vp=g.s.seats[seat].vp))


def grant_item(g: Run, h: int, item: str, ev: list[Event], *, printed: bool = True) -> bool:
    """Apply one reward item to hero ``h``. Returns True when it is a loot draw to do.

    A printed heart/arrow/coin reward taken while that stock is full becomes 1 VP (BR-23).
    """
    kind, amount = parse(item)
    seat = g.owner(h)
    if kind == "L":
        return True
    if kind == "vp":
        if amount >= 0:
            g.gain_vp(seat, amount)
            ev.append(Event.public("gain", hero=h, item=item, vp=amount))
        else:
            # how many VP were really lost would tell the table a VP total of 0 (BR-50)
            lost = g.lose_vp(seat, -amount)
            ev.append(Event.public("loss", hero=h, item=item))
            ev.append(Event.private(seat, "vp_lost", hero=h, amount=lost, vp=g.vp(seat)))
        return False
    stock = STOCK[kind]
    if amount < 0:
        lost = lose(g, h, stock, -amount, ev)
        ev.append(Event.public("loss", hero=h, item=item, **{stock: lost}))
        return False
    if printed and g.hero(h).stock(stock) >= CAPS[stock]:
        g.gain_vp(seat, 1)
        ev.append(Event.public("gain", hero=h, item=item, vp=1, at_max=stock))
        return False
    got = gain(g, h, stock, amount)
    ev.append(Event.public("gain", hero=h, item=item, **{stock: got}))
    return False
