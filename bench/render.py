"""Bug Run board image speed and size: milliseconds per render, PNG kB, fingerprint cost.

Run by hand: `.venv/bin/python bench/render.py [--games N] [--every K] [--players P ...]`.
States come from random legal games (one every K actions, plus each phase change and the end).
Machines here are noisy: figures are medians and 90th percentiles, after one warm-up render.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ui.images.bug_run import board_fingerprint, render_board
from rules.bug_run.engine import BugRun
from rules.core import Rng

NAMES = ["Ann", "Bob", "Chloe", "Dmitri", "Eve", "Frank"]


def game_views(players: int, seed: int, every: int) -> list[dict[str, Any]]:
    """Public views along one random game."""
    g = BugRun.new(players, seed, {"mode": "powers" if seed % 2 else "normal"})
    rng = Rng(seed + 10_000)
    views, phase, n = [], None, 0
    while True:
        if g.state.phase != phase or n % every == 0 or g.is_over:
            phase = g.state.phase
            views.append(g.view(None))
        if g.is_over:
            return views
        seat = next(iter(g.waiting_for()))
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        n += 1


def p90(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]


def bench(players: int, games: int, every: int) -> tuple[int, float, float, float, float, float]:
    """(states, median ms, p90 ms, median kB, max kB, median fingerprint µs)."""
    views = [v for seed in range(games) for v in game_views(players, seed, every)]
    names = NAMES[:players]
    render_board(views[0], names)  # warm-up: fonts and text masks
    ms, kb, fp = [], [], []
    for v in views:
        started = time.perf_counter()
        png = render_board(v, names)
        ms.append((time.perf_counter() - started) * 1e3)
        kb.append(len(png) / 1000)
        started = time.perf_counter()
        board_fingerprint(v, names)
        fp.append((time.perf_counter() - started) * 1e6)
    return (
        len(views),
        statistics.median(ms),
        p90(ms),
        statistics.median(kb),
        max(kb),
        statistics.median(fp),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4, 5, 6])
    args = parser.parse_args()
    print(
        f"{'players':>7}{'states':>8}{'ms med':>9}{'ms p90':>9}{'kB med':>9}{'kB max':>9}{'fp µs':>9}"
    )
    for players in args.players:
        n, med, high, kb_med, kb_max, fp = bench(players, args.games, args.every)
        print(f"{players:>7}{n:>8}{med:>9.1f}{high:>9.1f}{kb_med:>9.1f}{kb_max:>9.1f}{fp:>9.0f}")
    print(f"({args.games} random games per player count, a state every {args.every} actions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
