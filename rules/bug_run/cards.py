"""Cards played outside an attack (Card Descriptions, BR-40): potions, Gold Coins, the
Itinerant Merchant, Reserved Seat and the Crafty One's theft."""

from __future__ import annotations

from ..core import Event
from . import board, stocks
from . import content as C
from .context import Action, Run
from .frames import CraftyFrame, EscapeFrame, RollFrame, TradeFrame, TurnFrame


def play_options(g: Run, h: int, where: str) -> list[Action]:
    """Cards hero ``h`` may play now (BR-40): ``where`` is trade, merchant (the private
    trading turn of an Itinerant Merchant), turn or escape."""
    hero = g.hero(h)
    seat = g.owner(h)
    out: list[Action] = []
    seen: set[str] = set()

    def once(c: str, act: Action) -> None:
        key = c.rsplit("-", 1)[0] + repr(sorted(act.items()))
        if key not in seen:
            seen.add(key)
            out.append(act)

    for c in hero.faceup:
        eff = C.card(c)["effect"]
        if eff in ("potion", "full_potion") and hero.hearts < 10:
            once(c, {"type": "play", "card": c})
    for c in g.hand(seat):
        eff = C.card(c)["effect"]
        if (eff == "gold_coins" and hero.coins < 15) or (eff == "merchant" and where != "merchant"):
            once(c, {"type": "play", "card": c})
        elif eff == "crafty" and where == "turn":
            for t in crafty_targets(g, h):
                once(c, {"type": "play", "card": c, "target": t})
        elif eff == "reserved_seat" and where != "escape" and g.s.board:
            for i in reservable(g, h):
                once(c, {"type": "play", "card": c, "space": i})
    return out


def reservable(g: Run, h: int) -> list[int]:
    """Stairs spaces hero ``h`` may reserve (BR-47): one reservation per hero, and in a
    2p fight whose teams are fixed only on its own team, so every hero keeps a space."""
    slot = g.stairs_slot()
    if any(sp.reserved == h for sp in slot.spaces):
        return []
    team = g.s.teams.get(str(g.owner(h)))
    return [
        i
        for i, sp in enumerate(slot.spaces)
        if sp.hero is None
        and not sp.lock
        and sp.reserved is None
        and (team is None or board.stair_team(g, i) == team)
    ]


def crafty_targets(g: Run, h: int) -> list[int]:
    """Heroes on the same monster or quest card (BR-45); opponents only in 2p (4.10)."""
    slot = g.here(h)
    if slot.kind in ("entrance", "stairs"):
        return []
    pos = g.hero(h).position()
    return [t for t in g.heroes_on(pos.col, pos.floor) if t != h and g.owner(t) != g.owner(h)]


def answer_play(
    g: Run, fr: TradeFrame | TurnFrame | EscapeFrame, a: Action, ev: list[Event]
) -> None:
    h = fr.hero
    hero = g.hero(h)
    c = a["card"]
    d = C.card(c)
    eff = d["effect"]
    g.remove_card(h, c)
    g.discard(c)
    ev.append(Event.public("play", hero=h, card=c, name=d["name"]))
    if eff == "full_potion":
        hero.hearts = 10
    elif eff == "potion":
        stocks.gain(g, h, "hearts", d["hearts"])
    elif eff == "gold_coins":
        stocks.gain(g, h, "coins", d["coins"])
    elif eff == "reserved_seat":
        g.stairs_slot().spaces[a["space"]].reserved = h
    elif eff == "merchant":
        fr.wait = False
        g.push(TradeFrame(hero=h, merchant=True, wait=True))
    elif eff == "crafty":
        fr.wait = False
        g.push(CraftyFrame(hero=h, target=a["target"], card=c, stage="roll"))


def step_crafty(g: Run, fr: CraftyFrame, ev: list[Event]) -> None:
    if fr.stage == "roll":
        fr.stage = "steal"
        g.push(
            RollFrame(
                hero=fr.hero,
                n=1,
                cards=True,
                bravery=False,
                why="crafty",
                dice=[],
                courage=False,
                braved=False,
            )
        )
        return
    d = C.card(fr.card)
    amount = int(fr.ret["successes"]) + int(d["plus"])
    stock = d["steal"]
    target = g.hero(fr.target)
    taken = min(target.stock(stock), amount)
    target.set_stock(stock, target.stock(stock) - taken)
    got = stocks.gain(g, fr.hero, stock, taken)
    ev.append(
        Event.public("steal", hero=fr.hero, target=fr.target, stock=stock, taken=taken, kept=got)
    )
    g.pop()
