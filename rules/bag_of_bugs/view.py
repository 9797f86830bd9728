"""The plain-data picture of the table that presenters draw from (BB-21: everything is public).

Bag of Bugs has no secrets, so a seat's view is the public view plus a ``you`` block saying what
that seat may do now.
"""

from __future__ import annotations

from typing import Final

from rules.core import Action

from . import flow, scoring
from .contract import BagOfBugsView, PoolEntry, Status
from .grabs import GRAB_TEXT
from .state import DRAW, GIVE, LEFTOVER, OVER, TAKE, GameState
from .tokens import ROCK, canon, total

PHASE_OF_CHOICE = {TAKE: "grab_choice", GIVE: "wind", LEFTOVER: "leftovers"}

# Where a token revealed this turn is now (``pool_order``).
IN_POOL: Final = "pool"
GONE: Final = "gone"
ROCK_RETURNED: Final = "returned"
ROCK_PAIRED: Final = "paired"


def phase_name(state: GameState) -> str:
    """``draw``, ``grab_choice``, ``wind``, ``leftovers`` or ``over``."""
    if state.phase in (DRAW, OVER):
        return state.phase
    assert state.choice is not None, "the resolve phase always rests on an open choice"
    return PHASE_OF_CHOICE[state.choice.kind]


def pool_order(state: GameState) -> list[PoolEntry]:
    """This turn's reveals in order, each with where it is now.

    ``pool``: still in the pool; ``gone``: left the pool with a grab or the leftovers (tokens of
    one type are identical, so the latest reveals of a type are the ones counted as gone);
    ``returned`` / ``paired``: a Rock that left when the draw stopped, back into the bag or set
    aside in a pair.
    """
    left = dict(state.pool)
    rock_fate: Status = ROCK_RETURNED if state.rocks_revealed == 1 else ROCK_PAIRED
    out: list[PoolEntry] = []
    for token in state.order:
        status: Status
        if token == ROCK and state.phase != DRAW:
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


def public_view(state: GameState, waiting: frozenset[int]) -> BagOfBugsView:
    parts = scoring.breakdowns(state.collections)
    scores = [p["total"] for p in parts]
    choice = state.choice
    return {
        "game": "bag-of-bugs",
        "players": state.players,
        "phase": phase_name(state),
        "turn": state.step,
        "turn_number": state.turn_number,
        "drawer": state.drawer,
        "draw_limit": state.setup.draw_limit,
        "revealed": state.revealed,
        "rocks_revealed": state.rocks_revealed,
        "window_open": state.phase == DRAW and state.revealed > 0,
        "pool": canon(state.pool),
        "pool_order": pool_order(state),
        "pool_count": total(state.pool),
        "bag": canon(state.bag),
        "bag_count": total(state.bag),
        "pairs": state.pairs,
        "pairs_needed": state.setup.pairs_needed,
        "last_turn": state.final,
        "out_of_game": canon(state.out_of_game),
        "grabs": [
            {"token": k, "seat": holder, "text": GRAB_TEXT[k]}
            for k, holder in enumerate(state.grabs, start=1)
        ],
        "resolving": choice.grab if choice is not None and choice.kind == TAKE else None,
        "held_winds": state.held_winds,
        "wind_holder": state.wind_holder,
        "collections": [canon(c) for c in state.collections],
        "scores": scores,
        "breakdowns": parts,
        "choice": None
        if choice is None
        else {
            "seat": choice.seat,
            "kind": choice.kind,
            "step": choice.step,
            "grab": choice.grab,
            "options": flow.options(state),
        },
        "waiting_for": sorted(waiting),
        "is_over": state.phase == OVER,
        "winners": scoring.best(scores) if state.phase == OVER else [],
    }


def seat_view(
    state: GameState, seat: int, waiting: frozenset[int], actions: list[Action]
) -> BagOfBugsView:
    view = public_view(state, waiting)
    view["you"] = {
        "seat": seat,
        "role": "drawer" if seat == state.drawer else "grabber",
        "grab": state.grab_of(seat),
        "actions": actions,
    }
    return view
