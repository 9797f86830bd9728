"""What a player sees of Bug Run (``view``): the public table, plus their own secrets.

Everything here is read from the state; nothing is changed. The layout is documented on
``BugRun`` (engine.py), which bot presenters rely on.
"""

from __future__ import annotations

import json
from typing import Any

from . import board, driver, scoring
from . import content as C
from .context import SLUG, Run
from .frames import LootFrame

EQUIP_KEYS = ("sword", "bow", "shield", "stored", "faceup")
PUBLIC_FRAME_KEYS: dict[str, tuple[str, ...]] = {
    "roll": ("dice", "n", "why"),
    "toss": ("result", "why"),
    "attack": ("weapon", "need"),
    "bridge": ("card",),
    "escape": ("reached",),
    "trade": ("merchant",),
}
"""Frame fields every player sees at the table (each was announced by a public event)."""


def table_view(game: Run, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees (None: the table); the layout is in BugRun's docstring."""
    state = game.state
    heroes: list[dict[str, Any]] = []
    ready = state.order.ready if state.order is not None else [True] * game.n_heroes()
    for hero, sheet in enumerate(state.heroes):
        hero_row: dict[str, Any] = {
            "name": sheet.name,
            "seat": sheet.seat,
            "hearts": sheet.hearts,
            "arrows": sheet.arrows,
            "coins": sheet.coins,
            "roof": sheet.roof,
        }
        hero_row.update({zone: list(sheet.zone(zone)) for zone in EQUIP_KEYS})
        hero_row["index"] = hero
        hero_row["power"] = C.POWERS[sheet.name] if state.mode == "powers" else None
        pos = sheet.pos
        hero_row["pos"] = {"col": pos.col, "floor": pos.floor, "space": pos.space} if pos else None
        hero_row["ready"] = bool(ready[hero]) if state.two else None
        heroes.append(hero_row)
    seats = []
    for i, seat_record in enumerate(state.seats):
        row: dict[str, Any] = {"seat": i, "hand_size": len(seat_record.hand)}
        row["heroes"] = [hero for hero in range(game.n_heroes()) if game.owner(hero) == i]
        if seat == i:
            row["vp"] = seat_record.vp
        seats.append(row)
    active = None
    decision = driver.deciding(game)
    if decision is not None:
        frame = decision[1].to_dict()  # the frame as stored: only fields that are set
        active = {
            "seat": decision[0],
            "hero": frame.get("hero"),
            "prompt": frame["k"],
            "stage": frame.get("stage"),
        }
        # What the table sees of the decision (dice faces, the coin, the bridge, the
        # target number, the roof step), so a board can show it beside the choice.
        for key in PUBLIC_FRAME_KEYS.get(frame["k"], ()):
            if frame.get(key) is not None:
                active[key] = json.loads(json.dumps(frame[key]))
        if frame["k"] == "loot" and frame["stage"] == "equip":
            active["card"] = frame["card"]  # announced by the public "loot" event
        if frame["k"] == "fight":
            active["hero"] = frame["choosers"][0]
        if frame["k"] == "flash" and frame.get("pickers"):
            active["hero"] = frame["pickers"][0]
            active["items"] = list(frame.get("items", []))
    out: dict[str, Any] = {
        "game": SLUG,
        "phase": state.phase,
        "level": state.level,
        "mode": state.mode,
        "players": game.state.players,
        "turn": game.state.serial,
        "crown": state.crown,
        "flash": state.flash,
        "level_card": state.level_card,
        "side": "small" if game.small_game() else "large",
        "stairs": state.board[-1]["C"].card if state.board else None,
        "roof": list(state.roof),
        "market": game.market(),
        "decks": {
            "bazaar": len(state.bazaar.deck),
            "bazaar_discard": len(state.bazaar.discard),
            "basics": len(state.basics),
            "loot": len(state.loot.deck),
            "loot_discard": len(state.loot.discard),
            "exploration": len(state.explore),
        },
        "markers": dict(state.markers),
        "heroes": heroes,
        "seats": seats,
        "board": board.board_view(game) if state.board else [],
        "teams": dict(state.teams),
        "active": active,
    }
    shown = [
        *out["market"],
        *(card for hero_row in heroes for k in EQUIP_KEYS for card in hero_row[k]),
    ]
    out["names"] = {card: C.card_name(card) for card in shown}
    out["roof_paths"] = [C.STAIRS[card]["roof"] for card in state.roof]
    if seat is not None and 0 <= seat < game.state.players:
        you: dict[str, Any] = {
            "seat": seat,
            "vp": state.seats[seat].vp,
            "hand": list(state.seats[seat].hand),
            "options": driver.legal_actions(game, seat),
        }
        if (
            decision is not None
            and decision[0] == seat
            and isinstance(decision[1], LootFrame)
            and decision[1].stage == "keep"
        ):
            you["loot_choice"] = list(state.limbo)
        you["names"] = {
            card: C.card_name(card) for card in [*you["hand"], *you.get("loot_choice", [])]
        }
        if game.state.phase == "over":
            you["score"] = scoring.breakdown(game, seat)
        out["you"] = you
    if game.state.phase == "over":
        out["scores"] = [scoring.breakdown(game, i) for i in range(game.state.players)]
        out["winners"] = scoring.winners(game)
    return out
