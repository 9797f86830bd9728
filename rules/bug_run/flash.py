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


def step_flash(game: Run, frame: FlashFrame, events: list[Event]) -> None:
    """Set the Flash Phase up (who is on the card, Dibs! asks), then picks, then the free moves in
    order."""
    hero = frame.hero
    stage = frame.stage
    if stage == "start":
        game.state.flash = hero
        on = [
            member
            for member in game.clockwise(hero)
            if member in game.heroes_on(frame.col, frame.floor)
        ]
        frame.on = on
        events.append(Event.public("flash", hero=hero, heroes=on))
        if frame.monster:
            slot = game.slot(frame.col, frame.floor)
            frame.items = list(C.MONSTERS[slot.card_id()]["rewards"])
            seats: list[int] = []
            for member in on:
                seat = game.owner(member)
                if len(on) > 1 and seat not in seats and game.find_in_hand(seat, "dibs"):
                    seats.append(seat)
            frame.asks, frame.dibs, frame.picks, frame.turn, frame.stage = seats, [], {}, 0, "dibs"
        else:
            frame.stage = "moves"
    elif stage == "dibs":
        if _listed(frame.asks):
            frame.seat = _listed(frame.asks)[0]
            frame.wait = True
            return
        frame.stage = "picks"
    elif stage == "picks":
        next_pick(game, frame, events)
    elif stage == "moves":
        order = [member for member in _listed(frame.on) if game.has_power(member, "teleportation")]
        order += [member for member in move_order(game, frame) if member not in order]
        frame.movers = order
        frame.stage = "moving"
    elif stage == "moving":
        if _listed(frame.movers):
            member = _listed(frame.movers).pop(0)
            game.push(FreeMoveFrame(hero=member, wait=True, stage="choose"))
            return
        game.state.flash = None
        events.append(Event.public("flash_end", hero=hero))
        game.pop()


def move_order(game: Run, frame: FlashFrame) -> list[int]:
    """The defeater, then clockwise; 2p alternates players starting with the opponent."""
    on = _listed(frame.on)
    if not game.state.two:
        return on
    hero = on[0]
    mine = [member for member in on if game.owner(member) == game.owner(hero)]
    theirs = [member for member in on if game.owner(member) != game.owner(hero)]
    out = [mine.pop(0)]
    while mine or theirs:
        if theirs:
            out.append(theirs.pop(0))
        if mine:
            out.append(mine.pop(0))
    return out


def next_pick(game: Run, frame: FlashFrame, events: list[Event]) -> None:
    """Who picks next: Dibs! first, then in turn from the defeater (2p: players alternate, the
    fewest picks first)."""
    if not frame.items:
        frame.stage = "moves"
        return
    on, dibs, picks = _listed(frame.on), _listed(frame.dibs), frame.picks or {}
    turn = frame.turn or 0
    if len(on) == 1 and not dibs:
        items, frame.items = frame.items, []
        game.push(RewardFrame(hero=on[0], items=items, i=0))
        return
    if dibs:
        pickers = [dibs.pop(0)]
    elif not game.state.two:
        pickers = [on[turn % len(on)]]
        frame.turn = turn + 1
    else:
        seats = [game.owner(on[0])]
        seats += [state for state in (0, 1) if state not in seats]
        seats = [state for state in seats if any(game.owner(member) == state for member in on)]
        seat = seats[turn % len(seats)]
        frame.turn = turn + 1
        mine = [member for member in on if game.owner(member) == seat]
        if frame.turn == 1:
            mine = [on[0]]  # the defeater takes its player's first pick
        low = min(picks.get(str(member), 0) for member in mine)
        pickers = [member for member in mine if picks.get(str(member), 0) == low]
    frame.pickers = pickers
    frame.seat = game.owner(pickers[0])
    frame.wait = True


def options_flash(game: Run, frame: FlashFrame) -> list[Action]:
    """A Dibs! question (pass, or a hero to pick first) or the items the picker may take."""
    if frame.stage == "dibs":
        seat = _listed(frame.asks)[0]
        card = game.find_in_hand(seat, "dibs")[0]
        mine = [member for member in _listed(frame.on) if game.owner(member) == seat]
        return [{"type": "pass"}] + [
            {"type": "dibs", "card": card, "hero": member} for member in mine
        ]
    out: list[Action] = []
    items = list(dict.fromkeys(frame.items or []))
    pickers = _listed(frame.pickers)
    for member in pickers:
        for item in items:
            act: Action = {"type": "pick", "item": item}
            if len(pickers) > 1:
                act["hero"] = member
            out.append(act)
    return out


def answer_flash(game: Run, frame: FlashFrame, action: Action, events: list[Event]) -> None:
    """Take a Dibs! answer, or give the picked item to its hero."""
    if frame.stage == "dibs":
        _listed(frame.asks).pop(0)
        if action["type"] == "dibs":
            member = action["hero"]
            game.remove_card(member, action["card"])
            game.discard(action["card"])
            _listed(frame.dibs).append(member)
            events.append(Event.public("dibs", hero=member, card=action["card"]))
        return
    member = action.get("hero", _listed(frame.pickers)[0])
    _listed(frame.items).remove(action["item"])
    picks = frame.picks
    assert picks is not None, "picks start with the monster's Flash Phase"
    picks[str(member)] = picks.get(str(member), 0) + 1
    events.append(Event.public("pick", hero=member, item=action["item"]))
    game.push(RewardFrame(hero=member, items=[action["item"]], i=0))
