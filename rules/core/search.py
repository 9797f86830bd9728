"""The hard bot's search: determinized Monte Carlo over imagined games.

Each round imagines the game afresh from the seat (``GameBots.imagine``), then plays every one
of the seat's options in that same imagined game with the same generator and plays it out with
the game's ``rollout`` (the normal heuristic as it plays inside an imagined game), scoring each
with ``outcome``. Comparing the options on common worlds and dice removes most of the noise a
few hundred playouts would otherwise leave. Only the seat's own options form a level: deeper
nodes would be keyed on hidden facts that differ between imagined games (the strategy-fusion
trap of determinized search), and the budget goes further this way on this machine.
"""

from __future__ import annotations

from .bots import WAIT, Budget, Decision, GameBots, Memory, outcome
from .engine import SYSTEM, Engine
from .errors import RuleError
from .events import Action
from .rng import Rng

WIDTH = 8
"""At most this many options are searched: the hard player's heuristic pick and a random sample
of the others (a game's ``options`` may narrow them first)."""


def search(
    game: GameBots, engine: Engine, seat: int, memory: Memory, rng: Rng, budget: Budget
) -> Decision:
    """The option with the best mean outcome after the budget (``None``: wait). The seconds
    count from the start, the heuristic's pick included, and no round starts that would end
    past them were it as long as the longest so far."""
    clock = budget.clock
    started = clock() if clock is not None else 0.0
    options = candidates(game, engine, seat, memory, rng)
    if len(options) == 1:
        return Decision(options[0])
    outcomes: list[list[float]] = [[] for _ in options]
    done, last, longest = 0, started, 0.0
    while done + len(options) <= max(budget.simulations, len(options)):
        if clock is not None and budget.seconds is not None:
            now = clock()
            if done:
                longest = max(longest, now - last)
            last = now
            if now - started + longest > budget.seconds:
                break
        seed = rng.next_u64()
        for index, option in enumerate(options):
            outcomes[index].append(simulate(game, engine, seat, memory, option, Rng(seed)))
        done += len(options)
    best = max(range(len(options)), key=lambda i: (sum(outcomes[i]), -i))
    if best != 0 and not clearly_better(outcomes[best], outcomes[0]):
        best = 0  # the heuristic's pick stands unless the search clearly beats it
    return Decision(options[best], simulations=done)


ANCHOR_Z = 1.0
"""How many standard errors the best option's mean must beat the heuristic pick's by, on the
same imagined worlds, for the search to overrule the heuristic."""


def clearly_better(best: list[float], pick: list[float]) -> bool:
    """Whether ``best`` beats ``pick`` by more than noise: the mean of their paired
    differences (one per imagined world) above ``ANCHOR_Z`` standard errors. The best of
    several noisy options beats the pick by chance alone (the winner's curse); with few
    playouts a search that always followed it played worse than its own heuristic."""
    diffs = [b - p for b, p in zip(best, pick, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean > 0
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > ANCHOR_Z * (variance / n) ** 0.5


def candidates(
    game: GameBots, engine: Engine, seat: int, memory: Memory, rng: Rng
) -> list[Action | None]:
    """The options worth searching, the hard player's heuristic pick first (it wins ties)."""
    listed = engine.legal_actions(seat) if game.options is None else game.options(engine, seat)
    options: list[Action | None] = list(listed)
    if game.may_wait_now(engine, seat):
        options.append(WAIT)
    pick = game.heuristic("hard")(engine, seat, memory, rng)
    others = [o for o in options if o != pick]
    if len(others) >= WIDTH:
        others = _sample(others, WIDTH - 1, rng)
    return [pick, *others]


def _sample(options: list[Action | None], k: int, rng: Rng) -> list[Action | None]:
    """``k`` options at random, but one of every kind first (a trophy among thirty peeks)."""
    kinds: dict[str, list[Action | None]] = {}
    for option in options:
        kinds.setdefault("wait" if option is None else str(option["type"]), []).append(option)
    chosen = [rng.choice(group) for group in kinds.values()][:k]
    rest = [o for o in options if o not in chosen]
    return chosen + rng.sample(rest, k - len(chosen))


def simulate(
    game: GameBots, engine: Engine, seat: int, memory: Memory, option: Action | None, rng: Rng
) -> float:
    """One imagined game with ``option`` played in it, played out and scored for ``seat``."""
    world = game.imagine(engine, seat, memory, rng)
    try:
        if option is not None:
            world.apply(seat, option)
        return playout(game, world, seat, rng, skip=seat if option is None else None)
    except RuleError:  # the seat's own options are the same in every imagined game
        return 0.0


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
    if world.is_over or game.estimate is None:
        return outcome(world.scores(), seat)
    return outcome(game.estimate(world), seat)
