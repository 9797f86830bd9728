"""The stairs (§4.8): Reward on the Stairs, Fight on the Stairs and the Reset between levels."""

from __future__ import annotations

from ..core import Event
from . import board, chance, combat, stocks, turns
from .context import Action, Run
from .frames import (
    FightFrame,
)
from .stocks import parse


def fight_frame(g: Run) -> FightFrame:
    slot = g.stairs_slot()
    crown = g.s.crown
    choosers = []
    for h in g.clockwise(crown):
        sp = g.space_of(h)
        if slot.spaces[sp].weapon == "any":
            choosers.append(h)
    return FightFrame(stage="choose", choosers=choosers, weapons={}, seat=-1)


def step_fight(g: Run, fr: FightFrame, ev: list[Event]) -> None:
    if fr.choosers:
        fr.seat = g.owner(fr.choosers[0])
        fr.wait = True
        return
    resolve_fight(g, fr, ev)
    g.pop()


def options_fight(g: Run, fr: FightFrame) -> list[Action]:
    return [{"type": "fight_weapon", "weapon": w} for w in ("sword", "bow")]


def answer_fight(g: Run, fr: FightFrame, a: Action, ev: list[Event]) -> None:
    h = fr.choosers.pop(0)
    fr.weapons[str(h)] = a["weapon"]
    ev.append(Event.public("fight_weapon", hero=h, weapon=a["weapon"]))


def fight_weapon(g: Run, fr: FightFrame, h: int) -> str:
    w = g.stairs_slot().spaces[g.space_of(h)].weapon
    return {"sw": "sword", "bw": "bow"}.get(w) or str(fr.weapons[str(h)])


def resolve_fight(g: Run, fr: FightFrame, ev: list[Event]) -> None:
    """BR-30..32: roll, sum per team, reroll ties, split the reward among the winners."""
    card = g.stairs_card()
    teams: dict[str, list[int]] = {"top": [], "bottom": []}
    for h in g.clockwise(g.s.crown):
        sp = g.hero(h).position().space
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
                    dice = chance.roll_dice(g, 2)
                    succ, _, white = chance.dice_stats(dice)
                    if white and g.has_power(h, "tireless_archer"):
                        stocks.gain(g, h, "arrows", white)
                    score = combat.attack_total(g, h, fight_weapon(g, fr, h), succ, 0)
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
                stocks.grant_item(g, h, f"{share}{kind}", ev)


def reset_level(g: Run, ev: list[Event]) -> None:
    """RESET(l): crown to the crown space's hero, stairs to the roof, level put away."""
    s = g.s
    slot = g.stairs_slot()
    for sp, d in zip(slot.spaces, g.stairs_card()["spaces"], strict=True):
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
        board.build_level(g, level + 1, ev)
        turns.start_phase(g, "trading", ev)
    else:
        s.escape_queue = g.clockwise(s.crown)
        for h in range(g.n_heroes()):
            g.hero(h).pos = None
        turns.start_phase(g, "escape", ev)


def stair_wait_items(g: Run) -> list[str]:
    return list(g.stairs_card()["wait"])
