"""Engine speed: random full games per second and median microseconds per action, per game.

Run by hand: `.venv/bin/python bench/engines.py [--games N] [--players P] [slug ...]`.
Machines here are noisy: figures are medians over games, and ratios to the fastest game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import GAMES
from rules.core import Rng, random_playout


def bench_game(slug: str, players: int, games: int) -> tuple[float, float, float]:
    """(median seconds per game, median µs per action, median actions per game)."""
    cls = GAMES[slug]
    per_game, per_action, lengths = [], [], []
    for seed in range(games):
        engine = cls.new(players, seed)
        started = time.perf_counter()
        playout = random_playout(engine, Rng(seed + 10_000))
        elapsed = time.perf_counter() - started
        per_game.append(elapsed)
        per_action.append(elapsed / max(1, len(playout.log)) * 1e6)
        lengths.append(len(playout.log))
    return statistics.median(per_game), statistics.median(per_action), statistics.median(lengths)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("slugs", nargs="*", default=sorted(GAMES))
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=None, help="default: each game's maximum")
    args = parser.parse_args()
    rows = []
    for slug in args.slugs:
        cls = GAMES[slug]
        players = args.players or cls.max_players
        players = max(cls.min_players, min(players, cls.max_players))
        game_s, action_us, length = bench_game(slug, players, args.games)
        rows.append((slug, players, 1 / game_s, action_us, length))
    fastest = min(r[3] for r in rows)
    print(
        f"{'game':<14}{'players':>8}{'games/s':>10}{'µs/action':>12}{'actions/game':>14}{'× fastest':>11}"
    )
    for slug, players, gps, us, length in rows:
        print(f"{slug:<14}{players:>8}{gps:>10.1f}{us:>12.1f}{length:>14.0f}{us / fastest:>11.2f}")
    print(f"(medians over {args.games} random legal games each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
