"""Tosses, dice rolls and attacks (§4.6), with the cards and powers that bend them.

Every toss and roll is its own frame so Forcing Fate, Second Chance, Good Fortune, You Can Do
Better and Act of Bravery are ordinary legal actions at the moment the rules allow them.
"""

from __future__ import annotations

from typing import Any

from ..core import Event
from . import content as C
from .base import Action, Frame
from .trading import TradingMixin


def dice_stats(dice: list[int], courage: bool = False) -> tuple[int, int, int]:
    """(successes, bones, white faces) of a roll; Act of Bravery (courage) turns bones to successes."""
    succ = sum(C.DICE[f - 1]["successes"] for f in dice)
    bones = sum(C.DICE[f - 1]["bones"] for f in dice)
    white = sum(1 for f in dice if C.DICE[f - 1]["white"])
    if courage:
        succ, bones = succ + bones, 0
    return succ, bones, white


class CombatMixin(TradingMixin):
    """Toss, roll and attack frames."""

    # -- toss -----------------------------------------------------------------------------------
    def toss_frame(self, h: int, cards: bool, why: str) -> Frame:
        return {
            "k": "toss",
            "hero": h,
            "cards": cards,
            "why": why,
            "stage": "pre",
            "result": None,
            "gf": False,
        }

    def step_toss(self, fr: Frame, ev: list[Event]) -> None:
        if fr["stage"] == "pre" and not (
            fr["cards"] and self.find_faceup(fr["hero"], "forcing_fate")
        ):
            self.do_toss(fr, ev)
        fr["wait"] = True

    def do_toss(self, fr: Frame, ev: list[Event]) -> None:
        fr["result"] = "green" if self.rng.coin() else "red"
        fr["stage"] = "post"
        fr["gf"] = False
        ev.append(Event.public("toss", hero=fr["hero"], why=fr["why"], result=fr["result"]))

    def opts_toss(self, fr: Frame) -> list[Action]:
        h = fr["hero"]
        if fr["stage"] == "pre":
            c = self.find_faceup(h, "forcing_fate")[0]
            return [{"type": "toss"}] + [
                {"type": "force", "card": c, "result": r} for r in ("green", "red")
            ]
        out: list[Action] = [{"type": "accept"}]
        if fr["cards"]:
            chances = self.most_used_first(self.find_faceup(h, "second_chance"))
            if chances:
                out.append({"type": "retoss", "card": chances[0]})
        if self.has_power(h, "good_fortune") and not fr["gf"] and self.hero(h).coins >= 2:
            out.append({"type": "good_fortune"})
        return out

    def most_used_first(self, cards: list[str]) -> list[str]:
        """Copies of a marker card, the most used first: spending its markers first keeps the
        untouched copies sellable and loses nothing (every copy gives the same 3 uses)."""
        marks = self.s.markers
        return sorted(cards, key=lambda c: -int(marks.get(c, 0)))

    def use_marker(self, h: int, c: str) -> None:
        """One marker per use; the third marker discards the card (BR-42)."""
        marks = self.s.markers
        marks[c] = marks.get(c, 0) + 1
        if marks[c] >= 3:
            self.remove_card(h, c)
            self.discard(c)

    def answer_toss(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        t = a["type"]
        if t == "toss":
            self.do_toss(fr, ev)
            fr["wait"] = True
        elif t == "force":
            self.remove_card(h, a["card"])
            self.discard(a["card"])
            ev.append(Event.public("forcing_fate", hero=h, why=fr["why"], result=a["result"]))
            self.pop(a["result"])
        elif t == "accept":
            self.pop(fr["result"])
        elif t == "retoss":
            self.use_marker(h, a["card"])
            ev.append(Event.public("second_chance", hero=h, card=a["card"]))
            self.do_toss(fr, ev)
            fr["wait"] = True
        else:  # good fortune (BR-58)
            self.hero(h).coins -= 2
            fr["result"] = "red" if fr["result"] == "green" else "green"
            fr["gf"] = True
            ev.append(Event.public("good_fortune", hero=h, result=fr["result"]))
            fr["wait"] = True

    # -- roll -----------------------------------------------------------------------------------
    def roll_frame(self, h: int, n: int, cards: bool, bravery: bool, why: str) -> Frame:
        return {
            "k": "roll",
            "hero": h,
            "n": n,
            "cards": cards,
            "bravery": bravery,
            "why": why,
            "dice": [],
            "courage": False,
            "braved": False,
        }

    def roll_dice(self, n: int) -> list[int]:
        return [self.rng.randint(1, 6) for _ in range(n)]

    def step_roll(self, fr: Frame, ev: list[Event]) -> None:
        fr["dice"] = self.roll_dice(fr["n"])
        ev.append(Event.public("roll", hero=fr["hero"], why=fr["why"], dice=list(fr["dice"])))
        fr["wait"] = True

    def opts_roll(self, fr: Frame) -> list[Action]:
        h = fr["hero"]
        out: list[Action] = [{"type": "keep"}]
        if not fr["cards"] or fr["courage"]:
            return out  # no cards, or Act of Bravery (courage) already fixed these dice (BR-X27)
        seen: set[str] = set()
        for c in self.most_used_first(self.find_faceup(h, "reroll")):
            kind = C.card(c)["id"]
            if kind in seen:
                continue
            seen.add(kind)
            faces: set[int] = set()
            for i, f in enumerate(fr["dice"]):
                if f not in faces:
                    faces.add(f)
                    out.append({"type": "reroll", "card": c, "dice": [i]})
            if C.card(c)["dice"] == 2 and fr["n"] == 2:
                out.append({"type": "reroll", "card": c, "dice": [0, 1]})
        _, bones, _ = dice_stats(fr["dice"], fr["courage"])
        if fr["bravery"] and not fr["braved"] and bones == 2:
            variants: set[str] = set()
            for c in self.find_in_hand(self.owner(h), "bravery"):
                v = C.card(c)["variant"]
                if v not in variants:
                    variants.add(v)
                    out.append({"type": "bravery", "card": c})
        return out

    def answer_roll(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        t = a["type"]
        fr["wait"] = True
        if t == "keep":
            fr["wait"] = False
            succ, bones, white = dice_stats(fr["dice"], fr["courage"])
            if white and self.has_power(h, "tireless_archer"):
                got = self.gain(h, "arrows", white)
                ev.append(Event.public("tireless_archer", hero=h, arrows=got))
            self.pop(
                {"dice": fr["dice"], "successes": succ, "bones": bones, "courage": fr["courage"]}
            )
        elif t == "reroll":
            self.use_marker(h, a["card"])
            for i in a["dice"]:
                fr["dice"][i] = self.rng.randint(1, 6)
            ev.append(Event.public("reroll", hero=h, card=a["card"], dice=list(fr["dice"])))
        else:
            c = a["card"]
            self.remove_card(h, c)
            self.discard(c)
            fr["braved"] = True
            if C.card(c)["variant"] == "courage":
                fr["courage"] = True
            else:
                self.gain(h, "coins", 3)
                self.gain_vp(self.owner(h), 2)
            ev.append(Event.public("bravery", hero=h, card=c, name=C.card(c)["name"]))

    # -- attack ---------------------------------------------------------------------------------
    def attack_frame(self, h: int, weapon: str, need: int | None = None) -> Frame:
        pos = self.hero(h).pos
        return {
            "k": "attack",
            "hero": h,
            "weapon": weapon,
            "need": need,
            "stage": "pay",
            "col": pos.col if pos else None,
            "floor": pos.floor if pos else None,
            "potions": 0,
            "corrosion": False,
        }

    def zone_bonus(self, h: int, zone: str) -> int:
        return sum(int(C.card(c)["bonus"]) for c in self.hero(h).zone(zone))

    def attack_total(self, h: int, weapon: str, succ: int, extra: int) -> int:
        """4.6 step 3: nothing without a dice success; else dice + zone + potions + Frenzy."""
        if succ == 0:
            return 0
        total = succ + self.zone_bonus(h, weapon) + extra
        if weapon == "sword" and self.has_power(h, "fierce_frenzy") and self.hero(h).hearts <= 3:
            total += 2
        return total

    def step_attack(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        st = fr["stage"]
        if st == "pay":
            if fr["weapon"] == "bow":
                self.hero(h).arrows -= 1
            ev.append(Event.public("attack", hero=h, weapon=fr["weapon"], need=fr["need"]))
            fr["stage"] = "pre"
            fr["wait"] = True
        elif st == "resolve":
            self.resolve_attack(fr, ev)
        elif st == "after":
            self.after_attack(fr, ev)
        elif st == "wooden":
            green = fr["ret"] == "green"
            ev.append(
                Event.public(
                    "shield", hero=h, kind="wooden", result=fr["ret"], blocked=1 if green else 0
                )
            )
            self.take_damage(fr, fr["dmg"] - (1 if green else 0), ev)
        else:  # "flashed": the Flash Phase is over
            self.pop()

    def opts_attack(self, fr: Frame) -> list[Action]:
        h = fr["hero"]
        if fr["stage"] == "pre":
            out: list[Action] = [{"type": "roll"}]
            seen: set[str] = set()
            for c in self.find_faceup(h, "strength"):
                d = C.card(c)
                if d["weapon"] in ("any", fr["weapon"]) and d["id"] not in seen:
                    seen.add(d["id"])
                    out.append({"type": "potion", "card": c})
            if fr["need"] is None and not fr["corrosion"]:
                corr = self.find_in_hand(self.owner(h), "corrosion")
                if corr:
                    out.append({"type": "corrosion", "card": corr[0]})
            return out
        if fr["stage"] == "metal":
            return [{"type": "no_shield"}, {"type": "metal_shield"}]
        c = self.find_faceup(h, "energy_boost")[0]
        return [{"type": "end_attack"}] + [
            {"type": "energy_boost", "card": c, "weapon": w} for w in self.boost_weapons(fr)
        ]

    def boost_weapons(self, fr: Frame) -> list[str]:
        """Energy Boost is a whole new ATTACK (4.6 step 7, BR-41): the weapon is chosen again
        (the space's symbol still forces it) and a bow needs an arrow to pay now and one at the
        start of the turn."""
        h = fr["hero"]
        w = self.space_weapon(h)
        out = []
        if w != "bw":
            out.append("sword")
        if w != "sw" and int(fr.get("arrows0", 1)) >= 1 and self.hero(h).arrows >= 1:
            out.append("bow")
        return out

    def answer_attack(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        t = a["type"]
        if t in ("potion", "corrosion"):
            c = a["card"]
            self.remove_card(h, c)
            self.discard(c)
            ev.append(Event.public("play", hero=h, card=c, name=C.card(c)["name"]))
            if t == "potion":
                fr["potions"] += int(C.card(c)["bonus"])
            else:
                fr["corrosion"] = True
            fr["wait"] = True
        elif t == "roll":
            fr["stage"] = "resolve"
            self.push(self.roll_frame(h, 2, True, True, "attack"))
        elif t in ("no_shield", "metal_shield"):
            dmg = fr["dmg"]
            if t == "metal_shield":
                self.hero(h).coins -= 1
                dmg -= 1
                ev.append(Event.public("shield", hero=h, kind="metal", blocked=1))
            self.take_damage(fr, dmg, ev)
        elif t == "end_attack":
            self.pop()
        else:  # Energy Boost (BR-41): a full new attack in the same action
            self.remove_card(h, a["card"])
            self.discard(a["card"])
            ev.append(Event.public("energy_boost", hero=h, card=a["card"]))
            fr.update(stage="pay", weapon=a["weapon"], potions=0, corrosion=False)

    def resolve_attack(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        roll: dict[str, Any] = fr["ret"]
        succ, bones = int(roll["successes"]), int(roll["bones"])
        weapon = fr["weapon"]
        total = self.attack_total(h, weapon, succ, fr["potions"])
        fr["total"] = total
        bone_base = 0
        if fr["need"] is None:
            slot = self.slot(fr["col"], fr["floor"])
            m = C.MONSTERS[slot.card_id()]
            shield = max(0, m["shield"] - (2 if fr["corrosion"] else 0))
            wounds = max(0, total - shield)
            slot.wounds = min(m["life"], slot.wounds + wounds)
            ev.append(
                Event.public(
                    "strike",
                    hero=h,
                    total=total,
                    shield=shield,
                    wounds=wounds,
                    monster=slot.card,
                    monster_wounds=slot.wounds,
                )
            )
            if wounds >= 1:
                self.equipment_awards(h, weapon, ev)
            bone_base = int(m["bones"])
        else:
            ev.append(Event.public("roof_attack", hero=h, total=total, need=fr["need"]))
        fr["stage"] = "after"
        if weapon == "sword" and bones >= 1:
            self.strike_back(fr, bones + bone_base, ev)

    def equipment_awards(self, h: int, zone: str, ev: list[Event]) -> None:
        """BR-16: every card of the used zone pays its award when the attack wounds."""
        coins = sum(int(C.card(c).get("award_coins", 0)) for c in self.hero(h).zone(zone))
        vp = sum(int(C.card(c).get("award_vp", 0)) for c in self.hero(h).zone(zone))
        if coins or vp:
            got = self.gain(h, "coins", coins)
            self.gain_vp(self.owner(h), vp)
            ev.append(Event.public("award", hero=h, coins=got, vp=vp))

    def strike_back(self, fr: Frame, dmg: int, ev: list[Event]) -> None:
        """4.6 step 6 / BR-14: one shield use, then Armored Exoskeleton, then the loss."""
        h = fr["hero"]
        hero = self.hero(h)
        ev.append(Event.public("strike_back", hero=h, damage=dmg))
        if hero.shield:
            kind = C.card(hero.shield[0])["shield"]
            if kind == "golden":
                dmg -= 1
                ev.append(Event.public("shield", hero=h, kind="golden", blocked=1))
            elif kind == "wooden":
                # an ordinary toss of the hero's counter: Forcing Fate, Second Chance and Good
                # Fortune apply to it like to any other toss (BR-42, BR-58)
                fr["dmg"] = dmg
                fr["stage"] = "wooden"
                self.push(self.toss_frame(h, True, "shield"))
                return
            elif hero.coins >= 1 and dmg >= 1:
                fr["dmg"] = dmg
                fr["stage"] = "metal"
                fr["wait"] = True
                return
        self.take_damage(fr, dmg, ev)

    def take_damage(self, fr: Frame, dmg: int, ev: list[Event]) -> None:
        h = fr["hero"]
        fr["stage"] = "after"
        if self.has_power(h, "armored_exoskeleton") and self.hero(h).hearts >= 6:
            dmg = min(dmg, 1)
        if dmg > 0:
            ev.append(Event.public("hurt", hero=h, hearts=dmg))
            self.damage(h, dmg, ev)

    def after_attack(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        if fr["need"] is not None:
            self.pop(fr["total"] >= fr["need"])
            return
        slot = self.slot(fr["col"], fr["floor"])
        if slot.wounds >= C.MONSTERS[slot.card_id()]["life"]:
            slot.defeated = True
            ev.append(Event.public("defeated", hero=h, monster=slot.card))
            fr["stage"] = "flashed"
            self.push(
                {
                    "k": "flash",
                    "hero": h,
                    "col": fr["col"],
                    "floor": fr["floor"],
                    "monster": True,
                    "stage": "start",
                }
            )
            return
        boost = self.find_faceup(h, "energy_boost")
        if boost and self.boost_weapons(fr):
            fr["stage"] = "energy"
            fr["wait"] = True
            return
        self.pop()
