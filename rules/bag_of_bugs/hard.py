"""Bag of Bugs' hard heuristic: a Grab token is worth what it will take when the draw is over.

Everything on the table is public (BB-21), the bag's contents included; only the order in which
the bag gives its tokens is not, and this never reads it: it draws the rest of the turn from the
bag's counts with its own generator. The normal player values a grab by its best take on the
pool as it is now and waits until that beats a threshold; this one foresees the pool when the
draw stops (``FORESIGHT`` draws of the turn's rest), lets the lower Grab tokens resolve first
(each holder taking what scores it most, every Grabber without a token claiming one), and
claims the token worth most as soon as its gain is worth a claim (``GRAB_AT``): a claimed token
loses little as the pool grows, and a quicker player gets the best one.

A collection is valued by its *equity*: its score, a share of the all-colours bonus while it is
within reach, and a little less for a colour at three that one more forced take would spoil.
"""

from __future__ import annotations

from rules.core import Action, Engine, Rng
from rules.core.bots import Memory, best_of

from . import scoring
from .choices import answer_choice
from .engine import BagOfBugs
from .grabs import GRAB_TOKENS, take_options
from .state import DRAW, GameState
from .tokens import COLOURS, LARVA, ROCK, SCARY, TYPES, WIND, Counts, add, canon, subtract
from .worth import gain as score_gain

BONUS_HOPE: tuple[float, ...] = (0.0, 0.1, 0.25, 0.45, 0.7)
"""The share of the all-colours bonus a collection with 0..4 colours counts, at the start of
the game; it shrinks as the Rock pairs that end it are set aside."""
FULL_RISK = 1.5
"""What a colour at three loses for the chance of a fourth being forced on it later."""
FORESIGHT = 12
"""Draws of the rest of the turn a grab is judged over."""
GRAB_AT = 1.5
"""The least foreseen gain worth claiming a Grab token for (a claimed token must be taken)."""


def remaining(state: GameState) -> float:
    """How much of the game is left, by the Rock pairs still to come (1 at the start)."""
    if state.final:
        return 0.0
    return 1.0 - state.pairs / state.setup.pairs_needed


def equity(state: GameState, seat: int, collection: Counts) -> float:
    """What ``collection`` is worth to ``seat`` with the game as far on as it is."""
    left = remaining(state)
    points = sum(scoring.colour_points(collection.get(c, 0)) for c in COLOURS)
    present = sum(1 for c in COLOURS if collection.get(c, 0) >= 1)
    if present == len(COLOURS):
        bonus = float(scoring.ALL_COLOURS_BONUS)
    else:
        bonus = scoring.ALL_COLOURS_BONUS * BONUS_HOPE[present] * left
    full = sum(1 for c in COLOURS if collection.get(c, 0) == 3)
    scary = collection.get(SCARY, 0)
    worst_other = max(c.get(SCARY, 0) for s, c in enumerate(state.collections) if s != seat)
    most = scoring.MOST_SCARY_PENALTY if scary >= 1 and scary >= worst_other else 0
    return (
        points
        + bonus
        - FULL_RISK * left * full
        + scoring.LARVA_POINTS * collection.get(LARVA, 0)
        + scoring.SCARY_POINTS * scary
        + most
    )


def gain(state: GameState, seat: int, tokens: Counts) -> float:
    """How much taking ``tokens`` adds to the seat's equity; a Wind is worth the best gift it
    then makes (giving away a fourth of a colour or a Scary Bug may gain)."""
    mine = state.collections[seat]
    kept = add(mine, {t: n for t, n in tokens.items() if t != WIND})
    worth = equity(state, seat, kept) - equity(state, seat, mine)
    for _ in range(tokens.get(WIND, 0)):
        if kept:
            token = max(canon(kept), key=lambda t: equity(state, seat, subtract(kept, {t: 1})))
            after = subtract(kept, {token: 1})
            worth += equity(state, seat, after) - equity(state, seat, kept)
            kept = after
    return worth


def rest_of_draw(state: GameState, rng: Rng) -> Counts:
    """One way the turn's draw may go on from here, from the bag's public counts: the pool
    when it stops (its Rocks set aside)."""
    bag = dict(state.bag)
    pool = {token: n for token, n in state.pool.items() if token != ROCK}
    revealed, rocks = state.revealed, state.rocks_revealed
    while revealed < state.setup.draw_limit and rocks < 2 and any(bag.values()):
        index = rng.below(sum(bag.values()))
        for token in TYPES:
            if index < bag.get(token, 0):
                break
            index -= bag.get(token, 0)
        bag[token] -= 1
        revealed += 1
        if token == ROCK:
            rocks += 1
        else:
            pool[token] = pool.get(token, 0) + 1
    return canon(pool)


def best_take(state: GameState, seat: int, grab: int, pool: Counts) -> Counts:
    """What ``seat`` takes with ``grab`` from ``pool``, as a player scoring its takes would."""
    options = take_options(grab, pool)
    if not options:
        return {}
    return max(options, key=lambda option: score_gain(state, seat, option))


def foresee(state: GameState, seat: int, rng: Rng) -> dict[int, float]:
    """Each free Grab token's mean equity gain for ``seat`` over ``FORESIGHT`` ways the draw
    may end. Every other Grabber still without a token claims one of those left at random:
    fewer claims foreseen (as if some would not grab) played much worse, for a token of low
    number claimed later resolves before this one."""
    free = [k for k in GRAB_TOKENS if state.grabs[k - 1] is None]
    idle = [
        s
        for s in range(state.players)
        if s not in (seat, state.drawer) and state.grab_of(s) is None
    ]
    totals = dict.fromkeys(free, 0.0)
    for _ in range(FORESIGHT):
        final = rest_of_draw(state, rng)
        for mine in free:
            holders = list(state.grabs)
            left = [k for k in free if k != mine]
            for other in idle:
                if left:
                    claimed = left.pop(rng.below(len(left)))
                    holders[claimed - 1] = other
            pool = final
            for lower in range(1, mine):
                holder = holders[lower - 1]
                if holder is not None and holder != seat:
                    pool = subtract(pool, best_take(state, holder, lower, pool))
            options = take_options(mine, pool)
            totals[mine] += max((gain(state, seat, o) for o in options), default=0.0)
    return {k: total / FORESIGHT for k, total in totals.items()}


def hard(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Action | None:
    """Draw as the Drawer, claim the Grab token foreseen best, and answer every choice for the
    best equity."""
    actions = engine.legal_actions(seat)
    if not actions:
        return None
    assert isinstance(engine, BagOfBugs)
    state = engine.state
    if state.phase == DRAW:
        if seat == state.drawer:
            return actions[0]
        worth = foresee(state, seat, rng)
        scored = [(worth[a["token"]], a) for a in actions]
        best = max(score for score, _ in scored)
        return best_of(scored, rng) if best >= GRAB_AT else None
    return answer_choice(state, seat, actions, rng, gain, give_worth)


def give_worth(state: GameState, seat: int, token: str) -> float:
    """Giving ``token`` to the left: the equity the seat keeps less what the receiver gains."""
    receiver = state.left_of(seat)
    mine = state.collections[seat]
    lost = equity(state, seat, subtract(mine, {token: 1})) - equity(state, seat, mine)
    theirs = state.collections[receiver]
    got = equity(state, receiver, add(theirs, {token: 1})) - equity(state, receiver, theirs)
    return lost - got
