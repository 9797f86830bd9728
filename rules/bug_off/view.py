"""What one seat may know (BO-15): public table state plus that seat's own hand and points.

Shape of ``view(seat)``, typed as ``contract.BugOffView`` (all JSON-safe; colour dicts always list
the six colours in order)::

    {
      "game": "bug-off", "phase": "draw" | "choose" | "over", "turn": int,
      "players": int, "first_player": int,
      "active": int | None,            # whose turn (None once over)
      "waiting_for": [int],            # seats the game waits on
      "colours": [str],                # canonical colour order
      "deck_size": int,
      "bug_offs": [str],               # BUG OFF colours in the order played (bottom first)
      "score_pile": {colour: int},     # cards played with SCORE (face up, public)
      "discard": {colour: int},        # cards wiped by BUG OFFs (public)
      "seats": [{"seat", "hand_size", "tableau": {colour: int}, "points_size"}],
      "me": None | {                   # only in view(seat) for a seated player
          "seat", "hand": {colour: int}, "points": {colour: int},
          "drawn": str | None,         # the BUG card just drawn, while choosing
          "can_draw": bool, "place": [colour], "score": [colour],
      },
      "final": None | {                # once over: points colours are revealed to all
          "scores": [int], "winners": [int], "points": [{colour: int}],
          "tiebreak": None | {"tied", "score", "steps": [{"colour", "counts", "survivors"}],
                              "decided_by": colour | None, "shared": bool},
      },
    }
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import COLOURS
from .contract import BugOffView, FinalView, MeView

if TYPE_CHECKING:
    from .engine import BugOff


def build_view(game: BugOff, seat: int | None) -> BugOffView:
    return {
        "game": game.slug,
        "phase": game.phase,
        "turn": game.turn,
        "players": game.players,
        "first_player": game.first,
        "active": None if game.is_over else game.active,
        "waiting_for": sorted(game.waiting_for()),
        "colours": list(COLOURS),
        "deck_size": len(game.deck),
        "bug_offs": list(game.bug_offs),
        "score_pile": dict(game.score_pile),
        "discard": dict(game.discard),
        "seats": [
            {
                "seat": s,
                "hand_size": sum(piles.hand.values()),
                "tableau": dict(piles.tableau),
                "points_size": sum(piles.points.values()),
            }
            for s, piles in enumerate(game.state.seats)
        ],
        "me": None if seat is None else _private(game, seat),
        "final": _final(game) if game.is_over else None,
    }


def _private(game: BugOff, seat: int) -> MeView:
    actions = game.legal_actions(seat)
    return {
        "seat": seat,
        "hand": dict(game.state.seats[seat].hand),
        "points": dict(game.state.seats[seat].points),
        "drawn": game.drawn if seat == game.active else None,
        "can_draw": {"type": "draw"} in actions,
        "place": [a["colour"] for a in actions if a["type"] == "place"],
        "score": [a["colour"] for a in actions if a["type"] == "score"],
    }


def _final(game: BugOff) -> FinalView:
    return {
        "scores": game.scores(),
        "winners": game.winners(),
        "points": [dict(pile) for pile in game.points],
        "tiebreak": game.tiebreak(),
    }
