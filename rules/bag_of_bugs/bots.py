"""Bag of Bugs' bot players: nothing on the table is hidden, only the bag's order.

The bag's contents are public (the view counts them), so imagining the game from a seat is a
copy with a fresh generator for the tokens still to come. The normal player values a grab by
what its best take would add to its score margin now, and grabs once that beats a threshold
that falls as the draw nears its limit or a first Rock shows (the next one stops the draw).
"""

from __future__ import annotations

from rules.core import Action, Engine, Rng
from rules.core.bots import GameBots, Memory, best_of, fork, memoryless, register_bots

from .choices import answer_choice
from .engine import BagOfBugs
from .grabs import take_options
from .hard import hard
from .state import DRAW, GameState
from .tokens import SCARY, add, subtract
from .worth import gain, own


def imagine(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Engine:
    """The same table with a new generator: every token's place is public, only the order in
    which the bag gives them is not."""
    world = fork(engine)
    assert isinstance(world, BagOfBugs)
    world.state.rng = Rng(rng.next_u64())
    return world


def grab_worth(state: GameState, seat: int, token: int) -> int:
    options = take_options(token, state.pool)
    return max((gain(state, seat, option) for option in options), default=0)


def threshold(state: GameState) -> float:
    """The gain worth grabbing for now: high early, any gain once the draw may stop."""
    if state.rocks_revealed >= 1 or state.revealed + 1 >= state.setup.draw_limit:
        return 0.5
    return 3.0 - 2.0 * state.revealed / state.setup.draw_limit


def normal(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Action | None:
    """Draw as the Drawer, grab when worth it, and answer every choice for the best margin."""
    actions = engine.legal_actions(seat)
    if not actions:
        return None
    assert isinstance(engine, BagOfBugs)
    state = engine.state
    if state.phase == DRAW:
        if seat == state.drawer:
            return actions[0]
        scored = [(float(grab_worth(state, seat, a["token"])), a) for a in actions]
        best = max(score for score, _ in scored)
        return best_of(scored, rng) if best >= threshold(state) else None
    return answer_choice(state, seat, actions, rng, gain, _give_worth)


def _give_worth(state: GameState, seat: int, token: str) -> float:
    """Giving ``token`` to the left: what the seat keeps of its score minus what the receiver
    gains (a Scary Bug is the best gift)."""
    receiver = state.left_of(seat)
    mine = state.collections[seat]
    lost = own(state, seat, subtract(mine, {token: 1})) - own(state, seat, mine)
    theirs = state.collections[receiver]
    got = own(state, receiver, add(theirs, {token: 1})) - own(state, receiver, theirs)
    return lost - got + (0.5 if token == SCARY else 0.0)


_normal_rollout = memoryless(normal)


def rollout(world: Engine, seat: int, rng: Rng) -> Action | None:
    """Inside an imagined game: the normal player's choices, but a Grabber grabs by a coin
    weighted by how far the draw has gone (valuing every grab each step costs too much)."""
    assert isinstance(world, BagOfBugs)
    state = world.state
    if state.phase == DRAW and seat != state.drawer:
        actions = world.legal_actions(seat)
        urge = state.revealed / state.setup.draw_limit + 0.3 * state.rocks_revealed
        return rng.choice(actions) if actions and rng.random() < urge * 0.5 else None
    return _normal_rollout(world, seat, rng)


def waits(engine: Engine, seat: int) -> bool:
    """Only a Grabber in the draw may let the pool grow; the Drawer and a chooser gain nothing
    by waiting but a timer's random answer."""
    assert isinstance(engine, BagOfBugs)
    state = engine.state
    return state.phase == DRAW and seat != state.drawer


def searched(engine: Engine, seat: int) -> list[Action]:
    """No option is searched beside the hard player's pick but waiting (P-82): with a few
    playouts each, whose Grabbers claim tokens at random, the search overruled the pick on
    noise and played worse than the pick alone."""
    return []


BOTS = register_bots(
    GameBots(
        slug=BagOfBugs.slug,
        imagine=imagine,
        normal=normal,
        anchor=hard,
        rollout=rollout,
        may_wait=True,
        waits=waits,
        options=searched,
        playout_steps=40,
    )
)
