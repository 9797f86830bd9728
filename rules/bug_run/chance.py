"""Flip counters and dice: tosses and rolls, with the cards and powers that bend them.

Every toss and roll is its own frame so Forcing Fate, Second Chance, Good Fortune, You Can Do
Better and Act of Bravery are ordinary legal actions at the moment the rules allow them.
"""

from __future__ import annotations

from ..core import Event
from . import content as C
from . import stocks
from .context import Action, Run
from .frames import (
    RollFrame,
    TossFrame,
)


def dice_stats(dice: list[int], courage: bool = False) -> tuple[int, int, int]:
    """(successes, bones, white faces) of a roll; Act of Bravery (courage) turns bones to successes."""
    succ = sum(C.DICE[f - 1]["successes"] for f in dice)
    bones = sum(C.DICE[f - 1]["bones"] for f in dice)
    white = sum(1 for f in dice if C.DICE[f - 1]["white"])
    if courage:
        succ, bones = succ + bones, 0
    return succ, bones, white


def toss_frame(g: Run, h: int, cards: bool, why: str) -> TossFrame:
    return TossFrame(hero=h, cards=cards, why=why, stage="pre", result=None, gf=False)


def step_toss(g: Run, fr: TossFrame, ev: list[Event]) -> None:
    if fr.stage == "pre" and not (fr.cards and g.find_faceup(fr.hero, "forcing_fate")):
        do_toss(g, fr, ev)
    fr.wait = True


def do_toss(g: Run, fr: TossFrame, ev: list[Event]) -> None:
    fr.result = "green" if g.rng.coin() else "red"
    fr.stage = "post"
    fr.gf = False
    ev.append(Event.public("toss", hero=fr.hero, why=fr.why, result=fr.result))


def options_toss(g: Run, fr: TossFrame) -> list[Action]:
    h = fr.hero
    if fr.stage == "pre":
        c = g.find_faceup(h, "forcing_fate")[0]
        return [{"type": "toss"}] + [
            {"type": "force", "card": c, "result": r} for r in ("green", "red")
        ]
    out: list[Action] = [{"type": "accept"}]
    if fr.cards:
        chances = most_used_first(g, g.find_faceup(h, "second_chance"))
        if chances:
            out.append({"type": "retoss", "card": chances[0]})
    if g.has_power(h, "good_fortune") and not fr.gf and g.hero(h).coins >= 2:
        out.append({"type": "good_fortune"})
    return out


def answer_toss(g: Run, fr: TossFrame, a: Action, ev: list[Event]) -> None:
    h = fr.hero
    t = a["type"]
    if t == "toss":
        do_toss(g, fr, ev)
        fr.wait = True
    elif t == "force":
        g.remove_card(h, a["card"])
        g.discard(a["card"])
        ev.append(Event.public("forcing_fate", hero=h, why=fr.why, result=a["result"]))
        g.pop(a["result"])
    elif t == "accept":
        g.pop(fr.result)
    elif t == "retoss":
        use_marker(g, h, a["card"])
        ev.append(Event.public("second_chance", hero=h, card=a["card"]))
        do_toss(g, fr, ev)
        fr.wait = True
    else:  # good fortune (BR-58)
        g.hero(h).coins -= 2
        fr.result = "red" if fr.result == "green" else "green"
        fr.gf = True
        ev.append(Event.public("good_fortune", hero=h, result=fr.result))
        fr.wait = True


def roll_frame(g: Run, h: int, n: int, cards: bool, bravery: bool, why: str) -> RollFrame:
    return RollFrame(
        hero=h, n=n, cards=cards, bravery=bravery, why=why, dice=[], courage=False, braved=False
    )


def roll_dice(g: Run, n: int) -> list[int]:
    return [g.rng.randint(1, 6) for _ in range(n)]


def step_roll(g: Run, fr: RollFrame, ev: list[Event]) -> None:
    fr.dice = roll_dice(g, fr.n)
    ev.append(Event.public("roll", hero=fr.hero, why=fr.why, dice=list(fr.dice)))
    fr.wait = True


def options_roll(g: Run, fr: RollFrame) -> list[Action]:
    h = fr.hero
    out: list[Action] = [{"type": "keep"}]
    if not fr.cards or fr.courage:
        return out  # no cards, or Act of Bravery (courage) already fixed these dice (BR-X27)
    seen: set[str] = set()
    for c in most_used_first(g, g.find_faceup(h, "reroll")):
        kind = C.card(c)["id"]
        if kind in seen:
            continue
        seen.add(kind)
        faces: set[int] = set()
        for i, f in enumerate(fr.dice):
            if f not in faces:
                faces.add(f)
                out.append({"type": "reroll", "card": c, "dice": [i]})
        if C.card(c)["dice"] == 2 and fr.n == 2:
            out.append({"type": "reroll", "card": c, "dice": [0, 1]})
    _, bones, _ = dice_stats(fr.dice, fr.courage)
    if fr.bravery and not fr.braved and bones == 2:
        variants: set[str] = set()
        for c in g.find_in_hand(g.owner(h), "bravery"):
            v = C.card(c)["variant"]
            if v not in variants:
                variants.add(v)
                out.append({"type": "bravery", "card": c})
    return out


def answer_roll(g: Run, fr: RollFrame, a: Action, ev: list[Event]) -> None:
    h = fr.hero
    t = a["type"]
    fr.wait = True
    if t == "keep":
        fr.wait = False
        succ, bones, white = dice_stats(fr.dice, fr.courage)
        if white and g.has_power(h, "tireless_archer"):
            got = stocks.gain(g, h, "arrows", white)
            ev.append(Event.public("tireless_archer", hero=h, arrows=got))
        g.pop({"dice": fr.dice, "successes": succ, "bones": bones, "courage": fr.courage})
    elif t == "reroll":
        use_marker(g, h, a["card"])
        for i in a["dice"]:
            fr.dice[i] = g.rng.randint(1, 6)
        ev.append(Event.public("reroll", hero=h, card=a["card"], dice=list(fr.dice)))
    else:
        c = a["card"]
        g.remove_card(h, c)
        g.discard(c)
        fr.braved = True
        if C.card(c)["variant"] == "courage":
            fr.courage = True
        else:
            stocks.gain(g, h, "coins", 3)
            g.gain_vp(g.owner(h), 2)
        ev.append(Event.public("bravery", hero=h, card=c, name=C.card(c)["name"]))


def most_used_first(g: Run, cards: list[str]) -> list[str]:
    """Copies of a marker card, the most used first: spending its markers first keeps the
    untouched copies sellable and loses nothing (every copy gives the same 3 uses)."""
    marks = g.s.markers
    return sorted(cards, key=lambda c: -int(marks.get(c, 0)))


def use_marker(g: Run, h: int, c: str) -> None:
    """One marker per use; the third marker discards the card (BR-42)."""
    marks = g.s.markers
    marks[c] = marks.get(c, 0) + 1
    if marks[c] >= 3:
        g.remove_card(h, c)
        g.discard(c)
