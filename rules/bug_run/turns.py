"""Playing a Level: phases, who acts next (Game Turn Order, 2p activation) and the
adventure turn's choice (move, attack, quest, wait on the stairs or play a card)."""

from __future__ import annotations

from ..core import Event
from . import board, cards, combat, moving, quests, scoring, stairs
from .board import QUEST_KINDS
from .context import Action, Run
from .frames import (
    ActivateFrame,
    EscapeFrame,
    RewardFrame,
    TradeFrame,
    TurnFrame,
)
from .state import TurnOrder


def start_phase(g: Run, phase: str, events: list[Event]) -> None:
    state = g.s
    state.phase = phase
    crown = state.crown
    state.order = TurnOrder(
        next=crown,
        left=g.n_heroes(),
        forced=crown,
        ready=[True] * g.n_heroes(),
        seat=g.owner(crown),
    )
    state.fought = False
    events.append(Event.public("phase", phase=phase, level=state.level, crown=crown))


def next_hero(g: Run) -> int | None:
    """The hero to activate, or None when a 2p player must choose (an activate frame)."""
    order = g.turn_order()
    if not g.s.two:
        hero = int(order.next)
        order.next = (hero + 1) % g.n_heroes()
        return hero
    if order.forced is not None:
        hero = int(order.forced)
        order.forced = None
        mark_used(g, hero)
        return hero
    ready = [hero for hero in range(4) if order.ready[hero] and g.owner(hero) == order.seat]
    if len(ready) == 1:
        mark_used(g, ready[0])
        return ready[0]
    g.push(ActivateFrame(seat=order.seat, wait=True))
    return None


def mark_used(g: Run, hero: int) -> None:
    order = g.turn_order()
    order.ready[hero] = False
    order.seat = 1 - g.owner(hero)
    if not any(order.ready):
        order.ready = [True] * 4
        order.seat = g.owner(g.s.crown)


def options_activate(g: Run, frame: ActivateFrame) -> list[Action]:
    order = g.turn_order()
    return [
        {"type": "activate", "hero": hero}
        for hero in range(4)
        if order.ready[hero] and g.owner(hero) == frame.seat
    ]


def answer_activate(g: Run, frame: ActivateFrame, action: Action, events: list[Event]) -> None:
    g.pop()
    mark_used(g, action["hero"])
    events.append(Event.public("activate", hero=action["hero"]))
    begin(g, action["hero"], events)


def begin(g: Run, hero: int, events: list[Event]) -> None:
    phase = g.s.phase
    if phase == "trading":
        g.turn_order().left -= 1
        events.append(Event.public("trade_turn", hero=hero))
        g.push(TradeFrame(hero=hero, merchant=False, wait=True))
    else:
        events.append(Event.public("turn", hero=hero))
        # 4.6 / L245: a bow attack needs an arrow at the start of the turn (BR-64)
        arrows0 = int(g.hero(hero).arrows)
        g.push(TurnFrame(hero=hero, stage="choose", wait=True, arrows0=arrows0))


def schedule(g: Run, events: list[Event]) -> None:
    state = g.s
    phase = state.phase
    if phase == "trading":
        if g.turn_order().left <= 0:
            baz = state.bazaar
            baz.discard.extend(baz.market)
            baz.market = []
            new = g.refill_market()
            events.append(Event.public("market_renewed", market=new))
            start_phase(g, "adventure", events)
            return
    elif phase == "adventure":
        if all(g.on_stairs(hero) for hero in range(g.n_heroes())):
            if g.stairs_card()["type"] == "fight" and not state.fought:
                state.fought = True
                g.push(stairs.fight_frame(g))
            else:
                stairs.reset_level(g, events)
            return
    elif phase == "escape":
        if state.escape_queue:
            hero = state.escape_queue.pop(0)
            g.push(EscapeFrame(hero=hero, reached=0, stage="start"))
        else:
            scoring.cash_gold_coins(g, events)
            state.phase = "over"
            events.append(
                Event.public("game_over", scores=scoring.scores(g), winners=scoring.winners(g))
            )
        return
    chosen = next_hero(g)
    if chosen is not None:
        begin(g, chosen, events)


def options_turn(g: Run, frame: TurnFrame) -> list[Action]:
    hero = frame.hero
    if g.on_stairs(hero):
        return [{"type": "wait"}]
    out = board.move_options(g, hero)
    slot = g.here(hero)
    if slot.kind == "monster":
        weapon = g.space_weapon(hero)
        if weapon != "bw":
            out.append({"type": "attack", "weapon": "sword"})
        if weapon != "sw" and bow_ready(g, frame):
            out.append({"type": "attack", "weapon": "bow"})
    elif slot.kind in QUEST_KINDS and not slot.locked:
        out += quests.quest_options(g, hero, slot)
    return out + cards.play_options(g, hero, "turn")


def bow_ready(g: Run, frame: TurnFrame) -> bool:
    """4.6 step 0: arrows >= 1 at the start of the turn (arrows gained during the turn, e.g.
    from an Itinerant Merchant or a Crafty One, do not count), and one arrow to pay now."""
    hero = g.hero(frame.hero)
    arrows0 = hero.arrows if frame.arrows0 is None else frame.arrows0
    return arrows0 >= 1 and hero.arrows >= 1


def step_turn(g: Run, frame: TurnFrame, events: list[Event]) -> None:
    if frame.stage == "choose":
        frame.wait = True
    else:
        g.pop()


def answer_turn(g: Run, frame: TurnFrame, action: Action, events: list[Event]) -> None:
    hero = frame.hero
    kind = action["type"]
    if kind == "play":
        cards.answer_play(g, frame, action, events)
        return
    frame.stage = "done"
    if kind == "move":
        g.push(moving.move_frame(g, hero, action))
    elif kind == "attack":
        attack = combat.attack_frame(g, hero, action["weapon"])
        attack.arrows0 = 1 if frame.arrows0 is None else frame.arrows0
        g.push(attack)
    elif kind == "quest":
        g.push(quests.quest_frame(g, hero, action))
    else:
        events.append(Event.public("wait", hero=hero))
        g.push(RewardFrame(hero=hero, items=stairs.stair_wait_items(g), i=0))
