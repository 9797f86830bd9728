"""Flip counters and dice: tosses and rolls, with the cards and powers that bend them.

Every toss and roll is its own frame so Forcing Fate, Second Chance, Good Fortune, You Can Do
Better and Act of Bravery are ordinary legal actions at the moment the rules allow them.
"""

from __future__ import annotations

from ..core import Event
from . import content as C
from . import stocks
from .context import Action, Run
from .frames import Roll, RollFrame, Toss, TossFrame


def dice_stats(dice: list[int], courage: bool = False) -> tuple[int, int, int]:
    """(successes, bones, white faces) of a roll; Act of Bravery (courage) turns bones into
    successes."""
    succ = sum(C.DICE[f - 1]["successes"] for f in dice)
    bones = sum(C.DICE[f - 1]["bones"] for f in dice)
    white = sum(1 for f in dice if C.DICE[f - 1]["white"])
    if courage:
        succ, bones = succ + bones, 0
    return succ, bones, white


def toss_frame(game: Run, hero: int, cards: bool, why: str) -> TossFrame:
    """A toss of the flip counter for ``why``; ``cards``: whether cards (Forcing Fate, Second
    Chance) may bend it."""
    return TossFrame(hero=hero, cards=cards, why=why, stage="pre", result=None, gf=False)


def step_toss(game: Run, frame: TossFrame, events: list[Event]) -> None:
    """Toss at once unless Forcing Fate is at hand (it must be chosen before the toss); then wait
    for accept or a card."""
    if frame.stage == "pre" and not (frame.cards and game.find_faceup(frame.hero, "forcing_fate")):
        do_toss(game, frame, events)
    frame.wait = True


def do_toss(game: Run, frame: TossFrame, events: list[Event]) -> None:
    """Flip the counter (public) and clear Good Fortune for the new result."""
    frame.result = "green" if game.rng.coin() else "red"
    frame.stage = "post"
    frame.gf = False
    events.append(Event.public("toss", hero=frame.hero, why=frame.why, result=frame.result))


def options_toss(game: Run, frame: TossFrame) -> list[Action]:
    """Before a Forcing Fate toss: toss or force a side; after: accept, Second Chance or Good
    Fortune (BR-42, BR-58)."""
    hero = frame.hero
    if frame.stage == "pre":
        card = game.find_faceup(hero, "forcing_fate")[0]
        return [{"type": "toss"}] + [
            {"type": "force", "card": card, "result": r} for r in ("green", "red")
        ]
    out: list[Action] = [{"type": "accept"}]
    if frame.cards:
        chances = most_used_first(game, game.find_faceup(hero, "second_chance"))
        if chances:
            out.append({"type": "retoss", "card": chances[0]})
    if game.has_power(hero, "good_fortune") and not frame.gf and game.hero(hero).coins >= 2:
        out.append({"type": "good_fortune"})
    return out


def answer_toss(game: Run, frame: TossFrame, action: Action, events: list[Event]) -> None:
    """Play the toss choice; accepting (or forcing) returns the result to the frame below."""
    hero = frame.hero
    choice = action["type"]
    if choice == "toss":
        do_toss(game, frame, events)
        frame.wait = True
    elif choice == "force":
        game.remove_card(hero, action["card"])
        game.discard(action["card"])
        events.append(
            Event.public("forcing_fate", hero=hero, why=frame.why, result=action["result"])
        )
        game.pop(Toss(action["result"]))
    elif choice == "accept":
        assert frame.result is not None, "a toss is accepted only once tossed"
        game.pop(Toss(frame.result))
    elif choice == "retoss":
        use_marker(game, hero, action["card"])
        events.append(Event.public("second_chance", hero=hero, card=action["card"]))
        do_toss(game, frame, events)
        frame.wait = True
    else:  # good fortune (BR-58)
        game.hero(hero).coins -= 2
        frame.result = "red" if frame.result == "green" else "green"
        frame.gf = True
        events.append(Event.public("good_fortune", hero=hero, result=frame.result))
        frame.wait = True


def roll_frame(game: Run, hero: int, n: int, cards: bool, bravery: bool, why: str) -> RollFrame:
    """A roll of ``n`` dice for ``why``; ``cards``: rerolls allowed; ``bravery``: Act of Bravery
    allowed."""
    return RollFrame(
        hero=hero, n=n, cards=cards, bravery=bravery, why=why, dice=[], courage=False, braved=False
    )


def roll_dice(game: Run, n: int) -> list[int]:
    """``n`` dice faces from the game's generator."""
    return [game.rng.randint(1, 6) for _ in range(n)]


def step_roll(game: Run, frame: RollFrame, events: list[Event]) -> None:
    """Roll (public), then wait: keeping the dice is always a choice, rerolls and bravery may be."""
    frame.dice = roll_dice(game, frame.n)
    events.append(Event.public("roll", hero=frame.hero, why=frame.why, dice=list(frame.dice)))
    frame.wait = True


def options_roll(game: Run, frame: RollFrame) -> list[Action]:
    """Keep, reroll dice with You Can Do Better (one per card kind and face), or Act of Bravery on
    two bones."""
    hero = frame.hero
    out: list[Action] = [{"type": "keep"}]
    if not frame.cards or frame.courage:
        return out  # no cards, or Act of Bravery (courage) already fixed these dice (BR-X27)
    seen: set[str] = set()
    for card in most_used_first(game, game.find_faceup(hero, "reroll")):
        kind = C.card(card)["id"]
        if kind in seen:
            continue
        seen.add(kind)
        faces: set[int] = set()
        for i, f in enumerate(frame.dice):
            if f not in faces:
                faces.add(f)
                out.append({"type": "reroll", "card": card, "dice": [i]})
        if C.card(card)["dice"] == 2 and frame.n == 2:
            out.append({"type": "reroll", "card": card, "dice": [0, 1]})
    _, bones, _ = dice_stats(frame.dice, frame.courage)
    if frame.bravery and not frame.braved and bones == 2:
        variants: set[str] = set()
        for card in game.find_in_hand(game.owner(hero), "bravery"):
            v = C.card(card)["variant"]
            if v not in variants:
                variants.add(v)
                out.append({"type": "bravery", "card": card})
    return out


def answer_roll(game: Run, frame: RollFrame, action: Action, events: list[Event]) -> None:
    """Keep (returning successes and bones below, Tireless Archer's arrows first), reroll, or play
    Act of Bravery."""
    hero = frame.hero
    choice = action["type"]
    frame.wait = True
    if choice == "keep":
        frame.wait = False
        succ, bones, white = dice_stats(frame.dice, frame.courage)
        if white and game.has_power(hero, "tireless_archer"):
            got = stocks.gain(game, hero, "arrows", white)
            events.append(Event.public("tireless_archer", hero=hero, arrows=got))
        game.pop(Roll(list(frame.dice), succ, bones, frame.courage))
    elif choice == "reroll":
        use_marker(game, hero, action["card"])
        for i in action["dice"]:
            frame.dice[i] = game.rng.randint(1, 6)
        events.append(Event.public("reroll", hero=hero, card=action["card"], dice=list(frame.dice)))
    else:
        card = action["card"]
        game.remove_card(hero, card)
        game.discard(card)
        frame.braved = True
        if C.card(card)["variant"] == "courage":
            frame.courage = True
        else:
            stocks.gain(game, hero, "coins", 3)
            game.gain_vp(game.owner(hero), 2)
        events.append(Event.public("bravery", hero=hero, card=card, name=C.card(card)["name"]))


def most_used_first(game: Run, cards: list[str]) -> list[str]:
    """Copies of a marker card, the most used first: spending its markers first keeps the
    untouched copies sellable and loses nothing (every copy gives the same 3 uses)."""
    marks = game.state.markers
    return sorted(cards, key=lambda card: -int(marks.get(card, 0)))


def use_marker(game: Run, hero: int, card: str) -> None:
    """One marker per use; the third marker discards the card (BR-42)."""
    marks = game.state.markers
    marks[card] = marks.get(card, 0) + 1
    if marks[card] >= 3:
        game.remove_card(hero, card)
        game.discard(card)
