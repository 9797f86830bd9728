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

from rules.core import Action

from . import scoring
from .cards import COLOURS
from .contract import BugOffView, FinalView, MeView
from .state import SLUG, GameState


def build_view(state: GameState, seat: int | None, actions: list[Action]) -> BugOffView:
    """The view of ``seat`` (``None``: the public one) given its legal ``actions``, read from
    the state alone so that the engine imports the view and never the other way round."""
    return {
        "game": SLUG,
        "phase": state.phase,
        "turn": state.step,
        "players": state.players,
        "first_player": state.first,
        "active": None if state.is_over else state.active,
        "waiting_for": sorted(state.waiting_for()),
        "colours": list(COLOURS),
        "deck_size": len(state.deck),
        "bug_offs": list(state.bug_offs),
        "score_pile": dict(state.score_pile),
        "discard": dict(state.discard),
        "seats": [
            {
                "seat": s,
                "hand_size": sum(piles.hand.values()),
                "tableau": dict(piles.tableau),
                "points_size": sum(piles.points.values()),
            }
            for s, piles in enumerate(state.seats)
        ],
        "me": None if seat is None else _private(state, seat, actions),
        "final": _final(state) if state.is_over else None,
    }


def _private(state: GameState, seat: int, actions: list[Action]) -> MeView:
    return {
        "seat": seat,
        "hand": dict(state.seats[seat].hand),
        "points": dict(state.seats[seat].points),
        "drawn": state.drawn if seat == state.active else None,
        "can_draw": {"type": "draw"} in actions,
        "place": [a["colour"] for a in actions if a["type"] == "place"],
        "score": [a["colour"] for a in actions if a["type"] == "score"],
    }


def _final(state: GameState) -> FinalView:
    winners, tiebreak = scoring.rank(state.points, state.bug_offs)
    return {
        "scores": scoring.totals(state.points),
        "winners": winners,
        "points": [dict(pile) for pile in state.points],
        "tiebreak": tiebreak,
    }
