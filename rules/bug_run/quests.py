"""Quest actions (§4.5): Escape Attempt, The Gamble, Archery, The Duel and both Vaults."""

from __future__ import annotations

from ..core import Event
from . import content as C
from .base import Action, Frame
from .board import Slot
from .moves import MoveMixin


class QuestMixin(MoveMixin):
    """One quest action per turn; completion padlocks the card and starts a Flash Phase."""

    def quest_options(self, h: int, slot: Slot) -> list[Action]:
        kind = slot.kind
        hero = self.hero(h)
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

    def quest_frame(self, h: int, a: Action) -> Frame:
        pos = self.hero(h).position()
        return {
            "k": "quest",
            "hero": h,
            "col": pos.col,
            "floor": pos.floor,
            "stage": "start",
            "item": a.get("item"),
            "greens": 0,
        }

    def reward(self, h: int, items: list[str]) -> None:
        if items:
            self.push({"k": "reward", "hero": h, "items": list(items), "i": 0})

    def step_quest(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        slot = self.slot(fr["col"], fr["floor"])
        q = C.QUESTS[slot.card_id()]
        kind = q["kind"]
        st = fr["stage"]
        if st == "start":
            ev.append(Event.public("quest", hero=h, card=slot.card, name=q["name"], kind=kind))
            if kind in ("escape", "gamble"):
                fr["stage"] = "tossed"
                self.push(self.toss_frame(h, True, kind))
            elif kind == "archery":
                self.hero(h).arrows -= 1
                fr["stage"] = "rolled"
                self.push(self.roll_frame(h, 1, True, False, "archery"))
            elif kind == "duel":
                slot.duel += 1
                fr["stage"] = "tossed"
                self.push(self.toss_frame(h, True, "duel"))
            else:
                if kind == "trapped_vault":
                    self.lose(h, "hearts", 1, ev)
                slot.marks.append(fr["item"])
                item = q["items"][fr["item"]]
                ev.append(Event.public("vault", hero=h, card=slot.card, item=item))
                fr["stage"] = "complete" if len(slot.marks) == len(q["items"]) else "end"
                self.reward(h, [item])
        elif st == "tossed":
            green = fr["ret"] == "green"
            if kind == "escape":
                fr["stage"] = "complete" if green else "end"
                if green:
                    self.reward(h, q["reward"])
            elif kind == "gamble":
                if green and fr["greens"] < 3:
                    fr["greens"] += 1
                    self.push(self.toss_frame(h, True, "gamble"))
                    return
                fr["greens"] += 1 if green else 0
                ev.append(Event.public("gamble", hero=h, greens=fr["greens"]))
                fr["stage"] = "complete"
                self.reward(h, q["rewards"][fr["greens"]])
            else:  # duel
                plank = q["planks"][slot.duel - 1]
                ev.append(Event.public("duel", hero=h, plank=slot.duel, result=fr["ret"]))
                fr["stage"] = "complete" if slot.duel >= len(q["planks"]) else "end"
                self.reward(h, plank[fr["ret"]])
        elif st == "rolled":
            plank = min(2, int(fr["ret"]["successes"]))
            ev.append(Event.public("archery", hero=h, plank=plank, already=plank in slot.marks))
            fr["stage"] = "end"
            if plank not in slot.marks:
                slot.marks.append(plank)
                if len(slot.marks) == len(q["planks"]):
                    fr["stage"] = "complete"
                self.reward(h, q["planks"][plank])
        elif st == "complete":
            slot.locked = True
            slot.marks = []
            ev.append(Event.public("padlock", card=slot.card, why="completed"))
            fr["stage"] = "end"
            self.push(
                {
                    "k": "flash",
                    "hero": h,
                    "col": fr["col"],
                    "floor": fr["floor"],
                    "monster": False,
                    "stage": "start",
                }
            )
        else:
            self.pop()
