"""Attacking a Monster: sword and bow attacks, strikes back and shields (§4.6); a roof
challenge of the Final Escape is the same attack against a target number."""

from __future__ import annotations

from typing import Any

from ..core import Event
from . import chance, stocks
from . import content as C
from .context import Action, Run
from .frames import (
    AttackFrame,
    FlashFrame,
)


def attack_frame(g: Run, h: int, weapon: str, need: int | None = None) -> AttackFrame:
    pos = g.hero(h).pos
    return AttackFrame(
        hero=h,
        weapon=weapon,
        need=need,
        stage="pay",
        col=pos.col if pos else None,
        floor=pos.floor if pos else None,
        potions=0,
        corrosion=False,
    )


def zone_bonus(g: Run, h: int, zone: str) -> int:
    return sum(int(C.card(c)["bonus"]) for c in g.hero(h).zone(zone))


def attack_total(g: Run, h: int, weapon: str, succ: int, extra: int) -> int:
    """4.6 step 3: nothing without a dice success; else dice + zone + potions + Frenzy."""
    if succ == 0:
        return 0
    total = succ + zone_bonus(g, h, weapon) + extra
    if weapon == "sword" and g.has_power(h, "fierce_frenzy") and g.hero(h).hearts <= 3:
        total += 2
    return total


def step_attack(g: Run, fr: AttackFrame, ev: list[Event]) -> None:
    h = fr.hero
    st = fr.stage
    if st == "pay":
        if fr.weapon == "bow":
            g.hero(h).arrows -= 1
        ev.append(Event.public("attack", hero=h, weapon=fr.weapon, need=fr.need))
        fr.stage = "pre"
        fr.wait = True
    elif st == "resolve":
        resolve_attack(g, fr, ev)
    elif st == "after":
        after_attack(g, fr, ev)
    elif st == "wooden":
        green = fr.ret == "green"
        ev.append(
            Event.public("shield", hero=h, kind="wooden", result=fr.ret, blocked=1 if green else 0)
        )
        take_damage(g, fr, fr.damage() - (1 if green else 0), ev)
    else:  # "flashed": the Flash Phase is over
        g.pop()


def options_attack(g: Run, fr: AttackFrame) -> list[Action]:
    h = fr.hero
    if fr.stage == "pre":
        out: list[Action] = [{"type": "roll"}]
        seen: set[str] = set()
        for c in g.find_faceup(h, "strength"):
            d = C.card(c)
            if d["weapon"] in ("any", fr.weapon) and d["id"] not in seen:
                seen.add(d["id"])
                out.append({"type": "potion", "card": c})
        if fr.need is None and not fr.corrosion:
            corr = g.find_in_hand(g.owner(h), "corrosion")
            if corr:
                out.append({"type": "corrosion", "card": corr[0]})
        return out
    if fr.stage == "metal":
        return [{"type": "no_shield"}, {"type": "metal_shield"}]
    c = g.find_faceup(h, "energy_boost")[0]
    return [{"type": "end_attack"}] + [
        {"type": "energy_boost", "card": c, "weapon": w} for w in boost_weapons(g, fr)
    ]


def boost_weapons(g: Run, fr: AttackFrame) -> list[str]:
    """Energy Boost is a whole new ATTACK (4.6 step 7, BR-41): the weapon is chosen again
    (the space's symbol still forces it) and a bow needs an arrow to pay now and one at the
    start of the turn."""
    h = fr.hero
    w = g.space_weapon(h)
    out = []
    if w != "bw":
        out.append("sword")
    if w != "sw" and fr.start_arrows() >= 1 and g.hero(h).arrows >= 1:
        out.append("bow")
    return out


def answer_attack(g: Run, fr: AttackFrame, a: Action, ev: list[Event]) -> None:
    h = fr.hero
    t = a["type"]
    if t in ("potion", "corrosion"):
        c = a["card"]
        g.remove_card(h, c)
        g.discard(c)
        ev.append(Event.public("play", hero=h, card=c, name=C.card(c)["name"]))
        if t == "potion":
            fr.potions += int(C.card(c)["bonus"])
        else:
            fr.corrosion = True
        fr.wait = True
    elif t == "roll":
        fr.stage = "resolve"
        g.push(chance.roll_frame(g, h, 2, True, True, "attack"))
    elif t in ("no_shield", "metal_shield"):
        dmg = fr.damage()
        if t == "metal_shield":
            g.hero(h).coins -= 1
            dmg -= 1
            ev.append(Event.public("shield", hero=h, kind="metal", blocked=1))
        take_damage(g, fr, dmg, ev)
    elif t == "end_attack":
        g.pop()
    else:  # Energy Boost (BR-41): a full new attack in the same action
        g.remove_card(h, a["card"])
        g.discard(a["card"])
        ev.append(Event.public("energy_boost", hero=h, card=a["card"]))
        fr.stage, fr.weapon, fr.potions, fr.corrosion = "pay", a["weapon"], 0, False


def resolve_attack(g: Run, fr: AttackFrame, ev: list[Event]) -> None:
    h = fr.hero
    roll: dict[str, Any] = fr.ret
    succ, bones = int(roll["successes"]), int(roll["bones"])
    weapon = fr.weapon
    total = attack_total(g, h, weapon, succ, fr.potions)
    fr.total = total
    bone_base = 0
    if fr.need is None:
        slot = g.slot(*fr.monster_at())
        m = C.MONSTERS[slot.card_id()]
        shield = max(0, m["shield"] - (2 if fr.corrosion else 0))
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
            equipment_awards(g, h, weapon, ev)
        bone_base = int(m["bones"])
    else:
        ev.append(Event.public("roof_attack", hero=h, total=total, need=fr.need))
    fr.stage = "after"
    if weapon == "sword" and bones >= 1:
        strike_back(g, fr, bones + bone_base, ev)


def equipment_awards(g: Run, h: int, zone: str, ev: list[Event]) -> None:
    """BR-16: every card of the used zone pays its award when the attack wounds."""
    coins = sum(int(C.card(c).get("award_coins", 0)) for c in g.hero(h).zone(zone))
    vp = sum(int(C.card(c).get("award_vp", 0)) for c in g.hero(h).zone(zone))
    if coins or vp:
        got = stocks.gain(g, h, "coins", coins)
        g.gain_vp(g.owner(h), vp)
        ev.append(Event.public("award", hero=h, coins=got, vp=vp))


def strike_back(g: Run, fr: AttackFrame, dmg: int, ev: list[Event]) -> None:
    """4.6 step 6 / BR-14: one shield use, then Armored Exoskeleton, then the loss."""
    h = fr.hero
    hero = g.hero(h)
    ev.append(Event.public("strike_back", hero=h, damage=dmg))
    if hero.shield:
        kind = C.card(hero.shield[0])["shield"]
        if kind == "golden":
            dmg -= 1
            ev.append(Event.public("shield", hero=h, kind="golden", blocked=1))
        elif kind == "wooden":
            # an ordinary toss of the hero's counter: Forcing Fate, Second Chance and Good
            # Fortune apply to it like to any other toss (BR-42, BR-58)
            fr.dmg = dmg
            fr.stage = "wooden"
            g.push(chance.toss_frame(g, h, True, "shield"))
            return
        elif hero.coins >= 1 and dmg >= 1:
            fr.dmg = dmg
            fr.stage = "metal"
            fr.wait = True
            return
    take_damage(g, fr, dmg, ev)


def take_damage(g: Run, fr: AttackFrame, dmg: int, ev: list[Event]) -> None:
    h = fr.hero
    fr.stage = "after"
    if g.has_power(h, "armored_exoskeleton") and g.hero(h).hearts >= 6:
        dmg = min(dmg, 1)
    if dmg > 0:
        ev.append(Event.public("hurt", hero=h, hearts=dmg))
        stocks.damage(g, h, dmg, ev)


def total_of(fr: AttackFrame) -> int:
    """The attack total, known once the dice are resolved."""
    assert fr.total is not None, "the attack is not resolved yet"
    return fr.total


def after_attack(g: Run, fr: AttackFrame, ev: list[Event]) -> None:
    h = fr.hero
    if fr.need is not None:
        g.pop(total_of(fr) >= fr.need)
        return
    col, floor = fr.monster_at()
    slot = g.slot(col, floor)
    if slot.wounds >= C.MONSTERS[slot.card_id()]["life"]:
        slot.defeated = True
        ev.append(Event.public("defeated", hero=h, monster=slot.card))
        fr.stage = "flashed"
        g.push(FlashFrame(hero=h, col=col, floor=floor, monster=True, stage="start"))
        return
    boost = g.find_faceup(h, "energy_boost")
    if boost and boost_weapons(g, fr):
        fr.stage = "energy"
        fr.wait = True
        return
    g.pop()
