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


def phase_name(table: Table) -> str:
    """``draw``, ``grab_choice``, ``wind``, ``leftovers`` or ``over``."""
    if table.phase in (DRAW, OVER):
        return table.phase
    assert table.choice is not None, "the resolve phase always rests on an open choice"
    return PHASE_OF_CHOICE[table.choice.kind]


def pool_order(table: Table) -> list[dict[str, str]]:
    """This turn's reveals in order, each with where it is now.

    ``pool``: still in the pool; ``gone``: left the pool with a grab or the leftovers (tokens of
    one type are identical, so the latest reveals of a type are the ones counted as gone);
    ``returned`` / ``paired``: a Rock that left when the draw stopped, back into the bag or set
    aside in a pair.
    """
    left = dict(table.pool)
    rock_fate = ROCK_RETURNED if table.rocks_revealed == 1 else ROCK_PAIRED
    out = []
    for token in table.order:
        if token == ROCK and table.phase != DRAW:
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


def public_view(table: Table, waiting: frozenset[int]) -> dict[str, Any]:
    parts = scoring.breakdowns(table.collections)
    scores = [p["total"] for p in parts]
    choice = table.choice
    return {
        "game": "bag-of-bugs",
        "players": table.players,
        "phase": phase_name(table),
        "turn": table.step,
        "turn_number": table.turn_number,
        "drawer": table.drawer,
        "draw_limit": table.setup.draw_limit,
        "revealed": table.revealed,
        "rocks_revealed": table.rocks_revealed,
        "window_open": table.phase == DRAW and table.revealed > 0,
        "pool": canon(table.pool),
        "pool_order": pool_order(table),
        "pool_count": total(table.pool),
        "bag": canon(table.bag),
        "bag_count": total(table.bag),
        "pairs": table.pairs,
        "pairs_needed": table.setup.pairs_needed,
        "last_turn": table.final,
        "out_of_game": canon(table.out_of_game),
        "grabs": [
            {"token": k, "seat": holder, "text": GRAB_TEXT[k]}
            for k, holder in enumerate(table.grabs, start=1)
        ],
        "resolving": choice.grab if choice is not None and choice.kind == TAKE else None,
        "held_winds": table.held_winds,
        "wind_holder": table.wind_holder,
        "collections": [canon(c) for c in table.collections],
        "scores": scores,
        "breakdowns": parts,
        "choice": None
        if choice is None
        else {
            "seat": choice.seat,
            "kind": choice.kind,
            "step": choice.step,
            "grab": choice.grab,
            "options": flow.options(table),
        },
        "waiting_for": sorted(waiting),
        "is_over": table.phase == OVER,
        "winners": scoring.best(scores) if table.phase == OVER else [],
    }


def seat_view(
    table: Table, seat: int, waiting: frozenset[int], actions: list[Action]
) -> dict[str, Any]:
    view = public_view(table, waiting)
    view["you"] = {
        "seat": seat,
        "role": "drawer" if seat == table.drawer else "grabber",
        "grab": table.grab_of(seat),
        "actions": actions,
    }
    return view
