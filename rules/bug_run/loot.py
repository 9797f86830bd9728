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


def step_reward(g: Run, fr: RewardFrame, ev: list[Event]) -> None:
    h = fr.hero
    while fr.i < len(fr.items):
        item = fr.items[fr.i]
        fr.i += 1
        if stocks.grant_item(g, h, item, ev):
            g.push(LootFrame(hero=h, stage="draw"))
            return
    g.pop()


def step_loot(g: Run, fr: LootFrame, ev: list[Event]) -> None:
    h = fr.hero
    if fr.stage == "draw":
        n = 2 if g.has_power(h, "master_crocheter") else 1
        drawn = [c for c in (g.draw_loot() for _ in range(n)) if c is not None]
        if not drawn:  # BR-36: no loot left anywhere -> 1 VP
            g.gain_vp(g.owner(h), 1)
            ev.append(Event.public("gain", hero=h, item="L", vp=1, loot_empty=True))
            g.pop()
            return
        g.s.limbo = drawn
        if len(drawn) == 2:
            ev.append(Event.private(g.owner(h), "loot_choice", hero=h, cards=list(drawn)))
            fr.stage = "keep"
            fr.wait = True
            return
        fr.card = drawn[0]
        fr.stage = "place"
    elif fr.stage == "place":
        place_loot(g, fr, ev)
    else:
        g.pop()


def options_loot(g: Run, fr: LootFrame) -> list[Action]:
    if fr.stage == "keep":
        return [{"type": "keep", "card": c} for c in g.s.limbo]
    hero = g.hero(fr.hero)
    zone = g.zone_of(fr.drawn())
    if len(hero.zone(zone)) < g.zone_limit(zone):
        equip: list[Action] = [{"type": "equip"}]
    else:
        equip = [{"type": "equip", "replace": r} for r in hero.zone(zone)]
    return [*equip, {"type": "store"}]


def answer_loot(g: Run, fr: LootFrame, a: Action, ev: list[Event]) -> None:
    h = fr.hero
    hero = g.hero(h)
    if a["type"] == "keep":
        for c in g.s.limbo:
            if c != a["card"]:
                g.s.loot.deck.append(c)  # BR-61: the other to the bottom
        g.s.limbo = [a["card"]]
        fr.card = a["card"]
        fr.stage = "place"
        return
    c = fr.drawn()
    g.s.limbo = []
    fr.stage = "end"
    if a["type"] == "store":
        hero.stored.append(c)
        ev.append(Event.public("loot_store", hero=h, card=c, name=C.card_name(c)))
        return
    zone = g.zone_of(c)
    if "replace" in a:
        hero.zone(zone).remove(a["replace"])
        hero.stored.append(a["replace"])  # BR-38
    hero.zone(zone).append(c)
    ev.append(
        Event.public("loot_equip", hero=h, card=c, name=C.card_name(c), replaced=a.get("replace"))
    )


def place_loot(g: Run, fr: LootFrame, ev: list[Event]) -> None:
    h = fr.hero
    c = fr.drawn()
    d = C.card(c)
    seat = g.owner(h)
    if d["type"] == "equipment" and g.can_equip(h, c):
        fr.stage = "equip"
        fr.wait = True
        ev.append(Event.public("loot", hero=h, card=c, name=d["name"]))
        return
    g.s.limbo = []
    fr.stage = "end"
    if d["type"] == "secret":
        g.hand(seat).append(c)
        ev.append(Event.public("loot_secret", hero=h, hand_size=len(g.hand(seat))))
        ev.append(Event.private(seat, "loot_secret_card", hero=h, card=c, name=d["name"]))
    elif d["type"] == "equipment":
        g.hero(h).stored.append(c)
        ev.append(Event.public("loot_store", hero=h, card=c, name=d["name"]))
    else:
        g.hero(h).faceup.append(c)
        ev.append(Event.public("loot", hero=h, card=c, name=d["name"]))
