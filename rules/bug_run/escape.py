"""The Final Escape over the roof (§4.9).

Each hero runs the roof alone, crown first (BR-54); stopping is always allowed (BR-53).
"""

from __future__ import annotations

from typing import Any

from ..core import Event
from . import cards, chance, combat
from . import content as C
from .context import Action, Run
from .frames import (
    EscapeFrame,
)
from .stocks import parse

STOCKS = {"h": "hearts", "c": "coins", "a": "arrows"}


def roof_path(g: Run, step: int, side: str) -> dict[str, Any]:
    card = C.STAIRS[g.s.roof[step]]
    return card["roof"][0 if side == "L" else 1]


def can_attempt(g: Run, h: int, path: dict[str, Any]) -> bool:
    hero = g.hero(h)
    if "cost" in path:
        for item in path["cost"]:
            kind, amount = parse(item)
            stock = STOCKS[kind]
            have = hero.stock(stock) - (1 if stock == "hearts" else 0)  # BR-19
            if have < amount:
                return False
        return True
    kind = path["challenge"][0]
    return kind != "bow" or hero.arrows >= 1


def options_escape(g: Run, fr: EscapeFrame) -> list[Action]:
    h = fr.hero
    out: list[Action] = [{"type": "stop"}]
    for side in ("L", "R"):
        if can_attempt(g, h, roof_path(g, fr.reached, side)):
            out.append({"type": "path", "side": side})
    return out + cards.play_options(g, h, "escape")


def step_escape(g: Run, fr: EscapeFrame, ev: list[Event]) -> None:
    h = fr.hero
    st = fr.stage
    if st == "start":
        ev.append(Event.public("escape_start", hero=h))
        fr.stage = "choose"
    if st in ("start", "choose"):
        if fr.reached >= 4:
            finish_escape(g, fr, ev)
        else:
            fr.wait = True
    elif st == "challenge":
        ok = fr.ret is True or fr.ret == "green"
        ev.append(Event.public("roof_step", hero=h, step=fr.reached + 1, success=ok))
        if ok:
            fr.reached += 1
            fr.stage = "choose"
        else:
            finish_escape(g, fr, ev)


def answer_escape(g: Run, fr: EscapeFrame, a: Action, ev: list[Event]) -> None:
    h = fr.hero
    t = a["type"]
    if t == "stop":
        finish_escape(g, fr, ev)
    elif t == "play":
        fr.stage = "choose"
        cards.answer_play(g, fr, a, ev)
        fr.wait = False
    else:
        path = roof_path(g, fr.reached, a["side"])
        ev.append(Event.public("roof_path", hero=h, step=fr.reached + 1, side=a["side"], path=path))
        if "cost" in path:
            for item in path["cost"]:
                kind, amount = parse(item)
                stock = STOCKS[kind]
                g.hero(h).set_stock(stock, g.hero(h).stock(stock) - amount)
            fr.reached += 1
            fr.stage = "choose"
            ev.append(Event.public("roof_step", hero=h, step=fr.reached, success=True))
            return
        kind, need = path["challenge"]
        fr.stage = "challenge"
        if kind == "flip":
            g.push(chance.toss_frame(g, h, True, "roof"))
        else:
            g.push(combat.attack_frame(g, h, kind, int(need)))


def finish_escape(g: Run, fr: EscapeFrame, ev: list[Event]) -> None:
    h = fr.hero
    g.hero(h).roof = fr.reached
    ev.append(Event.public("escape_end", hero=h, reached=fr.reached, vp=C.ROOF_VP[fr.reached]))
    g.pop()
