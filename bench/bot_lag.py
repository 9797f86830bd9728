"""The event loop's lag while hard bots think (issue #23 item 4): p50/p99/max with no bots, then
with ``--bots`` hard bots (20 by default), each deciding again a hard bot's reaction time
(P-51: 0.5-1.2 s) after its last decision, as if every one of them moved each turn, each through ``bot.host.thinking.Thinking`` (searches in worker processes, one per core; a saturated
pool makes a bot play that decision as normal, P-76). For scale, a third phase runs the same
searches on the event loop itself, as they would run without the pool.

The lag is sampled as the bot's metrics do (``bugtable_event_loop_lag_seconds``): a 10 ms sleep,
and how late it wakes. Each bot's position is a real one (a few random moves into each game with
bot players), and its search has ``BOT_THINK`` seconds (``--think``, default 1.0). What the loop
still does per hard decision: the seat's legal actions and view, the position's snapshot and
handing it to the pool. Figures depend on the machine and how busy it is; say so beside them.

Run by hand: `.venv/bin/python bench/bot_lag.py [--bots 20] [--seconds 10] [--think 1.0]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules  # noqa: F401  (registers the games and their bot players)
from bot.event_loop import loop_name, run
from bot.host.thinking import Thinking, machine_cores
from rules.core import SYSTEM, Engine, get_game
from rules.core.bots import BOTS, REACTIONS, Budget
from rules.core.player import Bot, bot_for
from rules.core.rng import Rng

INTERVAL = 0.010
"""The lag sampler's sleep, as the bot's (``bot.ops.metrics.LAG_INTERVAL``)."""


def positions(count: int, seed: int) -> list[tuple[Engine, int]]:
    """``count`` positions where a seat must choose among several options, across the games."""
    rng = random.Random(seed)
    found: list[tuple[Engine, int]] = []
    slugs = sorted(BOTS)
    while len(found) < count:
        slug = slugs[len(found) % len(slugs)]
        cls = get_game(slug)
        engine = cls.new(min(max(cls.min_players, 3), cls.max_players), rng.getrandbits(40))
        for _ in range(rng.randint(2, 30)):
            if engine.is_over:
                break
            movers = [s for s in engine.waiting_for() if s >= 0 and engine.legal_actions(s)]
            if not movers:
                engine.apply(SYSTEM, engine.deadlines()[0].action)
                continue
            seat = rng.choice(movers)
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))
        movers = [s for s in engine.waiting_for() if s >= 0 and len(engine.legal_actions(s)) > 1]
        if movers and not engine.is_over:
            found.append((engine, movers[0]))
    return found


class Lag:
    def __init__(self) -> None:
        self.samples: list[float] = []

    async def sample(self, until: float) -> None:
        while time.monotonic() < until:
            due = time.monotonic() + INTERVAL
            await asyncio.sleep(INTERVAL)
            self.samples.append(max(0.0, time.monotonic() - due))

    def line(self, label: str) -> str:
        ordered = sorted(self.samples)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return (
            f"{label:<34} lag p50 {1000 * statistics.median(ordered):6.2f} ms   "
            f"p99 {1000 * p99:7.2f} ms   max {1000 * ordered[-1]:8.2f} ms   "
            f"({len(ordered)} samples)"
        )


async def thinking_bots(
    bots: list[tuple[Bot, Engine]], thinking: Thinking, until: float, how: Counter[str]
) -> None:
    async def one(bot: Bot, engine: Engine) -> None:
        while time.monotonic() < until:
            thought = await thinking.decide(bot, engine)
            how[thought.how] += 1
            bot.waited_on = None  # the same position again: a real bot would see a new one
            await asyncio.sleep(REACTIONS["hard"].sample(bot.rng))  # its next turn comes

    await asyncio.gather(*(one(bot, engine) for bot, engine in bots))


async def inline_bots(bots: list[tuple[Bot, Engine]], until: float, how: Counter[str]) -> None:
    """The searches on the event loop (no pool): what item 4 takes off it."""

    async def one(bot: Bot, engine: Engine) -> None:
        while time.monotonic() < until:
            bot.decide(engine)
            how["inline"] += 1
            bot.waited_on = None
            await asyncio.sleep(REACTIONS["hard"].sample(bot.rng))

    await asyncio.gather(*(one(bot, engine) for bot, engine in bots))


async def main_async(args: argparse.Namespace) -> None:
    budget = Budget(simulations=100_000, seconds=args.think, clock=time.perf_counter)
    where = positions(args.bots, args.seed)
    bots = [
        (bot_for(engine.slug, seat, "hard", Rng(i), budget), engine)
        for i, (engine, seat) in enumerate(where)
    ]
    cores = machine_cores()
    print(
        f"{loop_name()}, {cores} cores, {args.bots} hard bots over {sorted(BOTS)}, "
        f"BOT_THINK {args.think:g} s, {args.seconds:g} s a phase"
    )
    quiet = Lag()
    await quiet.sample(time.monotonic() + args.seconds)
    print(quiet.line("no bots"))

    thinking = Thinking(cores)
    try:
        # Start the workers before measuring (a bot's first search waits for their start).
        await thinking.decide(
            bot_for(where[0][0].slug, where[0][1], "hard", Rng(99), Budget(8)), where[0][0]
        )
        how: Counter[str] = Counter()
        busy = Lag()
        until = time.monotonic() + args.seconds
        await asyncio.gather(busy.sample(until), thinking_bots(bots, thinking, until, how))
        print(busy.line(f"{args.bots} hard bots, pool of {cores}"))
        print(
            f"{'':<34} decisions: {how['searched']} searched in a worker, "
            f"{how['fallback']} played as normal (pool saturated), {how['quick']} quick"
        )
    finally:
        thinking.close()

    if args.inline:
        how = Counter()
        inline = Lag()
        until = time.monotonic() + args.seconds
        await asyncio.gather(inline.sample(until), inline_bots(bots, until, how))
        print(inline.line(f"{args.bots} hard bots, on the loop"))
        print(f"{'':<34} decisions: {how['inline']} searched on the event loop")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-inline", dest="inline", action="store_false", help="skip the on-the-loop phase"
    )
    run(main_async(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
