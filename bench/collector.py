"""What Python's garbage collector costs the bot per move, with its settings and without.

A process holds ``--games`` tables of the four games (a quarter each), as a bot hosting that
many does, and plays random legal moves on random tables the way the bot handles each: the
engine applies the move, the host snapshots the state every ``SNAPSHOT_EVERY`` moves, and the
presenters draw the move's log lines, the boards and every seat's DM from the table's view.
No Discord and no database: only what the move allocates, and the heap it lives beside.

Each configuration runs in a fresh child process (``--runs`` times, in turn): ``default`` is
CPython's thresholds, ``bot`` is ``bot.collector`` as the bot sets it (thresholds, and the heap
frozen once the games are loaded). Printed per configuration, as medians over the runs: CPU per
move (``time.process_time``, so other processes on a shared machine do not count), the
collector's own CPU per move, its longest pause and its full collections.

    .venv/bin/python bench/collector.py [--games 200] [--moves 4000] [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SNAPSHOT_EVERY = 32
CONFIGS = ("default", "bot")


class Pauses:
    """The collector's CPU time per generation, read from its callbacks."""

    def __init__(self) -> None:
        self.started = 0.0
        self.total = 0.0
        self.longest = 0.0
        self.full = 0
        gc.callbacks.append(self.heard)

    def heard(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.thread_time()
            return
        spent = time.thread_time() - self.started
        self.total += spent
        self.longest = max(self.longest, spent)
        self.full += info["generation"] == 2


def one_run(config: str, games: int, moves: int, seed: int) -> dict[str, float]:
    """The child's work: load the tables, settle the collector as ``config`` says, play."""
    import bot.ui.games  # noqa: F401  (registers every shipped game's presenter)
    from bot import collector
    from bot.games import games as records
    from bot.host.table import Outcome
    from bot.ui.presenter import presenter_for
    from rules.core import GAMES
    from tests.support.tables import make_table

    if config == "bot":
        collector.tune()
    slugs = [g.slug for g in records() if g.shipped]
    rng = random.Random(seed)
    tables = []
    for i in range(games):
        slug = slugs[i % len(slugs)]
        players = max(3, GAMES[slug].min_players)
        tables.append(make_table(slug, players, seed + i, game_id=i + 1))
    if config == "bot":
        collector.settle()
    pauses = Pauses()
    played = 0
    started = time.process_time()
    while played < moves:
        table = rng.choice(tables)
        engine = table.running()
        movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
        if engine.is_over or not movers:
            i = tables.index(table)
            tables[i] = make_table(table.slug, engine.players, rng.randrange(10**6), game_id=i + 1)
            continue
        seat = rng.choice(movers)
        action = rng.choice(engine.legal_actions(seat))
        before = engine.turn
        events = engine.apply(seat, action)
        table.tail.append((seat, action))
        if len(table.tail) >= SNAPSHOT_EVERY:
            table.committed, table.tail = json.loads(json.dumps(engine.to_dict())), []
        presenter = presenter_for(table.slug)
        outcome = Outcome(table.view(), seat, action, events, engine.is_over, before, engine.turn)
        presenter.log_lines(outcome.view, outcome)
        view = table.view()
        presenter.public_boards(view, ["a line"])
        for s in range(engine.players):
            presenter.hand(view, s)
        played += 1
    spent = time.process_time() - started
    return {
        "move_us": spent / moves * 1e6,
        "collector_us": pauses.total / moves * 1e6,
        "longest_ms": pauses.longest * 1e3,
        "full": pauses.full,
        "objects": len(gc.get_objects()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", choices=CONFIGS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_run(args.child, args.games, args.moves, args.seed)))
        return
    results: dict[str, list[dict[str, float]]] = {c: [] for c in CONFIGS}
    for _ in range(args.runs):
        for config in CONFIGS:  # in turn, so a busy moment of the machine hits both
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    config,
                    "--games",
                    str(args.games),
                    "--moves",
                    str(args.moves),
                    "--seed",
                    str(args.seed),
                ],
                check=True,
                capture_output=True,
                text=True,
                cwd=ROOT,
            ).stdout
            results[config].append(json.loads(out.splitlines()[-1]))
    print(
        f"bench/collector.py: {args.games} tables, {args.moves} random moves drawn as the bot "
        f"draws them, medians of {args.runs} runs per configuration"
    )
    print(
        f"{'':10}{'CPU/move µs':>14}{'collector/move µs':>19}{'longest pause ms':>18}"
        f"{'full collections':>18}{'live objects':>14}"
    )
    for config, runs in results.items():

        def med(key: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(r[key] for r in runs)

        print(
            f"{config:10}{med('move_us'):14.1f}{med('collector_us'):19.1f}"
            f"{med('longest_ms'):18.2f}{med('full'):18.0f}{med('objects'):14.0f}"
        )
    base, tuned = (statistics.median(r["move_us"] for r in results[c]) for c in CONFIGS)
    print(f"bot / default CPU per move: {tuned / base:.2f}x")


if __name__ == "__main__":
    main()
