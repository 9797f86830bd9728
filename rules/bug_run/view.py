"""What a player sees of Bug Run (``view``): the public table, plus their own secrets.

Everything here is read from the state; nothing is changed. The layout is documented on
``BugRun`` (engine.py), which bot presenters rely on.
"""

from __future__ import annotations

import json
from typing import Any, cast

from . import board, driver, scoring
from . import content as C
from .context import SLUG, Run
from .contract import ActiveView, BugRunView, HeroView, SeatView, YouView
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


def table_view(game: Run, seat: int | None) -> BugRunView:
    """What ``seat`` sees (None: the table); the layout is in BugRun's docstring."""
    public = _public_view(game)
    return public if seat is None else view_beside(game, public, seat)


def view_beside(game: Run, public: BugRunView, seat: int) -> BugRunView:
    """What ``seat`` sees, given ``public``, the table's view of this very position: the
    seat's own parts (its VP beside its row, ``you``) are made here, and every other part is
    ``public``'s own, shared, not copied (a view is read, never changed). Equal to
    ``table_view(game, seat)``, keys in the same order."""
    if not 0 <= seat < game.state.players:
        return dict(public)  # type: ignore[return-value]
    state = game.state
    out: dict[str, Any] = {k: v for k, v in public.items() if k not in _AFTER_YOU}
    seats = list(public["seats"])
    seats[seat] = {**seats[seat], "vp": state.seats[seat].vp}
    out["seats"] = seats
    decision = driver.deciding(game)
    you: YouView = {
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
    you["names"] = {card: C.card_name(card) for card in [*you["hand"], *you.get("loot_choice", [])]}
    if state.phase == "over":
        you["score"] = scoring.breakdown(game, seat)
    out["you"] = you
    for key in _AFTER_YOU:
        if key in public:
            out[key] = public[key]  # type: ignore[literal-required]
    return cast(BugRunView, out)


_AFTER_YOU = ("scores", "winners")
"""The view's keys that come after ``you`` (the end's): kept in that order."""


def _public_view(game: Run) -> BugRunView:
    """The table's view: what every player and onlooker sees."""
    state = game.state
    heroes: list[HeroView] = []
    ready = state.order.ready if state.order is not None else [True] * game.n_heroes()
    for hero, sheet in enumerate(state.heroes):
        pos = sheet.pos
        hero_row: HeroView = {
            "name": sheet.name,
            "seat": sheet.seat,
            "hearts": sheet.hearts,
            "arrows": sheet.arrows,
            "coins": sheet.coins,
            "roof": sheet.roof,
            # EQUIP_KEYS, in that order
            "sword": list(sheet.zone("sword")),
            "bow": list(sheet.zone("bow")),
            "shield": list(sheet.zone("shield")),
            "stored": list(sheet.zone("stored")),
            "faceup": list(sheet.zone("faceup")),
            "index": hero,
            "power": C.POWERS[sheet.name] if state.mode == "powers" else None,
            "pos": {"col": pos.col, "floor": pos.floor, "space": pos.space} if pos else None,
            "ready": bool(ready[hero]) if state.two else None,
        }
        heroes.append(hero_row)
    seats: list[SeatView] = []
    for i, seat_record in enumerate(state.seats):
        row: SeatView = {
            "seat": i,
            "hand_size": len(seat_record.hand),
            "heroes": [hero for hero in range(game.n_heroes()) if game.owner(hero) == i],
        }
        seats.append(row)
    active: dict[str, Any] | None = None
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
    market = game.market()
    shown = [
        *market,
        *(card for hero_row in heroes for k in EQUIP_KEYS for card in hero_row[k]),  # type: ignore[literal-required]
    ]
    out: BugRunView = {
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
        "market": market,
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
        "board": board.board_view(game, own=True) if state.board else [],
        "teams": dict(state.teams),
        # Its keys vary with the frame (PUBLIC_FRAME_KEYS); the contract tests check them.
        "active": cast(ActiveView | None, active),
        "names": {card: C.card_name(card) for card in shown},
        "roof_paths": [C.STAIRS[card]["roof"] for card in state.roof],
    }
    if game.state.phase == "over":
        out["scores"] = [scoring.breakdown(game, i) for i in range(game.state.players)]
        out["winners"] = scoring.winners(game)
    return out
