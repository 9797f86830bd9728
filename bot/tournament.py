"""``python -m bot tournament``: seeded games among bot players, in this process (issue #23).

Every game rotates the seats (game ``i`` starts the level list at ``i mod players``) so no seat
order favours a level, and its seed follows from ``--seed``, so a run replays exactly when the
budget is a simulation count. Reported per level: win share with a 95 % Wilson interval, mean
score, decision time p50/p95 and, for searching bots, simulations per second.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import cast

from rules.core import get_game
from rules.core.bots import LEVELS, Budget, Level
from rules.core.match import SeatRecord, play_match


class TournamentError(ValueError):
    """Arguments a tournament cannot run with, in words for the command line."""


@dataclass
class LevelReport:
    """One level's figures over every seat it played."""

    level: str
    seats: int
    win_share: float
    win_low: float
    win_high: float
    mean_score: float
    decision_p50_ms: float
    decision_p95_ms: float
    simulations_per_second: float | None


@dataclass
class TournamentReport:
    game: str
    players: int
    seats: list[str]
    games: int
    seed: int
    simulations: int
    think: float | None
    levels: list[LevelReport] = field(default_factory=list)


def parse_seats(text: str, players: int) -> list[Level]:
    """``hard,easy,easy,easy`` as levels, one per player."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in LEVELS]
    if unknown:
        raise TournamentError(f"unknown level {unknown[0]!r}; levels: {', '.join(LEVELS)}")
    if len(names) != players:
        raise TournamentError(f"--seats names {len(names)} levels for {players} players")
    return [cast(Level, name) for name in names]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (a shared win counts its share)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarise(level: str, records: list[SeatRecord]) -> LevelReport:
    wins = sum(r.win for r in records)
    low, high = wilson(wins, len(records))
    decisions = [d for r in records for d in r.decisions]
    thinking = sum(r.thinking for r in records)
    simulations = sum(r.simulations for r in records)
    return LevelReport(
        level=level,
        seats=len(records),
        win_share=wins / len(records),
        win_low=low,
        win_high=high,
        mean_score=statistics.fmean(r.score for r in records),
        decision_p50_ms=1000 * _percentile(decisions, 0.5),
        decision_p95_ms=1000 * _percentile(decisions, 0.95),
        simulations_per_second=simulations / thinking if thinking > 0 else None,
    )


def run_tournament(
    game: str,
    seats: Sequence[Level],
    games: int,
    seed: int,
    simulations: int = 200,
    think: float | None = None,
) -> TournamentReport:
    """Play ``games`` games with the seats rotated; ``think`` adds a per-decision time limit."""
    try:
        engine = get_game(game)
    except KeyError as exc:
        raise TournamentError(str(exc.args[0])) from None
    players = len(seats)
    if not engine.min_players <= players <= engine.max_players:
        raise TournamentError(
            f"{engine.title} is played by {engine.min_players} to {engine.max_players} players"
        )
    budget = Budget(simulations=simulations, seconds=think, clock=time.perf_counter)
    by_level: dict[str, list[SeatRecord]] = {}
    for index in range(games):
        turn = index % players
        levels = [*seats[turn:], *seats[:turn]]
        result = play_match(game, levels, seed * 1_000_003 + index, budget, time.perf_counter)
        for record in result.seats:
            by_level.setdefault(record.level, []).append(record)
    report = TournamentReport(game, players, list(seats), games, seed, simulations, think)
    report.levels = [summarise(level, by_level[level]) for level in LEVELS if level in by_level]
    return report


def format_report(report: TournamentReport) -> str:
    budget = f"{report.simulations} simulations"
    if report.think is not None:
        budget += f" or {report.think:g} s"
    lines = [
        f"{report.game}, {report.players} players, seats {','.join(report.seats)}, "
        f"{report.games} games from seed {report.seed} (hard: {budget} a decision)",
        f"{'level':<8}{'seats':>6}{'win share':>11}{'95 % interval':>17}{'mean score':>12}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'sims/s':>9}",
    ]
    for row in report.levels:
        rate = "-" if row.simulations_per_second is None else f"{row.simulations_per_second:.0f}"
        lines.append(
            f"{row.level:<8}{row.seats:>6}{row.win_share:>10.1%} "
            f"{f'{row.win_low:.1%} - {row.win_high:.1%}':>16}{row.mean_score:>12.1f}"
            f"{row.decision_p50_ms:>9.1f}{row.decision_p95_ms:>9.1f}{rate:>9}"
        )
    return "\n".join(lines)


def report_json(report: TournamentReport) -> str:
    return json.dumps(asdict(report), indent=2)
