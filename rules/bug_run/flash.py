"""Defeated Monster: Flash Phase (§4.7): Dibs!, reward picks and the mandatory free moves.

Monster rewards are shared by pick; then everyone on the card moves for free.
"""

from __future__ import annotations

from typing import TypeVar

from ..core import Event
from . import content as C
from .context import Action, Run
from .frames import (
    FlashFrame,
    FreeMoveFrame,
    RewardFrame,
)

T = TypeVar("T")


def _listed(values: list[T] | None) -> list[T]:
    """A list the Flash Phase has set by the stage that reads it (the frame's own list)."""
    assert values is not None, "read before the Flash Phase set it"
    return values


def step_flash(g: Run, fr: FlashFrame, ev: list[Event]) -> None:
    h = fr.hero
    st = fr.stage
    if st == "start":
        g.s.flash = h
        on = [x for x in g.clockwise(h) if x in g.heroes_on(fr.col, fr.floor)]
        fr.on = on
        ev.append(Event.public("flash", hero=h, heroes=on))
        if fr.monster:
            slot = g.slot(fr.col, fr.floor)
            fr.items = list(C.MONSTERS[slot.card_id()]["rewards"])
            seats: list[int] = []
            for x in on:
                seat = g.owner(x)
                if len(on) > 1 and seat not in seats and g.find_in_hand(seat, "dibs"):
                    seats.append(seat)
            fr.asks, fr.dibs, fr.picks, fr.turn, fr.stage = seats, [], {}, 0, "dibs"
        else:
            fr.stage = "moves"
    elif st == "dibs":
        if _listed(fr.asks):
            fr.seat = _listed(fr.asks)[0]
            fr.wait = True
            return
        fr.stage = "picks"
    elif st == "picks":
        next_pick(g, fr, ev)
    elif st == "moves":
        order = [x for x in _listed(fr.on) if g.has_power(x, "teleportation")]
        order += [x for x in move_order(g, fr) if x not in order]
        fr.movers = order
        fr.stage = "moving"
    elif st == "moving":
        if _listed(fr.movers):
            x = _listed(fr.movers).pop(0)
            g.push(FreeMoveFrame(hero=x, wait=True, stage="choose"))
            return
        g.s.flash = None
        ev.append(Event.public("flash_end", hero=h))
        g.pop()


def move_order(g: Run, fr: FlashFrame) -> list[int]:
    """The defeater, then clockwise; 2p alternates players starting with the opponent."""
    on = _listed(fr.on)
    if not g.s.two:
        return on
    h = on[0]
    mine = [x for x in on if g.owner(x) == g.owner(h)]
    theirs = [x for x in on if g.owner(x) != g.owner(h)]
    out = [mine.pop(0)]
    while mine or theirs:
        if theirs:
            out.append(theirs.pop(0))
        if mine:
            out.append(mine.pop(0))
    return out


def next_pick(g: Run, fr: FlashFrame, ev: list[Event]) -> None:
    if not fr.items:
        fr.stage = "moves"
        return
    on, dibs, picks = _listed(fr.on), _listed(fr.dibs), fr.picks or {}
    turn = fr.turn or 0
    if len(on) == 1 and not dibs:
        items, fr.items = fr.items, []
        g.push(RewardFrame(hero=on[0], items=items, i=0))
        return
    if dibs:
        pickers = [dibs.pop(0)]
    elif not g.s.two:
        pickers = [on[turn % len(on)]]
        fr.turn = turn + 1
    else:
        seats = [g.owner(on[0])]
        seats += [s for s in (0, 1) if s not in seats]
        seats = [s for s in seats if any(g.owner(x) == s for x in on)]
        seat = seats[turn % len(seats)]
        fr.turn = turn + 1
        mine = [x for x in on if g.owner(x) == seat]
        if fr.turn == 1:
            mine = [on[0]]  # the defeater takes its player's first pick
        low = min(picks.get(str(x), 0) for x in mine)
        pickers = [x for x in mine if picks.get(str(x), 0) == low]
    fr.pickers = pickers
    fr.seat = g.owner(pickers[0])
    fr.wait = True


def options_flash(g: Run, fr: FlashFrame) -> list[Action]:
    if fr.stage == "dibs":
        seat = _listed(fr.asks)[0]
        card = g.find_in_hand(seat, "dibs")[0]
        mine = [x for x in _listed(fr.on) if g.owner(x) == seat]
        return [{"type": "pass"}] + [{"type": "dibs", "card": card, "hero": x} for x in mine]
    out: list[Action] = []
    items = list(dict.fromkeys(fr.items or []))
    pickers = _listed(fr.pickers)
    for x in pickers:
        for item in items:
            act: Action = {"type": "pick", "item": item}
            if len(pickers) > 1:
                act["hero"] = x
            out.append(act)
    return out


def answer_flash(g: Run, fr: FlashFrame, a: Action, ev: list[Event]) -> None:
    if fr.stage == "dibs":
        _listed(fr.asks).pop(0)
        if a["type"] == "dibs":
            x = a["hero"]
            g.remove_card(x, a["card"])
            g.discard(a["card"])
            _listed(fr.dibs).append(x)
            ev.append(Event.public("dibs", hero=x, card=a["card"]))
        return
    x = a.get("hero", _listed(fr.pickers)[0])
    _listed(fr.items).remove(a["item"])
    picks = fr.picks
    assert picks is not None, "picks start with the monster's Flash Phase"
    picks[str(x)] = picks.get(str(x), 0) + 1
    ev.append(Event.public("pick", hero=x, item=a["item"]))
    g.push(RewardFrame(hero=x, items=[a["item"]], i=0))
