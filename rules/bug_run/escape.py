"""The Final Escape over the roof (§4.9).

Each hero runs the roof alone, crown first (BR-54); stopping is always allowed (BR-53).
"""

from __future__ import annotations

from typing import Any

from ..core import Event
from . import cards, chance, combat
from . import content as C
from .context import Action, Run
from .frames import Challenge, EscapeFrame, Result, Toss
from .stocks import parse

STOCKS = {"h": "hearts", "c": "coins", "a": "arrows"}


def _passed(result: Result | object) -> bool:
    """A roof step's challenge is won by a passed attack or a green toss."""
    if isinstance(result, Challenge):
        return result.passed
    return isinstance(result, Toss) and result.green


def roof_path(game: Run, step: int, side: str) -> dict[str, Any]:
    """The left or right path of roof step ``step`` (the stairs cards in the order they were
    flipped)."""
    card = C.STAIRS[game.state.roof[step]]
    return card["roof"][0 if side == "L" else 1]


def can_attempt(game: Run, hero: int, path: dict[str, Any]) -> bool:
    """Whether ``hero`` may try a path: pay its cost keeping a heart (BR-19), or hold an arrow for a
    bow challenge."""
    sheet = game.hero(hero)
    if "cost" in path:
        for item in path["cost"]:
            kind, amount = parse(item)
            stock = STOCKS[kind]
            have = sheet.stock(stock) - (1 if stock == "hearts" else 0)  # BR-19
            if have < amount:
                return False
        return True
    kind = path["challenge"][0]
    return kind != "bow" or sheet.arrows >= 1


def options_escape(game: Run, frame: EscapeFrame) -> list[Action]:
    """Stop (always allowed, BR-53), a path the hero can try, or a card to play."""
    hero = frame.hero
    out: list[Action] = [{"type": "stop"}]
    for side in ("L", "R"):
        if can_attempt(game, hero, roof_path(game, frame.reached, side)):
            out.append({"type": "path", "side": side})
    return out + cards.play_options(game, hero, "escape")


def step_escape(game: Run, frame: EscapeFrame, events: list[Event]) -> None:
    """Start the run, wait for the next choice, or take a challenge's result (a failure ends the
    run)."""
    hero = frame.hero
    stage = frame.stage
    if stage == "start":
        events.append(Event.public("escape_start", hero=hero))
        frame.stage = "choose"
    if stage in ("start", "choose"):
        if frame.reached >= 4:
            finish_escape(game, frame, events)
        else:
            frame.wait = True
    elif stage == "challenge":
        ok = _passed(frame.ret)
        events.append(Event.public("roof_step", hero=hero, step=frame.reached + 1, success=ok))
        if ok:
            frame.reached += 1
            frame.stage = "choose"
        else:
            finish_escape(game, frame, events)


def answer_escape(game: Run, frame: EscapeFrame, action: Action, events: list[Event]) -> None:
    """Stop, play a card, or take a path: pay its cost, or toss or attack for its challenge."""
    hero = frame.hero
    choice = action["type"]
    if choice == "stop":
        finish_escape(game, frame, events)
    elif choice == "play":
        frame.stage = "choose"
        cards.answer_play(game, frame, action, events)
        frame.wait = False
    else:
        path = roof_path(game, frame.reached, action["side"])
        events.append(
            Event.public(
                "roof_path", hero=hero, step=frame.reached + 1, side=action["side"], path=path
            )
        )
        if "cost" in path:
            for item in path["cost"]:
                kind, amount = parse(item)
                stock = STOCKS[kind]
                game.hero(hero).set_stock(stock, game.hero(hero).stock(stock) - amount)
            frame.reached += 1
            frame.stage = "choose"
            events.append(Event.public("roof_step", hero=hero, step=frame.reached, success=True))
            return
        kind, need = path["challenge"]
        frame.stage = "challenge"
        if kind == "flip":
            game.push(chance.toss_frame(game, hero, True, "roof"))
        else:
            game.push(combat.attack_frame(game, hero, kind, int(need)))


def finish_escape(game: Run, frame: EscapeFrame, events: list[Event]) -> None:
    """Record the step reached (it scores at the end, BR-52) and end this hero's run."""
    hero = frame.hero
    game.hero(hero).roof = frame.reached
    events.append(
        Event.public("escape_end", hero=hero, reached=frame.reached, vp=C.ROOF_VP[frame.reached])
    )
    game.pop()
