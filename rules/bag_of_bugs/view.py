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
from .tokens import ROCK, canon, total

PHASE_OF_CHOICE = {TAKE: "grab_choice", GIVE: "wind", LEFTOVER: "leftovers"}

# Where a token revealed this turn is now (``pool_order``).
IN_POOL = "pool"
GONE = "gone"
ROCK_RETURNED = "returned"
ROCK_PAIRED = "paired"


def phase_name(t: Table) -> str:
    """``draw``, ``grab_choice``, ``wind``, ``leftovers`` or ``over``."""
    if t.phase in (DRAW, OVER):
        return t.phase
    assert t.choice is not None, "the resolve phase always rests on an open choice"
    return PHASE_OF_CHOICE[t.choice.kind]


def pool_order(t: Table) -> list[dict[str, str]]:
    """This turn's reveals in order, each with where it is now.

    ``pool``: still in the pool; ``gone``: left the pool with a grab or the leftovers (tokens of
    one type are identical, so the latest reveals of a type are the ones counted as gone);
    ``returned`` / ``paired``: a Rock that left when the draw stopped, back into the bag or set
    aside in a pair.
    """
    left = dict(t.pool)
    rock_fate = ROCK_RETURNED if t.rocks_revealed == 1 else ROCK_PAIRED
    out = []
    for token in t.order:
        if token == ROCK and t.phase != DRAW:
            status = rock_fate
        elif left.get(token, 0) > 0:
            left[token] -= 1
            status = IN_POOL
        else:
            status = GONE
        out.append({"token": token, "status": status})
    # A position built by hand (tests) may hold pool tokens the order does not list.
    out += [{"token": k, "status": IN_POOL} for k, n in canon(left).items() for _ in range(n)]
    return out


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
        "pool_order": pool_order(t),
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
