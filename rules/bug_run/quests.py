"""Carrying Out a Quest (§4.5): Escape Attempt, The Gamble, Archery, The Duel and both Vaults.

One quest action per turn; completion padlocks the card and starts a Flash Phase.
"""

from __future__ import annotations

from ..core import Event
from . import chance, stocks
from . import content as C
from .context import Action, Run
from .frames import (
    FlashFrame,
    QuestFrame,
    RewardFrame,
)
from .state import Slot


def quest_options(game: Run, hero: int, slot: Slot) -> list[Action]:
    """The quest action on this card: one per turn; a vault lists each item not taken yet."""
    kind = slot.kind
    sheet = game.hero(hero)
    quest = C.QUESTS[slot.card_id()]
    if kind in ("vault", "trapped_vault"):
        if kind == "trapped_vault" and sheet.hearts < 2:  # BR-19
            return []
        out: list[Action] = []
        seen: set[str] = set()
        for i, item in enumerate(quest["items"]):
            if i not in slot.marks and item not in seen:
                seen.add(item)
                out.append({"type": "quest", "item": i})
        return out
    if kind == "archery" and sheet.arrows < 1:
        return []
    return [{"type": "quest"}]


def quest_frame(game: Run, hero: int, action: Action) -> QuestFrame:
    """A quest action by ``hero`` on the card it stands on (``item``: the vault item chosen)."""
    pos = game.hero(hero).position()
    return QuestFrame(
        hero=hero, col=pos.col, floor=pos.floor, stage="start", item=action.get("item"), greens=0
    )


def reward(game: Run, hero: int, items: list[str]) -> None:
    """Give ``items`` to ``hero`` (nothing to do for none)."""
    if items:
        game.push(RewardFrame(hero=hero, items=list(items), i=0))


def step_quest(game: Run, frame: QuestFrame, events: list[Event]) -> None:
    """Carry out the card's quest, pay its reward, and padlock a completed card (a Flash Phase
    follows)."""
    hero = frame.hero
    slot = game.slot(frame.col, frame.floor)
    quest = C.QUESTS[slot.card_id()]
    kind = quest["kind"]
    stage = frame.stage
    if stage == "start":
        events.append(
            Event.public("quest", hero=hero, card=slot.card, name=quest["name"], kind=kind)
        )
        if kind in ("escape", "gamble"):
            frame.stage = "tossed"
            game.push(chance.toss_frame(game, hero, True, kind))
        elif kind == "archery":
            game.hero(hero).arrows -= 1
            frame.stage = "rolled"
            game.push(chance.roll_frame(game, hero, 1, True, False, "archery"))
        elif kind == "duel":
            slot.duel += 1
            frame.stage = "tossed"
            game.push(chance.toss_frame(game, hero, True, "duel"))
        else:
            if kind == "trapped_vault":
                stocks.lose(game, hero, "hearts", 1, events)
            slot.marks.append(frame.vault_item())
            item = quest["items"][frame.vault_item()]
            events.append(Event.public("vault", hero=hero, card=slot.card, item=item))
            frame.stage = "complete" if len(slot.marks) == len(quest["items"]) else "end"
            reward(game, hero, [item])
    elif stage == "tossed":
        toss = frame.tossed()
        green = toss.green
        if kind == "escape":
            frame.stage = "complete" if green else "end"
            if green:
                reward(game, hero, quest["reward"])
        elif kind == "gamble":
            if green and frame.greens < 3:
                frame.greens += 1
                game.push(chance.toss_frame(game, hero, True, "gamble"))
                return
            frame.greens += 1 if green else 0
            events.append(Event.public("gamble", hero=hero, greens=frame.greens))
            frame.stage = "complete"
            reward(game, hero, quest["rewards"][frame.greens])
        else:  # duel
            plank = quest["planks"][slot.duel - 1]
            events.append(Event.public("duel", hero=hero, plank=slot.duel, result=toss.face))
            frame.stage = "complete" if slot.duel >= len(quest["planks"]) else "end"
            reward(game, hero, plank[toss.face])
    elif stage == "rolled":
        plank = min(2, frame.rolled().successes)
        events.append(Event.public("archery", hero=hero, plank=plank, already=plank in slot.marks))
        frame.stage = "end"
        if plank not in slot.marks:
            slot.marks.append(plank)
            if len(slot.marks) == len(quest["planks"]):
                frame.stage = "complete"
            reward(game, hero, quest["planks"][plank])
    elif stage == "complete":
        slot.locked = True
        slot.marks = []
        events.append(Event.public("padlock", card=slot.card, why="completed"))
        frame.stage = "end"
        game.push(
            FlashFrame(hero=hero, col=frame.col, floor=frame.floor, monster=False, stage="start")
        )
    else:
        game.pop()
