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


def quest_options(g: Run, h: int, slot: Slot) -> list[Action]:
    kind = slot.kind
    hero = g.hero(h)
    q = C.QUESTS[slot.card_id()]
    if kind in ("vault", "trapped_vault"):
        if kind == "trapped_vault" and hero.hearts < 2:  # BR-19
            return []
        out: list[Action] = []
        seen: set[str] = set()
        for i, item in enumerate(q["items"]):
            if i not in slot.marks and item not in seen:
                seen.add(item)
                out.append({"type": "quest", "item": i})
        return out
    if kind == "archery" and hero.arrows < 1:
        return []
    return [{"type": "quest"}]


def quest_frame(g: Run, h: int, a: Action) -> QuestFrame:
    pos = g.hero(h).position()
    return QuestFrame(
        hero=h, col=pos.col, floor=pos.floor, stage="start", item=a.get("item"), greens=0
    )


def reward(g: Run, h: int, items: list[str]) -> None:
    if items:
        g.push(RewardFrame(hero=h, items=list(items), i=0))


def step_quest(g: Run, fr: QuestFrame, ev: list[Event]) -> None:
    h = fr.hero
    slot = g.slot(fr.col, fr.floor)
    q = C.QUESTS[slot.card_id()]
    kind = q["kind"]
    st = fr.stage
    if st == "start":
        ev.append(Event.public("quest", hero=h, card=slot.card, name=q["name"], kind=kind))
        if kind in ("escape", "gamble"):
            fr.stage = "tossed"
            g.push(chance.toss_frame(g, h, True, kind))
        elif kind == "archery":
            g.hero(h).arrows -= 1
            fr.stage = "rolled"
            g.push(chance.roll_frame(g, h, 1, True, False, "archery"))
        elif kind == "duel":
            slot.duel += 1
            fr.stage = "tossed"
            g.push(chance.toss_frame(g, h, True, "duel"))
        else:
            if kind == "trapped_vault":
                stocks.lose(g, h, "hearts", 1, ev)
            slot.marks.append(fr.vault_item())
            item = q["items"][fr.vault_item()]
            ev.append(Event.public("vault", hero=h, card=slot.card, item=item))
            fr.stage = "complete" if len(slot.marks) == len(q["items"]) else "end"
            reward(g, h, [item])
    elif st == "tossed":
        green = fr.ret == "green"
        if kind == "escape":
            fr.stage = "complete" if green else "end"
            if green:
                reward(g, h, q["reward"])
        elif kind == "gamble":
            if green and fr.greens < 3:
                fr.greens += 1
                g.push(chance.toss_frame(g, h, True, "gamble"))
                return
            fr.greens += 1 if green else 0
            ev.append(Event.public("gamble", hero=h, greens=fr.greens))
            fr.stage = "complete"
            reward(g, h, q["rewards"][fr.greens])
        else:  # duel
            plank = q["planks"][slot.duel - 1]
            ev.append(Event.public("duel", hero=h, plank=slot.duel, result=fr.ret))
            fr.stage = "complete" if slot.duel >= len(q["planks"]) else "end"
            reward(g, h, plank[fr.ret])
    elif st == "rolled":
        plank = min(2, int(fr.ret["successes"]))
        ev.append(Event.public("archery", hero=h, plank=plank, already=plank in slot.marks))
        fr.stage = "end"
        if plank not in slot.marks:
            slot.marks.append(plank)
            if len(slot.marks) == len(q["planks"]):
                fr.stage = "complete"
            reward(g, h, q["planks"][plank])
    elif st == "complete":
        slot.locked = True
        slot.marks = []
        ev.append(Event.public("padlock", card=slot.card, why="completed"))
        fr.stage = "end"
        g.push(FlashFrame(hero=h, col=fr.col, floor=fr.floor, monster=False, stage="start"))
    else:
        g.pop()
