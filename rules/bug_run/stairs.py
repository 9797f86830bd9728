"""The stairs (§4.8): Reward on the Stairs, Fight on the Stairs and the Reset between levels."""

from __future__ import annotations

from ..core import Event
from . import board, chance, combat, phases, stocks
from .context import Action, Run
from .frames import (
    FightFrame,
)
from .stocks import parse


def fight_frame(game: Run) -> FightFrame:
    """The fight on a Fight card once every hero is on the stairs; heroes on an "any" space choose a
    weapon."""
    slot = game.stairs_slot()
    crown = game.state.crown
    choosers = []
    for hero in game.clockwise(crown):
        space = game.space_of(hero)
        if slot.spaces[space].weapon == "any":
            choosers.append(hero)
    return FightFrame(stage="choose", choosers=choosers, weapons={}, seat=-1)


def step_fight(game: Run, frame: FightFrame, events: list[Event]) -> None:
    """Ask the next hero's weapon, or fight once all are chosen."""
    if frame.choosers:
        frame.seat = game.owner(frame.choosers[0])
        frame.wait = True
        return
    resolve_fight(game, frame, events)
    game.pop()


def options_fight(game: Run, frame: FightFrame) -> list[Action]:
    """Sword or bow for this fight."""
    return [{"type": "fight_weapon", "weapon": weapon} for weapon in ("sword", "bow")]


def answer_fight(game: Run, frame: FightFrame, action: Action, events: list[Event]) -> None:
    """Note the weapon (public)."""
    hero = frame.choosers.pop(0)
    frame.weapons[str(hero)] = action["weapon"]
    events.append(Event.public("fight_weapon", hero=hero, weapon=action["weapon"]))


def fight_weapon(game: Run, frame: FightFrame, hero: int) -> str:
    """The weapon a hero fights with: its space's symbol, else its choice."""
    weapon = game.stairs_slot().spaces[game.space_of(hero)].weapon
    return {"sw": "sword", "bw": "bow"}.get(weapon) or str(frame.weapons[str(hero)])


def resolve_fight(game: Run, frame: FightFrame, events: list[Event]) -> None:
    """BR-30..32: roll, sum per team, reroll ties, split the reward among the winners."""
    card = game.stairs_card()
    teams: dict[str, list[int]] = {"top": [], "bottom": []}
    for hero in game.clockwise(game.state.crown):
        space = game.hero(hero).position().space
        teams[card["spaces"][space]["team"]].append(hero)
    winners: list[int]
    if not teams["top"] or not teams["bottom"]:
        winners = teams["top"] or teams["bottom"]
        events.append(
            Event.public("fight", rolls={}, sums={}, winner="top" if teams["top"] else "bottom")
        )
    else:
        while True:
            rolls: dict[str, list[int]] = {}
            sums = {"top": 0, "bottom": 0}
            scores: dict[str, int] = {}
            for team, members in teams.items():
                for hero in members:
                    dice = chance.roll_dice(game, 2)
                    succ, _, white = chance.dice_stats(dice)
                    if white and game.has_power(hero, "tireless_archer"):
                        stocks.gain(game, hero, "arrows", white)
                    score = combat.attack_total(
                        game, hero, fight_weapon(game, frame, hero), succ, 0
                    )
                    rolls[str(hero)] = dice
                    scores[str(hero)] = score
                    sums[team] += score
            if sums["top"] != sums["bottom"]:
                break
            events.append(Event.public("fight_tie", rolls=rolls, scores=scores, sums=sums))
        win = "top" if sums["top"] > sums["bottom"] else "bottom"
        winners = teams[win]
        events.append(Event.public("fight", rolls=rolls, scores=scores, sums=sums, winner=win))
    for item in card["fight_reward"]:
        kind, amount = parse(item)
        share = amount // len(winners)
        for hero in winners:
            if share:
                stocks.grant_item(game, hero, f"{share}{kind}", events)


def reset_level(game: Run, events: list[Event]) -> None:
    """RESET(l): crown to the crown space's hero, stairs to the roof, level put away."""
    state = game.state
    slot = game.stairs_slot()
    for space, info in zip(slot.spaces, game.stairs_card()["spaces"], strict=True):
        if info["crown"] and space.hero is not None:
            state.crown = space.hero
    state.roof.append(slot.card_id())
    for col in state.board[1:-1]:
        for sl in col.values():
            if sl.card is not None:
                state.boxed.append(sl.card)
    level = state.level
    state.boxed.extend(state.monsters[level - 1])
    state.monsters[level - 1] = []
    state.board = []
    events.append(Event.public("level_end", level=level, crown=state.crown, roof=list(state.roof)))
    if level < 4:
        state.level = level + 1
        board.build_level(game, level + 1, events)
        phases.start_phase(game, "trading", events)
    else:
        state.escape_queue = game.clockwise(state.crown)
        for hero in range(game.n_heroes()):
            game.hero(hero).pos = None
        phases.start_phase(game, "escape", events)


def stair_wait_items(game: Run) -> list[str]:
    """What a hero waiting on the stairs gains each turn (BR-27)."""
    return list(game.stairs_card()["wait"])
