"""Playing a Level: who acts next (Game Turn Order, 2p activation), the end of each phase and
the adventure turn's choice (move, attack, quest, wait on the stairs or play a card).

Opening a phase lives in phases.py, so the stairs' reset can open the next one without
importing this module back."""

from __future__ import annotations

from ..core import Event
from . import board, cards, combat, moving, phases, quests, scoring, stairs
from .board import QUEST_KINDS
from .context import Action, Run
from .frames import (
    ActivateFrame,
    EscapeFrame,
    RewardFrame,
    TradeFrame,
    TurnFrame,
)


def next_hero(game: Run) -> int | None:
    """The hero to activate, or None when a 2p player must choose (an activate frame)."""
    order = game.turn_order()
    if not game.state.two:
        hero = int(order.next)
        order.next = (hero + 1) % game.n_heroes()
        return hero
    if order.forced is not None:
        hero = int(order.forced)
        order.forced = None
        mark_used(game, hero)
        return hero
    ready = [hero for hero in range(4) if order.ready[hero] and game.owner(hero) == order.seat]
    if len(ready) == 1:
        mark_used(game, ready[0])
        return ready[0]
    game.push(ActivateFrame(seat=order.seat, wait=True))
    return None


def mark_used(game: Run, hero: int) -> None:
    """2p: ``hero`` has acted this round; the other player activates next, and a new round opens
    once all have."""
    order = game.turn_order()
    order.ready[hero] = False
    order.seat = 1 - game.owner(hero)
    if not any(order.ready):
        order.ready = [True] * 4
        order.seat = game.owner(game.state.crown)


def options_activate(game: Run, frame: ActivateFrame) -> list[Action]:
    """2p: the ready heroes of the player whose turn it is."""
    order = game.turn_order()
    return [
        {"type": "activate", "hero": hero}
        for hero in range(4)
        if order.ready[hero] and game.owner(hero) == frame.seat
    ]


def answer_activate(game: Run, frame: ActivateFrame, action: Action, events: list[Event]) -> None:
    """2p: the chosen hero takes its turn."""
    game.pop()
    mark_used(game, action["hero"])
    events.append(Event.public("activate", hero=action["hero"]))
    begin(game, action["hero"], events)


def begin(game: Run, hero: int, events: list[Event]) -> None:
    """Give ``hero`` its trading turn or adventure turn."""
    phase = game.state.phase
    if phase == "trading":
        game.turn_order().left -= 1
        events.append(Event.public("trade_turn", hero=hero))
        game.push(TradeFrame(hero=hero, merchant=False, wait=True))
    else:
        events.append(Event.public("turn", hero=hero))
        # 4.6 / L245: a bow attack needs an arrow at the start of the turn (BR-64)
        arrows0 = int(game.hero(hero).arrows)
        game.push(TurnFrame(hero=hero, stage="choose", wait=True, arrows0=arrows0))


def schedule(game: Run, events: list[Event]) -> None:
    """With nothing pending: end the trading phase, fight or reset on the stairs, run the escape
    queue, or give the next turn."""
    state = game.state
    phase = state.phase
    if phase == "trading":
        if game.turn_order().left <= 0:
            baz = state.bazaar
            baz.discard.extend(baz.market)
            baz.market = []
            new = game.refill_market()
            events.append(Event.public("market_renewed", market=new))
            phases.start_phase(game, "adventure", events)
            return
    elif phase == "adventure":
        if all(game.on_stairs(hero) for hero in range(game.n_heroes())):
            if game.stairs_card()["type"] == "fight" and not state.fought:
                state.fought = True
                game.push(stairs.fight_frame(game))
            else:
                stairs.reset_level(game, events)
            return
    elif phase == "escape":
        if state.escape_queue:
            hero = state.escape_queue.pop(0)
            game.push(EscapeFrame(hero=hero, reached=0, stage="start"))
        else:
            scoring.cash_gold_coins(game, events)
            state.phase = "over"
            events.append(
                Event.public(
                    "game_over", scores=scoring.scores(game), winners=scoring.winners(game)
                )
            )
        return
    chosen = next_hero(game)
    if chosen is not None:
        begin(game, chosen, events)


def options_turn(game: Run, frame: TurnFrame) -> list[Action]:
    """On the stairs: wait; else a move, an attack or the card's quest, and cards to play."""
    hero = frame.hero
    if game.on_stairs(hero):
        return [{"type": "wait"}]
    out = board.move_options(game, hero)
    slot = game.here(hero)
    if slot.kind == "monster":
        weapon = game.space_weapon(hero)
        if weapon != "bw":
            out.append({"type": "attack", "weapon": "sword"})
        if weapon != "sw" and bow_ready(game, frame):
            out.append({"type": "attack", "weapon": "bow"})
    elif slot.kind in QUEST_KINDS and not slot.locked:
        out += quests.quest_options(game, hero, slot)
    return out + cards.play_options(game, hero, "turn")


def bow_ready(game: Run, frame: TurnFrame) -> bool:
    """4.6 step 0: arrows >= 1 at the start of the turn (arrows gained during the turn, e.g.
    from an Itinerant Merchant or a Crafty One, do not count), and one arrow to pay now."""
    sheet = game.hero(frame.hero)
    arrows0 = sheet.arrows if frame.arrows0 is None else frame.arrows0
    return arrows0 >= 1 and sheet.arrows >= 1


def step_turn(game: Run, frame: TurnFrame, events: list[Event]) -> None:
    """Wait for the choice, or end once the chosen action is done."""
    if frame.stage == "choose":
        frame.wait = True
    else:
        game.pop()


def answer_turn(game: Run, frame: TurnFrame, action: Action, events: list[Event]) -> None:
    """Start the chosen move, attack or quest, play a card, or take the stairs' waiting reward."""
    hero = frame.hero
    kind = action["type"]
    if kind == "play":
        cards.answer_play(game, frame, action, events)
        return
    frame.stage = "done"
    if kind == "move":
        game.push(moving.move_frame(game, hero, action))
    elif kind == "attack":
        attack = combat.attack_frame(game, hero, action["weapon"])
        attack.arrows0 = 1 if frame.arrows0 is None else frame.arrows0
        game.push(attack)
    elif kind == "quest":
        game.push(quests.quest_frame(game, hero, action))
    else:
        events.append(Event.public("wait", hero=hero))
        game.push(RewardFrame(hero=hero, items=stairs.stair_wait_items(game), i=0))
