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


def move_frame(game: Run, hero: int, action: Action) -> MoveFrame:
    """A move by ``hero`` as listed by ``board.move_options``."""
    return MoveFrame(
        hero=hero,
        to={"col": action["col"], "floor": action["floor"]},
        space=action.get("space"),
        route=action.get("route"),
        extra=action.get("extra"),
        stage="start",
        bridges=[],
        i=0,
    )


def leave(game: Run, hero: int, events: list[Event]) -> None:
    """Step off the current space (an Optional Extra's space vanishes, LT12); leaving a Duel
    padlocks it (BR-65)."""
    pos = game.hero(hero).position()
    slot = game.here(hero)
    if pos.space is not None:
        i = pos.space
        slot.spaces[i].hero = None
        if slot.spaces[i].extra:
            # LT12: the extra space exists only while its hero stands on it
            del slot.spaces[i]
            for other in game.heroes_on(pos.col, pos.floor):
                space = game.hero(other).position().space
                if other != hero and space is not None and space > i:
                    game.hero(other).position().space = space - 1
    if slot.kind == "duel" and not slot.locked:
        slot.locked = True  # BR-65 / rulebook: leaving a Duel padlocks it
        events.append(Event.public("padlock", card=slot.card, why="duel_left"))


def step_move(game: Run, frame: MoveFrame, events: list[Event]) -> None:
    """Leave, arrive (entering the stairs), cross each bridge on the way, then pay the stairs
    space's entry."""
    hero = frame.hero
    stage = frame.stage
    if stage == "start":
        pos = game.hero(hero).position()
        c0, f0 = pos.col, pos.floor
        cd, fd = frame.to["col"], frame.to["floor"]
        route = f0 if f0 != "C" else fd if fd != "C" else (frame.route or "U")
        frame.bridges = board.bridges_between(game, c0, cd, route)
        leave(game, hero, events)
        slot = game.slot(cd, fd)
        if frame.extra is not None:
            game.remove_card(hero, frame.extra)
            game.discard(frame.extra)
            slot.spaces.append(Space("any", False, extra=True))
            frame.space = len(slot.spaces) - 1
            events.append(
                Event.public("play", hero=hero, card=frame.extra, name=C.card_name(frame.extra))
            )
        space = frame.target_space()
        slot.spaces[space].hero = hero
        game.hero(hero).pos = Position(cd, fd, space)
        events.append(
            Event.public(
                "move",
                hero=hero,
                col=cd,
                floor=fd,
                space=frame.space,
                card=slot.card,
                name=C.card_name(slot.card_id()),
                bridges=[bridge[0] for bridge in frame.bridges],
            )
        )
        if slot.kind == "stairs":
            enter_stairs(game, hero, space, events)
        frame.stage = "bridges"
    elif stage == "bridges":
        if frame.i < len(frame.bridges):
            col, floor = frame.bridges[frame.i]
            frame.i += 1
            game.push(
                BridgeFrame(
                    hero=hero, card=game.slot(col, floor).card_id(), stage="choose", wait=True
                )
            )
        else:
            frame.stage = "arrive"
    elif stage == "arrive":
        frame.stage = "end"
        if game.here(hero).kind == "stairs":
            stairs_entry_effects(game, hero, frame.target_space(), events)
    else:
        game.pop()


def enter_stairs(game: Run, hero: int, space: int, events: list[Event]) -> None:
    """Reservations lapse on entry (BR-47); the first 2p hero on a Fight card fixes teams."""
    for sp in game.stairs_slot().spaces:
        if sp.reserved == hero:
            sp.reserved = None
    card = game.stairs_card()
    teams = game.state.teams
    if card["type"] == "fight" and game.state.two and not teams:
        mine = board.stair_team(game, space) or "top"
        other = "bottom" if mine == "top" else "top"
        teams[str(game.owner(hero))] = mine
        teams[str(1 - game.owner(hero))] = other
        for sp_i, sp in enumerate(game.stairs_slot().spaces):
            reserver = sp.reserved
            if (
                reserver is not None
                and board.stair_team(game, sp_i) != teams[str(game.owner(reserver))]
            ):
                sp.reserved = None
        events.append(Event.public("teams", teams=dict(teams)))


def stairs_entry_effects(game: Run, hero: int, space: int, events: list[Event]) -> None:
    """Pay the space's cost (as much as possible if nothing was affordable) and take its gain."""
    entry = game.stairs_card()["spaces"][space]["entry"]
    sheet = game.hero(hero)
    gains = []
    for item in entry:
        kind, amount = parse(item)
        if kind == "L" or amount > 0:
            gains.append(item)
            continue
        stock = {"h": "hearts", "c": "coins", "a": "arrows"}[kind]
        floor = 1 if stock == "hearts" else 0
        paid = max(0, min(-amount, sheet.stock(stock) - floor))
        sheet.set_stock(stock, sheet.stock(stock) - paid)
        events.append(Event.public("pay", hero=hero, stock=stock, amount=paid, why="stairs"))
    if game.stairs_card()["spaces"][space]["crown"]:
        events.append(Event.public("crown_space", hero=hero))
    if gains:
        game.push(RewardFrame(hero=hero, items=gains, i=0))


def options_bridge(game: Run, frame: BridgeFrame) -> list[Action]:
    """Cross a bridge the stable way or the risky way."""
    return [{"type": "bridge", "mode": "stable"}, {"type": "bridge", "mode": "risky"}]


def answer_bridge(game: Run, frame: BridgeFrame, action: Action, events: list[Event]) -> None:
    """The stable side pays its reward; the risky side tosses first."""
    hero = frame.hero
    bridge = C.BRIDGES[frame.card]
    events.append(
        Event.public("bridge", hero=hero, card=frame.card, name=bridge["name"], mode=action["mode"])
    )
    if action["mode"] == "stable":
        frame.stage = "end"
        game.push(RewardFrame(hero=hero, items=list(bridge["stable"]), i=0))
    else:
        frame.stage = "risky"
        game.push(chance.toss_frame(game, hero, True, "bridge"))


def step_bridge(game: Run, frame: BridgeFrame, events: list[Event]) -> None:
    """After a risky toss, the side that came up pays its reward."""
    if frame.stage == "risky":
        frame.stage = "end"
        items = C.BRIDGES[frame.card][frame.tossed().face]
        if items:
            game.push(RewardFrame(hero=frame.hero, items=list(items), i=0))
        return
    game.pop()


def options_freemove(game: Run, frame: FreeMoveFrame) -> list[Action]:
    """A Flash Phase move is mandatory: every legal move, nothing else (BR-24)."""
    return board.move_options(game, frame.hero)


def answer_freemove(game: Run, frame: FreeMoveFrame, action: Action, events: list[Event]) -> None:
    """Make the chosen free move."""
    frame.stage = "end"
    game.push(move_frame(game, frame.hero, action))


def step_freemove(game: Run, frame: FreeMoveFrame, events: list[Event]) -> None:
    """The free move is done."""
    game.pop()
