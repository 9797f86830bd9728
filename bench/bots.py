"""Bot strength and speed: the goal table of issue #23, from seeded in-process tournaments.

For every game: 1 hard vs 3 easy (goal ≥ 65 % wins), 1 normal vs 3 easy (≥ 45 %), 1 hard vs 3
normal (≥ 35 %), and at 2 players where the game allows it, hard vs normal (≥ 60 %); with the
hard bot's decision time p95 (goal ≤ 1.0 s) and simulations per second. Each figure is a win
share with its 95 % interval: a goal is MET when the whole interval clears it, MISSED when the
whole interval is below it, else OPEN (too few games to tell). Decision times depend on the
machine and how busy it is; say so beside any figure quoted.

Run by hand: `.venv/bin/python bench/bots.py [--games 40] [--simulations 100] [--think S]
[--seed 1] [slug ...]`; the issue's full table is `--games 400`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules  # noqa: F401  (registers the games and their bot players)
from bot.tournament import LevelReport, run_tournament
from rules.core import get_game
from rules.core.bots import BOTS, Level

GAMES = tuple(sorted(BOTS))
"""Every game with bot players."""
TWO_PLAYERS = tuple(slug for slug in GAMES if get_game(slug).min_players <= 2)
P95_GOAL_MS = 1000.0


class Pairing(NamedTuple):
    name: str
    seats: tuple[Level, ...]
    level: Level
    goal: float


FOUR: tuple[Pairing, ...] = (
    Pairing("1 hard vs 3 easy", ("hard", "easy", "easy", "easy"), "hard", 0.65),
    Pairing("1 normal vs 3 easy", ("normal", "easy", "easy", "easy"), "normal", 0.45),
    Pairing("1 hard vs 3 normal", ("hard", "normal", "normal", "normal"), "hard", 0.35),
)
TWO = Pairing("hard vs normal, 2p", ("hard", "normal"), "hard", 0.60)


def verdict(row: LevelReport, goal: float) -> str:
    if row.win_low >= goal:
        return "MET"
    if row.win_high < goal:
        return "MISSED"
    return "OPEN"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("slugs", nargs="*", default=list(GAMES))
    parser.add_argument("--games", type=int, default=40, help="games per pairing")
    parser.add_argument("--simulations", type=int, default=100, help="hard: per decision")
    parser.add_argument("--think", type=float, default=None, help="hard: seconds per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'game':<12}{'pairing':<21}{'win share':>10}{'95 % interval':>17}{'goal':>7}"
        f"{'':>8}{'hard p95 ms':>12}{'sims/s':>8}{'run s':>7}"
    )
    for slug in args.slugs:
        pairings = [*FOUR, *([TWO] if slug in TWO_PLAYERS else [])]
        for pairing in pairings:
            started = time.perf_counter()
            report = run_tournament(
                slug, pairing.seats, args.games, args.seed, args.simulations, args.think
            )
            spent = time.perf_counter() - started
            rows = {row.level: row for row in report.levels}
            row = rows[pairing.level]
            hard = rows.get("hard")
            p95 = f"{hard.decision_p95_ms:.0f}" if hard else "-"
            rate = (
                f"{hard.simulations_per_second:.0f}"
                if hard and hard.simulations_per_second
                else "-"
            )
            interval = f"{row.win_low:.0%} - {row.win_high:.0%}"
            print(
                f"{slug:<12}{pairing.name:<21}{row.win_share:>10.0%}{interval:>17}"
                f"{pairing.goal:>7.0%}{verdict(row, pairing.goal):>8}{p95:>12}{rate:>8}"
                f"{spent:>7.0f}",
                flush=True,
            )
    print(
        f"({args.games} games per pairing, seats rotated; hard: {args.simulations} simulations"
        + (f" or {args.think:g} s" if args.think else "")
        + " a decision; p95 over all of hard's decisions, P95 goal "
        f"{P95_GOAL_MS:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
