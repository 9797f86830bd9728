"""Attacking a Monster: sword and bow attacks, strikes back and shields (§4.6); a roof
challenge of the Final Escape is the same attack against a target number."""

from __future__ import annotations

from ..core import Event
from . import chance, stocks
from . import content as C
from .context import Action, Run
from .frames import (
    AttackFrame,
    Challenge,
    FlashFrame,
)


def attack_frame(game: Run, hero: int, weapon: str, need: int | None = None) -> AttackFrame:
    """An attack by ``hero`` with ``weapon`` on the monster it stands on, or against a roof target
    ``need``."""
    pos = game.hero(hero).pos
    return AttackFrame(
        hero=hero,
        weapon=weapon,
        need=need,
        stage="pay",
        col=pos.col if pos else None,
        floor=pos.floor if pos else None,
        potions=0,
        corrosion=False,
    )


def zone_bonus(game: Run, hero: int, zone: str) -> int:
    """The bonus of every card in the zone of the weapon used."""
    return sum(int(C.card(card)["bonus"]) for card in game.hero(hero).zone(zone))


def attack_total(game: Run, hero: int, weapon: str, succ: int, extra: int) -> int:
    """4.6 step 3: nothing without a dice success; else dice + zone + potions + Frenzy."""
    if succ == 0:
        return 0
    total = succ + zone_bonus(game, hero, weapon) + extra
    if weapon == "sword" and game.has_power(hero, "fierce_frenzy") and game.hero(hero).hearts <= 3:
        total += 2
    return total


def step_attack(game: Run, frame: AttackFrame, events: list[Event]) -> None:
    """Pay a bow's arrow and announce the attack, then resolve the roll, the strike back, the wooden
    shield's toss."""
    hero = frame.hero
    stage = frame.stage
    if stage == "pay":
        if frame.weapon == "bow":
            game.hero(hero).arrows -= 1
        events.append(Event.public("attack", hero=hero, weapon=frame.weapon, need=frame.need))
        frame.stage = "pre"
        frame.wait = True
    elif stage == "resolve":
        resolve_attack(game, frame, events)
    elif stage == "after":
        after_attack(game, frame, events)
    elif stage == "wooden":
        toss = frame.tossed()
        green = toss.green
        events.append(
            Event.public(
                "shield", hero=hero, kind="wooden", result=toss.face, blocked=1 if green else 0
            )
        )
        take_damage(game, frame, frame.damage() - (1 if green else 0), events)
    else:  # "flashed": the Flash Phase is over
        game.pop()


def options_attack(game: Run, frame: AttackFrame) -> list[Action]:
    """Before the roll: roll, Strength potions, Corrosion; on a strike back: the metal shield;
    after: Energy Boost."""
    hero = frame.hero
    if frame.stage == "pre":
        out: list[Action] = [{"type": "roll"}]
        seen: set[str] = set()
        for card in game.find_faceup(hero, "strength"):
            info = C.card(card)
            if info["weapon"] in ("any", frame.weapon) and info["id"] not in seen:
                seen.add(info["id"])
                out.append({"type": "potion", "card": card})
        if frame.need is None and not frame.corrosion:
            corr = game.find_in_hand(game.owner(hero), "corrosion")
            if corr:
                out.append({"type": "corrosion", "card": corr[0]})
        return out
    if frame.stage == "metal":
        return [{"type": "no_shield"}, {"type": "metal_shield"}]
    card = game.find_faceup(hero, "energy_boost")[0]
    return [{"type": "end_attack"}] + [
        {"type": "energy_boost", "card": card, "weapon": weapon}
        for weapon in boost_weapons(game, frame)
    ]


def boost_weapons(game: Run, frame: AttackFrame) -> list[str]:
    """Energy Boost is a whole new ATTACK (4.6 step 7, BR-41): the weapon is chosen again
    (the space's symbol still forces it) and a bow needs an arrow to pay now and one at the
    start of the turn."""
    hero = frame.hero
    weapon = game.space_weapon(hero)
    out = []
    if weapon != "bw":
        out.append("sword")
    if weapon != "sw" and frame.start_arrows() >= 1 and game.hero(hero).arrows >= 1:
        out.append("bow")
    return out


def answer_attack(game: Run, frame: AttackFrame, action: Action, events: list[Event]) -> None:
    """Play a potion or Corrosion, roll, use the metal shield, end the attack or start an Energy
    Boost attack."""
    hero = frame.hero
    choice = action["type"]
    if choice in ("potion", "corrosion"):
        card = action["card"]
        game.remove_card(hero, card)
        game.discard(card)
        events.append(Event.public("play", hero=hero, card=card, name=C.card(card)["name"]))
        if choice == "potion":
            frame.potions += int(C.card(card)["bonus"])
        else:
            frame.corrosion = True
        frame.wait = True
    elif choice == "roll":
        frame.stage = "resolve"
        game.push(chance.roll_frame(game, hero, 2, True, True, "attack"))
    elif choice in ("no_shield", "metal_shield"):
        dmg = frame.damage()
        if choice == "metal_shield":
            game.hero(hero).coins -= 1
            dmg -= 1
            events.append(Event.public("shield", hero=hero, kind="metal", blocked=1))
        take_damage(game, frame, dmg, events)
    elif choice == "end_attack":
        game.pop()
    else:  # Energy Boost (BR-41): a full new attack in the same action
        game.remove_card(hero, action["card"])
        game.discard(action["card"])
        events.append(Event.public("energy_boost", hero=hero, card=action["card"]))
        frame.stage, frame.weapon, frame.potions, frame.corrosion = (
            "pay",
            action["weapon"],
            0,
            False,
        )


def resolve_attack(game: Run, frame: AttackFrame, events: list[Event]) -> None:
    """Wound the monster (or compare with the roof target), pay equipment awards, then any strike
    back."""
    hero = frame.hero
    roll = frame.rolled()
    succ, bones = roll.successes, roll.bones
    weapon = frame.weapon
    total = attack_total(game, hero, weapon, succ, frame.potions)
    frame.total = total
    bone_base = 0
    if frame.need is None:
        slot = game.slot(*frame.monster_at())
        monster = C.MONSTERS[slot.card_id()]
        shield = max(0, monster["shield"] - (2 if frame.corrosion else 0))
        wounds = max(0, total - shield)
        slot.wounds = min(monster["life"], slot.wounds + wounds)
        events.append(
            Event.public(
                "strike",
                hero=hero,
                total=total,
                shield=shield,
                wounds=wounds,
                monster=slot.card,
                monster_wounds=slot.wounds,
            )
        )
        if wounds >= 1:
            equipment_awards(game, hero, weapon, events)
        bone_base = int(monster["bones"])
    else:
        events.append(Event.public("roof_attack", hero=hero, total=total, need=frame.need))
    frame.stage = "after"
    if weapon == "sword" and bones >= 1:
        strike_back(game, frame, bones + bone_base, events)


def equipment_awards(game: Run, hero: int, zone: str, events: list[Event]) -> None:
    """BR-16: every card of the used zone pays its award when the attack wounds."""
    coins = sum(int(C.card(card).get("award_coins", 0)) for card in game.hero(hero).zone(zone))
    vp = sum(int(C.card(card).get("award_vp", 0)) for card in game.hero(hero).zone(zone))
    if coins or vp:
        got = stocks.gain(game, hero, "coins", coins)
        game.gain_vp(game.owner(hero), vp)
        events.append(Event.public("award", hero=hero, coins=got, vp=vp))


def strike_back(game: Run, frame: AttackFrame, dmg: int, events: list[Event]) -> None:
    """4.6 step 6 / BR-14: one shield use, then Armored Exoskeleton, then the loss."""
    hero = frame.hero
    sheet = game.hero(hero)
    events.append(Event.public("strike_back", hero=hero, damage=dmg))
    if sheet.shield:
        kind = C.card(sheet.shield[0])["shield"]
        if kind == "golden":
            dmg -= 1
            events.append(Event.public("shield", hero=hero, kind="golden", blocked=1))
        elif kind == "wooden":
            # an ordinary toss of the hero's counter: Forcing Fate, Second Chance and Good
            # Fortune apply to it like to any other toss (BR-42, BR-58)
            frame.dmg = dmg
            frame.stage = "wooden"
            game.push(chance.toss_frame(game, hero, True, "shield"))
            return
        elif sheet.coins >= 1 and dmg >= 1:
            frame.dmg = dmg
            frame.stage = "metal"
            frame.wait = True
            return
    take_damage(game, frame, dmg, events)


def take_damage(game: Run, frame: AttackFrame, dmg: int, events: list[Event]) -> None:
    """Lose hearts to a strike back; Armored Exoskeleton caps it at 1 while the hero has 6 hearts or
    more."""
    hero = frame.hero
    frame.stage = "after"
    if game.has_power(hero, "armored_exoskeleton") and game.hero(hero).hearts >= 6:
        dmg = min(dmg, 1)
    if dmg > 0:
        events.append(Event.public("hurt", hero=hero, hearts=dmg))
        stocks.damage(game, hero, dmg, events)


def total_of(frame: AttackFrame) -> int:
    """The attack total, known once the dice are resolved."""
    assert frame.total is not None, "the attack is not resolved yet"
    return frame.total


def after_attack(game: Run, frame: AttackFrame, events: list[Event]) -> None:
    """A defeated monster starts a Flash Phase; otherwise Energy Boost may be offered, else the
    attack ends."""
    hero = frame.hero
    if frame.need is not None:
        game.pop(Challenge(total_of(frame) >= frame.need))
        return
    col, floor = frame.monster_at()
    slot = game.slot(col, floor)
    if slot.wounds >= C.MONSTERS[slot.card_id()]["life"]:
        slot.defeated = True
        events.append(Event.public("defeated", hero=hero, monster=slot.card))
        frame.stage = "flashed"
        game.push(FlashFrame(hero=hero, col=col, floor=floor, monster=True, stage="start"))
        return
    boost = game.find_faceup(hero, "energy_boost")
    if boost and boost_weapons(game, frame):
        frame.stage = "energy"
        frame.wait = True
        return
    game.pop()
