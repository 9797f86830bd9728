"""The plain-data picture of the table that presenters draw from (BB-21: everything is public).

Bag of Bugs has no secrets, so a seat's view is the public view plus a ``you`` block saying what
that seat may do now.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action

from . import flow, scoring
from .grabs import GRAB_TEXT
from .state import DRAW, GIVE, LEFTOVER, OVER, TAKE, Table
from .tokens import canon, total

PHASE_OF_CHOICE = {TAKE: "grab_choice", GIVE: "wind", LEFTOVER: "leftovers"}


def phase_name(t: Table) -> str:
    """``draw``, ``grab_choice``, ``wind``, ``leftovers`` or ``over``."""
    if t.phase in (DRAW, OVER):
        return t.phase
    assert t.choice is not None, "the resolve phase always rests on an open choice"
    return PHASE_OF_CHOICE[t.choice.kind]


def public_view(t: Table, waiting: frozenset[int]) -> dict[str, Any]:
    parts = scoring.breakdowns(t.collections)
    scores = [p["total"] for p in parts]
    choice = t.choice
    return {
        "game": "bag-of-bugs",
        "players": t.players,
        "phase": phase_name(t),
        "turn": t.step,
        "turn_number": t.turn_number,
        "drawer": t.drawer,
        "draw_limit": t.setup.draw_limit,
        "revealed": t.revealed,
        "rocks_revealed": t.rocks_revealed,
        "window_open": t.phase == DRAW and t.revealed > 0,
        "pool": canon(t.pool),
        "pool_count": total(t.pool),
        "bag": canon(t.bag),
        "bag_count": total(t.bag),
        "pairs": t.pairs,
        "pairs_needed": t.setup.pairs_needed,
        "last_turn": t.final,
        "out_of_game": canon(t.out_of_game),
        "grabs": [
            {"token": k, "seat": holder, "text": GRAB_TEXT[k]}
            for k, holder in enumerate(t.grabs, start=1)
        ],
        "resolving": choice.grab if choice is not None and choice.kind == TAKE else None,
        "held_winds": t.held_winds,
        "wind_holder": t.wind_holder,
        "collections": [canon(c) for c in t.collections],
        "scores": scores,
        "breakdowns": parts,
        "choice": None
        if choice is None
        else {
            "seat": choice.seat,
            "kind": choice.kind,
            "step": choice.step,
            "grab": choice.grab,
            "options": flow.options(t),
        },
        "waiting_for": sorted(waiting),
        "is_over": t.phase == OVER,
        "winners": scoring.best(scores) if t.phase == OVER else [],
    }


def seat_view(
    t: Table, seat: int, waiting: frozenset[int], actions: list[Action]
) -> dict[str, Any]:
    view = public_view(t, waiting)
    view["you"] = {
        "seat": seat,
        "role": "drawer" if seat == t.drawer else "grabber",
        "grab": t.grab_of(seat),
        "actions": actions,
    }
    return view
