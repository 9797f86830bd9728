"""The stairs (§4.8): waiting rewards, fights between teams, and the reset between levels."""

from __future__ import annotations

from ..core import Event
from .base import Action, Frame, parse
from .combat import dice_stats
from .flash import FlashMixin


class StairsMixin(FlashMixin):
    """Fight frame and level reset."""

    def fight_frame(self) -> Frame:
        slot = self.stairs_slot()
        crown = self.s.crown
        choosers = []
        for h in self.clockwise(crown):
            sp = self.space_of(h)
            if slot.spaces[sp].weapon == "any":
                choosers.append(h)
        return {"k": "fight", "stage": "choose", "choosers": choosers, "weapons": {}, "seat": -1}

    def step_fight(self, fr: Frame, ev: list[Event]) -> None:
        if fr["choosers"]:
            fr["seat"] = self.owner(fr["choosers"][0])
            fr["wait"] = True
            return
        self.resolve_fight(fr, ev)
        self.pop()

    def opts_fight(self, fr: Frame) -> list[Action]:
        return [{"type": "fight_weapon", "weapon": w} for w in ("sword", "bow")]

    def answer_fight(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["choosers"].pop(0)
        fr["weapons"][str(h)] = a["weapon"]
        ev.append(Event.public("fight_weapon", hero=h, weapon=a["weapon"]))

    def fight_weapon(self, fr: Frame, h: int) -> str:
        w = self.stairs_slot().spaces[self.space_of(h)].weapon
        return {"sw": "sword", "bw": "bow"}.get(w) or str(fr["weapons"][str(h)])

    def resolve_fight(self, fr: Frame, ev: list[Event]) -> None:
        """BR-30..32: roll, sum per team, reroll ties, split the reward among the winners."""
        card = self.stairs_card()
        teams: dict[str, list[int]] = {"top": [], "bottom": []}
        for h in self.clockwise(self.s.crown):
            sp = self.hero(h).position().space
            teams[card["spaces"][sp]["team"]].append(h)
        winners: list[int]
        if not teams["top"] or not teams["bottom"]:
            winners = teams["top"] or teams["bottom"]
            ev.append(
                Event.public("fight", rolls={}, sums={}, winner="top" if teams["top"] else "bottom")
            )
        else:
            while True:
                rolls: dict[str, list[int]] = {}
                sums = {"top": 0, "bottom": 0}
                scores: dict[str, int] = {}
                for team, members in teams.items():
                    for h in members:
                        dice = self.roll_dice(2)
                        succ, _, white = dice_stats(dice)
                        if white and self.has_power(h, "tireless_archer"):
                            self.gain(h, "arrows", white)
                        score = self.attack_total(h, self.fight_weapon(fr, h), succ, 0)
                        rolls[str(h)] = dice
                        scores[str(h)] = score
                        sums[team] += score
                if sums["top"] != sums["bottom"]:
                    break
                ev.append(Event.public("fight_tie", rolls=rolls, scores=scores, sums=sums))
            win = "top" if sums["top"] > sums["bottom"] else "bottom"
            winners = teams[win]
            ev.append(Event.public("fight", rolls=rolls, scores=scores, sums=sums, winner=win))
        for item in card["fight_reward"]:
            kind, amount = parse(item)
            share = amount // len(winners)
            for h in winners:
                if share:
                    self.grant_item(h, f"{share}{kind}", ev)

    def reset_level(self, ev: list[Event]) -> None:
        """RESET(l): crown to the crown space's hero, stairs to the roof, level put away."""
        s = self.s
        slot = self.stairs_slot()
        for sp, d in zip(slot.spaces, self.stairs_card()["spaces"], strict=True):
            if d["crown"] and sp.hero is not None:
                s.crown = sp.hero
        s.roof.append(slot.card_id())
        for col in s.board[1:-1]:
            for sl in col.values():
                if sl.card is not None:
                    s.boxed.append(sl.card)
        level = s.level
        s.boxed.extend(s.monsters[level - 1])
        s.monsters[level - 1] = []
        s.board = []
        ev.append(Event.public("level_end", level=level, crown=s.crown, roof=list(s.roof)))
        if level < 4:
            s.level = level + 1
            self.build_level(level + 1, ev)
            self.start_phase("trading", ev)
        else:
            s.escape_queue = self.clockwise(s.crown)
            for h in range(self.n_heroes()):
                self.hero(h).pos = None
            self.start_phase("escape", ev)

    def stair_wait_items(self) -> list[str]:
        return list(self.stairs_card()["wait"])
