"""Making a Move (§4.4): leaving a card, crossing bridges, entering a card or the stairs
(Reaching the Stairs, §4.8 entry), and the Flash Phase's free moves."""

from __future__ import annotations

from ..core import Event
from . import board, chance
from . import content as C
from .context import Action, Run
from .frames import (
    BridgeFrame,
    FreeMoveFrame,
    MoveFrame,
    RewardFrame,
)
from .state import Position, Space
from .stocks import parse


def move_frame(g: Run, h: int, a: Action) -> MoveFrame:
    return MoveFrame(
        hero=h,
        to={"col": a["col"], "floor": a["floor"]},
        space=a.get("space"),
        route=a.get("route"),
        extra=a.get("extra"),
        stage="start",
        bridges=[],
        i=0,
    )


def leave(g: Run, h: int, ev: list[Event]) -> None:
    pos = g.hero(h).position()
    slot = g.here(h)
    if pos.space is not None:
        i = pos.space
        slot.spaces[i].hero = None
        if slot.spaces[i].extra:
            # LT12: the extra space exists only while its hero stands on it
            del slot.spaces[i]
            for x in g.heroes_on(pos.col, pos.floor):
                sp = g.hero(x).position().space
                if x != h and sp is not None and sp > i:
                    g.hero(x).position().space = sp - 1
    if slot.kind == "duel" and not slot.locked:
        slot.locked = True  # BR-65 / rulebook: leaving a Duel padlocks it
        ev.append(Event.public("padlock", card=slot.card, why="duel_left"))


def step_move(g: Run, fr: MoveFrame, ev: list[Event]) -> None:
    h = fr.hero
    st = fr.stage
    if st == "start":
        pos = g.hero(h).position()
        c0, f0 = pos.col, pos.floor
        cd, fd = fr.to["col"], fr.to["floor"]
        route = f0 if f0 != "C" else fd if fd != "C" else (fr.route or "U")
        fr.bridges = board.bridges_between(g, c0, cd, route)
        leave(g, h, ev)
        slot = g.slot(cd, fd)
        if fr.extra is not None:
            g.remove_card(h, fr.extra)
            g.discard(fr.extra)
            slot.spaces.append(Space("any", False, extra=True))
            fr.space = len(slot.spaces) - 1
            ev.append(Event.public("play", hero=h, card=fr.extra, name=C.card_name(fr.extra)))
        space = fr.target_space()
        slot.spaces[space].hero = h
        g.hero(h).pos = Position(cd, fd, space)
        ev.append(
            Event.public(
                "move",
                hero=h,
                col=cd,
                floor=fd,
                space=fr.space,
                card=slot.card,
                name=C.card_name(slot.card_id()),
                bridges=[b[0] for b in fr.bridges],
            )
        )
        if slot.kind == "stairs":
            enter_stairs(g, h, space, ev)
        fr.stage = "bridges"
    elif st == "bridges":
        if fr.i < len(fr.bridges):
            col, floor = fr.bridges[fr.i]
            fr.i += 1
            g.push(
                BridgeFrame(hero=h, card=g.slot(col, floor).card_id(), stage="choose", wait=True)
            )
        else:
            fr.stage = "arrive"
    elif st == "arrive":
        fr.stage = "end"
        if g.here(h).kind == "stairs":
            stairs_entry_effects(g, h, fr.target_space(), ev)
    else:
        g.pop()


def enter_stairs(g: Run, h: int, space: int, ev: list[Event]) -> None:
    """Reservations lapse on entry (BR-47); the first 2p hero on a Fight card fixes teams."""
    for sp in g.stairs_slot().spaces:
        if sp.reserved == h:
            sp.reserved = None
    card = g.stairs_card()
    teams = g.s.teams
    if card["type"] == "fight" and g.s.two and not teams:
        mine = board.stair_team(g, space) or "top"
        other = "bottom" if mine == "top" else "top"
        teams[str(g.owner(h))] = mine
        teams[str(1 - g.owner(h))] = other
        for sp_i, sp in enumerate(g.stairs_slot().spaces):
            r = sp.reserved
            if r is not None and board.stair_team(g, sp_i) != teams[str(g.owner(r))]:
                sp.reserved = None
        ev.append(Event.public("teams", teams=dict(teams)))


def stairs_entry_effects(g: Run, h: int, space: int, ev: list[Event]) -> None:
    """Pay the space's cost (as much as possible if nothing was affordable) and take its gain."""
    entry = g.stairs_card()["spaces"][space]["entry"]
    hero = g.hero(h)
    gains = []
    for item in entry:
        kind, amount = parse(item)
        if kind == "L" or amount > 0:
            gains.append(item)
            continue
        stock = {"h": "hearts", "c": "coins", "a": "arrows"}[kind]
        floor = 1 if stock == "hearts" else 0
        paid = max(0, min(-amount, hero.stock(stock) - floor))
        hero.set_stock(stock, hero.stock(stock) - paid)
        ev.append(Event.public("pay", hero=h, stock=stock, amount=paid, why="stairs"))
    if g.stairs_card()["spaces"][space]["crown"]:
        ev.append(Event.public("crown_space", hero=h))
    if gains:
        g.push(RewardFrame(hero=h, items=gains, i=0))


def options_bridge(g: Run, fr: BridgeFrame) -> list[Action]:
    return [{"type": "bridge", "mode": "stable"}, {"type": "bridge", "mode": "risky"}]


def answer_bridge(g: Run, fr: BridgeFrame, a: Action, ev: list[Event]) -> None:
    h = fr.hero
    b = C.BRIDGES[fr.card]
    ev.append(Event.public("bridge", hero=h, card=fr.card, name=b["name"], mode=a["mode"]))
    if a["mode"] == "stable":
        fr.stage = "end"
        g.push(RewardFrame(hero=h, items=list(b["stable"]), i=0))
    else:
        fr.stage = "risky"
        g.push(chance.toss_frame(g, h, True, "bridge"))


def step_bridge(g: Run, fr: BridgeFrame, ev: list[Event]) -> None:
    if fr.stage == "risky":
        fr.stage = "end"
        items = C.BRIDGES[fr.card][fr.ret]
        if items:
            g.push(RewardFrame(hero=fr.hero, items=list(items), i=0))
        return
    g.pop()


def options_freemove(g: Run, fr: FreeMoveFrame) -> list[Action]:
    return board.move_options(g, fr.hero)


def answer_freemove(g: Run, fr: FreeMoveFrame, a: Action, ev: list[Event]) -> None:
    fr.stage = "end"
    g.push(move_frame(g, fr.hero, a))


def step_freemove(g: Run, fr: FreeMoveFrame, ev: list[Event]) -> None:
    g.pop()
