"""The hard bot's search: determinized Monte Carlo over imagined games.

Each simulation imagines the game afresh from the seat (``GameBots.imagine``), plays one of the
seat's options in it, then plays the imagined game out with the game's ``rollout`` (the normal
heuristic as it plays inside an imagined game) and scores it with ``outcome``. The options are
chosen by UCB1, so the budget goes to the promising ones; the answer is the most tried option.
Only the seat's own options are a tree level: deeper nodes would be keyed on hidden facts that
differ from one imagined game to the next (the strategy-fusion trap of determinized search).
"""

from __future__ import annotations

import math

from .bots import WAIT, Budget, Decision, GameBots, Memory, outcome
from .engine import SYSTEM, Engine
from .errors import RuleError
from .events import Action
from .rng import Rng

EXPLORE = 0.7
"""UCB1's exploration constant for outcomes in 0..1."""


def search(
    game: GameBots, engine: Engine, seat: int, memory: Memory, rng: Rng, budget: Budget
) -> Decision:
    """The option with the most simulations after the budget (``None``: wait)."""
    listed = engine.legal_actions(seat) if game.options is None else game.options(engine, seat)
    options: list[Action | None] = list(listed)
    if game.may_wait:
        options.append(WAIT)
    if len(options) == 1:
        return Decision(options[0])
    totals = [0.0] * len(options)
    visits = [0] * len(options)
    clock, started = budget.clock, 0.0
    if clock is not None:
        started = clock()
    done = 0
    while done < budget.simulations:
        if clock is not None and budget.seconds is not None and clock() - started >= budget.seconds:
            break
        index = _select(totals, visits, done)
        world_rng = Rng(rng.next_u64())
        world = game.imagine(engine, seat, memory, world_rng)
        option = options[index]
        try:
            if option is not None:
                world.apply(seat, option)
            value = playout(game, world, seat, world_rng, skip=seat if option is None else None)
        except RuleError:  # the seat's own options are the same in every imagined game
            value = 0.0
        totals[index] += value
        visits[index] += 1
        done += 1
    best = max(
        range(len(options)), key=lambda i: (visits[i], totals[i] / visits[i] if visits[i] else 0)
    )
    return Decision(options[best], simulations=done)


def _select(totals: list[float], visits: list[int], done: int) -> int:
    for index, n in enumerate(visits):
        if n == 0:
            return index
    log_done = math.log(done)
    return max(
        range(len(visits)),
        key=lambda i: totals[i] / visits[i] + EXPLORE * math.sqrt(log_done / visits[i]),
    )


def playout(game: GameBots, world: Engine, seat: int, rng: Rng, skip: int | None = None) -> float:
    """Play the imagined ``world`` on to its end (or the step cap) and score it for ``seat``.

    Seats that may act go in random order (real-time arrival); the first whose rollout acts
    moves. A deadline fires when nobody acts, or by the game's ``deadline_chance``."""
    for _ in range(game.playout_steps):
        if world.is_over:
            break
        deadlines = world.deadlines()
        if deadlines and rng.random() < game.deadline_chance(world):
            world.apply(SYSTEM, rng.choice(deadlines).action)
            continue
        movers = [s for s in sorted(world.waiting_for()) if s >= 0 and s != skip]
        skip = None
        rng.shuffle(movers)
        for mover in movers:
            action = game.rollout(world, mover, rng)
            if action is not None:
                world.apply(mover, action)
                break
        else:
            if not deadlines:
                break
            world.apply(SYSTEM, rng.choice(deadlines).action)
    return outcome(world, seat)
