"""What a seat may see (DESIGN §2): the public table plus that seat's right-hand tile, nothing more.

Tile numbers never appear: a slot is only "occupied or not", kept tiles are only a count, even
for their owner (BC-8, BC-9), and the removed tiles stay hidden until the end (BC-17).
"""

from __future__ import annotations

from rules.core import RuleError

from . import components as box
from . import scoring
from .contract import BugsAndCoView, HeldTile, SeatView, YouView
from .state import FINAL_COUNT, LIVE, OVER, PLAYING, SLUG, TITLE, TURNS, GameState


def build_view(state: GameState, seat: int | None) -> BugsAndCoView:
    """The view of ``seat`` (``None`` = spectators). Shape::

    {
      "game": "bugs-and-co", "title": "Bugs & Co",
      "phase": "start" | "live" | "final" | "over",
      "turn": int, "players": int, "seat": int | None,
      "extra_set": "one-eyed" | "three-eyed" | None,      # 5-6 players only
      "symbols": [{"id": int, "name": str, "eyes": int}], # the symbols in play
      "tiles_in_play": int, "removed_count": 7,
      "slots": [bool, ...],          # True = a face-down tile lies in that slot
      "on_table": int,               # how many slots hold a tile
      "trophies_left": [int, ...],   # highest first
      "next_trophy": int | None,     # what a trophy request would get now
      "seats": [{"seat": int, "status": "playing" | "trophy" | "stopped",
                 "holding": bool, "holding_from": int | None,
                 "kept": int, "trophy": int | None}],
      "waiting_for": [int, ...],     # seats still playing
      "you": None | {"seat": int, "status": str, "kept": int, "trophy": int | None,
                     "hand": None | {"pickup": int, "slot": int,
                                     "symbol": int, "name": str, "eyes": int},
                     "can_peek": bool, "can_take_trophy": bool},
      "result": None | {"why": "countdown" | "cap", "scores": [int], "winners": [int],
                        "breakdowns": [{"trios", "other_tiles", "trophy", "total"}],
                        "hands": [[symbol, ...]], "trophies": [int | None],
                        "removed": [symbol, ...]},
    }
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise RuleError("You are not playing in this game.", code="not_seated")
    symbols = box.symbols_in_play(state.players, state.extra_set)
    return {
        "game": SLUG,
        "title": TITLE,
        "phase": state.phase,
        "turn": TURNS[state.phase],
        "players": state.players,
        "seat": seat,
        "extra_set": state.extra_set,
        "symbols": box.catalog(symbols),
        "tiles_in_play": len(symbols) * box.COPIES - box.REMOVED,
        "removed_count": box.REMOVED,
        "slots": [tile is not None for tile in state.slots],
        "on_table": sum(tile is not None for tile in state.slots),
        "trophies_left": list(state.trophies),
        "next_trophy": state.trophies[0] if state.trophies else None,
        "seats": [_public_seat(state, s) for s in range(state.players)],
        "waiting_for": sorted(state.waiting_for()),
        "you": None if seat is None else _private_seat(state, seat),
        "result": scoring.summary(state) if state.phase == OVER else None,
    }


def _public_seat(state: GameState, seat: int) -> SeatView:
    player = state.seats[seat]
    return {
        "seat": seat,
        "status": player.status,
        "holding": player.held is not None,
        "holding_from": None if player.held is None else player.held.slot,
        "kept": len(player.kept),
        "trophy": player.trophy,
    }


def _private_seat(state: GameState, seat: int) -> YouView:
    player = state.seats[seat]
    playing = player.status == PLAYING and state.phase in (LIVE, FINAL_COUNT)
    hand: HeldTile | None = None
    if player.held is not None:
        hand = {
            "pickup": player.held.pickup,
            "slot": player.held.slot,
            **box.describe(box.symbol_of(player.held.tile)),
        }
    return {
        "seat": seat,
        "status": player.status,
        "kept": len(player.kept),
        "trophy": player.trophy,
        "hand": hand,
        "can_peek": playing and player.held is None and any(t is not None for t in state.slots),
        "can_take_trophy": playing and state.phase == LIVE,
    }
