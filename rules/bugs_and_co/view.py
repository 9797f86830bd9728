"""What a seat may see (DESIGN §2): the public table plus that seat's right-hand tile, nothing more.

Tile numbers never appear: a slot is only "occupied or not", kept tiles are only a count, even
for their owner (BC-8, BC-9), and the removed tiles stay hidden until the end (BC-17).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core import RuleError

from . import components as box
from .contract import BugsAndCoView, HeldTile, SeatView, YouView
from .state import FINAL_COUNT, LIVE, OVER, PLAYING

if TYPE_CHECKING:
    from .engine import BugsAndCo


def build_view(game: BugsAndCo, seat: int | None) -> BugsAndCoView:
    """The view of ``seat`` (``None`` = spectators). Shape (``contract.BugsAndCoView``)::

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
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.players):
        raise RuleError("You are not playing in this game.", code="not_seated")
    symbols = box.symbols_in_play(game.players, game.extra_set)
    return {
        "game": game.slug,
        "title": game.title,
        "phase": game.phase,
        "turn": game.turn,
        "players": game.players,
        "seat": seat,
        "extra_set": game.extra_set,
        "symbols": box.catalog(symbols),
        "tiles_in_play": len(symbols) * box.COPIES - box.REMOVED,
        "removed_count": box.REMOVED,
        "slots": [tile is not None for tile in game.slots],
        "on_table": sum(tile is not None for tile in game.slots),
        "trophies_left": list(game.trophies),
        "next_trophy": game.trophies[0] if game.trophies else None,
        "seats": [_public_seat(game, s) for s in range(game.players)],
        "waiting_for": sorted(game.waiting_for()),
        "you": None if seat is None else _private_seat(game, seat),
        "result": game.final_summary() if game.phase == OVER else None,
    }


def _public_seat(game: BugsAndCo, seat: int) -> SeatView:
    player = game.seats[seat]
    return {
        "seat": seat,
        "status": player.status,
        "holding": player.held is not None,
        "holding_from": None if player.held is None else player.held.slot,
        "kept": len(player.kept),
        "trophy": player.trophy,
    }


def _private_seat(game: BugsAndCo, seat: int) -> YouView:
    player = game.seats[seat]
    playing = player.status == PLAYING and game.phase in (LIVE, FINAL_COUNT)
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
        "can_peek": playing and player.held is None and any(t is not None for t in game.slots),
        "can_take_trophy": playing and game.phase == LIVE,
    }
